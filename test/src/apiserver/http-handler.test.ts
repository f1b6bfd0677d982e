// The API server over HTTP: discovery, error Statuses, body limits, forms, selectors, pagination and watch rules.
import { request as httpsRequest } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGGREGATED_DISCOVERY_TYPE } from '../../../src/apiserver/discovery.ts';
import { type RunningApiServer, startApiServer } from '../../../src/apiserver/index.ts';
import { RESOURCES } from '../../../src/apiserver/resource-table.ts';
import { podManifest, request, watchLines } from './fixtures/http.ts';

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
const META = 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io';
const META_LIST = 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io';

describe('embedded API server over HTTP', () => {
  let server: RunningApiServer;
  const pods = '/api/v1/namespaces/default/pods';
  const create = (name: string, labels: Record<string, string> = {}) =>
    request(server, 'POST', pods, { body: podManifest(name, labels) });

  beforeAll(async () => {
    server = await startApiServer({
      bookmarkIntervalMs: 100,
      historyWindow: 50,
      maxWatchBufferedBytes: 64 * 1024,
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('discovery', () => {
    it('serves /version, /api, /apis and group-version resource lists', async () => {
      expect((await request(server, 'GET', '/version')).body.major).toBe('1');
      expect((await request(server, 'GET', '/api')).body).toMatchObject({
        kind: 'APIVersions',
        versions: ['v1'],
      });
      const groups = (await request(server, 'GET', '/apis')).body.groups.map((g: { name: string }) => g.name);
      // each group of the resource table exactly once, in table order (kinds are added as rows)
      // the table's groups, then the create-only review groups and metrics.k8s.io (served, not stored)
      expect(groups).toEqual([
        ...[...new Set(RESOURCES.map((r) => r.group))].filter((g) => g !== ''),
        'authentication.k8s.io',
        'authorization.k8s.io',
        'metrics.k8s.io',
      ]);
      const reviews = (await request(server, 'GET', '/apis/authorization.k8s.io/v1')).body.resources;
      expect(reviews.map((r: { name: string; verbs: string[] }) => `${r.name}:${r.verbs}`)).toEqual([
        'localsubjectaccessreviews:create',
        'selfsubjectaccessreviews:create',
        'selfsubjectrulesreviews:create',
        'subjectaccessreviews:create',
      ]);
      expect((await request(server, 'GET', '/apis/authentication.k8s.io')).body.preferredVersion).toEqual({
        groupVersion: 'authentication.k8s.io/v1',
        version: 'v1',
      });
      expect(groups).toEqual(expect.arrayContaining(['apps', 'batch', 'coordination.k8s.io', 'policy']));
      const coordination = (await request(server, 'GET', '/apis/coordination.k8s.io')).body;
      expect(coordination.versions.map((v: { version: string }) => v.version)).toEqual(['v1', 'v1beta1']);
      expect(coordination.preferredVersion.version).toBe('v1');
      const core = (await request(server, 'GET', '/api/v1')).body.resources.map(
        (r: { name: string }) => r.name,
      );
      expect(core).toEqual(
        expect.arrayContaining(['pods', 'pods/status', 'pods/binding', 'nodes/status', 'events']),
      );
      const apps = (await request(server, 'GET', '/apis/apps/v1')).body.resources;
      expect(apps.find((r: { name: string }) => r.name === 'deployments/scale')).toMatchObject({
        group: 'autoscaling',
        kind: 'Scale',
      });
      expect((await request(server, 'GET', '/apis/apps')).body.preferredVersion).toEqual({
        groupVersion: 'apps/v1',
        version: 'v1',
      });
      expect((await request(server, 'GET', '/apis/nope/v1')).status).toBe(404);
    });

    it('answers aggregated discovery when asked for it', async () => {
      const r = await request(server, 'GET', '/apis', {
        headers: { Accept: `${AGGREGATED_DISCOVERY_TYPE},application/json` },
      });
      expect(r.headers['content-type']).toBe(AGGREGATED_DISCOVERY_TYPE);
      expect(r.body.kind).toBe('APIGroupDiscoveryList');
      const apps = r.body.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'apps');
      const deployments = apps.versions[0].resources.find(
        (x: { resource: string }) => x.resource === 'deployments',
      );
      expect(deployments).toMatchObject({
        scope: 'Namespaced',
        responseKind: { kind: 'Deployment' },
        shortNames: ['deploy'],
      });
    });

    it('serves health endpoints and an OpenAPI v3 index', async () => {
      expect((await request(server, 'GET', '/healthz')).text).toBe('ok');
      const root = (await request(server, 'GET', '/openapi/v3')).body;
      const doc = (await request(server, 'GET', root.paths['api/v1'].serverRelativeURL)).body;
      const patch = doc.paths['/api/v1/namespaces/{namespace}/pods/{name}'].patch;
      expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: '', version: 'v1', kind: 'Pod' });
      expect(patch.parameters.map((p: { name: string }) => p.name)).toContain('fieldValidation');
      const v2 = await request(server, 'GET', '/openapi/v2');
      expect(v2.status).toBe(200);
      expect(v2.body.swagger).toBe('2.0');
      expect(v2.body.definitions['io.k8s.api.core.v1.Pod']).toBeDefined();
      const protobufOnly = { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' };
      const v2proto = await request(server, 'GET', '/openapi/v2', { headers: protobufOnly });
      expect(v2proto.status).toBe(200);
      expect(v2proto.headers['content-type']).toBe(
        'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
      );
      const yamlOnly = { Accept: 'application/yaml' };
      expect((await request(server, 'GET', '/openapi/v2', { headers: yamlOnly })).status).toBe(406);
    });
  });

  describe('errors are Statuses with the Kubernetes reason and code', () => {
    it.each([
      ['an unknown path', 'GET', '/api/v1/frobs', undefined, {}, 404, 'NotFound'],
      [
        'a missing object',
        'GET',
        `${'/api/v1/namespaces/default/pods'}/missing`,
        undefined,
        {},
        404,
        'NotFound',
      ],
      ['a missing namespace', 'POST', '/api/v1/namespaces/nope/pods', podManifest('x'), {}, 404, 'NotFound'],
      [
        'an invalid name',
        'POST',
        '/api/v1/namespaces/default/pods',
        podManifest('Not_Valid'),
        {},
        422,
        'Invalid',
      ],
      [
        'a missing required field',
        'POST',
        '/api/v1/namespaces/default/pods',
        { metadata: { name: 'x' }, spec: {} },
        {},
        422,
        'Invalid',
      ],
      [
        'a mismatched kind',
        'POST',
        '/api/v1/namespaces/default/pods',
        { ...podManifest('x'), kind: 'Service' },
        {},
        400,
        'BadRequest',
      ],
      [
        'a mismatched apiVersion',
        'POST',
        '/api/v1/namespaces/default/pods',
        { ...podManifest('x'), apiVersion: 'apps/v1' },
        {},
        400,
        'BadRequest',
      ],
      [
        'a mismatched namespace',
        'POST',
        '/api/v1/namespaces/default/pods',
        podManifest('x', {}, 'kube-system'),
        {},
        400,
        'BadRequest',
      ],
      [
        'a body that is not JSON',
        'POST',
        '/api/v1/namespaces/default/pods',
        undefined,
        { raw: '{nope' },
        400,
        'BadRequest',
      ],
      [
        'a bad label selector',
        'GET',
        '/api/v1/namespaces/default/pods?labelSelector=a%20in%20(',
        undefined,
        {},
        400,
        'BadRequest',
      ],
      [
        'an unsupported field selector',
        'GET',
        '/api/v1/namespaces/default/pods?fieldSelector=spec.frob%3Dx',
        undefined,
        {},
        400,
        'BadRequest',
      ],
      [
        'a truncated protobuf envelope',
        'POST',
        '/api/v1/namespaces/default/pods',
        undefined,
        {
          raw: 'k8s\u0000\u0012\u0005',
          headers: { 'Content-Type': 'application/vnd.kubernetes.protobuf' },
        },
        400,
        'BadRequest',
      ],
      [
        'a body in a format it does not speak',
        'POST',
        '/api/v1/namespaces/default/pods',
        undefined,
        { raw: 'a: b', headers: { 'Content-Type': 'application/x-foo' } },
        415,
        'UnsupportedMediaType',
      ],
      [
        'an unacceptable Accept',
        'GET',
        '/api/v1/namespaces/default/pods',
        undefined,
        { headers: { Accept: 'application/yaml' } },
        406,
        'NotAcceptable',
      ],
      [
        'an unknown patch type',
        'PATCH',
        '/api/v1/namespaces/default/pods/x',
        {},
        { headers: { 'Content-Type': 'text/plain' } },
        415,
        'UnsupportedMediaType',
      ],
      [
        'deleting a system namespace',
        'DELETE',
        '/api/v1/namespaces/default',
        undefined,
        {},
        403,
        'Forbidden',
      ],
      [
        'resourceVersionMatch without resourceVersion',
        'GET',
        '/api/v1/namespaces/default/pods?resourceVersionMatch=Exact',
        undefined,
        {},
        422,
        'Invalid',
      ],
      [
        'an invalid propagationPolicy',
        'DELETE',
        '/api/v1/namespaces/kube-public?propagationPolicy=Sideways',
        undefined,
        {},
        403,
        'Forbidden',
      ],
    ])('%s', async (_name, method, path, body, options, code, reason) => {
      const before = (await request(server, 'GET', pods)).body.metadata.resourceVersion;
      const r = await request(server, method, path, { body, ...options });
      expect(r.status).toBe(code);
      expect(r.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason });
      // A refused request changes nothing.
      expect((await request(server, 'GET', pods)).body.metadata.resourceVersion).toBe(before);
    });

    it('names every offending field of an Invalid object', async () => {
      const r = await request(server, 'POST', pods, {
        body: {
          metadata: { name: 'UPPER' },
          spec: { containers: [{ name: 'c' }, { name: 'c', image: 'x' }] },
        },
      });
      expect(r.status).toBe(422);
      expect(r.body.details.causes.map((c: { field: string }) => c.field)).toEqual([
        'metadata.name',
        'spec.containers[0].image',
        'spec.containers[1].name',
      ]);
      expect(r.body.details.kind).toBe('Pod');
    });

    it('refuses bodies over 3 MiB with 413 RequestEntityTooLarge', async () => {
      const big = podManifest('big');
      (big.metadata as Record<string, unknown>).annotations = { a: 'x'.repeat(3 * 1024 * 1024 + 10) };
      const r = await request(server, 'POST', pods, { body: big });
      expect(r.status).toBe(413);
      expect(r.body.reason).toBe('RequestEntityTooLarge');
      expect((await request(server, 'GET', `${pods}/big`)).status).toBe(404);
    });

    it('rejects an invalid propagationPolicy with 422 naming the field', async () => {
      await create('pp');
      const r = await request(server, 'DELETE', `${pods}/pp?propagationPolicy=Sideways`);
      expect(r.status).toBe(422);
      expect(r.body.details.causes[0].field).toBe('propagationPolicy');
      expect((await request(server, 'GET', `${pods}/pp`)).status).toBe(200);
    });
  });

  describe('reads', () => {
    it('returns the Table form with Name, columns and Age, and includeObject', async () => {
      await create('tab', { t: '1' });
      const r = await request(server, 'GET', `${pods}?labelSelector=t%3D1`, { headers: { Accept: TABLE } });
      expect(r.body.kind).toBe('Table');
      expect(r.body.columnDefinitions.map((c: { name: string }) => c.name).slice(0, 6)).toEqual([
        'Name',
        'Ready',
        'Status',
        'Restarts',
        'Age',
        'IP',
      ]);
      expect(r.body.rows[0].cells.slice(0, 4)).toEqual(['tab', '0/1', 'Pending', 0]);
      expect(r.body.rows[0].object.kind).toBe('PartialObjectMetadata');
      const full = await request(server, 'GET', `${pods}/tab?includeObject=Object`, {
        headers: { Accept: TABLE },
      });
      expect(full.body.rows[0].object.kind).toBe('Pod');
    });

    it('returns PartialObjectMetadata and PartialObjectMetadataList', async () => {
      const one = await request(server, 'GET', `${pods}/tab`, { headers: { Accept: META } });
      expect(one.body).toMatchObject({
        kind: 'PartialObjectMetadata',
        apiVersion: 'meta.k8s.io/v1',
        metadata: { name: 'tab' },
      });
      expect(one.body.spec).toBeUndefined();
      const list = await request(server, 'GET', `${pods}?labelSelector=t%3D1`, {
        headers: { Accept: META_LIST },
      });
      expect(list.body.kind).toBe('PartialObjectMetadataList');
      expect(list.body.items[0].kind).toBe('PartialObjectMetadata');
    });

    it('filters by field selectors the resource supports', async () => {
      await create('fs1');
      const named = await request(server, 'GET', `${pods}?fieldSelector=metadata.name%3Dfs1`);
      expect(named.body.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toEqual(['fs1']);
      const pending = await request(
        server,
        'GET',
        `${pods}?fieldSelector=status.phase%3DPending,metadata.name!%3Dfs1`,
      );
      expect(pending.body.items.every((p: { metadata: { name: string } }) => p.metadata.name !== 'fs1')).toBe(
        true,
      );
      const unbound = await request(server, 'GET', `${pods}?fieldSelector=spec.nodeName%3D`);
      expect(unbound.body.items.length).toBeGreaterThan(0);
    });

    it('paginates over a consistent snapshot and expires old continue tokens', async () => {
      await request(server, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'pages' } } });
      const base = '/api/v1/namespaces/pages/configmaps';
      for (let i = 0; i < 5; i++)
        await request(server, 'POST', base, { body: { metadata: { name: `cm${i}` } } });
      const first = await request(server, 'GET', `${base}?limit=2`);
      expect(first.body.items.map((c: { metadata: { name: string } }) => c.metadata.name)).toEqual([
        'cm0',
        'cm1',
      ]);
      expect(first.body.metadata.remainingItemCount).toBe(3);
      // Changes after the first page do not show in the later pages.
      await request(server, 'DELETE', `${base}/cm3`);
      await request(server, 'POST', base, { body: { metadata: { name: 'cm25' } } });
      const second = await request(server, 'GET', `${base}?limit=2&continue=${first.body.metadata.continue}`);
      expect(second.body.items.map((c: { metadata: { name: string } }) => c.metadata.name)).toEqual([
        'cm2',
        'cm3',
      ]);
      expect(second.body.metadata.resourceVersion).toBe(first.body.metadata.resourceVersion);
      const third = await request(server, 'GET', `${base}?limit=2&continue=${second.body.metadata.continue}`);
      expect(third.body.items.map((c: { metadata: { name: string } }) => c.metadata.name)).toEqual(['cm4']);
      expect(third.body.metadata.continue).toBeUndefined();
      // Push the snapshot out of the 50-event history window.
      for (let i = 0; i < 60; i++) {
        await request(server, 'PATCH', `${base}/cm0`, {
          body: { data: { i: String(i) } },
          headers: { 'Content-Type': 'application/merge-patch+json' },
        });
      }
      const gone = await request(server, 'GET', `${base}?limit=2&continue=${first.body.metadata.continue}`);
      expect(gone.status).toBe(410);
      expect(gone.body.reason).toBe('Expired');
      const old = await request(
        server,
        'GET',
        `${base}?resourceVersion=${first.body.metadata.resourceVersion}&resourceVersionMatch=Exact`,
      );
      expect(old.status).toBe(410);
      const future = await request(
        server,
        'GET',
        `${base}?resourceVersion=99999999&resourceVersionMatch=NotOlderThan`,
      );
      expect(future.status).toBe(504);
      expect(future.body.message).toMatch(/Too large resource version/);
    });
  });

  describe('writes', () => {
    it('generates names, defaults the namespace and sets uid, creationTimestamp and generation', async () => {
      const r = await request(server, 'POST', '/apis/apps/v1/namespaces/default/deployments', {
        body: {
          metadata: { generateName: 'web-' },
          spec: {
            selector: { matchLabels: { a: 'b' } },
            template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
          },
        },
      });
      expect(r.status).toBe(201);
      expect(r.body.metadata.name).toMatch(/^web-[a-z0-9]{5}$/);
      expect(r.body.metadata).toMatchObject({ namespace: 'default', generation: 1 });
      expect(r.body.metadata.uid).toBeTruthy();
      expect(r.body.metadata.creationTimestamp).toMatch(/Z$/);
      const path = `/apis/apps/v1/namespaces/default/deployments/${r.body.metadata.name}`;
      const labelled = await request(server, 'PATCH', path, {
        body: { metadata: { labels: { x: 'y' } } },
        headers: { 'Content-Type': 'application/merge-patch+json' },
      });
      expect(labelled.body.metadata.generation).toBe(1);
      const status = await request(server, 'PUT', `${path}/status`, {
        body: { ...labelled.body, status: { replicas: 7 }, spec: { ...labelled.body.spec, replicas: 9 } },
      });
      expect(status.body.status.replicas).toBe(7);
      expect(status.body.spec.replicas).toBe(1);
      expect(status.body.metadata.generation).toBe(1);
      const spec = await request(server, 'PUT', path, {
        body: { ...status.body, spec: { ...status.body.spec, replicas: 3 }, status: {} },
      });
      expect(spec.body.metadata.generation).toBe(2);
      expect(spec.body.status.replicas).toBe(7);
      const stale = await request(server, 'PUT', path, { body: status.body });
      expect(stale.status).toBe(409);
      expect(stale.body.reason).toBe('Conflict');
      const scale = await request(server, 'GET', `${path}/scale`);
      expect(scale.body).toMatchObject({
        kind: 'Scale',
        spec: { replicas: 3 },
        status: { replicas: 7, selector: 'a=b' },
      });
    });

    it('binds a pod once', async () => {
      await create('bindme');
      const bind = (node: string) =>
        request(server, 'POST', `${pods}/bindme/binding`, {
          body: {
            apiVersion: 'v1',
            kind: 'Binding',
            metadata: { name: 'bindme' },
            target: { kind: 'Node', name: node },
          },
        });
      expect((await bind('n1')).status).toBe(201);
      const again = await bind('n2');
      expect(again.status).toBe(409);
      const p = (await request(server, 'GET', `${pods}/bindme`)).body;
      expect(p.spec.nodeName).toBe('n1');
      expect(p.status.conditions).toEqual([
        expect.objectContaining({ type: 'PodScheduled', status: 'True' }),
      ]);
    });

    it('deletes a bound pod gracefully and an object with finalizers only when they are gone', async () => {
      await create('grace');
      await request(server, 'POST', `${pods}/grace/binding`, {
        body: { metadata: { name: 'grace' }, target: { name: 'n1' } },
      });
      const d = await request(server, 'DELETE', `${pods}/grace`, {
        body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 20 },
      });
      expect(d.status).toBe(200);
      expect(d.body.metadata.deletionGracePeriodSeconds).toBe(20);
      expect(d.body.metadata.deletionTimestamp).toBeDefined();
      const now = await request(server, 'DELETE', `${pods}/grace?gracePeriodSeconds=0`);
      expect(now.status).toBe(200);
      expect((await request(server, 'GET', `${pods}/grace`)).status).toBe(404);

      await request(server, 'POST', pods, {
        body: { ...podManifest('fin'), metadata: { name: 'fin', finalizers: ['example.com/hold'] } },
      });
      await request(server, 'DELETE', `${pods}/fin`);
      const held = await request(server, 'GET', `${pods}/fin`);
      expect(held.body.metadata.deletionTimestamp).toBeDefined();
      const add = await request(server, 'PATCH', `${pods}/fin`, {
        body: { metadata: { finalizers: ['example.com/hold', 'example.com/more'] } },
        headers: { 'Content-Type': 'application/merge-patch+json' },
      });
      expect(add.status).toBe(422);
      const drop = await request(server, 'PATCH', `${pods}/fin`, {
        body: { metadata: { finalizers: null } },
        headers: { 'Content-Type': 'application/merge-patch+json' },
      });
      expect(drop.status).toBe(200);
      expect((await request(server, 'GET', `${pods}/fin`)).status).toBe(404);
    });

    it('marks a deleted namespace Terminating, refuses new content, and removes it once finalized', async () => {
      await request(server, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'doomed' } } });
      await request(server, 'POST', '/api/v1/namespaces/doomed/configmaps', {
        body: { metadata: { name: 'go' } },
      });
      const d = await request(server, 'DELETE', '/api/v1/namespaces/doomed');
      expect(d.body.status.phase).toBe('Terminating');
      expect(d.body.spec.finalizers).toEqual(['kubernetes']);
      // the content is the namespace controller's to delete, not the API server's
      expect((await request(server, 'GET', '/api/v1/namespaces/doomed/configmaps/go')).status).toBe(200);
      const refused = await request(server, 'POST', '/api/v1/namespaces/doomed/configmaps', {
        body: { metadata: { name: 'new' } },
      });
      expect(refused.status).toBe(403);
      // the cause's type is `reason` on the wire (Go's StatusCause json tag)
      const [cause] = refused.body.details.causes;
      expect(cause.reason).toBe('NamespaceTerminating');
      expect(cause).toMatchObject({
        message: 'namespace doomed is being terminated',
        field: 'metadata.namespace',
      });
      expect((await request(server, 'DELETE', '/api/v1/namespaces/doomed/configmaps')).status).toBe(200);
      const ns = (await request(server, 'GET', '/api/v1/namespaces/doomed')).body;
      const fin = await request(server, 'PUT', '/api/v1/namespaces/doomed/finalize', {
        body: { ...ns, spec: { finalizers: [] } },
      });
      expect(fin.status).toBe(200);
      expect((await request(server, 'GET', '/api/v1/namespaces/doomed')).status).toBe(404);
    });
  });

  describe('watch', () => {
    it('starts with the current state when no resourceVersion is given, then follows changes', async () => {
      await request(server, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'w1' } } });
      await request(server, 'POST', '/api/v1/namespaces/w1/configmaps', {
        body: { metadata: { name: 'a' } },
      });
      const w = watchLines(server, '/api/v1/namespaces/w1/configmaps?watch=true');
      await w.waitFor(1);
      await request(server, 'POST', '/api/v1/namespaces/w1/configmaps', {
        body: { metadata: { name: 'b' } },
      });
      await request(server, 'DELETE', '/api/v1/namespaces/w1/configmaps/a');
      const events = await w.waitFor(3);
      w.close();
      expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual([
        'ADDED a',
        'ADDED b',
        'DELETED a',
      ]);
    });

    it('sends initial events then a bookmark with the initial-events-end annotation', async () => {
      const w = watchLines(
        server,
        '/api/v1/namespaces/w1/configmaps?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
      );
      const [added, bookmark] = await w.waitFor(2);
      w.close();
      expect(added.object.metadata.name).toBe('b');
      expect(bookmark.type).toBe('BOOKMARK');
      expect(bookmark.object.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
      expect(bookmark.object.kind).toBe('ConfigMap');
    });

    it('refuses sendInitialEvents without resourceVersionMatch=NotOlderThan', async () => {
      const r = await request(
        server,
        'GET',
        '/api/v1/namespaces/w1/configmaps?watch=true&sendInitialEvents=true&allowWatchBookmarks=true',
      );
      expect(r.status).toBe(422);
    });

    it('sends periodic bookmarks carrying the current resourceVersion', async () => {
      const rv = (await request(server, 'GET', pods)).body.metadata.resourceVersion;
      const w = watchLines(
        server,
        `/api/v1/namespaces/w1/configmaps?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true`,
      );
      const [b] = await w.waitFor(1);
      w.close();
      expect(b.type).toBe('BOOKMARK');
      expect(Number(b.object.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(rv));
    });

    it('sends a 410 Expired ERROR event for a resourceVersion older than the history', async () => {
      const w = watchLines(server, `${pods}?watch=true&resourceVersion=1`);
      expect(await w.status).toBe(200);
      const [e] = await w.waitFor(1);
      await w.ended;
      expect(e).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } });
    });

    it.each([
      ['metadata', META],
      ['table', TABLE],
    ])('keeps the 410 Status whole in the %s form', async (_form, accept) => {
      const w = watchLines(server, `${pods}?watch=true&resourceVersion=1`, { Accept: accept });
      const [e] = await w.waitFor(1);
      await w.ended;
      expect(e).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } });
    });

    it('ends the watch after timeoutSeconds', async () => {
      const w = watchLines(server, `${pods}?watch=true&timeoutSeconds=1`);
      const started = Date.now();
      await w.ended;
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    });

    it('turns selector transitions into ADDED and DELETED', async () => {
      const rv = (await request(server, 'GET', pods)).body.metadata.resourceVersion;
      const w = watchLines(server, `${pods}?watch=true&resourceVersion=${rv}&labelSelector=sel%3Din`);
      await create('mover', { sel: 'out' });
      const patch = (value: string) =>
        request(server, 'PATCH', `${pods}/mover`, {
          body: { metadata: { labels: { sel: value } } },
          headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
        });
      await patch('in');
      await patch('in2');
      const events = await w.waitFor(2);
      w.close();
      expect(events.map((e) => `${e.type} ${e.object.metadata.labels.sel}`)).toEqual([
        'ADDED in',
        'DELETED in2',
      ]);
    });

    it('watches as a Table when asked', async () => {
      const rv = (await request(server, 'GET', pods)).body.metadata.resourceVersion;
      const w = watchLines(server, `${pods}?watch=true&resourceVersion=${rv}`, { Accept: TABLE });
      await create('tabw');
      const [e] = await w.waitFor(1);
      w.close();
      expect(e.object.kind).toBe('Table');
      expect(e.object.rows[0].cells[0]).toBe('tabw');
    });

    it('closes a watcher that does not read instead of buffering without bound', async () => {
      await request(server, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'slow' } } });
      const rv = (await request(server, 'GET', pods)).body.metadata.resourceVersion;
      const socketClosed = new Promise<void>((resolve, reject) => {
        const req = httpsRequest(
          new URL(`/api/v1/namespaces/slow/configmaps?watch=true&resourceVersion=${rv}`, server.url),
          {
            ca: server.caPem,
            agent: false,
            headers: { Authorization: 'Bearer x' },
          },
        );
        req.on('response', (res) => {
          res.pause(); // never read: the kernel buffers fill, then the server's
          req.socket?.on('close', () => resolve());
        });
        req.on('error', () => resolve());
        req.end();
        setTimeout(() => reject(new Error('the slow watcher was never closed')), 20_000).unref();
      });
      const blob = 'x'.repeat(256 * 1024);
      let closed = false;
      void socketClosed.then(() => {
        closed = true;
      });
      for (let i = 0; i < 200 && !closed; i++) {
        await request(server, 'POST', '/api/v1/namespaces/slow/configmaps', {
          body: { metadata: { name: `c${i}` }, data: { blob } },
        });
      }
      await socketClosed;
      expect(closed).toBe(true);
    });
  });
});
