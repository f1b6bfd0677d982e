// Tables for custom resource validation against a structural schema (after apiextensions' validation tests).
import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from '../../../../src/apiserver/crd/json-schema-props.ts';
import { validateCustomResource } from '../../../../src/apiserver/crd/validate-custom-resource.ts';

const obj = (properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: 'object',
  properties,
  ...extra,
});
const spec = (properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}) =>
  obj({ spec: obj(properties, extra) });

const lines = (value: unknown, schema: JSONSchemaProps) =>
  validateCustomResource(value, schema).map((c) => `${c.field}: ${c.message}`);

describe('validateCustomResource', () => {
  it.each<[string, JSONSchemaProps, unknown, string[]]>([
    ['a valid object', spec({ replicas: { type: 'integer' } }), { spec: { replicas: 3 } }, []],
    [
      'a string where an integer belongs',
      spec({ replicas: { type: 'integer' } }),
      { spec: { replicas: 'three' } },
      ['spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"'],
    ],
    [
      'a fraction where an integer belongs',
      spec({ replicas: { type: 'integer' } }),
      { spec: { replicas: 1.5 } },
      ['spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"'],
    ],
    ['an integer where a number belongs', spec({ ratio: { type: 'number' } }), { spec: { ratio: 2 } }, []],
    [
      'an object where a string belongs',
      spec({ name: { type: 'string' } }),
      { spec: { name: { a: 1 } } },
      ['spec.name: Invalid value: "object": spec.name in body must be of type string: "object"'],
    ],
    [
      'a null that is not nullable',
      obj({ items: { type: 'array', items: { type: 'string' } } }),
      { items: [null] },
      ['items[0]: Invalid value: "null": items[0] in body must be of type string: "null"'],
    ],
    [
      'a null that is nullable',
      spec({ name: { type: 'string', nullable: true } }),
      { spec: { name: null } },
      [],
    ],
    [
      'a missing required field',
      spec({ a: { type: 'string' } }, { required: ['a'] }),
      { spec: {} },
      ['spec.a: Required value'],
    ],
    [
      'a value outside the enum',
      spec({ size: { type: 'string', enum: ['small', 'large'] } }),
      { spec: { size: 'huge' } },
      ['spec.size: Unsupported value: "huge": supported values: "small", "large"'],
    ],
    [
      'below the minimum',
      spec({ n: { type: 'integer', minimum: 1 } }),
      { spec: { n: 0 } },
      ['spec.n: Invalid value: 0: spec.n in body should be greater than or equal to 1'],
    ],
    [
      'at an exclusive maximum',
      spec({ n: { type: 'integer', maximum: 5, exclusiveMaximum: true } }),
      { spec: { n: 5 } },
      ['spec.n: Invalid value: 5: spec.n in body should be less than 5'],
    ],
    [
      'not a multiple',
      spec({ n: { type: 'integer', multipleOf: 3 } }),
      { spec: { n: 4 } },
      ['spec.n: Invalid value: 4: spec.n in body should be a multiple of 3'],
    ],
    [
      'too long a string',
      spec({ s: { type: 'string', maxLength: 3 } }),
      { spec: { s: 'abcd' } },
      ['spec.s: Too long: may not be longer than 3'],
    ],
    [
      'too short a string',
      spec({ s: { type: 'string', minLength: 2 } }),
      { spec: { s: 'a' } },
      ['spec.s: Invalid value: "a": spec.s in body should be at least 2 chars long'],
    ],
    [
      'a pattern mismatch',
      spec({ s: { type: 'string', pattern: '^[a-z]+$' } }),
      { spec: { s: 'A1' } },
      [`spec.s: Invalid value: "A1": spec.s in body should match '^[a-z]+$'`],
    ],
    [
      'a bad date-time',
      spec({ t: { type: 'string', format: 'date-time' } }),
      { spec: { t: 'yesterday' } },
      ['spec.t: Invalid value: "yesterday": spec.t in body must be of type date-time: "yesterday"'],
    ],
    [
      'a good date-time',
      spec({ t: { type: 'string', format: 'date-time' } }),
      { spec: { t: '2024-02-29T10:00:00Z' } },
      [],
    ],
    [
      'an unknown format passes',
      spec({ t: { type: 'string', format: 'password' } }),
      { spec: { t: 'x' } },
      [],
    ],
    [
      'too many items',
      spec({ l: { type: 'array', maxItems: 1, items: { type: 'string' } } }),
      { spec: { l: ['a', 'b'] } },
      ['spec.l: Too many: 2: must have at most 1 items'],
    ],
    [
      'too few items',
      spec({ l: { type: 'array', minItems: 2, items: { type: 'string' } } }),
      { spec: { l: ['a'] } },
      ['spec.l: Invalid value: 1: spec.l in body should have at least 2 items'],
    ],
    [
      'an item of the wrong type, by index',
      spec({ l: { type: 'array', items: obj({ port: { type: 'integer' } }) } }),
      { spec: { l: [{ port: 1 }, { port: '80' }] } },
      ['spec.l[1].port: Invalid value: "string": spec.l[1].port in body must be of type integer: "string"'],
    ],
    [
      'a map value of the wrong type',
      spec({ m: { type: 'object', additionalProperties: { type: 'string' } } }),
      { spec: { m: { a: 'x', b: 2 } } },
      ['spec.m.b: Invalid value: "integer": spec.m.b in body must be of type string: "integer"'],
    ],
    [
      'too many properties',
      spec({ m: { type: 'object', maxProperties: 1, additionalProperties: { type: 'string' } } }),
      { spec: { m: { a: 'x', b: 'y' } } },
      ['spec.m: Too many: 2: must have at most 1 items'],
    ],
    [
      'int-or-string takes an integer',
      spec({ p: { 'x-kubernetes-int-or-string': true } }),
      { spec: { p: 80 } },
      [],
    ],
    [
      'int-or-string takes a string',
      spec({ p: { 'x-kubernetes-int-or-string': true } }),
      { spec: { p: 'http' } },
      [],
    ],
    [
      'int-or-string refuses a boolean',
      spec({ p: { 'x-kubernetes-int-or-string': true } }),
      { spec: { p: true } },
      ['spec.p: Invalid value: "boolean": spec.p in body must be of type integer,string: "boolean"'],
    ],
    [
      'preserve-unknown-fields takes anything',
      spec({ x: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }),
      { spec: { x: { deep: [1, { a: null }] } } },
      [],
    ],
    [
      'an embedded resource needs apiVersion and kind',
      spec({
        t: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
      }),
      { spec: { t: { metadata: {} } } },
      [
        'spec.t.apiVersion: Required value: must not be empty',
        'spec.t.kind: Required value: must not be empty',
      ],
    ],
    [
      'several problems, each reported',
      spec({ a: { type: 'integer', minimum: 2 }, b: { type: 'string', enum: ['x'] } }),
      { spec: { a: 1, b: 'y' } },
      [
        'spec.a: Invalid value: 1: spec.a in body should be greater than or equal to 2',
        'spec.b: Unsupported value: "y": supported values: "x"',
      ],
    ],
    [
      'a repeated item of a set',
      spec({ l: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' } }),
      { spec: { l: ['a', 'b', 'a'] } },
      ['spec.l[2]: Duplicate value: "a"'],
    ],
    [
      'a repeated key of a map list, and a missing key',
      spec({
        l: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: obj({ name: { type: 'string' }, v: { type: 'integer' } }),
        },
      }),
      { spec: { l: [{ name: 'a', v: 1 }, { v: 2 }, { name: 'a', v: 3 }] } },
      ['spec.l[1].name: Required value', 'spec.l[2]: Duplicate value: {"name":"a"}'],
    ],
    [
      'anyOf with no match',
      spec({ v: { anyOf: [{ type: 'integer' }, { type: 'string', enum: ['auto'] }] } }),
      { spec: { v: 'manual' } },
      ['spec.v: Invalid value: "manual": spec.v in body must validate at least one schema (anyOf)'],
    ],
  ])('%s', (_name, schema, value, expected) => {
    expect(lines(value, schema)).toEqual(expected);
  });

  it('does not evaluate CEL rules (x-kubernetes-validations)', () => {
    const schema = spec({ n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 100' }] } });
    expect(lines({ spec: { n: 1 } }, schema)).toEqual([]);
  });
});
