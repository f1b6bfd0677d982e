// The etcd engine: kube-apiserver's key layout, revisions as resourceVersions, restarts, two servers on one etcd.
import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../../../src/apiserver/index.ts';
import { podManifest, request, watchLines } from '../fixtures/http.ts';
import { ETCD_BINARY, NO_ETCD, type PrivateEtcd, startPrivateEtcd } from './private-etcd.ts';

const PODS = '/api/v1/namespaces/default/pods';

describe.skipIf(!ETCD_BINARY)(`the API server on etcd${NO_ETCD}`, () => {
  let etcd: PrivateEtcd;
  let client: Etcd3;
  const servers: RunningApiServer[] = [];
  const start = async (prefix = '/registry') => {
    const s = await startApiServer({ etcdServers: [etcd.url], etcdPrefix: prefix });
    servers.push(s);
    return s;
  };

  beforeAll(async () => {
    etcd = await startPrivateEtcd();
    client = new Etcd3({ hosts: etcd.url });
  }, 30_000);
  afterAll(async () => {
    for (const s of servers) await s.close();
    client?.close();
    await etcd?.stop();
  });

  it('keeps objects under the prefix as kube-apiserver lays them out, the mod revision as resourceVersion', async () => {
    const a = await start('/layout');
    const created = await request(a, 'POST', PODS, { body: podManifest('web', { app: 'web' }) });
    expect(created.status).toBe(201);
    const stored = await client.get('/layout/pods/default/web').exec();
    expect(stored.kvs).toHaveLength(1);
    expect(Number(stored.kvs[0]!.mod_revision)).toBe(Number(created.body.metadata.resourceVersion));
    expect(JSON.parse(stored.kvs[0]!.value.toString()).metadata.labels).toEqual({ app: 'web' });
    expect(await client.get('/layout/namespaces/default').string()).toContain('"name":"default"');
    const ns = await client.get('/layout/scheduling.k8s.io/priorityclasses/system-node-critical').string();
    expect(ns).toContain('system-node-critical');
  });

  it('shows each server the other’s writes in its watches, with the same resourceVersions', async () => {
    const a = await start('/shared');
    const b = await start('/shared');
    const watch = watchLines(b, `${PODS}?watch=true&resourceVersion=0`);
    const created = await request(a, 'POST', PODS, { body: podManifest('p1', { n: '1' }) });
    const patched = await request(a, 'PATCH', `${PODS}/p1`, {
      body: { metadata: { labels: { n: '2' } } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    const deleted = await request(a, 'DELETE', `${PODS}/p1?gracePeriodSeconds=0`);
    expect([created.status, patched.status, deleted.status]).toEqual([201, 200, 200]);
    const events = await watch.waitFor(3, 10_000);
    watch.close();
    expect(events.map((e) => [e.type, e.object.metadata.resourceVersion])).toEqual([
      ['ADDED', created.body.metadata.resourceVersion],
      ['MODIFIED', patched.body.metadata.resourceVersion],
      ['DELETED', deleted.body.metadata.resourceVersion],
    ]);
    // and the reverse direction, resuming from a resourceVersion the other server answered
    const fromA = watchLines(
      a,
      `${PODS}?watch=true&resourceVersion=${deleted.body.metadata.resourceVersion}`,
    );
    const onB = await request(b, 'POST', PODS, { body: podManifest('p2') });
    const [event] = await fromA.waitFor(1, 10_000);
    fromA.close();
    expect([event.type, event.object.metadata.name, event.object.metadata.resourceVersion]).toEqual([
      'ADDED',
      'p2',
      onB.body.metadata.resourceVersion,
    ]);
  });

  it('loses no update when two servers race read-modify-write updates on one object', async () => {
    const a = await start('/race');
    const b = await start('/race');
    const path = '/api/v1/namespaces/default/configmaps';
    expect(
      (await request(a, 'POST', path, { body: { metadata: { name: 'counter' }, data: { n: '0' } } })).status,
    ).toBe(201);
    let successes = 0;
    const worker = async (server: RunningApiServer) => {
      for (let i = 0; i < 15; i++) {
        for (;;) {
          const got = await request(server, 'GET', `${path}/counter`);
          if (got.status !== 200) continue; // not yet in this server's cache
          const next = { ...got.body, data: { n: String(Number(got.body.data.n) + 1) } };
          const put = await request(server, 'PUT', `${path}/counter`, { body: next });
          if (put.status === 200) {
            successes++;
            break;
          }
          expect(put.status).toBe(409);
        }
      }
    };
    await Promise.all([worker(a), worker(b)]);
    expect(successes).toBe(30);
    const stored = await client.get('/race/configmaps/default/counter').json();
    expect((stored as { data: { n: string } }).data.n).toBe('30');
  }, 60_000);

  it('lets exactly one of two servers create the same name', async () => {
    const a = await start('/create-race');
    const b = await start('/create-race');
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        request(i % 2 ? a : b, 'POST', PODS, { body: podManifest('only', { by: String(i) }) }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201)) expect(r.status).toBe(409);
  });

  it('answers, serves and watches the stored revisions while another client writes elsewhere in etcd', async () => {
    const a = await start('/gaps');
    const watch = watchLines(a, `${PODS}?watch=true&resourceVersion=0`);
    const answers: { status: number; body: { metadata: { name: string; resourceVersion: string } } }[] = [];
    await Promise.all([
      (async () => {
        for (let i = 0; i < 15; i++)
          answers.push(await request(a, 'POST', PODS, { body: podManifest(`g${i}`) }));
      })(),
      (async () => {
        for (let i = 0; i < 30; i++) await client.put(`/elsewhere/k${i}`).value('x');
      })(),
    ]);
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 201));
    const events = await watch.waitFor(15, 10_000);
    watch.close();
    for (const r of answers) {
      const { name, resourceVersion } = r.body.metadata;
      const stored = (await client.get(`/gaps/pods/default/${name}`).exec()).kvs[0]!.mod_revision;
      const got = await request(a, 'GET', `${PODS}/${name}`);
      const event = events.find((e) => e.object.metadata.name === name);
      expect(
        [resourceVersion, got.body.metadata.resourceVersion, event.object.metadata.resourceVersion],
        name,
      ).toEqual([stored, stored, stored]);
    }
  }, 30_000);

  it('compacts etcd every --etcd-compaction-interval up to the revision seen one interval earlier', async () => {
    const a = await startApiServer({
      etcdServers: [etcd.url],
      etcdPrefix: '/compact',
      etcdCompactionIntervalMs: 100,
    });
    servers.push(a);
    const first = await request(a, 'POST', PODS, { body: podManifest('c1') });
    const firstRv = first.body.metadata.resourceVersion as string;
    await request(a, 'POST', PODS, { body: podManifest('c2') });
    // reading at the first write's revision works until a compaction passes it
    let compacted: unknown;
    for (let i = 0; i < 100 && compacted === undefined; i++) {
      await new Promise((r) => setTimeout(r, 50));
      await client.kv
        .range({ key: Buffer.from('/compact/pods/default/c1'), revision: String(Number(firstRv) - 1) })
        .catch((error: unknown) => {
          compacted = error;
        });
    }
    expect(String(compacted)).toMatch(/compacted/);
  }, 20_000);

  it('restores every object after a restart at its revision, continues above it, and answers 410 before it', async () => {
    const first = await start('/restart');
    const made = [];
    for (let i = 0; i < 5; i++)
      made.push((await request(first, 'POST', PODS, { body: podManifest(`r${i}`) })).body);
    await first.close();
    const second = await start('/restart');
    const listed = await request(second, 'GET', PODS);
    expect(
      listed.body.items.map((p: { metadata: { name: string; resourceVersion: string } }) => [
        p.metadata.name,
        p.metadata.resourceVersion,
      ]),
    ).toEqual(made.map((p) => [p.metadata.name, p.metadata.resourceVersion]));
    const next = await request(second, 'POST', PODS, { body: podManifest('after') });
    expect(Number(next.body.metadata.resourceVersion)).toBeGreaterThan(
      Number(made[4].metadata.resourceVersion),
    );
    const old = watchLines(second, `${PODS}?watch=true&resourceVersion=${made[0].metadata.resourceVersion}`);
    const [gone] = await old.waitFor(1, 10_000);
    old.close();
    expect([gone.type, gone.object.code, gone.object.reason]).toEqual(['ERROR', 410, 'Expired']);
  });
});
