// Tables for the built-in OpenAPI schemas: names, kinds, formats, list semantics and the v2 form.
import { describe, expect, it } from 'vitest';
import {
  ATOMIC_STRUCTS,
  FIELD_ENUMS,
  KIND_DESCRIPTIONS,
  LIST_NOTES,
} from '../../../../src/apiserver/openapi/field-notes.ts';
import {
  builtinSchemas,
  type JsonSchema,
  OpenApiSchemas,
  openApiV3Document,
  schemaNameOfMessage,
  toV2Schema,
} from '../../../../src/apiserver/openapi/index.ts';
import { protobufKinds } from '../../../../src/apiserver/protobuf/protobuf-kinds.ts';
import { RESOURCES } from '../../../../src/apiserver/resource-table.ts';

const schemas = new OpenApiSchemas();

function schema(name: string): JsonSchema {
  const s = schemas.schema(name);
  expect(s, name).toBeDefined();
  return s!;
}

function prop(name: string, field: string): JsonSchema {
  const p = (schema(name).properties as Record<string, JsonSchema>)[field];
  expect(p, `${name}.${field}`).toBeDefined();
  return p!;
}

describe('built-in OpenAPI schemas', () => {
  it('give every kind with a protobuf form a schema, with its group-version-kind, and its List one', () => {
    for (const k of protobufKinds()) {
      const [group, version] = k.apiVersion.includes('/') ? k.apiVersion.split('/') : ['', k.apiVersion];
      const name = schemas.kindSchemaName(group!, version!, k.kind);
      expect(name, `${k.apiVersion} ${k.kind}`).toBe(schemaNameOfMessage(k.message));
      expect(schema(name!)['x-kubernetes-group-version-kind']).toContainEqual({
        group,
        version,
        kind: k.kind,
      });
      const props = schema(name!).properties as Record<string, JsonSchema>;
      expect(Object.keys(props).slice(0, 2)).toEqual(['apiVersion', 'kind']);
    }
  });

  it('serve, in each group-version document, a schema for every kind served and its List', () => {
    for (const def of RESOURCES) {
      const doc = openApiV3Document(RESOURCES, schemas, def.group, def.version) as {
        components: { schemas: Record<string, JsonSchema> };
      };
      for (const kind of [def.kind, `${def.kind}List`]) {
        const found = Object.values(doc.components.schemas).filter((s) =>
          (s['x-kubernetes-group-version-kind'] as object[] | undefined)?.some(
            (g) => JSON.stringify(g) === JSON.stringify({ group: def.group, version: def.version, kind }),
          ),
        );
        expect(found, `${def.group}/${def.version} ${kind}`).toHaveLength(1);
        expect(Object.keys(found[0]!.properties as object)).toEqual(
          expect.arrayContaining(['apiVersion', 'kind', 'metadata']),
        );
      }
    }
  });

  it.each([
    ['core/v1.Pod', 'io.k8s.api.core.v1.Pod'],
    ['apps/v1.Deployment', 'io.k8s.api.apps.v1.Deployment'],
    ['rbac/v1.ClusterRole', 'io.k8s.api.rbac.v1.ClusterRole'],
    ['storage/v1.CSINode', 'io.k8s.api.storage.v1.CSINode'],
    ['meta/v1.ObjectMeta', 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'],
  ])('names %s %s, as upstream', (message, name) => {
    expect(schemaNameOfMessage(message)).toBe(name);
    expect(builtinSchemas().schemas.has(name)).toBe(true);
  });

  it.each([
    // [schema, field, what the field's schema holds]
    ['io.k8s.api.core.v1.ContainerPort', 'containerPort', { type: 'integer', format: 'int32' }],
    ['io.k8s.api.core.v1.Container', 'image', { type: 'string' }],
    ['io.k8s.api.core.v1.Container', 'tty', { type: 'boolean' }],
    [
      'io.k8s.api.core.v1.Secret',
      'data',
      { type: 'object', additionalProperties: { type: 'string', format: 'byte' } },
    ],
    [
      'io.k8s.api.core.v1.ServicePort',
      'targetPort',
      { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString' },
    ],
    [
      'io.k8s.api.core.v1.ResourceRequirements',
      'limits',
      {
        type: 'object',
        additionalProperties: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity' },
      },
    ],
    [
      'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      'creationTimestamp',
      { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time' }] },
    ],
  ])('%s.%s is %j', (name, field, expected) => {
    expect(prop(name, field)).toMatchObject(expected);
  });

  it('gives IntOrString and Quantity their upstream v3 forms (one of two types)', () => {
    expect(schema('io.k8s.apimachinery.pkg.util.intstr.IntOrString')).toMatchObject({
      oneOf: [{ type: 'integer' }, { type: 'string' }],
      format: 'int-or-string',
    });
    expect(schema('io.k8s.apimachinery.pkg.api.resource.Quantity')).toMatchObject({
      oneOf: [{ type: 'string' }, { type: 'number' }],
    });
    expect(schema('io.k8s.apimachinery.pkg.apis.meta.v1.Time')).toMatchObject({
      type: 'string',
      format: 'date-time',
    });
  });

  it.each([
    // [schema, list field, list type, map keys, patch merge key]
    ['io.k8s.api.core.v1.PodSpec', 'containers', 'map', ['name'], 'name'],
    ['io.k8s.api.core.v1.PodSpec', 'volumes', 'map', ['name'], 'name'],
    ['io.k8s.api.core.v1.Container', 'env', 'map', ['name'], 'name'],
    ['io.k8s.api.core.v1.Container', 'volumeMounts', 'map', ['mountPath'], 'mountPath'],
    ['io.k8s.api.core.v1.Container', 'ports', 'map', ['containerPort', 'protocol'], 'containerPort'],
    ['io.k8s.api.core.v1.ServiceSpec', 'ports', 'map', ['port', 'protocol'], 'port'],
    ['io.k8s.api.core.v1.PodStatus', 'conditions', 'map', ['type'], 'type'],
    ['io.k8s.api.core.v1.NodeSpec', 'taints', 'map', ['key'], 'key'],
    ['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'ownerReferences', 'map', ['uid'], 'uid'],
  ])('%s.%s is a list-map keyed by %s', (name, field, type, keys, mergeKey) => {
    expect(prop(name, field)).toMatchObject({
      type: 'array',
      'x-kubernetes-list-type': type,
      'x-kubernetes-list-map-keys': keys,
      'x-kubernetes-patch-merge-key': mergeKey,
      'x-kubernetes-patch-strategy': 'merge',
    });
  });

  it('keeps lists whose elements lack the merge key atomic, and finalizers a set', () => {
    // EndpointSubset.addresses: EndpointAddress has no `type`, unlike NodeStatus.addresses.
    expect(
      prop('io.k8s.api.core.v1.EndpointSubset', 'addresses')['x-kubernetes-patch-merge-key'],
    ).toBeUndefined();
    expect(prop('io.k8s.api.core.v1.NodeStatus', 'addresses')['x-kubernetes-patch-merge-key']).toBe('type');
    expect(prop('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'finalizers')).toMatchObject({
      'x-kubernetes-list-type': 'set',
      'x-kubernetes-patch-strategy': 'merge',
    });
  });

  it('marks fields Go always prints (no omitempty, not pointers) required', () => {
    expect(schema('io.k8s.api.core.v1.Container').required).toContain('name');
    expect(schema('io.k8s.api.core.v1.PodSpec').required).toContain('containers');
    expect(schema('io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference').required).toEqual(
      expect.arrayContaining(['apiVersion', 'kind', 'name', 'uid']),
    );
    expect(schema('io.k8s.api.core.v1.Pod').required).toBeUndefined();
  });

  it('flattens inline fields into their parent and inlines wrapper messages', () => {
    // ConfigMapEnvSource inlines LocalObjectReference: `name` is its own field.
    expect(prop('io.k8s.api.core.v1.ConfigMapEnvSource', 'name')).toMatchObject({ type: 'string' });
    expect(schema('io.k8s.api.core.v1.ConfigMapEnvSource').properties as object).not.toHaveProperty(
      'localObjectReference',
    );
    // ExtraValue is a list of strings in JSON, so a map of them is a map of string arrays.
    expect(prop('io.k8s.api.authentication.v1.UserInfo', 'extra')).toMatchObject({
      type: 'object',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    });
    expect(builtinSchemas().schemas.has('io.k8s.api.authentication.v1.ExtraValue')).toBe(false);
  });

  it('applies every note of field-notes.ts to a field that exists (no stale rows)', () => {
    const all = [...builtinSchemas().schemas.entries()];
    const find = (key: string) => {
      const [message, field] = key.split('.') as [string, string];
      return all.filter(
        ([name, s]) => name.endsWith(`.${message}`) && Object.hasOwn((s.properties ?? {}) as object, field),
      );
    };
    for (const key of Object.keys(LIST_NOTES)) expect(find(key), key).not.toHaveLength(0);
    for (const [key, values] of Object.entries(FIELD_ENUMS)) {
      if (!key.includes('.')) continue;
      const hits = find(key);
      expect(hits, key).not.toHaveLength(0);
      for (const [, s] of hits)
        expect((s.properties as Record<string, JsonSchema>)[key.split('.')[1]!]!.enum, key).toEqual(values);
    }
    for (const kind of new Set(RESOURCES.map((d) => d.kind)))
      expect(KIND_DESCRIPTIONS[kind], kind).toBeDefined();
    for (const message of ATOMIC_STRUCTS)
      expect(schemas.schema(schemaNameOfMessage(message))?.['x-kubernetes-map-type'], message).toBe('atomic');
  });

  it('lists the values of enumerated fields, as kubectl explain shows them', () => {
    expect(prop('io.k8s.api.core.v1.Container', 'imagePullPolicy').enum).toEqual([
      'Always',
      'IfNotPresent',
      'Never',
    ]);
    expect(prop('io.k8s.api.core.v1.ServiceSpec', 'type').enum).toContain('NodePort');
    expect(prop('io.k8s.api.core.v1.Container', 'name').enum).toBeUndefined();
  });

  it('describes the most-read fields and kinds in words', () => {
    for (const field of ['metadata', 'spec', 'status'])
      expect(prop('io.k8s.api.core.v1.Pod', field).description, field).toMatch(/\w+ \w+/);
    expect(prop('io.k8s.api.core.v1.PodSpec', 'containers').description).toMatch(/containers/);
    expect(schema('io.k8s.api.apps.v1.Deployment').description).toMatch(/replicas/);
  });

  it('every $ref of every built-in schema resolves', () => {
    const all = schemas.closure(builtinSchemas().schemas.keys());
    const refs: string[] = [];
    JSON.stringify(all, (key, value) => {
      if (key === '$ref' && typeof value === 'string') refs.push(value); // (a property may be named $ref)
      return value;
    });
    expect(refs.length).toBeGreaterThan(100);
    for (const ref of refs) expect(all, ref).toHaveProperty([ref.slice('#/components/schemas/'.length)]);
  });

  it.each([
    [
      'a described reference',
      { allOf: [{ $ref: '#/components/schemas/X' }], description: 'd' },
      { $ref: '#/definitions/X', description: 'd' },
    ],
    [
      'an array of references',
      { type: 'array', items: { $ref: '#/components/schemas/X' } },
      { type: 'array', items: { $ref: '#/definitions/X' } },
    ],
    [
      'one of two primitive types',
      { oneOf: [{ type: 'integer' }, { type: 'string' }], format: 'int-or-string' },
      { type: 'string', format: 'int-or-string' },
    ],
  ])('v2 form: %s', (_, v3, v2) => {
    expect(toV2Schema(v3)).toEqual(v2);
  });
});
