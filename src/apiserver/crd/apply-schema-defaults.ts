// Defaulting of a custom resource from the `default`s of its CRD's structural schema, as upstream does.
import { childSchema, isJsonObject, type JSONSchemaProps } from './json-schema-props.ts';

function defaults(value: unknown, s: JSONSchemaProps): void {
  if (Array.isArray(value)) {
    if (s.items) for (const item of value) defaults(item, s.items);
    return;
  }
  if (!isJsonObject(value)) return;
  for (const [key, prop] of Object.entries(s.properties ?? {})) {
    if (prop.default === undefined) continue;
    if (!(key in value) || (value[key] === null && !prop.nullable))
      value[key] = structuredClone(prop.default);
  }
  for (const key of Object.keys(value)) {
    const sub = childSchema(s, key);
    if (!sub) continue;
    // A null where null is not allowed and no default replaces it is dropped, as upstream prunes it.
    if (value[key] === null && !sub.nullable && sub.default === undefined) {
      delete value[key];
      continue;
    }
    defaults(value[key], sub);
  }
}

/**
 * Fills, in place, every absent field whose schema has a `default` (and every null one that is not
 * nullable), then descends into the result, so defaults inside defaults apply too. A non-nullable
 * null without a default is removed.
 *
 * Example: `{spec: {}}` with `spec.replicas: {type: integer, default: 1}` becomes `{spec: {replicas: 1}}`;
 * `{}` stays `{}` unless `spec` itself has a default.
 * @param value the object, mutated
 * @param schema the version's `openAPIV3Schema`
 */
export function applySchemaDefaults(value: unknown, schema: JSONSchemaProps): void {
  defaults(value, schema);
}
