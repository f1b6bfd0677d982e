// The embedded API server spoken to in protobuf as client-go does: create, update, subresources, delete, watch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../../../src/apiserver/index.ts';
import { PROTOBUF_CONTENT_TYPE } from '../../../../src/apiserver/protobuf/content-types.ts';
import { encodeEnvelope } from '../../../../src/apiserver/protobuf/envelope.ts';
import { decodeObject, encodeObject } from '../../../../src/apiserver/protobuf/object-codec.ts';
import { WatchFrameDecoder } from '../../../../src/apiserver/protobuf/watch-frame-decoder.ts';
import { RESOURCES } from '../../../../src/apiserver/resource-table.ts';

type Json = Record<string, unknown>;
const PB = { 'Content-Type': PROTOBUF_CONTENT_TYPE, Accept: `${PROTOBUF_CONTENT_TYPE}, application/json` };

describe('protobuf over HTTP', () => {
  let server: RunningApiServer;

  beforeAll(async () => {
    server = await startApiServer({ plainHttp: true });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  /** The admin credential the server's kubeconfig carries (authentication is on by default). */
  const auth = (): Record<string, string> =>
    server.token ? { Authorization: `Bearer ${server.token}` } : {};

  const call = async (method: string, path: string, body?: Json, headers: Record<string, string> = PB) => {
    const res = await fetch(new URL(path, server.url), {
      method,
      headers: { ...headers, ...auth() },
      body: body === undefined ? undefined : Buffer.from(encodeObject(body)),
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    const type = res.headers.get('content-type') ?? '';
    const decoded =
      type === PROTOBUF_CONTENT_TYPE
        ? decodeObject(bytes)
        : (JSON.parse(Buffer.from(bytes).toString()) as Json);
    return { status: res.status, type, body: decoded };
  };

  const pod = (name: string): Json => ({
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name, namespace: 'default', labels: { app: 'pb' } },
    spec: { containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '100m' } } }] },
  });

  const TEMPLATE = { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } };
  const SELECTOR = { matchLabels: { a: 'b' } };
  /** One object of every served kind: [collection path, object]. */
  const EVERY_KIND: readonly (readonly [string, Json])[] = [
    ['/api/v1/namespaces', { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'pb-ns' } }],
    ['/api/v1/namespaces/default/pods', pod('pb-pod')],
    [
      '/api/v1/nodes',
      { kind: 'Node', apiVersion: 'v1', metadata: { name: 'pb-node' }, spec: { unschedulable: true } },
    ],
    [
      '/api/v1/namespaces/default/events',
      {
        kind: 'Event',
        apiVersion: 'v1',
        metadata: { name: 'pb-ev' },
        involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' },
        reason: 'Scheduled',
        count: 1,
        firstTimestamp: '2024-01-01T00:00:00Z',
        eventTime: '2024-01-01T00:00:00.000001Z',
      },
    ],
    [
      '/api/v1/namespaces/default/configmaps',
      { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'pb-cm' }, data: { k: 'v' } },
    ],
    [
      '/api/v1/namespaces/default/secrets',
      { kind: 'Secret', apiVersion: 'v1', metadata: { name: 'pb-s' }, data: { k: 'dg==' } },
    ],
    [
      '/api/v1/namespaces/default/services',
      {
        kind: 'Service',
        apiVersion: 'v1',
        metadata: { name: 'pb-svc' },
        spec: { ports: [{ port: 80, targetPort: 'http' }] },
      },
    ],
    ...(['ReplicaSet', 'Deployment', 'StatefulSet', 'DaemonSet'] as const).map(
      (kind) =>
        [
          `/apis/apps/v1/namespaces/default/${kind.toLowerCase()}s`,
          {
            kind,
            apiVersion: 'apps/v1',
            metadata: { name: `pb-${kind.toLowerCase()}` },
            spec: { selector: SELECTOR, template: TEMPLATE },
          },
        ] as const,
    ),
    [
      '/apis/batch/v1/namespaces/default/jobs',
      {
        kind: 'Job',
        apiVersion: 'batch/v1',
        metadata: { name: 'pb-job' },
        spec: { template: { ...TEMPLATE, spec: { ...TEMPLATE.spec, restartPolicy: 'Never' } } },
      },
    ],
    [
      '/apis/batch/v1/namespaces/default/cronjobs',
      {
        kind: 'CronJob',
        apiVersion: 'batch/v1',
        metadata: { name: 'pb-cj' },
        spec: {
          schedule: '*/5 * * * *',
          jobTemplate: {
            spec: { template: { ...TEMPLATE, spec: { ...TEMPLATE.spec, restartPolicy: 'OnFailure' } } },
          },
        },
      },
    ],
    [
      '/apis/coordination.k8s.io/v1/namespaces/default/leases',
      {
        kind: 'Lease',
        apiVersion: 'coordination.k8s.io/v1',
        metadata: { name: 'pb-lease' },
        spec: { holderIdentity: 'me', leaseDurationSeconds: 15, renewTime: '2024-01-01T00:00:00.500000Z' },
      },
    ],
    [
      '/apis/coordination.k8s.io/v1beta1/namespaces/default/leasecandidates',
      {
        kind: 'LeaseCandidate',
        apiVersion: 'coordination.k8s.io/v1beta1',
        metadata: { name: 'pb-lc' },
        spec: { leaseName: 'l', binaryVersion: '1.32.0', strategy: 'OldestEmulationVersion' },
      },
    ],
    [
      '/apis/policy/v1/namespaces/default/poddisruptionbudgets',
      {
        kind: 'PodDisruptionBudget',
        apiVersion: 'policy/v1',
        metadata: { name: 'pb-pdb' },
        spec: { minAvailable: '50%', selector: SELECTOR },
      },
    ],
    [
      '/apis/scheduling.k8s.io/v1/priorityclasses',
      { kind: 'PriorityClass', apiVersion: 'scheduling.k8s.io/v1', metadata: { name: 'pb-pc' }, value: 1000 },
    ],
    [
      '/apis/storage.k8s.io/v1/csinodes',
      {
        kind: 'CSINode',
        apiVersion: 'storage.k8s.io/v1',
        metadata: { name: 'pb-csi' },
        spec: { drivers: [{ name: 'd', nodeID: 'n' }] },
      },
    ],
  ];

  it('covers the kinds the resource table served when this was written, each served', () => {
    const served = RESOURCES.map((d) => d.kind);
    for (const [, o] of EVERY_KIND) expect(served).toContain(o.kind);
    expect(new Set(EVERY_KIND.map(([, o]) => o.kind)).size).toBe(18);
  });

  it.each(EVERY_KIND.map(([path, o]) => [String(o.kind), path, o] as const))(
    '%s: create, get and list in protobuf, delete with protobuf DeleteOptions',
    async (_, path, object) => {
      const created = await call('POST', path, object);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.type).toBe(PROTOBUF_CONTENT_TYPE);
      const name = (object.metadata as Json).name as string;
      expect(created.body).toMatchObject({ kind: object.kind, metadata: { name } });
      for (const field of ['spec', 'data', 'value', 'involvedObject', 'eventTime', 'firstTimestamp']) {
        if (object[field] !== undefined)
          expect(created.body[field], field).toMatchObject(object[field] as object);
      }
      const got = await call('GET', `${path}/${name}`);
      expect(got.body).toEqual(created.body);
      const list = await call('GET', path);
      expect(list.body.kind).toBe(`${String(object.kind)}List`);
      expect((list.body.items as Json[]).some((i) => (i.metadata as Json).name === name)).toBe(true);
      const del = await call('DELETE', `${path}/${name}`, {
        kind: 'DeleteOptions',
        apiVersion: 'meta.k8s.io/v1',
        gracePeriodSeconds: 0,
      });
      expect(del.status).toBe(200);
    },
  );

  it('creates, updates and reads a pod in protobuf', async () => {
    const created = await call('POST', '/api/v1/namespaces/default/pods', pod('one'));
    expect(created.status).toBe(201);
    expect(created.type).toBe(PROTOBUF_CONTENT_TYPE);
    expect(created.body).toMatchObject({ kind: 'Pod', metadata: { name: 'one', uid: expect.any(String) } });
    const updated = {
      ...created.body,
      metadata: { ...(created.body.metadata as Json), labels: { app: 'pb', v: '2' } },
    };
    const put = await call('PUT', '/api/v1/namespaces/default/pods/one', updated);
    expect(put.status).toBe(200);
    expect((put.body.metadata as Json).labels).toEqual({ app: 'pb', v: '2' });
    const got = await call('GET', '/api/v1/namespaces/default/pods/one');
    const spec = got.body.spec as { containers: { resources: unknown }[] };
    expect(spec.containers[0]!.resources).toEqual({ requests: { cpu: '100m' } });
  });

  it('binds a pod with a protobuf Binding', async () => {
    await call('POST', '/api/v1/namespaces/default/pods', pod('bound'));
    const bind = await call('POST', '/api/v1/namespaces/default/pods/bound/binding', {
      kind: 'Binding',
      apiVersion: 'v1',
      metadata: { name: 'bound', namespace: 'default' },
      target: { kind: 'Node', name: 'n1' },
    });
    expect(bind.status).toBe(201);
    const got = await call('GET', '/api/v1/namespaces/default/pods/bound');
    expect((got.body.spec as Json).nodeName).toBe('n1');
  });

  it('reads and writes the scale subresource as autoscaling/v1 Scale', async () => {
    await call('POST', '/apis/apps/v1/namespaces/default/deployments', {
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { name: 'd', namespace: 'default' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
      },
    });
    const scale = await call('GET', '/apis/apps/v1/namespaces/default/deployments/d/scale');
    expect(scale.type).toBe(PROTOBUF_CONTENT_TYPE);
    expect(scale.body).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 1 } });
    const put = await call('PUT', '/apis/apps/v1/namespaces/default/deployments/d/scale', {
      ...scale.body,
      spec: { replicas: 0 },
    });
    expect(put.status).toBe(200);
    const dep = await call('GET', '/apis/apps/v1/namespaces/default/deployments/d');
    expect((dep.body.spec as Json).replicas).toBe(0);
  });

  it('deletes with protobuf DeleteOptions', async () => {
    await call('POST', '/api/v1/namespaces/default/configmaps', {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'gone' },
    });
    const del = await call('DELETE', '/api/v1/namespaces/default/configmaps/gone', {
      kind: 'DeleteOptions',
      apiVersion: 'meta.k8s.io/v1',
      gracePeriodSeconds: 0,
      propagationPolicy: 'Background',
    });
    expect(del.status).toBe(200);
    expect((await call('GET', '/api/v1/namespaces/default/configmaps/gone')).status).toBe(404);
  });

  it('answers a body that does not decode with 400 naming the field', async () => {
    const res = await fetch(new URL('/api/v1/namespaces/default/configmaps', server.url), {
      method: 'POST',
      headers: { ...PB, ...auth() },
      // metadata (1) holding name (1) as a varint where a string belongs.
      body: Buffer.from(encodeEnvelope('v1', 'ConfigMap', new Uint8Array([0x0a, 0x02, 0x08, 0x01]))),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe(PROTOBUF_CONTENT_TYPE);
    const status = decodeObject(new Uint8Array(await res.arrayBuffer())) as Json;
    expect(status).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    expect(String(status.message)).toMatch(/ConfigMap\.metadata.*wire type/);
  });

  it('answers errors in the negotiated encoding, as kube-apiserver does: protobuf when preferred, else JSON', async () => {
    const missing = '/api/v1/namespaces/default/configmaps/never-made';
    const proto = await call('GET', missing);
    expect(proto).toMatchObject({ status: 404, type: PROTOBUF_CONTENT_TYPE });
    expect(proto.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'NotFound',
      code: 404,
      message: 'configmaps "never-made" not found',
      details: { name: 'never-made', kind: 'configmaps' },
    });
    const json = await call('GET', missing, undefined, { Accept: 'application/json' });
    expect(json).toMatchObject({ status: 404, type: 'application/json', body: proto.body });
    // a Table request's error stays JSON, as the Table itself does
    const table = await call('GET', missing, undefined, {
      Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json',
    });
    expect(table).toMatchObject({ status: 404, type: 'application/json' });
  });

  it('lists in protobuf with the list metadata', async () => {
    const list = await call('GET', '/api/v1/namespaces/default/pods?labelSelector=app%3Dpb');
    expect(list.body.kind).toBe('PodList');
    expect((list.body.metadata as Json).resourceVersion).toMatch(/^\d+$/);
    expect((list.body.items as Json[]).map((p) => (p.metadata as Json).name).sort()).toEqual([
      'bound',
      'one',
    ]);
  });

  it('watches in protobuf: initial events, the end bookmark, then live events', async () => {
    const read = async (path: string, until: (events: { type: string; object: Json }[]) => boolean) => {
      const ac = new AbortController();
      const res = await fetch(new URL(path, server.url), {
        headers: { Accept: PROTOBUF_CONTENT_TYPE, ...auth() },
        signal: ac.signal,
      });
      expect(res.headers.get('content-type')).toBe(`${PROTOBUF_CONTENT_TYPE};stream=watch`);
      const decoder = new WatchFrameDecoder();
      const events: { type: string; object: Json }[] = [];
      const reader = res.body!.getReader();
      while (!until(events)) {
        const { value, done } = await reader.read();
        if (done) break;
        events.push(...decoder.push(value));
      }
      ac.abort();
      return events;
    };
    const initial = await read(
      '/api/v1/namespaces/default/pods?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan',
      (e) => e.some((x) => x.type === 'BOOKMARK'),
    );
    expect(initial.filter((e) => e.type === 'ADDED').map((e) => (e.object.metadata as Json).name)).toEqual([
      'bound',
      'one',
    ]);
    const bookmark = initial.find((e) => e.type === 'BOOKMARK')!;
    expect((bookmark.object.metadata as Json).annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
    // Resuming from the list's resourceVersion: a later create arrives as one ADDED frame.
    const list = await call('GET', '/api/v1/namespaces/default/pods');
    const rv = String((list.body.metadata as Json).resourceVersion);
    const later = read(
      `/api/v1/namespaces/default/pods?watch=true&resourceVersion=${rv}`,
      (e) => e.length > 0,
    );
    await call('POST', '/api/v1/namespaces/default/pods', pod('later'));
    const [added] = await later;
    expect(added).toMatchObject({ type: 'ADDED', object: { kind: 'Pod', metadata: { name: 'later' } } });
  }, 60_000);
});
