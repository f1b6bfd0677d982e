// The CRD controller over HTTP: name conflicts, Established, watches per version, deletion with finalizers, restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../../../src/apiserver/index.ts';
import { request, watchLines } from '../fixtures/http.ts';
import { GADGET_CRD, WIDGET_CRD } from './widgets.ts';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';
const cond = (crd: { status?: { conditions?: { type: string }[] } }, type: string) =>
  crd.status?.conditions?.find((c) => c.type === type);
const widget = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name, ...extra },
  spec: { size: 'small' },
});

describe('the CRD controller', () => {
  let server: RunningApiServer;
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    request(server, method, path, { body, headers });

  beforeAll(async () => {
    server = await startApiServer();
    expect((await call('POST', CRDS, WIDGET_CRD)).status).toBe(201);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('makes a CRD Established at once, with the finalizer that cleans up its objects', async () => {
    const crd = (await call('GET', `${CRDS}/widgets.example.com`)).body;
    expect(cond(crd, 'Established')).toMatchObject({
      status: 'True',
      reason: 'InitialNamesAccepted',
      message: 'the initial names have been accepted',
    });
    expect(cond(crd, 'NamesAccepted')).toMatchObject({
      status: 'True',
      reason: 'NoConflicts',
      message: 'no conflicts found',
    });
    expect(crd.metadata.finalizers).toEqual(['customresourcecleanup.apiextensions.k8s.io']);
    const discovery = (await call('GET', '/apis/example.com')).body;
    expect(discovery.preferredVersion).toEqual({ groupVersion: 'example.com/v1', version: 'v1' });
    const list = (await call('GET', '/apis/example.com/v1')).body;
    expect(list.resources.map((r: { name: string }) => r.name)).toEqual([
      'widgets',
      'widgets/status',
      'widgets/scale',
    ]);
  });

  it('refuses a CRD whose names collide: NamesAccepted False, not Established, not served', async () => {
    const rival = structuredClone(WIDGET_CRD);
    rival.metadata.name = 'gizmos.example.com';
    rival.spec.names = { ...rival.spec.names, plural: 'gizmos', singular: 'gizmo', shortNames: ['gz'] };
    expect((await call('POST', CRDS, rival)).status).toBe(201);
    const got = (await call('GET', `${CRDS}/gizmos.example.com`)).body;
    expect(cond(got, 'NamesAccepted')).toMatchObject({
      status: 'False',
      reason: 'ListKindConflict',
      message: '"WidgetList" is already in use',
    });
    expect(cond(got, 'Established')).toMatchObject({ status: 'False', reason: 'NotAccepted' });
    expect((await call('GET', '/apis/example.com/v1/gizmos')).status).toBe(404);
    expect((await call('DELETE', `${CRDS}/gizmos.example.com`)).status).toBe(200);
    expect((await call('GET', `${CRDS}/gizmos.example.com`)).status).toBe(404);
  });

  it('watches a version other than the storage one with its own apiVersion', async () => {
    const watch = watchLines(server, '/apis/example.com/v1beta1/namespaces/default/widgets?watch=true');
    try {
      expect(await watch.status).toBe(200);
      expect((await call('POST', WIDGETS, widget('watched'))).status).toBe(201);
      const [added] = await watch.waitFor(1);
      expect(added).toMatchObject({
        type: 'ADDED',
        object: { apiVersion: 'example.com/v1beta1', metadata: { name: 'watched' } },
      });
    } finally {
      watch.close();
    }
  });

  it('watches as a Table with the printer columns, as kubectl get -w asks', async () => {
    const watch = watchLines(
      server,
      '/apis/example.com/v1/namespaces/default/widgets?watch=true&resourceVersion=0',
      {
        Accept: 'application/json;as=Table;g=meta.k8s.io;v=v1',
      },
    );
    try {
      expect(await watch.status).toBe(200);
      const [first] = await watch.waitFor(1);
      expect(first.type).toBe('ADDED');
      expect(first.object.kind).toBe('Table');
      expect(first.object.columnDefinitions.map((c: { name: string }) => c.name)).toEqual([
        'Name',
        'Size',
        'Replicas',
        'Phase',
        'Age',
      ]);
      expect(first.object.rows[0].cells.slice(0, 4)).toEqual(['watched', 'small', 1, null]);
    } finally {
      watch.close();
    }
  });

  it('deleting the CRD: Terminating, creates refused, objects with finalizers hold it until they go', async () => {
    expect((await call('POST', WIDGETS, widget('held', { finalizers: ['example.com/hold'] }))).status).toBe(
      201,
    );
    expect((await call('DELETE', `${CRDS}/widgets.example.com`)).status).toBe(200);
    const crd = (await call('GET', `${CRDS}/widgets.example.com`)).body;
    expect(cond(crd, 'Terminating')).toMatchObject({ status: 'True', reason: 'InstanceDeletionInProgress' });
    const refused = await call('POST', WIDGETS, widget('late'));
    expect(refused.status).toBe(405);
    expect(refused.body.message).toBe('create not allowed while custom resource definition is terminating');
    const held = (await call('GET', `${WIDGETS}/held`)).body;
    expect(held.metadata.deletionTimestamp).toBeDefined();
    expect((await call('GET', `${WIDGETS}/watched`)).status).toBe(404);
    const release = await call(
      'PATCH',
      `${WIDGETS}/held`,
      { metadata: { finalizers: null } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(release.status).toBe(200);
    expect((await call('GET', `${CRDS}/widgets.example.com`)).status).toBe(404);
    expect((await call('GET', WIDGETS)).status).toBe(404);
    const group = await call('GET', '/apis/example.com');
    expect(group.status, JSON.stringify(group.body)).toBe(404);
  });

  it('applies a default added to the schema later when old objects are read', async () => {
    expect((await call('POST', CRDS, GADGET_CRD)).status).toBe(201);
    const gadgets = '/apis/example.org/v1alpha1/gadgets';
    expect(
      (
        await call('POST', gadgets, {
          apiVersion: 'example.org/v1alpha1',
          kind: 'Gadget',
          metadata: { name: 'old' },
          spec: {},
        })
      ).status,
    ).toBe(201);
    const crd = (await call('GET', `${CRDS}/gadgets.example.org`)).body;
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.power.default = 7;
    expect((await call('PUT', `${CRDS}/gadgets.example.org`, crd)).status).toBe(200);
    expect((await call('GET', `${gadgets}/old`)).body.spec).toEqual({ power: 7 });
    expect((await call('GET', gadgets)).body.items[0].spec).toEqual({ power: 7 });
  });

  it('adds a new storage version to status.storedVersions', async () => {
    const crd = (await call('GET', `${CRDS}/gadgets.example.org`)).body;
    crd.spec.versions[0].storage = false;
    crd.spec.versions.push({ ...crd.spec.versions[0], name: 'v1', storage: true });
    const updated = await call('PUT', `${CRDS}/gadgets.example.org`, crd);
    expect(updated.status).toBe(200);
    const after = (await call('GET', `${CRDS}/gadgets.example.org`)).body;
    expect(after.status.storedVersions).toEqual(['v1alpha1', 'v1']);
    expect(after.metadata.generation).toBe(3);
  });
});

describe('CRDs across a restart', () => {
  it('serves stored CRDs and their objects from the data dir at start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-rx-crd-restart-'));
    try {
      let server = await startApiServer({ dataDir: dir });
      expect((await request(server, 'POST', CRDS, { body: WIDGET_CRD })).status).toBe(201);
      expect((await request(server, 'POST', WIDGETS, { body: widget('kept') })).status).toBe(201);
      await server.close();
      server = await startApiServer({ dataDir: dir });
      try {
        const got = await request(server, 'GET', `${WIDGETS}/kept`);
        expect(got.status).toBe(200);
        expect(got.body.spec).toEqual({ size: 'small', replicas: 1, colour: 'blue' });
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('names freed by a deleted CRD', () => {
  it('go to the CRD of the same group that was refused them', async () => {
    const server = await startApiServer();
    try {
      const rival = structuredClone(WIDGET_CRD);
      rival.metadata.name = 'gizmos.example.com';
      rival.spec.names = { ...rival.spec.names, plural: 'gizmos', singular: 'gizmo', shortNames: ['gz'] };
      expect((await request(server, 'POST', CRDS, { body: WIDGET_CRD })).status).toBe(201);
      expect((await request(server, 'POST', CRDS, { body: rival })).status).toBe(201);
      expect((await request(server, 'GET', '/apis/example.com/v1/gizmos')).status).toBe(404);
      expect((await request(server, 'DELETE', `${CRDS}/widgets.example.com`)).status).toBe(200);
      const got = (await request(server, 'GET', `${CRDS}/gizmos.example.com`)).body;
      expect(cond(got, 'NamesAccepted')).toMatchObject({ status: 'True', reason: 'NoConflicts' });
      expect(cond(got, 'Established')).toMatchObject({ status: 'True' });
      expect(got.status.acceptedNames.kind).toBe('Widget');
      expect((await request(server, 'GET', '/apis/example.com/v1/gizmos')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('a namespace being deleted', () => {
  it('takes its custom resources with it (the server-side namespace emptying of a server run alone)', async () => {
    const server = await startApiServer({ builtinNamespaceControllers: true });
    try {
      expect((await request(server, 'POST', CRDS, { body: WIDGET_CRD })).status).toBe(201);
      expect(
        (await request(server, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'tmp' } } })).status,
      ).toBe(201);
      const inTmp = '/apis/example.com/v1/namespaces/tmp/widgets';
      expect((await request(server, 'POST', inTmp, { body: widget('w') })).status).toBe(201);
      expect((await request(server, 'DELETE', '/api/v1/namespaces/tmp')).status).toBe(200);
      expect((await request(server, 'GET', `${inTmp}/w`)).status).toBe(404);
      expect((await request(server, 'GET', '/api/v1/namespaces/tmp')).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

describe('CEL rules', () => {
  it('are evaluated on writes of the objects, with no warning on the CRD write', async () => {
    const server = await startApiServer();
    try {
      const crd = structuredClone(GADGET_CRD) as typeof GADGET_CRD & Record<string, unknown>;
      const power = crd.spec.versions[0]!.schema.openAPIV3Schema.properties.spec.properties.power as Record<
        string,
        unknown
      >;
      power['x-kubernetes-validations'] = [{ rule: 'self < 10', message: 'too strong' }];
      const created = await request(server, 'POST', CRDS, { body: crd });
      expect(created.status).toBe(201);
      expect(created.headers.warning).toBeUndefined();
      const gadget = (p: number) => ({
        apiVersion: 'example.org/v1alpha1',
        kind: 'Gadget',
        metadata: { name: `g${p}` },
        spec: { power: p },
      });
      const refused = await request(server, 'POST', '/apis/example.org/v1alpha1/gadgets', {
        body: gadget(99),
      });
      expect(refused.status).toBe(422);
      expect(refused.body.details.causes).toEqual([
        { reason: 'FieldValueInvalid', field: 'spec.power', message: 'Invalid value: "integer": too strong' },
      ]);
      expect(
        (await request(server, 'POST', '/apis/example.org/v1alpha1/gadgets', { body: gadget(9) })).status,
      ).toBe(201);
    } finally {
      await server.close();
    }
  });
});
