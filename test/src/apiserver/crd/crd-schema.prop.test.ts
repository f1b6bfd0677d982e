// Properties of pruning, defaulting and the JSONPath reader over arbitrary structural schemas and values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applySchemaDefaults } from '../../../../src/apiserver/crd/apply-schema-defaults.ts';
import { defaultCustomResourceDefinition } from '../../../../src/apiserver/crd/custom-resource-definition.ts';
import { CUSTOM_RESOURCE_DEFINITIONS } from '../../../../src/apiserver/crd/custom-resource-definitions-resource.ts';
import { jsonPathValues, parseJsonPath } from '../../../../src/apiserver/crd/json-path.ts';
import {
  childSchema,
  isJsonObject,
  type JSONSchemaProps,
} from '../../../../src/apiserver/crd/json-schema-props.ts';
import { pruneUnknownFields } from '../../../../src/apiserver/crd/prune-unknown-fields.ts';
import { validateCustomResourceDefinition } from '../../../../src/apiserver/crd/validate-custom-resource-definition.ts';
import { validateStructuralSchema } from '../../../../src/apiserver/crd/validate-structural-schema.ts';

const key = fc.constantFrom('a', 'b', 'c', 'spec', 'x.y', 'n');

/** Arbitrary structural schemas, some nodes with defaults of their own type. */
const schema: fc.Arbitrary<JSONSchemaProps> = fc
  .letrec<{ node: JSONSchemaProps }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.record(
        { type: fc.constant('string'), default: fc.option(fc.string(), { nil: undefined }) },
        { requiredKeys: ['type'] },
      ),
      fc.record(
        { type: fc.constant('integer'), default: fc.option(fc.integer(), { nil: undefined }) },
        { requiredKeys: ['type'] },
      ),
      fc.record({ type: fc.constant('object'), properties: fc.dictionary(key, tie('node'), { maxKeys: 3 }) }),
      fc.record({ type: fc.constant('object'), additionalProperties: tie('node') }),
      fc.record({ type: fc.constant('array'), items: tie('node') }),
      fc.constant<JSONSchemaProps>({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
    ),
  }))
  .node.map((s) => JSON.parse(JSON.stringify(s)) as JSONSchemaProps);

const rootSchema = fc
  .dictionary(key, schema, { maxKeys: 3 })
  .map((properties): JSONSchemaProps => ({ type: 'object', properties }));

/** Every path of an object key the schema does not declare (and no ancestor preserves). */
function undeclared(value: unknown, s: JSONSchemaProps | undefined, path: string, out: string[]): void {
  if (!s) return;
  if (Array.isArray(value)) {
    if (s.items)
      value.forEach((v, i) => {
        undeclared(v, s.items, `${path}[${i}]`, out);
      });
    return;
  }
  if (!isJsonObject(value) || s['x-kubernetes-preserve-unknown-fields']) return;
  for (const k of Object.keys(value)) {
    const sub = childSchema(s, k);
    if (!sub && path !== '') out.push(`${path}.${k}`);
    else if (!sub && !['apiVersion', 'kind', 'metadata'].includes(k)) out.push(k);
    else undeclared(value[k], sub, path ? `${path}.${k}` : k, out);
  }
}

describe('CRD schema properties', () => {
  it('generated schemas are structural', () => {
    fc.assert(
      fc.property(rootSchema, (s) => {
        const causes = validateStructuralSchema(s, 'schema').filter((c) => !c.field.endsWith('.default'));
        expect(causes).toEqual([]);
      }),
    );
  });

  it('pruning leaves only declared fields, keeps every declared one, and is idempotent', () => {
    fc.assert(
      fc.property(rootSchema, fc.dictionary(key, fc.jsonValue({ maxDepth: 4 })), (s, input) => {
        const value = structuredClone(input);
        pruneUnknownFields(value, s);
        const left: string[] = [];
        undeclared(value, s, '', left);
        expect(left).toEqual([]);
        for (const k of Object.keys(input)) if (s.properties?.[k]) expect(k in value).toBe(true);
        expect(pruneUnknownFields(value, s)).toEqual([]);
      }),
    );
  });

  it('defaulting is idempotent and never removes a non-null field', () => {
    fc.assert(
      fc.property(rootSchema, fc.dictionary(key, fc.jsonValue({ maxDepth: 3 })), (s, input) => {
        const once = structuredClone(input);
        applySchemaDefaults(once, s);
        const twice = structuredClone(once);
        applySchemaDefaults(twice, s);
        expect(twice).toEqual(once);
        for (const [k, v] of Object.entries(input)) if (v !== null) expect(k in once).toBe(true);
      }),
    );
  });

  it('a dotted path of existing keys reads exactly the value there', () => {
    const segment = fc.stringMatching(/^[a-z][a-z0-9./-]{0,6}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.jsonValue(), (keys, leaf) => {
        let doc: unknown = leaf;
        for (const k of [...keys].reverse()) doc = { [k]: doc, other: 1 };
        const path = keys.map((k) => `.${k.replaceAll('.', '\\.')}`).join('');
        expect(jsonPathValues(doc, parseJsonPath(path))).toEqual([leaf]);
      }),
    );
  });

  it('a CRD of any shape is answered with causes, never an exception', () => {
    const anyJson = fc.jsonValue({ maxDepth: 3 });
    const version = fc.record(
      {
        name: fc.oneof(fc.constant('v1'), anyJson),
        served: fc.oneof(fc.boolean(), anyJson),
        storage: fc.oneof(fc.boolean(), anyJson),
        schema: fc.oneof(anyJson, fc.record({ openAPIV3Schema: fc.oneof(schema, anyJson) })),
        additionalPrinterColumns: anyJson,
        subresources: anyJson,
      },
      { requiredKeys: [] },
    );
    const spec = fc.record(
      {
        group: anyJson,
        scope: anyJson,
        names: fc.oneof(
          anyJson,
          fc.record({ plural: anyJson, kind: anyJson, shortNames: anyJson }, { requiredKeys: [] }),
        ),
        versions: fc.oneof(anyJson, fc.array(fc.oneof(version, anyJson), { maxLength: 3 })),
        conversion: anyJson,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(spec, fc.option(anyJson, { nil: undefined }), (s, status) => {
        const crd = { metadata: { name: 'x.example.com' }, spec: s, status } as never;
        defaultCustomResourceDefinition(crd);
        CUSTOM_RESOURCE_DEFINITIONS.defaults?.(structuredClone(crd));
        const causes = validateCustomResourceDefinition(crd, structuredClone(crd));
        expect(causes.every((c) => typeof c.field === 'string' && typeof c.message === 'string')).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
