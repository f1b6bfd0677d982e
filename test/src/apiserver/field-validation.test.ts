// Tables for fieldValidation: unknown and duplicate fields, the directive, the refusals' words, pruning.
import { describe, expect, it } from 'vitest';
import { ApiStatusError } from '../../../src/apiserver/api-status.ts';
import {
  checkBodyFields,
  fieldProblems,
  fieldValidationDirective,
  goValueString,
  pruneUnknownFields,
  strictDecodingError,
  warningHeaderValue,
} from '../../../src/apiserver/field-validation.ts';
import { crdKindSchemas, type JsonSchema, OpenApiSchemas } from '../../../src/apiserver/openapi/index.ts';

const schemas = new OpenApiSchemas();
const deployment = schemas.schema('io.k8s.api.apps.v1.Deployment')!;
const pod = schemas.schema('io.k8s.api.core.v1.Pod')!;
const DEPLOYMENT = { group: 'apps', version: 'v1', kind: 'Deployment' };

function thrown(f: () => unknown): ApiStatusError {
  try {
    f();
  } catch (error) {
    if (error instanceof ApiStatusError) return error;
    throw error;
  }
  throw new Error('expected an ApiStatusError');
}

describe('fieldProblems', () => {
  // Cases after upstream's field validation tests (test/integration/apiserver/field_validation_test.go),
  // in our own bodies.
  it.each([
    [
      'a valid deployment',
      deployment,
      '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"a"},"spec":{"replicas":1}}',
      [],
    ],
    [
      'an unknown top-level field',
      deployment,
      '{"kind":"Deployment","unknownField":1}',
      ['unknown field "unknownField"'],
    ],
    [
      'an unknown nested field',
      deployment,
      '{"spec":{"replicas":1,"unknownNested":{"a":1}}}',
      ['unknown field "spec.unknownNested"'],
    ],
    [
      'unknown fields in list elements, by index',
      deployment,
      '{"spec":{"template":{"spec":{"containers":[{"name":"a"},{"name":"b","imagePullPolicyy":"Always"}]}}}}',
      ['unknown field "spec.template.spec.containers[1].imagePullPolicyy"'],
    ],
    [
      'a duplicate field',
      deployment,
      '{"spec":{"replicas":1,"replicas":2}}',
      ['duplicate field "spec.replicas"'],
    ],
    [
      'both, in document order',
      deployment,
      '{"metadata":{"name":"a","name":"b"},"spec":{"paused":true,"foo":1}}',
      ['duplicate field "metadata.name"', 'unknown field "spec.foo"'],
    ],
    ['any key of a map (labels)', deployment, '{"metadata":{"labels":{"anything":"x","else":"y"}}}', []],
    [
      'a duplicate key of a map',
      deployment,
      '{"metadata":{"labels":{"a":"x","a":"y"}}}',
      ['duplicate field "metadata.labels.a"'],
    ],
    [
      'any shape inside a free-form object (managedFields.fieldsV1)',
      pod,
      '{"metadata":{"managedFields":[{"manager":"m","fieldsV1":{"f:spec":{"f:x":{}}}}]}}',
      [],
    ],
    [
      'an IntOrString given either form',
      pod,
      '{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80}],"livenessProbe":{"httpGet":{"port":"http"}}}]}}',
      [],
    ],
    ['escaped keys', deployment, '{"spec":{"re\\u0070licas":1,"x\\"y":2}}', ['unknown field "spec.x\\"y"']],
    [
      'no schema: duplicates only',
      undefined,
      '{"a":1,"b":{"c":1,"c":2},"a":3}',
      ['duplicate field "b.c"', 'duplicate field "a"'],
    ],
    ['text that is not JSON: nothing (the decoder answers it)', deployment, '{"spec":', []],
  ] as const)('%s', (_, schema, text, expected) => {
    expect(fieldProblems(text, schema as JsonSchema | undefined, schemas)).toEqual(expected);
  });

  it('reads a CRD structural schema as upstream prunes: properties, preserve-unknown-fields, maps', () => {
    const crd = new OpenApiSchemas();
    crd.setGroupVersion(
      'widgets.example.com',
      'example.com',
      'v1',
      crdKindSchemas({
        group: 'example.com',
        version: 'v1',
        kind: 'Widget',
        schema: {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              properties: {
                size: { type: 'integer' },
                free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                tags: { type: 'object', additionalProperties: { type: 'string' } },
                closed: { type: 'object' },
              },
            },
          },
        },
      }),
    );
    const widget = crd.schema(crd.kindSchemaName('example.com', 'v1', 'Widget')!)!;
    const text = JSON.stringify({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', labels: { a: 'b' } },
      spec: { size: 1, free: { any: { thing: 1 } }, tags: { x: 'y' }, closed: { gone: 1 }, extra: true },
    });
    expect(fieldProblems(text, widget, crd)).toEqual([
      'unknown field "spec.closed.gone"',
      'unknown field "spec.extra"',
    ]);
    const pruned = pruneUnknownFields(JSON.parse(text), widget, crd);
    expect(pruned.spec).toEqual({ size: 1, free: { any: { thing: 1 } }, tags: { x: 'y' }, closed: {} });
  });
});

