// undeclaredFields: what an applied configuration sets that its schema does not declare, printed as upstream.
import { describe, expect, it } from 'vitest';
import { pathToString } from '../../../../src/apiserver/apply/field-set.ts';
import { type ApplySchema, schemaFieldType } from '../../../../src/apiserver/apply/field-type.ts';
import { undeclaredFields } from '../../../../src/apiserver/apply/undeclared-fields.ts';

const NAMED: Record<string, ApplySchema> = {
  Item: { type: 'object', properties: { name: { type: 'string' }, size: { type: 'integer' } } },
};
const resolve = (s: ApplySchema) => (s.$ref ? NAMED[s.$ref.split('/').pop()!] : s);

const SCHEMA: ApplySchema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { $ref: '#/components/schemas/Item' },
        },
        args: { type: 'array', items: { type: 'string' } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        anything: { type: 'object' },
        wrapped: { allOf: [{ $ref: '#/components/schemas/Item' }] },
      },
    },
  },
};

describe('undeclaredFields', () => {
  it.each([
    [{ spec: { items: [{ name: 'a', size: 1 }], args: ['x'], labels: { any: 'key' } } }, []],
    [{ spec: { free: { deep: { er: 1 } }, anything: { at: 'all' } } }, []],
    [{ spec: { replicas: 1 } }, ['.spec.replicas']],
    [{ spec: { items: [{ name: 'a', colour: 'red' }] } }, ['.spec.items[name="a"].colour']],
    [{ spec: { items: [{ colour: 'red' }] } }, ['.spec.items[0].colour']],
    [{ spec: { wrapped: { name: 'w', extra: true } } }, ['.spec.wrapped.extra']],
    [{ status: {}, spec: { x: 1, y: 2 } }, ['.status', '.spec.x', '.spec.y']],
  ])('%j → %j', (value, expected) => {
    expect(
      undeclaredFields(
        value,
        SCHEMA,
        resolve,
        schemaFieldType(SCHEMA, (ref) => NAMED[ref.split('/').pop()!]),
      ).map(pathToString),
    ).toEqual(expected);
  });

  it('accepts everything under a schema it cannot resolve', () => {
    expect(
      undeclaredFields({ a: 1 }, { $ref: '#/nowhere' }, () => undefined, schemaFieldType(undefined)),
    ).toEqual([]);
  });
});
