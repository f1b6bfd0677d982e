// kubectl end to end with CustomResourceDefinitions: apply, wait Established, create, defaults, pruning, errors, columns, status, scale, delete.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../../../src/apiserver/index.ts';
import { KUBECTL, kubectlRunner } from '../../../helpers/kubectl.ts';
import { GADGET_CRD, WIDGET_CRD } from './widgets.ts';

if (!KUBECTL) console.warn('CRD kubectl tests skipped: kubectl is not installed (.ci/run installs it)');

describe.skipIf(!KUBECTL)('kubectl with CustomResourceDefinitions', () => {
  let server: RunningApiServer;
  let dir: string;
  let kubeconfig: string;
  const { kubectl, ok } = kubectlRunner(() => kubeconfig);
  const file = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };

  beforeAll(async () => {
    server = await startApiServer();
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-crd-'));
    kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
    // one file each: kubectl validates a List against /openapi/v2, which is not served in protobuf
    await ok([
      'apply',
      '-f',
      file('widgets-crd.json', WIDGET_CRD),
      '-f',
      file('gadgets-crd.json', GADGET_CRD),
    ]);
    await ok([
      'wait',
      '--for=condition=Established',
      '--timeout=10s',
      'crd/widgets.example.com',
      'crd/gadgets.example.org',
    ]);
  });

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows the CRD Established with its accepted names and stored version', async () => {
    const crd = JSON.parse(await ok(['get', 'crd', 'widgets.example.com', '-o', 'json']));
    const byType = Object.fromEntries(crd.status.conditions.map((c: { type: string }) => [c.type, c]));
    expect(byType.NamesAccepted).toMatchObject({ status: 'True', reason: 'NoConflicts' });
    expect(byType.Established).toMatchObject({ status: 'True', reason: 'InitialNamesAccepted' });
    expect(crd.status.acceptedNames).toMatchObject({
      plural: 'widgets',
      kind: 'Widget',
      listKind: 'WidgetList',
    });
    expect(crd.status.storedVersions).toEqual(['v1']);
    expect(await ok(['get', 'crds'])).toMatch(/widgets\.example\.com\s+\d{4}-\d\d-\d\dT/);
  });

  it('lists the resources in discovery with short names and categories', async () => {
    const out = await ok(['api-resources', '--api-group=example.com', '-o', 'wide']);
    expect(out).toMatch(/widgets\s+wd\s+example\.com\/v1\s+true\s+Widget/);
    expect(out).toContain('all,toys');
    const versions = await ok(['api-versions']);
    expect(versions).toContain('example.com/v1\n');
    expect(versions).toContain('example.com/v1beta1\n');
    expect(versions).toContain('example.org/v1alpha1\n');
  });

  it('creates a widget: defaults filled, unknown fields pruned (with a warning), kept where the schema preserves', async () => {
    const r = await kubectl([
      'create',
      '--validate=warn',
      '-f',
      file('w1.json', {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w1', namespace: 'default', labels: { app: 'toy' } },
        spec: { size: 'small', bogus: 1, port: 'http', extra: { anything: { goes: true } } },
        status: { phase: 'Ignored' },
      }),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Warning: unknown field "spec.bogus"');
    const w = JSON.parse(await ok(['get', 'widget', 'w1', '-o', 'json']));
    expect(w.spec).toEqual({
      size: 'small',
      replicas: 1,
      colour: 'blue',
      port: 'http',
      extra: { anything: { goes: true } },
    });
    expect(w.status).toBeUndefined();
    expect(w.metadata.generation).toBe(1);
  });

  it('refuses an invalid widget naming the field paths as upstream does', async () => {
    const r = await kubectl([
      'create',
      '-f',
      file('bad.json', {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'bad', namespace: 'default' },
        spec: { size: 'huge', replicas: 'three', colour: 'Red', tags: ['a', 'b', 'c', 'd'] },
      }),
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Widget "bad" is invalid');
    expect(r.stderr).toContain(
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    );
    expect(r.stderr).toContain('spec.size: Unsupported value: "huge": supported values: "small", "large"');
    expect(r.stderr).toContain(
      `spec.colour: Invalid value: "Red": spec.colour in body should match '^[a-z]+$'`,
    );
    expect(r.stderr).toContain('spec.tags: Too many: 4: must have at most 3 items');
    const missing = await kubectl([
      'create',
      '-f',
      file('missing.json', {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'm', namespace: 'default' },
        spec: {},
      }),
    ]);
    expect(missing.stderr).toContain('spec.size: Required value');
  });

  it('shows the printer columns, by short name and in the all category', async () => {
    const applied = await kubectl([
      'apply',
      '-f',
      file(
        'w2.yaml',
        'apiVersion: example.com/v1beta1\nkind: Widget\nmetadata: {name: w2}\nspec: {size: large, replicas: 3}\n',
      ),
    ]);
    expect(applied.code, applied.stderr).toBe(0);
    const table = await ok(['get', 'wd']);
    expect(table.split('\n')[0]).toMatch(/^NAME\s+SIZE\s+REPLICAS\s+PHASE\s+AGE$/);
    expect(table).toMatch(/w1\s+small\s+1\s+\d+s/);
    expect(table).toMatch(/w2\s+large\s+3\s+/);
    expect(await ok(['get', 'all', '-o', 'name'])).toContain('widget.example.com/w1');
    expect(await ok(['get', 'widgets', '--field-selector', 'spec.size=large', '-o', 'name'])).toBe(
      'widget.example.com/w2\n',
    );
    expect(await ok(['get', 'widgets', '-l', 'app=toy', '-o', 'name'])).toBe('widget.example.com/w1\n');
  });

  it('serves every version, apiVersion rewritten (conversion None); a deprecated one warns', async () => {
    const got = await kubectl(['get', 'widgets.v1beta1.example.com', 'w2', '-o', 'json']);
    expect(got.stderr).toBe('Warning: example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget\n');
    const beta = JSON.parse(got.stdout);
    expect(beta.apiVersion).toBe('example.com/v1beta1');
    const ga = JSON.parse(await ok(['get', 'widgets.v1.example.com', 'w2', '-o', 'json']));
    expect(ga.apiVersion).toBe('example.com/v1');
    expect(ga.spec).toEqual(beta.spec);
  });

  it('separates status from spec: a main update ignores status, the status subresource writes it; generation follows spec only', async () => {
    await ok(['patch', 'widget', 'w1', '--type=merge', '-p', '{"status":{"phase":"Sneaky"}}']);
    let w = JSON.parse(await ok(['get', 'widget', 'w1', '-o', 'json']));
    expect(w.status).toBeUndefined();
    expect(w.metadata.generation).toBe(1);
    await ok([
      'patch',
      'widget',
      'w1',
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"phase":"Ready","replicas":1,"selector":"app=toy"}}',
    ]);
    w = JSON.parse(await ok(['get', 'widget', 'w1', '-o', 'json']));
    expect(w.status).toEqual({ phase: 'Ready', replicas: 1, selector: 'app=toy' });
    expect(w.metadata.generation).toBe(1);
    const bad = await kubectl([
      'patch',
      'widget',
      'w1',
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"replicas":"x"}}',
    ]);
    expect(bad.stderr).toContain(
      'status.replicas: Invalid value: "string": status.replicas in body must be of type integer',
    );
    await ok([
      'patch',
      'widget',
      'w1',
      '--type=json',
      '-p',
      '[{"op":"replace","path":"/spec/colour","value":"green"}]',
    ]);
    w = JSON.parse(await ok(['get', 'widget', 'w1', '-o', 'json']));
    expect(w.spec.colour).toBe('green');
    expect(w.metadata.generation).toBe(2);
    const smp = await kubectl([
      'patch',
      'widget',
      'w1',
      '--type=strategic',
      '-p',
      '{"spec":{"colour":"red"}}',
    ]);
    expect(smp.stderr).toContain(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
    expect(await ok(['get', 'widget', 'w1'])).toMatch(/w1\s+small\s+1\s+Ready/);
  });

  it('scales a widget through the scale subresource', async () => {
    await ok(['scale', 'widget', 'w1', '--replicas=4']);
    const scale = JSON.parse(
      await ok(['get', '--raw', '/apis/example.com/v1/namespaces/default/widgets/w1/scale']),
    );
    expect(scale).toMatchObject({
      kind: 'Scale',
      spec: { replicas: 4 },
      status: { replicas: 1, selector: 'app=toy' },
    });
    const w = JSON.parse(await ok(['get', 'widget', 'w1', '-o', 'json']));
    expect(w.spec.replicas).toBe(4);
  });

  it('serves a cluster-scoped resource with the default Age column', async () => {
    await ok([
      'create',
      '-f',
      file('g.json', {
        apiVersion: 'example.org/v1alpha1',
        kind: 'Gadget',
        metadata: { name: 'g1' },
        spec: { power: 9 },
      }),
    ]);
    const table = await ok(['get', 'gadgets']);
    expect(table.split('\n')[0]).toMatch(/^NAME\s+AGE$/);
    expect(table).toContain('g1');
    const ns = await kubectl(['get', 'gadgets', '-n', 'default', 'g1', '-o', 'name']);
    expect(ns.stdout).toBe('gadget.example.org/g1\n');
  });

  it('explains the schema of a custom resource', async () => {
    const out = await ok(['explain', 'widget.spec.size']);
    expect(out).toContain('How big the widget is.');
  });

  it('deleting the CRD deletes its objects and stops serving them', async () => {
    await ok(['delete', 'crd', 'widgets.example.com', '--timeout=20s']);
    const gone = await kubectl(['get', '--raw', '/apis/example.com/v1/namespaces/default/widgets']);
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toContain('NotFound');
    expect((await kubectl(['get', 'crd', 'widgets.example.com'])).stderr).toContain('NotFound');
    expect(await ok(['api-versions'])).not.toContain('example.com/v1\n');
    // re-creating it starts empty
    await ok(['apply', '-f', file('again.json', WIDGET_CRD)]);
    await ok(['wait', '--for=condition=Established', '--timeout=10s', 'crd/widgets.example.com']);
    expect(await ok(['get', 'widgets', '-A', '-o', 'name'])).toBe('');
  });
});
