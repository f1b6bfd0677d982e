// The shape of one OpenAPI schema object as this server builds and reads it: plain JSON.

/** An OpenAPI v3 schema object (JSON): `type`, `properties`, `items`, `allOf`, `$ref`, `x-kubernetes-*`, ... */
export type JsonSchema = { [key: string]: unknown };

/** The `#/components/schemas/` prefix of a v3 reference. */
export const V3_REF_PREFIX = '#/components/schemas/';

/** The `#/definitions/` prefix of a v2 reference. */
export const V2_REF_PREFIX = '#/definitions/';

/** A reference to the named component, as a v3 schema. */
export function refTo(name: string): JsonSchema {
  return { $ref: `${V3_REF_PREFIX}${name}` };
}

/** The component name a v3 (or v2) reference points at, or undefined for anything else. */
export function refName(schema: JsonSchema): string | undefined {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return undefined;
  if (ref.startsWith(V3_REF_PREFIX)) return ref.slice(V3_REF_PREFIX.length);
  if (ref.startsWith(V2_REF_PREFIX)) return ref.slice(V2_REF_PREFIX.length);
  return undefined;
}
