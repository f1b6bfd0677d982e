// The JSON types of a CRD's fields, checked before anything reads them (as Go's decoding of the CRD would).
import type { StatusCause } from '../api-status.ts';
import { fieldError } from './field-error.ts';
import { isJsonObject, type JSONSchemaProps } from './json-schema-props.ts';
import { jsonTypeOf, validateCustomResource } from './validate-custom-resource.ts';

const str: JSONSchemaProps = { type: 'string' };
const strings: JSONSchemaProps = { type: 'array', items: str };
const bool: JSONSchemaProps = { type: 'boolean' };
const anyObject: JSONSchemaProps = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
const names: JSONSchemaProps = {
  type: 'object',
  properties: {
    plural: str,
    singular: str,
    kind: str,
    listKind: str,
    shortNames: strings,
    categories: strings,
  },
};

/** The CRD's own fields, down to each version's schema (checked apart, by {@link schemaShape}). */
const CRD_SHAPE: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        group: str,
        scope: str,
        names,
        preserveUnknownFields: bool,
        conversion: { type: 'object', properties: { strategy: str, webhook: anyObject } },
        versions: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: str,
              served: bool,
              storage: bool,
              deprecated: bool,
              deprecationWarning: str,
              schema: { type: 'object', properties: { openAPIV3Schema: anyObject } },
              subresources: {
                type: 'object',
                properties: {
                  status: anyObject,
                  scale: {
                    type: 'object',
                    properties: { specReplicasPath: str, statusReplicasPath: str, labelSelectorPath: str },
                  },
                },
              },
              additionalPrinterColumns: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    name: str,
                    type: str,
                    format: str,
                    description: str,
                    priority: { type: 'integer' },
                    jsonPath: str,
                  },
                },
              },
              selectableFields: { type: 'array', items: { type: 'object', properties: { jsonPath: str } } },
            },
          },
        },
      },
    },
    status: {
      type: 'object',
      properties: {
        acceptedNames: names,
        storedVersions: strings,
        conditions: { type: 'array', items: anyObject },
      },
    },
  },
};

const NODE_FIELDS: Record<string, string> = {
  type: 'string',
  format: 'string',
  description: 'string',
  title: 'string',
  pattern: 'string',
  nullable: 'boolean',
  exclusiveMaximum: 'boolean',
  exclusiveMinimum: 'boolean',
  uniqueItems: 'boolean',
  maximum: 'number',
  minimum: 'number',
  multipleOf: 'number',
  maxLength: 'integer',
  minLength: 'integer',
  maxItems: 'integer',
  minItems: 'integer',
  maxProperties: 'integer',
  minProperties: 'integer',
  enum: 'array',
  required: 'array',
  properties: 'object',
  'x-kubernetes-preserve-unknown-fields': 'boolean',
  'x-kubernetes-embedded-resource': 'boolean',
  'x-kubernetes-int-or-string': 'boolean',
  'x-kubernetes-list-type': 'string',
  'x-kubernetes-list-map-keys': 'array',
  'x-kubernetes-map-type': 'string',
  'x-kubernetes-validations': 'array',
};

/** The JSON types of one schema node and of the nodes below it. */
function schemaShape(node: unknown, path: string, out: StatusCause[]): void {
  if (!isJsonObject(node)) {
    out.push(
      fieldError.typeInvalid(
        path,
        jsonTypeOf(node),
        `${path} in body must be of type object: ${JSON.stringify(jsonTypeOf(node))}`,
      ),
    );
    return;
  }
  for (const [field, want] of Object.entries(NODE_FIELDS)) {
    const v = node[field];
    if (v === undefined) continue;
    const got = jsonTypeOf(v);
    if (got !== want && !(want === 'number' && got === 'integer'))
      out.push(
        fieldError.typeInvalid(
          `${path}.${field}`,
          got,
          `${path}.${field} in body must be of type ${want}: ${JSON.stringify(got)}`,
        ),
      );
  }
  for (const list of ['required', 'x-kubernetes-list-map-keys'])
    if (Array.isArray(node[list]) && (node[list] as unknown[]).some((x) => typeof x !== 'string'))
      out.push(fieldError.invalid(`${path}.${list}`, node[list], 'must be a list of strings'));
  if (isJsonObject(node.properties))
    for (const [k, v] of Object.entries(node.properties)) schemaShape(v, `${path}.properties[${k}]`, out);
  if (node.items !== undefined) schemaShape(node.items, `${path}.items`, out);
  if (node.not !== undefined) schemaShape(node.not, `${path}.not`, out);
  if (node.additionalProperties !== undefined && typeof node.additionalProperties !== 'boolean')
    schemaShape(node.additionalProperties, `${path}.additionalProperties`, out);
  for (const junctor of ['allOf', 'anyOf', 'oneOf']) {
    const list = node[junctor];
    if (list === undefined) continue;
    if (!Array.isArray(list))
      out.push(fieldError.invalid(`${path}.${junctor}`, list, 'must be a list of schemas'));
    else
      list.forEach((x, i) => {
        schemaShape(x, `${path}.${junctor}[${i}]`, out);
      });
  }
}

/**
 * The type errors of a CRD's fields and of its versions' schemas, each naming the field; nothing
 * else of the CRD is looked at while there are any (so the other checks can trust the shapes).
 * @returns the causes, empty when every field has its JSON type
 */
export function crdShapeProblems(crd: unknown): StatusCause[] {
  const out = validateCustomResource(crd, CRD_SHAPE);
  if (out.length) return out;
  const versions =
    (crd as { spec?: { versions?: { schema?: { openAPIV3Schema?: unknown } }[] } }).spec?.versions ?? [];
  versions.forEach((v, i) => {
    const schema = v.schema?.openAPIV3Schema;
    if (schema !== undefined) schemaShape(schema, `spec.versions[${i}].schema.openAPIV3Schema`, out);
  });
  return out;
}
