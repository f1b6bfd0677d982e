// The OpenAPI components of one served CRD version, built from its structural schema as upstream builds them.
import { FIELD_DESCRIPTIONS } from './field-notes.ts';
import { type JsonSchema, refTo } from './json-schema.ts';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

/** One served version of a custom resource. */
export interface CrdKindInput {
  group: string;
  version: string;
  kind: string;
  /** Default `<kind>List`. */
  listKind?: string;
  /** The version's `schema.openAPIV3Schema`; absent: any object (fields preserved). */
  schema?: JsonSchema;
}

/** `example.com` + `v1` + `Widget` → `com.example.v1.Widget`: the group reversed, as upstream names CRD schemas. */
export function crdSchemaName(group: string, version: string, kind: string): string {
  return [...group.split('.').reverse(), version, kind].join('.');
}

function typeMeta(): Record<string, JsonSchema> {
  return {
    apiVersion: { type: 'string', description: FIELD_DESCRIPTIONS.apiVersion },
    kind: { type: 'string', description: FIELD_DESCRIPTIONS.kind },
  };
}

/**
 * The kind's and its list's schemas, by name: the structural schema with `apiVersion`, `kind` and
 * `metadata` (ObjectMeta) added and `x-kubernetes-group-version-kind` set, and the list of it.
 */
export function crdKindSchemas(input: CrdKindInput): Record<string, JsonSchema> {
  const { group, version, kind } = input;
  const listKind = input.listKind ?? `${kind}List`;
  const name = crdSchemaName(group, version, kind);
  const base: JsonSchema = input.schema
    ? structuredClone(input.schema)
    : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const own = (base.properties ?? {}) as Record<string, JsonSchema>;
  const { metadata: _metadata, apiVersion: _a, kind: _k, ...rest } = own;
  const kindSchema: JsonSchema = {
    ...base,
    type: 'object',
    properties: {
      ...typeMeta(),
      metadata: { allOf: [refTo(`${META}.ObjectMeta`)], description: FIELD_DESCRIPTIONS.metadata },
      ...rest,
    },
    'x-kubernetes-group-version-kind': [{ group, version, kind }],
  };
  const listSchema: JsonSchema = {
    type: 'object',
    description: `A list of ${kind} objects.`,
    properties: {
      ...typeMeta(),
      items: { type: 'array', items: refTo(name), description: FIELD_DESCRIPTIONS.items },
      metadata: { allOf: [refTo(`${META}.ListMeta`)], description: 'Standard list metadata.' },
    },
    required: ['items'],
    'x-kubernetes-group-version-kind': [{ group, version, kind: listKind }],
  };
  return { [name]: kindSchema, [crdSchemaName(group, version, listKind)]: listSchema };
}
