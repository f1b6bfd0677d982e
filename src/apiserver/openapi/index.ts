// The OpenAPI side of the embedded API server: schemas of every kind served and the v2/v3 documents.
export {
  type BuiltinSchemas,
  builtinSchemas,
  type Gvk,
  gvkKey,
  schemaNameOfMessage,
} from './builtin-schemas.ts';
export { type CrdKindInput, crdKindSchemas, crdSchemaName } from './crd-kind-schemas.ts';
export { type JsonSchema, refName, refTo } from './json-schema.ts';
export { OpenApiSchemas, openApiSchemasOf } from './openapi-schemas.ts';
export { OpenApiV2Documents, openApiV2Document, toV2Schema } from './openapi-v2.ts';
export { encodeOpenApiV2, OPENAPI_V2_PROTOBUF } from './openapi-v2-protobuf.ts';
export { gvPath, OpenApiV3Documents, openApiV3Document, servedGroupVersions } from './openapi-v3.ts';
