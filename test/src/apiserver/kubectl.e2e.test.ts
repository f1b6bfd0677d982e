// kubectl end to end against the embedded API server: create, get, selectors, patches, scale, delete, watch, wait.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../../src/apiserver/index.ts';
import { KUBECTL, kubectlRunner } from '../../helpers/kubectl.ts';

if (!KUBECTL)
  console.warn('kubectl end-to-end tests skipped: kubectl is not installed (.ci/run installs it)');

describe.skipIf(!KUBECTL)('kubectl against the embedded API server', () => {
  let server: RunningApiServer;
  let dir: string;
  let kubeconfig: string;

  const { kubectl, ok } = kubectlRunner(() => kubeconfig);

  beforeAll(async () => {
    server = await startApiServer({ builtinNamespaceControllers: true });
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-kubectl-'));
    kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
  });

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const manifests = `apiVersion: v1
kind: Namespace
metadata:
  name: shop
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  labels: {app: web}
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        env: [{name: A, value: "1"}]
---
apiVersion: v1
kind: Pod
metadata:
  name: front
  namespace: shop
  labels: {tier: front}
spec:
  containers:
  - name: c
    image: busybox:1.36
---
apiVersion: v1
kind: Pod
metadata:
  name: back
  namespace: shop
  labels: {tier: back}
spec:
  containers:
  - name: c
    image: busybox:1.36
`;

  it('creates from YAML and refuses a second create with AlreadyExists', async () => {
    const file = join(dir, 'all.yaml');
    writeFileSync(file, manifests);
    const out = await ok(['create', '-f', file]);
    expect(out).toContain('namespace/shop created');
    expect(out).toContain('deployment.apps/web created');
    expect(out).toContain('pod/front created');
    const again = await kubectl(['create', '-f', file]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/AlreadyExists/);
  });

  it('applies a changed manifest (client-side apply, strategic merge patch)', async () => {
    const file = join(dir, 'apply.yaml');
    writeFileSync(file, manifests.replace('nginx:1.27', 'nginx:1.28'));
    const first = await kubectl(['apply', '-f', file]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('deployment.apps/web configured');
    const image = await ok([
      'get',
      'deploy',
      'web',
      '-n',
      'shop',
      '-o',
      'jsonpath={.spec.template.spec.containers[0].image}',
    ]);
    expect(image).toBe('nginx:1.28');
  });

  it('gets as JSON and as a table', async () => {
    const json = JSON.parse(await ok(['get', 'pods', '-n', 'shop', '-o', 'json']));
    expect(json.items.map((p: { metadata: { name: string } }) => p.metadata.name).sort()).toEqual([
      'back',
      'front',
    ]);
    const table = await ok(['get', 'pods', '-n', 'shop']);
    expect(table.split('\n')[0]).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
    expect(table).toMatch(/front\s+0\/1\s+Pending\s+0\s+\d+s/);
    const wide = await ok(['get', 'deploy', '-n', 'shop', '-o', 'wide']);
    expect(wide).toMatch(/web\s+0\/2\s+0\s+0\s+\d+s\s+nginx\s+nginx:1.28\s+app=web/);
  });

  it('selects by label, labels and annotates', async () => {
    expect((await ok(['get', 'pods', '-n', 'shop', '-l', 'tier=front', '-o', 'name'])).trim()).toBe(
      'pod/front',
    );
    expect((await ok(['get', 'pods', '-n', 'shop', '-l', 'tier notin (front)', '-o', 'name'])).trim()).toBe(
      'pod/back',
    );
    await ok(['label', 'pod', 'back', '-n', 'shop', 'extra=yes']);
    await ok(['annotate', 'pod', 'back', '-n', 'shop', 'note=hello']);
    expect((await ok(['get', 'pods', '-n', 'shop', '-l', 'extra', '-o', 'name'])).trim()).toBe('pod/back');
    expect(
      await ok(['get', 'pod', 'back', '-n', 'shop', '-o', 'jsonpath={.metadata.annotations.note}']),
    ).toBe('hello');
  });

  it('patches in all three forms', async () => {
    await ok([
      'patch',
      'deploy',
      'web',
      '-n',
      'shop',
      '--type=merge',
      '-p',
      '{"metadata":{"labels":{"merge":"1"}}}',
    ]);
    await ok([
      'patch',
      'deploy',
      'web',
      '-n',
      'shop',
      '--type=json',
      '-p',
      '[{"op":"add","path":"/metadata/labels/json","value":"2"}]',
    ]);
    await ok([
      'patch',
      'deploy',
      'web',
      '-n',
      'shop',
      '-p',
      '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","env":[{"name":"B","value":"2"}]}]}}}}',
    ]);
    const d = JSON.parse(await ok(['get', 'deploy', 'web', '-n', 'shop', '-o', 'json']));
    expect(d.metadata.labels).toMatchObject({ merge: '1', json: '2' });
    expect(d.spec.template.spec.containers[0].env).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
    ]);
    expect(d.metadata.generation).toBeGreaterThan(1);
  });

  it('scales a deployment through the scale subresource', async () => {
    await ok(['scale', 'deploy', 'web', '-n', 'shop', '--replicas=5']);
    expect(await ok(['get', 'deploy', 'web', '-n', 'shop', '-o', 'jsonpath={.spec.replicas}'])).toBe('5');
  });

  it('deletes with each propagation policy, recording it as Kubernetes does', async () => {
    const make = (name: string) =>
      ok(
        ['create', '-f', '-'],
        JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'shop' } }),
      );
    await make('bg');
    await make('orphan');
    await make('fg');
    expect(await ok(['delete', 'configmap', 'bg', '-n', 'shop', '--cascade=background'])).toContain(
      'deleted',
    );
    expect((await kubectl(['get', 'configmap', 'bg', '-n', 'shop'])).stderr).toMatch(/NotFound/);
    await ok(['delete', 'configmap', 'orphan', '-n', 'shop', '--cascade=orphan', '--wait=false']);
    expect(
      await ok(['get', 'configmap', 'orphan', '-n', 'shop', '-o', 'jsonpath={.metadata.finalizers}']),
    ).toBe('["orphan"]');
    await ok(['delete', 'configmap', 'fg', '-n', 'shop', '--cascade=foreground', '--wait=false']);
    const fg = JSON.parse(await ok(['get', 'configmap', 'fg', '-n', 'shop', '-o', 'json']));
    expect(fg.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(fg.metadata.deletionTimestamp).toBeDefined();
    // What the garbage collector would do: drop the finalizer, and the object goes.
    await ok([
      'patch',
      'configmap',
      'fg',
      '-n',
      'shop',
      '--type=json',
      '-p',
      '[{"op":"remove","path":"/metadata/finalizers"}]',
    ]);
    expect((await kubectl(['get', 'configmap', 'fg', '-n', 'shop'])).stderr).toMatch(/NotFound/);
  });

  it('get -w sees ADDED, MODIFIED and DELETED', async () => {
    const child = spawn(KUBECTL!, [
      '--kubeconfig',
      kubeconfig,
      'get',
      'pods',
      '-n',
      'shop',
      '-w',
      '--output-watch-events',
      '-l',
      'w=1',
    ]);
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    const until = async (re: RegExp) => {
      for (let i = 0; i < 200 && !re.test(out); i++) await new Promise((r) => setTimeout(r, 25));
      expect(out).toMatch(re);
    };
    try {
      await until(/No resources found|^$/);
      await new Promise((r) => setTimeout(r, 300));
      await ok(['run', 'watched', '-n', 'shop', '--image=busybox:1.36', '--labels=w=1']);
      await until(/ADDED\s+watched/);
      await ok(['label', 'pod', 'watched', '-n', 'shop', 'more=1']);
      await until(/MODIFIED\s+watched/);
      await ok(['delete', 'pod', 'watched', '-n', 'shop']);
      await until(/DELETED\s+watched/);
    } finally {
      child.kill();
    }
  });

  it('waits for a condition and for deletion', async () => {
    const waiting = kubectl(['wait', '--for=condition=Ready', 'pod/front', '-n', 'shop', '--timeout=10s']);
    await new Promise((r) => setTimeout(r, 300));
    await ok([
      'patch',
      'pod',
      'front',
      '-n',
      'shop',
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"conditions":[{"type":"Ready","status":"True"}]}}',
    ]);
    const met = await waiting;
    expect(met.stdout).toContain('condition met');
    const gone = kubectl(['wait', '--for=delete', 'pod/front', '-n', 'shop', '--timeout=10s']);
    await new Promise((r) => setTimeout(r, 300));
    await ok(['delete', 'pod', 'front', '-n', 'shop', '--wait=false']);
    expect((await gone).code).toBe(0);
  });

  it('reports a refused object with the field named', async () => {
    const r = await kubectl(
      ['create', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'Bad_Name' },
        spec: { containers: [{ name: 'c' }] },
      }),
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/is invalid/);
    expect(r.stderr).toMatch(/metadata\.name/);
    expect(r.stderr).toMatch(/spec\.containers\[0\]\.image/);
  });
});