// Upstream's integration bodies (test/integration/apiserver/field_validation_test.go), rewritten.
const TYPED_BODY = `{
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"name": "first", "name": "second", "labels": {"app": "web"}, "unknownMeta": "x"},
  "spec": {
    "unknown1": "v", "unknownDupe": "a", "unknownDupe": "b", "paused": true, "paused": false,
    "selector": {"matchLabels": {"app": "web"}},
    "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [
      {"name": "web", "image": "nginx", "unknownNested": "v", "imagePullPolicy": "Always", "imagePullPolicy": "Never"}
    ]}}
  }
}`;

const CR_BODY = `{
  "apiVersion": "example.com/v1", "kind": "Gadget",
  "metadata": {"name": "first", "name": "second", "unknownMeta": "x"},
  "spec": {
    "unknown1": "v", "unknownDupe": "a", "unknownDupe": "b", "knownField1": "a", "knownField1": "b",
    "ports": [{"name": "p", "containerPort": 8080, "protocol": "TCP", "hostPort": 1, "hostPort": 2, "unknownNested": "v"}],
    "embeddedObj": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm", "namespace": "ns", "unknownEmbeddedMeta": "x"}}
  }
}`;

function gadgetSchemas(): OpenApiSchemas {
  const s = new OpenApiSchemas();
  const port = {
    type: 'object',
    properties: {
      containerPort: { type: 'integer' },
      hostIP: { type: 'string' },
      hostPort: { type: 'integer' },
      name: { type: 'string' },
      protocol: { type: 'string' },
    },
  };
  s.setGroupVersion(
    'gadgets.example.com',
    'example.com',
    'v1',
    crdKindSchemas({
      group: 'example.com',
      version: 'v1',
      kind: 'Gadget',
      schema: {
        type: 'object',
        properties: {
          spec: {
            type: 'object',
            properties: {
              cronSpec: { type: 'string' },
              knownField1: { type: 'string' },
              embeddedObj: {
                type: 'object',
                'x-kubernetes-embedded-resource': true,
                properties: {
                  apiversion: { type: 'string' },
                  kind: { type: 'string' },
                  metadata: { type: 'object' },
                },
              },
              ports: { type: 'array', items: port },
            },
          },
        },
      },
    }),
  );
  return s;
}

describe("upstream's field validation bodies", () => {
  it('a built-in kind: document order, a field both unknown and repeated reported once as unknown', () => {
    const found = checkBodyFields(schemas, {
      directive: 'Warn',
      target: DEPLOYMENT,
      text: TYPED_BODY,
      body: JSON.parse(TYPED_BODY),
    });
    expect(found).toEqual([
      'duplicate field "metadata.name"',
      'unknown field "metadata.unknownMeta"',
      'unknown field "spec.unknown1"',
      'unknown field "spec.unknownDupe"',
      'duplicate field "spec.paused"',
      'unknown field "spec.template.spec.containers[0].unknownNested"',
      'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
    ]);
  });

  it('a custom resource: duplicates first, then unknown fields in pruning order, embedded metadata last', () => {
    const crd = gadgetSchemas();
    const e = thrown(() =>
      checkBodyFields(crd, {
        directive: 'Strict',
        target: { group: 'example.com', version: 'v1', kind: 'Gadget' },
        text: CR_BODY,
        body: JSON.parse(CR_BODY),
      }),
    );
    expect(e.status.message).toBe(
      'Gadget in version "v1" cannot be handled as a Gadget: strict decoding error: duplicate field "metadata.name", duplicate field "spec.unknownDupe", duplicate field "spec.knownField1", duplicate field "spec.ports[0].hostPort", unknown field "metadata.unknownMeta", unknown field "spec.ports[0].unknownNested", unknown field "spec.unknown1", unknown field "spec.unknownDupe", unknown field "spec.embeddedObj.metadata.unknownEmbeddedMeta"',
    );
  });
});

