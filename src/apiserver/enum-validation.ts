// enumCauses: the values a built-in kind's enumerated string fields may take, checked against its OpenAPI schema, in kube-apiserver's words.
import type { StatusCause } from './api-status.ts';
import { concrete } from './field-validation.ts';
import { builtinSchemas } from './openapi/builtin-schemas.ts';
import type { JsonSchema } from './openapi/json-schema.ts';
import type { OpenApiSchemas } from './openapi/openapi-schemas.ts';

function walk(
  value: unknown,
  schema: JsonSchema | undefined,
  schemas: OpenApiSchemas,
  path: string,
  out: StatusCause[],
  depth: number,
): void {
  const s = schema && concrete(schema, schemas);
  if (!s || depth > 64 || value === null || value === undefined) return;
  if (typeof value === 'string') {
    const allowed = s.enum;
    if (Array.isArray(allowed) && allowed.length > 0 && !allowed.includes(value)) {
      out.push({
        type: 'FieldValueNotSupported',
        message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${allowed.map((v) => JSON.stringify(v)).join(', ')}`,
        field: path,
      });
    }
    return;
  }
  if (Array.isArray(value)) {
    const items = s.items as JsonSchema | undefined;
    for (const [i, v] of value.entries()) walk(v, items, schemas, `${path}[${i}]`, out, depth + 1);
    return;
  }
  if (typeof value === 'object') {
    const props = (s.properties ?? {}) as Record<string, JsonSchema>;
    const each =
      typeof s.additionalProperties === 'object' ? (s.additionalProperties as JsonSchema) : undefined;
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const child = props[key] ?? each;
      if (child) walk(v, child, schemas, path ? `${path}.${key}` : key, out, depth + 1);
    }
  }
}

/**
 * Every enumerated string field of a built-in kind's object whose value the kind does not allow (e.g.
 * `spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "Never", "OnFailure"`),
 * read from the schema the server publishes. Custom resources are left to their own schema validation.
 *
 * @param schemas the server's OpenAPI schemas
 * @param gvk the kind of the object
 * @param object the object about to be stored
 * @returns the causes, empty when every enumerated value is allowed
 */
export function enumCauses(
  schemas: OpenApiSchemas,
  gvk: { group: string; version: string; kind: string },
  object: unknown,
): StatusCause[] {
  const name = schemas.kindSchemaName(gvk.group, gvk.version, gvk.kind);
  const schema = name ? schemas.schema(name) : undefined;
  if (!schema || builtinSchemas().schemas.get(name!) !== schema) return [];
  const out: StatusCause[] = [];
  const body = object as Record<string, unknown>;
  // status is the writers' (kubelet, controllers) business and is validated by its own rules
  walk({ ...body, status: undefined }, schema, schemas, '', out, 0);
  return out;
}
