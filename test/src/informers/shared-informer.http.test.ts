// Shared informers over real HTTP against the embedded API server: server-side watch closes and a 410 lose no update.
import { BehaviorSubject, filter, first, lastValueFrom, switchMap } from 'rxjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DeletedFinalStateUnknown, type KubeObject } from '../../../operators/types.ts';
import { informerFactory } from '../../../src/informers/informer-factory.ts';
import { metadataInformer } from '../../../src/informers/metadata-informer.ts';
import { sharedInformer } from '../../../src/informers/shared-informer.ts';
import { waitForCacheSync } from '../../../src/informers/wait-for-cache-sync.ts';
import { listerWatcher } from '../../../streams/api-client.ts';
import type { ListerWatcher } from '../../../streams/ports.ts';
import { NAMESPACES, PODS } from '../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../helpers/embedded-cluster.ts';
import { eventually } from '../../helpers/eventually.ts';

const pod = (name: string, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels },
  spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] },
});

describe('shared informer over HTTP (embedded API server)', () => {
  // writes at client-go's default pace (5 qps), as a real controller's would be
  const cluster = useEmbeddedCluster(
    { historyWindow: 10, maxWatchSeconds: 1, builtinNamespaceControllers: true },
    { qps: 5 },
  );

  beforeAll(async () => {
    for (const ns of ['inf', 'meta'])
      await lastValueFrom(cluster.api.create(NAMESPACES, { metadata: { name: ns } }));
  });

  const write = {
    create: (ns: string, p: KubeObject) => lastValueFrom(cluster.api.create(PODS, p, { namespace: ns })),
    label: (ns: string, name: string, labels: Record<string, string>) =>
      lastValueFrom(cluster.api.patch(PODS, name, { metadata: { labels } }, 'merge', { namespace: ns })),
    delete: (ns: string, name: string) => lastValueFrom(cluster.api.delete(PODS, name, { namespace: ns })),
  };
  const serverState = async (ns: string) => {
    const list = await lastValueFrom(cluster.api.list(PODS, { namespace: ns }));
    return list!.items.map((p) => `${p.metadata?.name}@${p.metadata?.resourceVersion}`).sort();
  };

  it('survives server-side watch closes and a 410 without losing an update', async () => {
    // a gate in front of the watch lets the test hold a rewatch back until the history has moved on
    const gate = new BehaviorSubject(true);
    const base = listerWatcher(cluster.api, PODS, { namespace: 'inf' });
    let relists = 0;
    const gated: ListerWatcher = {
      list: (o) => {
        relists++;
        return base.list(o);
      },
      watch: (o) => {
        if (o.sendInitialEvents) relists++;
        return gate.pipe(
          filter(Boolean),
          first(),
          switchMap(() => base.watch(o)),
        );
      },
    };
    const informer = sharedInformer({ source: gated, name: 'pods' });
    const handlerView = new Map<string, string | undefined>();
    let tombstones = 0;
    const reg = informer.addEventHandler({
      onAdd: (p) => void handlerView.set(p.metadata!.name!, p.metadata?.resourceVersion),
      onUpdate: (_o, p) => void handlerView.set(p.metadata!.name!, p.metadata?.resourceVersion),
      onDelete: (p) => {
        tombstones += p instanceof DeletedFinalStateUnknown ? 1 : 0;
        handlerView.set(
          p instanceof DeletedFinalStateUnknown ? p.key.split('/')[1]! : p.metadata!.name!,
          undefined,
        );
      },
    });
    const view = () =>
      [...handlerView]
        .filter(([, rv]) => rv !== undefined)
        .map(([n, rv]) => `${n}@${rv}`)
        .sort();
    const cache = () =>
      informer
        .lister()
        .byNamespace('inf')
        .list()
        .map((p) => `${p.metadata?.name}@${p.metadata?.resourceVersion}`)
        .sort();
    try {
      expect(await waitForCacheSync(AbortSignal.timeout(5000), informer, reg)).toBe(true);
      for (let i = 0; i < 4; i++) await write.create('inf', pod(`p${i}`));
      let expected = await serverState('inf');
      await eventually(() => expect(cache()).toEqual(expected));

      // the server closes every watch after a second; a write after that arrives through a new watch
      await new Promise((r) => setTimeout(r, 1300));
      await write.label('inf', 'p1', { after: 'close' });
      expected = await serverState('inf');
      await eventually(() => expect(cache()).toEqual(expected));

      // hold the next rewatch back while more writes than the history keeps go by: it gets 410 and relists
      gate.next(false);
      await new Promise((r) => setTimeout(r, 1200));
      for (let i = 0; i < 15; i++) await write.label('inf', 'p2', { n: String(i) });
      await write.delete('inf', 'p3');
      await write.create('inf', pod('late'));
      expected = await serverState('inf');
      const relistsBefore = relists;
      gate.next(true);
      await eventually(() => expect(cache()).toEqual(expected));
      expect(relists).toBeGreaterThan(relistsBefore);
      expect(view()).toEqual(expected);
      expect(tombstones).toBe(1); // p3's delete was only seen by the relist
    } finally {
      reg.remove();
    }
    expect(informer.running).toBe(false);
  });

  it('a factory shares one informer per resource and syncs it; a metadata informer caches metadata only', async () => {
    await write.create('meta', pod('m1', { app: 'x' }));
    const factory = informerFactory({ client: cluster.api, namespace: 'meta' });
    const pods = factory.forResource(PODS);
    expect(factory.forResource(PODS)).toBe(pods);
    factory.start();
    expect(await factory.waitForCacheSync(AbortSignal.timeout(5000))).toEqual({ pods: true });
    expect(
      pods
        .lister()
        .list()
        .map((p) => p.metadata?.name),
    ).toEqual(['m1']);

    const meta = metadataInformer({ source: listerWatcher(cluster.api, PODS, { namespace: 'meta' }) });
    const hold = meta.start();
    expect(await waitForCacheSync(AbortSignal.timeout(5000), meta)).toBe(true);
    const [only] = meta.getStore().list();
    expect(only).toMatchObject({
      apiVersion: 'meta.k8s.io/v1',
      kind: 'PartialObjectMetadata',
      metadata: { name: 'm1', labels: { app: 'x' } },
    });
    expect(only).not.toHaveProperty('spec');
    hold.unsubscribe();
    factory.shutdown();
    expect(pods.running).toBe(false);
  });
});