describe('fieldValidationDirective', () => {
  it.each([
    ['', 'Warn'],
    ['fieldValidation=Strict', 'Strict'],
    ['fieldValidation=Warn', 'Warn'],
    ['fieldValidation=Ignore', 'Ignore'],
  ])('%j → %s', (query, expected) => {
    expect(fieldValidationDirective(new URLSearchParams(query), 'POST')).toBe(expected);
  });

  it.each([
    ['POST', 'CreateOptions'],
    ['PUT', 'UpdateOptions'],
    ['PATCH', 'PatchOptions'],
  ])('refuses an unsupported value on %s as %s does, 422', (method, kind) => {
    const e = thrown(() => fieldValidationDirective(new URLSearchParams('fieldValidation=strict'), method));
    expect(e.statusCode).toBe(422);
    expect(e.status.message).toBe(
      `${kind}.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "Ignore", "Strict", "Warn"`,
    );
  });
});

describe('checkBodyFields', () => {
  const text = '{"apiVersion":"apps/v1","kind":"Deployment","spec":{"replica":2,"replicas":1,"replicas":3}}';
  const body = JSON.parse(text);

  it('Ignore finds nothing; Warn returns the findings; Strict refuses them with 400 in upstream words', () => {
    expect(checkBodyFields(schemas, { directive: 'Ignore', target: DEPLOYMENT, text, body })).toEqual([]);
    expect(checkBodyFields(schemas, { directive: 'Warn', target: DEPLOYMENT, text, body })).toEqual([
      'unknown field "spec.replica"',
      'duplicate field "spec.replicas"',
    ]);
    const e = thrown(() => checkBodyFields(schemas, { directive: 'Strict', target: DEPLOYMENT, text, body }));
    expect(e.statusCode).toBe(400);
    expect(e.status.reason).toBe('BadRequest');
    expect(e.status.message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica", duplicate field "spec.replicas"',
    );
  });

  it('a strategic merge patch: duplicates in the patch, unknown fields of the result, 422 on `patch`', () => {
    const patch = '{"spec":{"paused":true,"paused":false,"foo":1}}';
    const patched = { apiVersion: 'apps/v1', kind: 'Deployment', spec: { paused: false, foo: 1 } };
    const e = thrown(() =>
      checkBodyFields(schemas, {
        directive: 'Strict',
        target: DEPLOYMENT,
        text: patch,
        patch: { type: 'application/strategic-merge-patch+json', patched },
      }),
    );
    expect(e.statusCode).toBe(422);
    expect(e.status.message).toBe(
      ' "" is invalid: patch: Invalid value: "map[spec:map[foo:1 paused:false]]": strict decoding error: duplicate field "spec.paused", unknown field "spec.foo"',
    );
    expect(e.status.details?.causes?.[0]?.field).toBe('patch');
  });

  it('a JSON patch: only the result is read (its text is a list of operations)', () => {
    const patched = { kind: 'Deployment', apiVersion: 'apps/v1', spec: { bar: 1 } };
    const found = checkBodyFields(schemas, {
      directive: 'Warn',
      target: DEPLOYMENT,
      text: '[{"op":"add","path":"/spec/bar","value":1}]',
      patch: { type: 'application/json-patch+json', patched },
    });
    expect(found).toEqual(['unknown field "spec.bar"']);
  });
});

describe('the words around the findings', () => {
  it('joins them as runtime.NewStrictDecodingError does', () => {
    expect(strictDecodingError(['unknown field "a"', 'duplicate field "b"'])).toBe(
      'strict decoding error: unknown field "a", duplicate field "b"',
    );
  });

  it('quotes a Warning header value with warn-code 299', () => {
    expect(warningHeaderValue('unknown field "spec.foo"')).toBe('299 - "unknown field \\"spec.foo\\""');
  });

  it.each([
    [{ b: 1, a: { d: [1, 'x'], c: null } }, 'map[a:map[c:<nil> d:[1 x]] b:1]'],
    [[true, 'two'], '[true two]'],
  ])('prints %j as Go prints it: %s', (value, expected) => {
    expect(goValueString(value)).toBe(expected);
  });

  it('prunes unknown fields and keeps strategic-merge-patch directives', () => {
    const patch = {
      spec: { template: { spec: { $setElementOrder: 1, containers: [{ name: 'a', bogus: 1 }] } }, nope: 1 },
    };
    expect(pruneUnknownFields(patch, deployment, schemas)).toEqual({
      spec: { template: { spec: { $setElementOrder: 1, containers: [{ name: 'a' }] } } },
    });
  });
});
