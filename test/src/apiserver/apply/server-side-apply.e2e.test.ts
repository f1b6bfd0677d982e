// Server-side apply end to end: kubectl apply --server-side, conflicts, --force-conflicts, managedFields, raw PATCHes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type RunningApiServer, startApiServer } from '../../../../src/apiserver/index.ts';
import { KUBECTL, kubectlRunner } from '../../../helpers/kubectl.ts';
import { request } from '../fixtures/http.ts';

/** A server-side apply PATCH of `yaml` to `url` (query included). */
const applyAt = (server: RunningApiServer, url: string, yaml: string) =>
  request(server, 'PATCH', url, { raw: yaml, headers: { 'Content-Type': 'application/apply-patch+yaml' } });

interface Entry {
  manager: string;
  operation: string;
  apiVersion?: string;
  subresource?: string;
  fieldsV1: Record<string, unknown>;
}

const deployment = (replicas: number, image: string, labels = '{app: web}') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  labels: ${labels}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: nginx
        image: ${image}
        ports: [{containerPort: 80}]
`;

describe('server-side apply over HTTP', () => {
  let server: RunningApiServer;
  const path = '/api/v1/namespaces/default/configmaps/cfg';
  const apply = (query: string, body: string) => applyAt(server, `${path}?${query}`, body);

  beforeAll(async () => {
    server = await startApiServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses an apply without fieldManager, and force on another patch type, as kube-apiserver', async () => {
    const missing = await apply('', 'apiVersion: v1\nkind: ConfigMap\ndata: {a: "1"}\n');
    expect(missing.status).toBe(422);
    expect(missing.body.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    );
    const forced = await request(server, 'PATCH', `${path}?force=true`, {
      raw: '{}',
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(forced.status).toBe(422);
    expect(forced.body.details.causes[0].field).toBe('force');
  });

  it('creates on apply (201), answers 200 after, and 409 Conflict naming the owner', async () => {
    const created = await apply(
      'fieldManager=one',
      'apiVersion: v1\nkind: ConfigMap\ndata: {a: "1", b: "2"}\n',
    );
    expect(created.status).toBe(201);
    expect(created.body.metadata.managedFields).toEqual([
      {
        manager: 'one',
        operation: 'Apply',
        apiVersion: 'v1',
        time: expect.any(String),
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:a': {}, 'f:b': {} } },
      },
    ]);
    const same = await apply('fieldManager=two', 'apiVersion: v1\nkind: ConfigMap\ndata: {a: "1"}\n');
    expect(same.status).toBe(200);
    const clash = await apply('fieldManager=two', 'apiVersion: v1\nkind: ConfigMap\ndata: {a: "9"}\n');
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "one": .data.a',
      details: {
        causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "one"', field: '.data.a' }],
      },
    });
    const kept = await request(server, 'GET', path);
    expect(kept.body.data).toEqual({ a: '1', b: '2' });
    const taken = await apply(
      'fieldManager=two&force=true',
      'apiVersion: v1\nkind: ConfigMap\ndata: {a: "9"}\n',
    );
    expect(taken.status).toBe(200);
    expect(taken.body.data).toEqual({ a: '9', b: '2' });
    expect(taken.body.metadata.managedFields.map((e: Entry) => [e.manager, e.fieldsV1])).toEqual([
      ['one', { 'f:data': { 'f:b': {} } }],
      ['two', { 'f:data': { 'f:a': {} } }],
    ]);
  });

  it('records the user agent program as the manager of a write without fieldManager', async () => {
    const out = await request(server, 'PUT', path, {
      body: { ...(await request(server, 'GET', path)).body, data: { a: '9', b: '2', c: '3' } },
      headers: { 'User-Agent': 'my-controller/v0.1 (linux/amd64)' },
    });
    expect(out.status).toBe(200);
    expect(out.body.metadata.managedFields.find((e: Entry) => e.manager === 'my-controller')).toMatchObject({
      operation: 'Update',
      fieldsV1: { 'f:data': { 'f:c': {} } },
    });
  });

  it('applies to /status: the entry names the subresource and spec in the body is ignored', async () => {
    const base = '/apis/apps/v1/namespaces/default/deployments/sub';
    const body = (extra: string) =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: sub}\nspec:\n  replicas: 1\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: i}]}\n${extra}`;
    const created = await applyAt(server, `${base}?fieldManager=one`, body(''));
    expect(created.status).toBe(201);
    expect(created.body.metadata.generation).toBe(1);
    const status = await applyAt(
      server,
      `${base}/status?fieldManager=ctrl`,
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: sub}\nspec: {replicas: 9}\nstatus: {replicas: 1, readyReplicas: 1}\n',
    );
    expect(status.status).toBe(200);
    expect(status.body.spec.replicas).toBe(1);
    expect(status.body.status).toEqual({ replicas: 1, readyReplicas: 1 });
    expect(status.body.metadata.managedFields.find((e: Entry) => e.manager === 'ctrl')).toMatchObject({
      operation: 'Apply',
      subresource: 'status',
      fieldsV1: { 'f:status': { 'f:readyReplicas': {}, 'f:replicas': {} } },
    });
    // A spec change through apply bumps the generation; status in the body of the object is not applied.
    const changed = await applyAt(
      server,
      `${base}?fieldManager=one`,
      body('status: {replicas: 5}\n').replace('replicas: 1', 'replicas: 2'),
    );
    expect([
      changed.body.metadata.generation,
      changed.body.spec.replicas,
      changed.body.status.replicas,
    ]).toEqual([2, 2, 1]);
  });

  it('a dry run stores nothing; a stale resourceVersion is 409 even when nothing would change', async () => {
    const before = (await request(server, 'GET', path)).body;
    const dry = await apply(
      'fieldManager=two&force=true&dryRun=All',
      'apiVersion: v1\nkind: ConfigMap\ndata: {a: "dry"}\n',
    );
    expect(dry.status).toBe(200);
    expect(dry.body.data.a).toBe('dry');
    expect((await request(server, 'GET', path)).body).toEqual(before);
    const stale = await apply(
      'fieldManager=two',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {resourceVersion: "1"}\ndata: {a: "9"}\n',
    );
    expect(stale.status).toBe(409);
    expect(stale.body.message).toContain('the object has been modified');
  });

  it('a field the applier gives up and nobody holds gets its default back (replicas hand-off)', async () => {
    const base = '/apis/apps/v1/namespaces/default/deployments/handoff';
    const body = (replicas: string) =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: handoff}\nspec:\n${replicas}  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: i}]}\n`;
    const send = (text: string) => applyAt(server, `${base}?fieldManager=deployer`, text);
    expect((await send(body('  replicas: 4\n'))).body.spec.replicas).toBe(4);
    const out = await send(body(''));
    expect(out.status).toBe(200);
    expect(out.body.spec.replicas).toBe(1);
    expect(JSON.stringify(out.body.metadata.managedFields)).not.toContain('f:replicas');
  });

  it('refuses fields the kind does not declare, as structured-merge-diff does (500, every path named)', async () => {
    const out = await applyAt(
      server,
      '/apis/apps/v1/namespaces/default/deployments/typo?fieldManager=x',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: typo, namespace: default}\nspec:\n  replicaz: 2\n  template:\n    spec: {containers: [{name: c, image: i, imagePullPolice: Always}]}\n',
    );
    expect(out.status).toBe(500);
    expect(out.body.message).toBe(
      'failed to create typed patch object (default/typo; apps/v1, Kind=Deployment): errors:\n' +
        '  .spec.replicaz: field not declared in schema\n' +
        '  .spec.template.spec.containers[name="c"].imagePullPolice: field not declared in schema',
    );
    expect((await request(server, 'GET', '/apis/apps/v1/namespaces/default/deployments/typo')).status).toBe(
      404,
    );
  });

  it('refuses an apply to the status of a missing object with 404', async () => {
    const out = await applyAt(
      server,
      '/apis/apps/v1/namespaces/default/deployments/none/status?fieldManager=x',
      'apiVersion: apps/v1\nkind: Deployment\nstatus: {replicas: 1}\n',
    );
    expect(out.status).toBe(404);
  });
});

/** A CRD whose lists are one of each kind: keyed by name, a set, and undeclared (atomic). */
const ROUTE_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'routes.ssa.example.com' },
  spec: {
    group: 'ssa.example.com',
    scope: 'Namespaced',
    names: { plural: 'routes', singular: 'route', kind: 'Route' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  backends: {
                    type: 'array',
                    'x-kubernetes-list-type': 'map',
                    'x-kubernetes-list-map-keys': ['name'],
                    items: {
                      type: 'object',
                      required: ['name'],
                      properties: { name: { type: 'string' }, weight: { type: 'integer' } },
                    },
                  },
                  hosts: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
                  rules: { type: 'array', items: { type: 'string' } },
                },
              },
            },
          },
        },
      },
    ],
  },
};

describe('server-side apply of custom resources', () => {
  let server: RunningApiServer;
  const route = '/apis/ssa.example.com/v1/namespaces/default/routes/r';
  const apply = (manager: string, spec: string, force = false) =>
    applyAt(
      server,
      `${route}?fieldManager=${manager}${force ? '&force=true' : ''}`,
      `apiVersion: ssa.example.com/v1\nkind: Route\nmetadata: {name: r}\nspec: ${spec}\n`,
    );

  beforeAll(async () => {
    server = await startApiServer();
    const created = await request(server, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      body: ROUTE_CRD,
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('merges the lists as the schema declares them: by key, as a set, and whole', async () => {
    expect(
      (await apply('a', '{backends: [{name: x, weight: 1}], hosts: [h1], rules: [r1, r2]}')).status,
    ).toBe(201);
    const out = await apply('b', '{backends: [{name: y, weight: 2}], hosts: [h2]}');
    expect(out.status).toBe(200);
    expect(out.body.spec).toEqual({
      backends: [
        { name: 'x', weight: 1 },
        { name: 'y', weight: 2 },
      ],
      hosts: ['h1', 'h2'],
      rules: ['r1', 'r2'],
    });
    const owners = Object.fromEntries(
      out.body.metadata.managedFields.map((e: Entry) => [e.manager, e.fieldsV1]),
    );
    expect(owners.b).toEqual({
      'f:spec': {
        'f:backends': { 'k:{"name":"y"}': { '.': {}, 'f:name': {}, 'f:weight': {} } },
        'f:hosts': { 'v:"h2"': {} },
      },
    });
    expect(owners.a['f:spec']['f:rules']).toEqual({});
  });

  it('an undeclared list is atomic: a different one conflicts, and is replaced whole when forced', async () => {
    const clash = await apply('b', '{rules: [r3]}');
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe('Apply failed with 1 conflict: conflict with "a": .spec.rules');
    const forced = await apply('b', '{backends: [{name: y, weight: 2}], hosts: [h2], rules: [r3]}', true);
    expect(forced.body.spec.rules).toEqual(['r3']);
  });

  it('an item its applier drops goes; items of others stay', async () => {
    const out = await apply('a', '{backends: [], hosts: [h1]}');
    expect(out.status).toBe(200);
    expect(out.body.spec).toEqual({
      backends: [{ name: 'y', weight: 2 }],
      hosts: ['h1', 'h2'],
      rules: ['r3'],
    });
  });
});

describe.skipIf(!KUBECTL)('kubectl apply --server-side', () => {
  let server: RunningApiServer;
  let dir: string;
  let kubeconfig: string;
  const { kubectl, ok } = kubectlRunner(() => kubeconfig);
  const managed = async (kind: string, name: string): Promise<Entry[]> =>
    parse(await ok(['get', kind, name, '-o', 'yaml', '--show-managed-fields'])).metadata.managedFields;

  beforeAll(async () => {
    server = await startApiServer();
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-ssa-'));
    kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('applies, and shows managedFields only with --show-managed-fields', async () => {
    expect(await ok(['apply', '--server-side', '-f', '-'], deployment(2, 'nginx:1.27'))).toBe(
      'deployment.apps/web serverside-applied\n',
    );
    expect(parse(await ok(['get', 'deploy', 'web', '-o', 'yaml'])).metadata.managedFields).toBeUndefined();
    const [entry] = await managed('deploy', 'web');
    expect(entry).toMatchObject({
      manager: 'kubectl',
      operation: 'Apply',
      apiVersion: 'apps/v1',
      fieldsType: 'FieldsV1',
    });
    expect(entry!.fieldsV1).toMatchObject({
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': {
        'f:replicas': {},
        'f:selector': {},
        'f:template': {
          'f:spec': {
            'f:containers': {
              'k:{"name":"nginx"}': {
                '.': {},
                'f:image': {},
                'f:name': {},
                'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
              },
            },
          },
        },
      },
    });
  });

  it('conflicts with another manager, then --force-conflicts takes the field', async () => {
    const clash = await kubectl(
      ['apply', '--server-side', '--field-manager=deployer', '-f', '-'],
      deployment(5, 'nginx:1.27'),
    );
    expect(clash.code).not.toBe(0);
    expect(clash.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas');
    expect(clash.stderr).toContain('--force-conflicts');
    expect(await ok(['get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas}'])).toBe('2');
    await ok(
      ['apply', '--server-side', '--field-manager=deployer', '--force-conflicts', '-f', '-'],
      deployment(5, 'nginx:1.27'),
    );
    expect(await ok(['get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas}'])).toBe('5');
    const entries = await managed('deploy', 'web');
    const kubectlFields = JSON.stringify(entries.find((e) => e.manager === 'kubectl')!.fieldsV1);
    expect(kubectlFields).not.toContain('f:replicas');
    expect(JSON.stringify(entries.find((e) => e.manager === 'deployer')!.fieldsV1)).toContain('f:replicas');
  });

  it('a label the applier drops is removed; a label another manager set stays', async () => {
    await ok(['label', 'deploy', 'web', 'team=blue']);
    const entries = await managed('deploy', 'web');
    expect(entries.find((e) => e.manager === 'kubectl-label')).toMatchObject({
      operation: 'Update',
      fieldsV1: { 'f:metadata': { 'f:labels': { 'f:team': {} } } },
    });
    await ok(['apply', '--server-side', '-f', '-'], deployment(5, 'nginx:1.27', '{tier: front}'));
    const labels = parse(await ok(['get', 'deploy', 'web', '-o', 'yaml'])).metadata.labels;
    // app is still applied by "deployer"; tier is new; team belongs to kubectl-label.
    expect(labels).toEqual({ app: 'web', tier: 'front', team: 'blue' });
    await ok(
      ['apply', '--server-side', '--field-manager=deployer', '-f', '-'],
      deployment(5, 'nginx:1.27', '{}'),
    );
    expect(parse(await ok(['get', 'deploy', 'web', '-o', 'yaml'])).metadata.labels).toEqual({
      tier: 'front',
      team: 'blue',
    });
  });

  it('a scale shows up as its own manager with subresource scale, and conflicts name it', async () => {
    await ok(['scale', 'deploy', 'web', '--replicas=7']);
    const scaled = (await managed('deploy', 'web')).find((e) => e.subresource === 'scale');
    expect(scaled).toMatchObject({ operation: 'Update', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
    const clash = await kubectl(
      ['apply', '--server-side', '--field-manager=deployer', '-f', '-'],
      deployment(5, 'nginx:1.27', '{}'),
    );
    expect(clash.stderr).toContain(
      `conflict with "${scaled!.manager}" with subresource "scale" using apps/v1: .spec.replicas`,
    );
  });

  it('takes over from client-side apply without conflicts on its first server-side apply', async () => {
    const cm = (v: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: migrated, namespace: default}\ndata: {key: "${v}"}\n`;
    await ok(['apply', '-f', '-'], cm('one'));
    expect((await managed('cm', 'migrated')).map((e) => [e.manager, e.operation])).toEqual([
      ['kubectl-client-side-apply', 'Update'],
    ]);
    await ok(['apply', '--server-side', '-f', '-'], cm('two'));
    const after = parse(await ok(['get', 'cm', 'migrated', '-o', 'yaml', '--show-managed-fields']));
    expect(after.data).toEqual({ key: 'two' });
    expect(
      JSON.parse(after.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).data,
    ).toEqual({
      key: 'two',
    });
    expect(after.metadata.managedFields.find((e: Entry) => e.manager === 'kubectl')).toMatchObject({
      operation: 'Apply',
      fieldsV1: { 'f:data': { 'f:key': {} } },
    });
  });

  it('names an undeclared field as a real cluster does', async () => {
    const r = await kubectl(
      ['apply', '--server-side', '-f', '-'],
      deployment(5, 'nginx:1.27').replace('replicas:', 'replicaz:'),
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      'failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.replicaz: field not declared in schema',
    );
  });

  it("merges a Service's ports by port and protocol across managers; a repeated apply writes nothing", async () => {
    const svc = (ports: string) =>
      `apiVersion: v1\nkind: Service\nmetadata: {name: front, namespace: default}\nspec:\n  selector: {app: web}\n  ports: ${ports}\n`;
    await ok(['apply', '--server-side', '-f', '-'], svc('[{name: http, port: 80}]'));
    await ok(
      ['apply', '--server-side', '--field-manager=dns', '-f', '-'],
      svc('[{name: dns, port: 53, protocol: UDP}]'),
    );
    const got = parse(await ok(['get', 'svc', 'front', '-o', 'yaml']));
    expect(got.spec.ports.map((p: { port: number; protocol: string }) => `${p.port}/${p.protocol}`)).toEqual([
      '80/TCP',
      '53/UDP',
    ]);
    const rv = got.metadata.resourceVersion;
    expect(await ok(['apply', '--server-side', '-f', '-'], svc('[{name: http, port: 80}]'))).toBe(
      'service/front serverside-applied\n',
    );
    expect(parse(await ok(['get', 'svc', 'front', '-o', 'yaml'])).metadata.resourceVersion).toBe(rv);
    const owners = Object.fromEntries(
      (await managed('svc', 'front')).map((e) => [e.manager, JSON.stringify(e.fieldsV1)]),
    );
    expect(owners.kubectl).toContain('k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}');
    expect(owners.dns).toContain('k:{\\"port\\":53,\\"protocol\\":\\"UDP\\"}');
  });

  it('a dry run changes nothing', async () => {
    await ok(
      [
        'apply',
        '--server-side',
        '--dry-run=server',
        '--field-manager=deployer',
        '--force-conflicts',
        '-f',
        '-',
      ],
      deployment(9, 'nginx:1.28'),
    );
    expect(await ok(['get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas}'])).toBe('7');
  });
});
