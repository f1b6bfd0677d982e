// compileSchemaRules and CRD validation: rules checked when the CRD is written, refused with upstream's field paths and words.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../operators/types.ts';
import { compileSchemaRules } from '../../../../../src/apiserver/crd/cel/compile-schema-rules.ts';
import { defaultCustomResourceDefinition } from '../../../../../src/apiserver/crd/custom-resource-definition.ts';
import type { JSONSchemaProps } from '../../../../../src/apiserver/crd/json-schema-props.ts';
import { validateCustomResourceDefinition } from '../../../../../src/apiserver/crd/validate-custom-resource-definition.ts';
import { GADGET_CRD } from '../widgets.ts';
import { I, listOf, mapOf, objectOf, S } from './cel-harness.ts';

const problems = (schema: JSONSchemaProps) =>
  compileSchemaRules(schema).problems.map((p) => `${p.type} ${p.field}: ${p.message}`);
const onSpec = (...rules: object[]) =>
  objectOf({
    spec: objectOf({ a: I, s: S, l: listOf(S), m: mapOf(I) }, { 'x-kubernetes-validations': rules }),
  });
const at = 'openAPIV3Schema.properties[spec].x-kubernetes-validations[0]';

describe('compileSchemaRules', () => {
  it('accepts rules that type-check to bool', () => {
    expect(
      problems(
        onSpec(
          {
            rule: 'self.a > 0 && self.s.startsWith("x") && self.l.all(x, x != "") && self.m.exists(k, self.m[k] > 1)',
          },
          { rule: 'self.a >= oldSelf.a', messageExpression: "'a went down to ' + string(self.a)" },
          { rule: 'has(self.s)', reason: 'FieldValueRequired', fieldPath: '.s' },
        ),
      ),
    ).toEqual([]);
  });

  it.each([
    [
      'a syntax error',
      { rule: 'self.a >' },
      `FieldValueInvalid ${at}.rule: Invalid value: {"rule":"self.a >"}: compilation failed: ERROR: <input>:1:9: Unexpected token: EOF\n | self.a >\n | ........^`,
    ],
    [
      'an undeclared field',
      { rule: 'self.b == 1' },
      `FieldValueInvalid ${at}.rule: Invalid value: {"rule":"self.b == 1"}: compilation failed: ERROR: <input>:1:6: undefined field 'b'\n | self.b == 1\n | .....^`,
    ],
    [
      'an undeclared field tested with has()',
      { rule: 'has(self.b)' },
      `FieldValueInvalid ${at}.rule: Invalid value: {"rule":"has(self.b)"}: compilation failed: ERROR: <input>:1:10: undefined field 'b'\n | has(self.b)\n | .........^`,
    ],
    [
      'mismatched types',
      { rule: 'self.a == "x"' },
      `FieldValueInvalid ${at}.rule: Invalid value: {"rule":"self.a == \\"x\\""}: compilation failed: ERROR: <input>:1:1: found no matching overload for '_==_' applied to '(int, string)'\n | self.a == "x"\n | ^`,
    ],
    [
      'a rule that is not a bool',
      { rule: 'self.a + 1' },
      `FieldValueInvalid ${at}.rule: Invalid value: {"rule":"self.a + 1"}: cel expression must evaluate to a bool`,
    ],
    [
      'a constant pattern that is not a regular expression',
      { rule: "self.s.matches(')')" },
      `FieldValueInvalid ${at}.rule: Invalid value: {"rule":"self.s.matches(')')"}: program instantiation failed: error parsing regexp: Invalid regular expression: /)/: Unmatched ')'`,
    ],
    ['an empty rule', { rule: ' ' }, `FieldValueRequired ${at}.rule: Required value: rule is not specified`],
    [
      'a messageExpression that is not a string',
      { rule: 'true', messageExpression: 'self.a' },
      `FieldValueInvalid ${at}.messageExpression: Invalid value: {"rule":"true","messageExpression":"self.a"}: messageExpression must evaluate to a string`,
    ],
    [
      'a messageExpression that does not compile',
      { rule: 'true', messageExpression: 'self.zz' },
      `FieldValueInvalid ${at}.messageExpression: Invalid value: {"rule":"true","messageExpression":"self.zz"}: messageExpression compilation failed: ERROR: <input>:1:6: undefined field 'zz'\n | self.zz\n | .....^`,
    ],
    [
      'an unknown reason',
      { rule: 'true', reason: 'Nope' },
      `FieldValueNotSupported ${at}.reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
    ],
    [
      'a fieldPath to no field',
      { rule: 'true', fieldPath: '.zz' },
      `FieldValueInvalid ${at}.fieldPath: Invalid value: ".zz": fieldPath must be a valid path: does not refer to a valid field`,
    ],
    [
      'a message with a line break',
      { rule: 'true', message: 'a\nb' },
      `FieldValueInvalid ${at}.message: Invalid value: "a\\nb": message must not contain line breaks`,
    ],
    [
      'optionalOldSelf on a rule without oldSelf',
      { rule: 'true', optionalOldSelf: true },
      `FieldValueInvalid ${at}.optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`,
    ],
  ])('refuses %s', (_name, rule, want) => {
    expect(problems(onSpec(rule))).toEqual([want]);
  });

  it('refuses oldSelf below a list that is not a map list, where items cannot be correlated', () => {
    const schema = objectOf({
      xs: listOf(objectOf({ v: S }, { 'x-kubernetes-validations': [{ rule: 'self.v == oldSelf.v' }] })),
    });
    expect(problems(schema)).toEqual([
      'FieldValueInvalid openAPIV3Schema.properties[xs].items.x-kubernetes-validations[0].rule: Invalid value: "self.v == oldSelf.v": oldSelf cannot be used on the uncorrelatable portion of the schema within openAPIV3Schema.properties[xs].items',
    ]);
    const mapList = structuredClone(schema);
    Object.assign(mapList.properties!.xs!, {
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['v'],
    });
    expect(problems(mapList)).toEqual([]);
  });

  it('has no rule tree for a schema without rules', () => {
    expect(compileSchemaRules(objectOf({ a: I })).root).toBeUndefined();
  });
});

describe('a CRD whose rule does not compile', () => {
  it('is refused naming the rule at its path in spec.versions', () => {
    const crd = structuredClone(GADGET_CRD) as typeof GADGET_CRD & KubeObject;
    const spec = crd.spec.versions[0]!.schema.openAPIV3Schema.properties.spec as JSONSchemaProps;
    spec['x-kubernetes-validations'] = [{ rule: 'self.power <' }];
    defaultCustomResourceDefinition(crd);
    expect(
      validateCustomResourceDefinition(crd).map((c) => `${c.field}: ${c.message.split('\n')[0]}`),
    ).toEqual([
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: {"rule":"self.power <"}: compilation failed: ERROR: <input>:1:13: Unexpected token: EOF',
    ]);
  });

  it('is not compiled while its schema is not structural (that error comes first)', () => {
    const crd = structuredClone(GADGET_CRD) as typeof GADGET_CRD & KubeObject;
    const spec = crd.spec.versions[0]!.schema.openAPIV3Schema.properties.spec as JSONSchemaProps;
    spec['x-kubernetes-validations'] = [{ rule: 'self.power <' }];
    delete spec.type;
    defaultCustomResourceDefinition(crd);
    const out = validateCustomResourceDefinition(crd).map((c) => c.field);
    expect(out.some((f) => f.includes('x-kubernetes-validations'))).toBe(false);
    expect(out.length).toBeGreaterThan(0);
  });
});
