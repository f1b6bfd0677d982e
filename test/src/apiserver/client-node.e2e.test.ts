// @kubernetes/client-node end to end: typed calls, and its informer converging through writes, watch closes and 410s.
import {
  AppsV1Api,
  CoreV1Api,
  KubeConfig,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  type V1Pod,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../../src/apiserver/index.ts';
import { eventually } from '../../helpers/eventually.ts';
import { podManifest } from './fixtures/http.ts';

const pod = (name: string, labels: Record<string, string> = {}) => podManifest(name, labels) as V1Pod;

function statusCode(error: unknown): number | undefined {
  return (error as { code?: number }).code;
}

describe('@kubernetes/client-node against the embedded API server', () => {
  let server: RunningApiServer;
  let core: CoreV1Api;
  let apps: AppsV1Api;
  let kc: KubeConfig;

  beforeAll(async () => {
    server = await startApiServer({
      historyWindow: 20,
      maxWatchSeconds: 1,
      builtinNamespaceControllers: true,
    });
    kc = new KubeConfig();
    kc.loadFromString(server.kubeconfig);
    core = kc.makeApiClient(CoreV1Api);
    apps = kc.makeApiClient(AppsV1Api);
    await core.createNamespace({ body: { metadata: { name: 'typed' } } });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('creates, reads, lists, patches and deletes typed objects', async () => {
    const created = await core.createNamespacedPod({ namespace: 'typed', body: pod('a', { app: 'x' }) });
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.status?.phase).toBe('Pending');
    const read = await core.readNamespacedPod({ name: 'a', namespace: 'typed' });
    expect(read.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
    await core.createNamespacedPod({ namespace: 'typed', body: pod('b', { app: 'y' }) });
    const listed = await core.listNamespacedPod({ namespace: 'typed', labelSelector: 'app=x' });
    expect(listed.items.map((p) => p.metadata?.name)).toEqual(['a']);
    const patched = await core.patchNamespacedPod(
      { name: 'a', namespace: 'typed', body: { metadata: { labels: { patched: 'yes' } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    expect(patched.metadata?.labels).toEqual({ app: 'x', patched: 'yes' });
    const jsonPatched = await core.patchNamespacedPod({
      name: 'a',
      namespace: 'typed',
      body: [{ op: 'add', path: '/metadata/annotations', value: { k: 'v' } }],
    });
    expect(jsonPatched.metadata?.annotations).toEqual({ k: 'v' });
    await core.deleteNamespacedPod({ name: 'a', namespace: 'typed' });
    await expect(core.readNamespacedPod({ name: 'a', namespace: 'typed' })).rejects.toSatisfy(
      (e) => statusCode(e) === 404,
    );
  });

  it('answers a stale update with 409 Conflict and a duplicate create with 409 AlreadyExists', async () => {
    const d = await apps.createNamespacedDeployment({
      namespace: 'typed',
      body: {
        metadata: { name: 'd' },
        spec: {
          selector: { matchLabels: { app: 'd' } },
          template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
        },
      },
    });
    expect(d.metadata?.generation).toBe(1);
    const fresh = await apps.replaceNamespacedDeployment({
      name: 'd',
      namespace: 'typed',
      body: { ...d, spec: { ...d.spec!, replicas: 3 } },
    });
    expect(fresh.metadata?.generation).toBe(2);
    await expect(
      apps.replaceNamespacedDeployment({
        name: 'd',
        namespace: 'typed',
        body: { ...d, spec: { ...d.spec!, replicas: 4 } },
      }),
    ).rejects.toSatisfy((e) => statusCode(e) === 409);
    const copy = { ...d, metadata: { name: 'd' } };
    await expect(apps.createNamespacedDeployment({ namespace: 'typed', body: copy })).rejects.toSatisfy(
      (e) => statusCode(e) === 409,
    );
  });

  it("converges makeInformer's cache through writes, server-side watch closes and an expired resourceVersion", async () => {
    await core.createNamespace({ body: { metadata: { name: 'inf' } } });
    let lists = 0;
    const informer = makeInformer(kc, '/api/v1/namespaces/inf/pods', () => {
      lists++;
      return core.listNamespacedPod({ namespace: 'inf' });
    });
    let connects = 0;
    informer.on('connect', () => {
      connects++;
    });
    const errors: unknown[] = [];
    informer.on('error', (e) => errors.push(e));
    const serverState = async () =>
      (await core.listNamespacedPod({ namespace: 'inf' })).items
        .map((p) => `${p.metadata?.name}@${p.metadata?.resourceVersion}`)
        .sort();
    const cacheState = () =>
      informer
        .list('inf')
        .map((p) => `${p.metadata?.name}@${p.metadata?.resourceVersion}`)
        .sort();
    await core.createNamespacedPod({ namespace: 'inf', body: pod('p0') });
    await informer.start();
    try {
      for (let i = 1; i <= 5; i++) await core.createNamespacedPod({ namespace: 'inf', body: pod(`p${i}`) });
      await core.deleteNamespacedPod({ name: 'p0', namespace: 'inf' });
      let expected = await serverState();
      await eventually(() => expect(cacheState()).toEqual(expected));

      // The server ends every watch after a second: writes after that arrive through a new watch.
      const before = connects;
      await new Promise((r) => setTimeout(r, 1300));
      await core.patchNamespacedPod(
        { name: 'p1', namespace: 'inf', body: { metadata: { labels: { after: 'close' } } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      expected = await serverState();
      await eventually(() => expect(cacheState()).toEqual(expected));
      expect(connects).toBeGreaterThan(before);

      // Stopped, the informer misses more writes than the history keeps: its rewatch gets 410 and it relists.
      await informer.stop();
      for (let i = 0; i < 30; i++) {
        await core.patchNamespacedPod(
          { name: 'p2', namespace: 'inf', body: { metadata: { labels: { n: String(i) } } } },
          setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
        );
      }
      await core.deleteNamespacedPod({ name: 'p3', namespace: 'inf' });
      await core.createNamespacedPod({ namespace: 'inf', body: pod('late') });
      expected = await serverState();
      const listsBefore = lists;
      await informer.start();
      await eventually(() => expect(cacheState()).toEqual(expected));
      expect(lists).toBe(listsBefore + 1);
      // stop() aborts the watch request; anything else would be a failure.
      expect(errors.filter((e) => (e as Error).name !== 'AbortError')).toEqual([]);
    } finally {
      await informer.stop();
    }
  });
});
