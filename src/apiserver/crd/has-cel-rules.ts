// Whether a CRD schema carries CEL rules (x-kubernetes-validations) anywhere, so its objects need the CEL validator.
import { isJsonObject, type JSONSchemaProps } from './json-schema-props.ts';

/** True when the schema or any schema below it has `x-kubernetes-validations`. */
export function hasCelRules(s: JSONSchemaProps | undefined): boolean {
  if (!isJsonObject(s)) return false;
  if (Array.isArray(s['x-kubernetes-validations']) && s['x-kubernetes-validations'].length) return true;
  const below = [
    ...(isJsonObject(s.properties) ? Object.values(s.properties) : []),
    ...(isJsonObject(s.additionalProperties) ? [s.additionalProperties] : []),
    ...(s.items ? [s.items] : []),
    ...(Array.isArray(s.allOf) ? s.allOf : []),
  ];
  return below.some(hasCelRules);
}
