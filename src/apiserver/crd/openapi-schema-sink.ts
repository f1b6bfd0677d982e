// The CRD controller's schemas, handed to the server's OpenAPI documents (kubectl explain, field validation).
import { crdKindSchemas, type JsonSchema, openApiSchemasOf } from '../openapi/index.ts';
import type { Registry } from '../registry.ts';
import type { CrdSchemaSink } from './crd-controller.ts';

/**
 * A sink that publishes each served CRD version under `/openapi/v2` and `/openapi/v3/apis/GROUP/VERSION`
 * (`com.example.v1.Widget` and its List), owned by the CRD's name so deleting the CRD takes them back.
 */
export function openApiSchemaSink(registry: Registry): CrdSchemaSink {
  const schemas = openApiSchemasOf(registry);
  return {
    set: (owner, s) =>
      schemas.setGroupVersion(
        owner,
        s.group,
        s.version,
        crdKindSchemas({ ...s, schema: s.schema as unknown as JsonSchema }),
      ),
    remove: (owner, group, version) => schemas.removeGroupVersion(owner, group, version),
  };
}
