// Properties of validateCelRules: a bound rule fails exactly when the bound is broken; self == oldSelf fails exactly when the value changed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSchemaRules } from '../../../../../src/apiserver/crd/cel/compile-schema-rules.ts';
import { validateCelRules } from '../../../../../src/apiserver/crd/cel/validate-cel-rules.ts';
import { jsonEqual } from '../../../../../src/apiserver/crd/validate-custom-resource.ts';
import { I, listOf, mapOf, objectOf, S } from './cel-harness.ts';

const BOUND = compileSchemaRules(
  objectOf({
    spec: objectOf(
      { replicas: I, maxReplicas: I },
      { 'x-kubernetes-validations': [{ rule: 'self.replicas <= self.maxReplicas' }] },
    ),
  }),
);
const FROZEN = compileSchemaRules(
  objectOf({
    spec: {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'frozen' }],
    },
  }),
);

/** The value as rules see it: object fields holding null are absent (list items stay null). */
function withoutNullFields(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNullFields);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== null)
        .map(([k, x]) => [k, withoutNullFields(x)]),
    );
  return v;
}

describe('validateCelRules (properties)', () => {
  it('a bound between two integers fails exactly when it is broken', () => {
    const int = fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 });
    fc.assert(
      fc.property(int, int, (replicas, maxReplicas) => {
        const causes = validateCelRules(BOUND, { spec: { replicas, maxReplicas } });
        expect(causes.length).toBe(replicas > maxReplicas ? 1 : 0);
      }),
    );
  });

  it('self == oldSelf on untyped JSON fails exactly when the value changed (key order and null fields aside), and never on create', () => {
    const json = fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });
    fc.assert(
      fc.property(json, json, fc.boolean(), (now, before, same) => {
        const old = same ? structuredClone(now) : before;
        expect(validateCelRules(FROZEN, { spec: now })).toEqual([]);
        const causes = validateCelRules(FROZEN, { spec: now }, { spec: old });
        expect(causes.length).toBe(jsonEqual(withoutNullFields(now), withoutNullFields(old)) ? 0 : 1);
      }),
    );
  });

  it('any rule text, compiled and run, gives problems or causes as values, never a throw', () => {
    const words = [
      'self',
      'oldSelf',
      '.',
      'a',
      'l',
      'm',
      '[',
      ']',
      '(',
      ')',
      '0',
      '1',
      "'x'",
      '==',
      '!=',
      '<',
      '+',
      '&&',
      '||',
      '!',
      '?',
      ':',
      'has',
      'all',
      'exists',
      'map',
      'size',
      'matches',
      "'(?i)a'",
      ',',
      'x',
      'true',
      'null',
      '.?',
      'orValue',
      'value',
      'int',
      'dyn',
      'sum',
      'min',
      'quantity',
      'ip',
      'url',
    ];
    const rule = fc.oneof(
      fc.string(),
      fc.array(fc.constantFrom(...words), { maxLength: 14 }).map((t) => t.join(' ')),
    );
    fc.assert(
      fc.property(rule, fc.boolean(), (text, update) => {
        const compiled = compileSchemaRules(
          objectOf(
            { a: I, l: listOf(objectOf({ f: S })), m: mapOf(S) },
            { 'x-kubernetes-validations': [{ rule: text, messageExpression: text }] },
          ),
        );
        const value = { a: 1, l: [{ f: 'q' }, {}], m: { k: 'v' } };
        const causes = validateCelRules(compiled, value, update ? { a: 2, l: [], m: {} } : undefined);
        expect(Array.isArray(compiled.problems) && Array.isArray(causes)).toBe(true);
        if (compiled.problems.length === 0 && text.trim()) expect(compiled.root?.rules).toHaveLength(1);
      }),
      { numRuns: 300 },
    );
  });
});
