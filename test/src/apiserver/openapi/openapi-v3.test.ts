// OpenAPI v3/v2 documents: the index and its hashes, paths kubectl reads, CRD schemas added and taken back.
import { describe, expect, it } from 'vitest';
import {
  crdKindSchemas,
  type JsonSchema,
  OpenApiSchemas,
  OpenApiV3Documents,
  openApiV2Document,
  openApiV3Document,
} from '../../../../src/apiserver/openapi/index.ts';
import { RESOURCES, type ResourceDef } from '../../../../src/apiserver/resource-table.ts';

type Doc = {
  paths: Record<string, Record<string, JsonSchema>>;
  components: { schemas: Record<string, JsonSchema> };
};

const WIDGETS: ResourceDef = {
  ...RESOURCES.find((d) => d.resource === 'configmaps')!,
  group: 'example.com',
  version: 'v1',
  resource: 'widgets',
  singular: 'widget',
  kind: 'Widget',
  subresources: ['status'],
  patchTypes: ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'],
};

describe('OpenAPI v3 documents', () => {
  it('list every served group-version with an upper-case SHA-512 hash, stable while nothing changes', () => {
    const docs = new OpenApiV3Documents(() => RESOURCES, new OpenApiSchemas());
    const root = docs.root() as { paths: Record<string, { serverRelativeURL: string }> };
    expect(root.paths['api/v1']!.serverRelativeURL).toMatch(/^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]{128}$/);
    expect(root.paths['apis/apps/v1']).toBeDefined();
    expect(docs.root()).toEqual(root);
    expect(docs.resolve('apis/apps/v1')).toBe(docs.resolve('apis/apps/v1'));
    expect(docs.resolve('apis/nope/v1')).toBeUndefined();
    expect(docs.resolve('api/v1/extra')).toBeUndefined();
  });

  it('tag each operation with its kind and list the query parameters and PATCH bodies kubectl looks for', () => {
    const doc = openApiV3Document(RESOURCES, new OpenApiSchemas(), 'apps', 'v1') as Doc;
    const object = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']!;
    expect(object.patch!['x-kubernetes-group-version-kind']).toEqual({
      group: 'apps',
      version: 'v1',
      kind: 'Deployment',
    });
    expect((object.patch!.parameters as { name: string }[]).map((p) => p.name)).toContain('fieldValidation');
    expect(Object.keys((object.patch!.requestBody as { content: object }).content)).toContain(
      'application/strategic-merge-patch+json',
    );
    expect(object.get!.responses).toMatchObject({
      '200': {
        content: {
          'application/json': { schema: { $ref: '#/components/schemas/io.k8s.api.apps.v1.Deployment' } },
        },
      },
    });
    expect(doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/status']).toBeDefined();
    expect(doc.components.schemas).toHaveProperty(['io.k8s.api.core.v1.PodSpec']);
    expect(doc.components.schemas).toHaveProperty(['io.k8s.apimachinery.pkg.apis.meta.v1.Patch']);
    expect(doc.components.schemas).not.toHaveProperty(['io.k8s.api.rbac.v1.Role']);
  });

  it("serve a CRD's schemas while they are registered, and an any-object schema before", () => {
    const schemas = new OpenApiSchemas();
    const table = [...RESOURCES, WIDGETS];
    const docs = new OpenApiV3Documents(() => table, schemas);
    const before = docs.resolve('apis/example.com/v1') as Doc;
    const hashBefore = (docs.root() as { paths: Record<string, { serverRelativeURL: string }> }).paths[
      'apis/example.com/v1'
    ];
    expect(before.components.schemas['com.example.v1.Widget']).toMatchObject({
      'x-kubernetes-preserve-unknown-fields': true,
      'x-kubernetes-group-version-kind': [{ group: 'example.com', version: 'v1', kind: 'Widget' }],
    });
    const patch = before.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}']!.patch!;
    expect(Object.keys((patch.requestBody as { content: object }).content)).not.toContain(
      'application/strategic-merge-patch+json',
    );

    const spec = {
      type: 'object',
      description: 'What the widget should be.',
      properties: { size: { type: 'integer' } },
    };
    schemas.setGroupVersion(
      'widgets.example.com',
      'example.com',
      'v1',
      crdKindSchemas({
        group: 'example.com',
        version: 'v1',
        kind: 'Widget',
        schema: { type: 'object', properties: { spec } },
      }),
    );
    const after = docs.resolve('apis/example.com/v1') as Doc;
    const widget = after.components.schemas['com.example.v1.Widget']!;
    expect((widget.properties as Record<string, JsonSchema>).spec).toEqual(spec);
    expect(after.components.schemas).toHaveProperty(['com.example.v1.WidgetList']);
    expect(after.components.schemas).toHaveProperty(['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']);
    const hashAfter = (docs.root() as { paths: Record<string, { serverRelativeURL: string }> }).paths[
      'apis/example.com/v1'
    ];
    expect(hashAfter).not.toEqual(hashBefore);
    expect(schemas.kindSchemaName('example.com', 'v1', 'Widget')).toBe('com.example.v1.Widget');

    schemas.removeGroupVersion('widgets.example.com', 'example.com', 'v1');
    expect(schemas.kindSchemaName('example.com', 'v1', 'Widget')).toBeUndefined();
    expect(schemas.addedGroupVersions()).toEqual([]);
  });

  it('serve a group-version that only added schemas (no resource yet) too', () => {
    const schemas = new OpenApiSchemas();
    schemas.setGroupVersion(
      'x',
      'late.example.com',
      'v2',
      crdKindSchemas({ group: 'late.example.com', version: 'v2', kind: 'Late' }),
    );
    const docs = new OpenApiV3Documents(() => RESOURCES, schemas);
    expect(Object.keys((docs.root() as { paths: object }).paths)).toContain('apis/late.example.com/v2');
    expect((docs.resolve('apis/late.example.com/v2') as Doc).components.schemas).toHaveProperty([
      'com.example.late.v2.Late',
    ]);
  });
});

describe('the OpenAPI v2 document', () => {
  it('carries every path and definition, refs under #/definitions/', () => {
    const doc = openApiV2Document(RESOURCES, new OpenApiSchemas()) as {
      swagger: string;
      paths: Record<string, Record<string, { parameters: { name: string; in: string }[] }>>;
      definitions: Record<string, JsonSchema>;
    };
    expect(doc.swagger).toBe('2.0');
    expect(doc.definitions['io.k8s.api.core.v1.Pod']).toBeDefined();
    const spec = (doc.definitions['io.k8s.api.core.v1.Pod']!.properties as Record<string, JsonSchema>).spec!;
    expect(spec.$ref).toBe('#/definitions/io.k8s.api.core.v1.PodSpec');
    expect(JSON.stringify(doc)).not.toContain('#/components/schemas/');
    const post = doc.paths['/api/v1/namespaces/{namespace}/pods']!.post!;
    expect(post.parameters).toContainEqual(expect.objectContaining({ name: 'body', in: 'body' }));
  });
});
