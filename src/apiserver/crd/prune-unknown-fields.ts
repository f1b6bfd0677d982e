// Pruning of fields a CRD's structural schema does not declare, as the apiextensions server prunes on decode.
import { childPath } from './field-error.ts';
import { isJsonObject, type JSONSchemaProps } from './json-schema-props.ts';

/** The fields every resource (and every x-kubernetes-embedded-resource) keeps whatever its schema says. */
const RESOURCE_ROOT_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

function prune(value: unknown, s: JSONSchemaProps, root: boolean, path: string, out: string[]): void {
  if (Array.isArray(value)) {
    if (s.items)
      value.forEach((item, i) => {
        prune(item, s.items!, false, `${path}[${i}]`, out);
      });
    return;
  }
  if (!isJsonObject(value)) return;
  const resourceRoot = root || s['x-kubernetes-embedded-resource'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  for (const key of Object.keys(value)) {
    if (resourceRoot && RESOURCE_ROOT_FIELDS.has(key)) continue;
    const prop = s.properties?.[key];
    const sub = prop ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
    if (sub) prune(value[key], sub, false, childPath(path, key), out);
    else if (!preserve && s.additionalProperties !== true) {
      delete value[key];
      out.push(childPath(path, key));
    }
  }
}

/**
 * Removes, in place, every field the schema does not declare (unless the node says
 * `x-kubernetes-preserve-unknown-fields` or allows `additionalProperties`). At the root of a
 * resource and of an embedded resource, apiVersion, kind and metadata stay.
 *
 * Example: `{spec: {size: 1, colour: "red"}}` with only `spec.size` declared becomes `{spec: {size: 1}}`
 * and returns `["spec.colour"]`.
 * @param value the decoded object, mutated
 * @param schema the version's `openAPIV3Schema`
 * @param isResourceRoot true (default) when `value` is a whole resource
 * @returns the paths removed, upstream-style (`spec.items[0].x`)
 */
export function pruneUnknownFields(value: unknown, schema: JSONSchemaProps, isResourceRoot = true): string[] {
  const out: string[] = [];
  prune(value, schema, isResourceRoot, '', out);
  return out;
}
