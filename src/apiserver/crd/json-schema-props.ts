// The apiextensions.k8s.io/v1 JSONSchemaProps shape a CRD version's openAPIV3Schema is written in.

/**
 * One node of a CRD's OpenAPI v3 schema, as the CRD object carries it. A *structural* schema
 * (what the server requires) gives every specified field a `type` outside the logical junctors
 * (allOf, anyOf, oneOf, not) and declares every field it validates.
 */
export interface JSONSchemaProps {
  type?: string;
  format?: string;
  description?: string;
  title?: string;
  default?: unknown;
  nullable?: boolean;
  enum?: unknown[];
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  multipleOf?: number;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  items?: JSONSchemaProps;
  allOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: unknown[];
}

/** True for a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The schema of a `properties` entry or of `additionalProperties`, for a key of an object node. */
export function childSchema(schema: JSONSchemaProps | undefined, key: string): JSONSchemaProps | undefined {
  if (!schema) return undefined;
  const named = schema.properties?.[key];
  if (named) return named;
  return typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
}
