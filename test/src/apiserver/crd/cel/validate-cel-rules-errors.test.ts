// validateCelRules: transition rules (oldSelf, optionalOldSelf, map-list correlation), ratcheting, messages, reasons and field paths.
import { describe, expect, it } from 'vitest';
import { compileSchemaRules } from '../../../../../src/apiserver/crd/cel/compile-schema-rules.ts';
import { validateCelRules } from '../../../../../src/apiserver/crd/cel/validate-cel-rules.ts';
import type { JSONSchemaProps } from '../../../../../src/apiserver/crd/json-schema-props.ts';
import { I, listOf, mapOf, objectOf, outcome, S, shown } from './cel-harness.ts';

const run = (schema: JSONSchemaProps, obj: unknown, old?: unknown) => {
  const compiled = compileSchemaRules(schema);
  expect(compiled.problems).toEqual([]);
  return validateCelRules(compiled, obj, old).map(shown);
};

describe('transition rules', () => {
  const spec = (rules: object[]) =>
    objectOf({ spec: objectOf({ mode: S, replicas: I }, { 'x-kubernetes-validations': rules }) });
  const immutable = spec([{ rule: 'self.mode == oldSelf.mode', message: 'mode is immutable' }]);

  it.each([
    ['a create: the rule naming oldSelf is skipped', { spec: { mode: 'a' } }, undefined, []],
    ['an update keeping the value', { spec: { mode: 'a' } }, { spec: { mode: 'a' } }, []],
    [
      'an update changing it',
      { spec: { mode: 'b' } },
      { spec: { mode: 'a' } },
      ['spec: Invalid value: "object": mode is immutable'],
    ],
    ['an update adding the node (no old value to compare with)', { spec: { mode: 'b' } }, {}, []],
  ])('%s', (_name, obj, old, want) => {
    expect(run(immutable, obj, old)).toEqual(want);
  });

  it.each<[string, JSONSchemaProps, unknown, unknown, string]>([
    [
      'old and new strings',
      objectOf({ v: S }),
      { v: 'new' },
      { v: 'old' },
      "oldSelf.v != self.v && oldSelf.v == 'old' && self.v == 'new'",
    ],
    ['no old primitive: skipped', S, 'exists', undefined, 'oldSelf == self'],
    ['no old list: skipped', listOf(S), [], undefined, 'oldSelf == self'],
    ['no old object: skipped', objectOf({ f: S }), { f: 'exists' }, undefined, 'oldSelf.f == self.f'],
    ['a null old value: skipped', listOf(S), [], null, 'oldSelf == self'],
  ])('upstream transition case: %s', (_name, schema, obj, old, rule) => {
    expect(outcome(schema, obj, rule, old)).toEqual([]);
    if (old === undefined || old === null) expect(outcome(schema, obj, `!(${rule})`, old)).toEqual([]);
  });

  it('with optionalOldSelf run on create too, oldSelf an optional', () => {
    const s = spec([
      {
        rule: '!oldSelf.hasValue() ? self.replicas == 1 : self.replicas >= oldSelf.value().replicas',
        message: 'starts at 1 and never shrinks',
        optionalOldSelf: true,
      },
    ]);
    const err = ['spec: Invalid value: "object": starts at 1 and never shrinks'];
    expect(run(s, { spec: { replicas: 1 } })).toEqual([]);
    expect(run(s, { spec: { replicas: 2 } })).toEqual(err);
    expect(run(s, { spec: { replicas: 3 } }, { spec: { replicas: 2 } })).toEqual([]);
    expect(run(s, { spec: { replicas: 1 } }, { spec: { replicas: 2 } })).toEqual(err);
  });

  it('correlates map-list items by their keys, whatever their order', () => {
    const s = objectOf({
      items: listOf(
        objectOf(
          { k: S, v: S },
          { 'x-kubernetes-validations': [{ rule: 'self.v == oldSelf.v', message: 'v is fixed' }] },
        ),
        { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'] },
      ),
    });
    const old = {
      items: [
        { k: 'a', v: '1' },
        { k: 'b', v: '2' },
      ],
    };
    expect(
      run(
        s,
        {
          items: [
            { k: 'b', v: '2' },
            { k: 'a', v: '1' },
            { k: 'c', v: '9' },
          ],
        },
        old,
      ),
    ).toEqual([]);
    expect(run(s, { items: [{ k: 'b', v: '3' }] }, old)).toEqual([
      'items[0]: Invalid value: "object": v is fixed',
    ]);
  });

  it('correlates map values by key', () => {
    const s = objectOf({
      m: mapOf({
        type: 'string',
        'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'fixed' }],
      }),
    });
    expect(run(s, { m: { a: 'x', b: 'y' } }, { m: { a: 'x' } })).toEqual([]);
    expect(run(s, { m: { a: 'z' } }, { m: { a: 'x' } })).toEqual(['m[a]: Invalid value: "string": fixed']);
  });
});

describe('ratcheting: an unchanged value passes rules that do not name oldSelf', () => {
  const s = objectOf({
    spec: objectOf({ a: I, b: I }, { 'x-kubernetes-validations': [{ rule: 'self.a < 5' }] }),
    other: S,
  });
  it.each([
    ['create', { spec: { a: 9 } }, undefined, ['spec: Invalid value: "object": failed rule: self.a < 5']],
    ['update leaving spec as it was', { spec: { a: 9 }, other: 'x' }, { spec: { a: 9 } }, []],
    [
      'update changing spec',
      { spec: { a: 9, b: 1 } },
      { spec: { a: 9 } },
      ['spec: Invalid value: "object": failed rule: self.a < 5'],
    ],
  ])('%s', (_name, obj, old, want) => {
    expect(run(s, obj, old)).toEqual(want);
  });
});

describe('messages', () => {
  const s = objectOf({ max: I, n: I });
  it.each([
    [
      'the default',
      { rule: 'self.n <= self.max' },
      '<nil>: Invalid value: "object": failed rule: self.n <= self.max',
    ],
    [
      'message, trimmed',
      { rule: 'self.n <= self.max', message: ' too many ' },
      '<nil>: Invalid value: "object": too many',
    ],
    [
      'messageExpression',
      { rule: 'self.n <= self.max', messageExpression: "'n must be at most ' + string(self.max)" },
      '<nil>: Invalid value: "object": n must be at most 2',
    ],
    [
      'messageExpression failing: the message',
      { rule: 'self.n <= self.max', message: 'fallback', messageExpression: "'x' + string(self.n / 0)" },
      '<nil>: Invalid value: "object": fallback',
    ],
    [
      'messageExpression giving an empty string: the default',
      { rule: 'self.n <= self.max', messageExpression: "' '" },
      '<nil>: Invalid value: "object": failed rule: self.n <= self.max',
    ],
    [
      'an evaluation error',
      { rule: 'self.n / 0 == 1' },
      '<nil>: Invalid value: "object": division by zero evaluating rule: self.n / 0 == 1',
    ],
    [
      'an evaluation error names the message when there is one',
      { rule: 'self.n / 0 == 1', message: 'bad n' },
      '<nil>: Invalid value: "object": division by zero evaluating rule: bad n',
    ],
  ])('%s', (_name, rule, want) => {
    expect(outcome(s, { max: 2, n: 3 }, rule)).toEqual([want]);
  });
});

describe('reasons and field paths', () => {
  const s = objectOf({ spec: objectOf({ a: S, labels: mapOf(S) }) });
  const specRule = (extra: object) =>
    objectOf({
      spec: objectOf(
        { a: S, labels: mapOf(S) },
        { 'x-kubernetes-validations': [{ rule: 'false', ...extra }] },
      ),
    });
  it.each([
    [
      'no reason: Invalid, showing the node type',
      {},
      'FieldValueInvalid',
      'spec',
      'Invalid value: "object": failed rule: false',
    ],
    [
      'FieldValueForbidden',
      { reason: 'FieldValueForbidden' },
      'FieldValueForbidden',
      'spec',
      'Forbidden: failed rule: false',
    ],
    [
      'FieldValueRequired',
      { reason: 'FieldValueRequired', message: 'a is needed' },
      'FieldValueRequired',
      'spec',
      'Required value: a is needed',
    ],
    [
      'FieldValueDuplicate',
      { reason: 'FieldValueDuplicate' },
      'FieldValueDuplicate',
      'spec',
      'Duplicate value: "object"',
    ],
    [
      'fieldPath to a property',
      { fieldPath: '.a' },
      'FieldValueInvalid',
      'spec.a',
      'Invalid value: "object": failed rule: false',
    ],
    [
      'fieldPath to a map key',
      { fieldPath: ".labels['x.y']" },
      'FieldValueInvalid',
      'spec.labels[x.y]',
      'Invalid value: "object": failed rule: false',
    ],
  ])('%s', (_name, extra, type, field, message) => {
    const compiled = compileSchemaRules(specRule(extra));
    expect(compiled.problems).toEqual([]);
    expect(validateCelRules(compiled, { spec: { a: 'x' } })).toEqual([{ type, field, message }]);
  });

  it('a null value is not checked; rules below it neither', () => {
    const n = objectOf({
      spec: objectOf({ a: S }, { nullable: true, 'x-kubernetes-validations': [{ rule: 'false' }] }),
    });
    expect(run(n, { spec: null })).toEqual([]);
    expect(s.properties?.spec).toBeDefined();
  });

  it('rules in allOf run on the same value', () => {
    const a = objectOf(
      { n: I },
      { allOf: [{ 'x-kubernetes-validations': [{ rule: 'self.n > 0', message: 'positive' }] }] },
    );
    expect(run(a, { n: 0 })).toEqual(['<nil>: Invalid value: "object": positive']);
    expect(run(a, { n: 1 })).toEqual([]);
  });

  it('list items are reported by index, rules of every item run', () => {
    const l = objectOf({
      xs: listOf({ type: 'integer', 'x-kubernetes-validations': [{ rule: 'self % 2 == 0' }] }),
    });
    expect(run(l, { xs: [2, 3, 4, 5] })).toEqual([
      'xs[1]: Invalid value: "integer": failed rule: self % 2 == 0',
      'xs[3]: Invalid value: "integer": failed rule: self % 2 == 0',
    ]);
  });
});
