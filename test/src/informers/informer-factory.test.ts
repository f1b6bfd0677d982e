// informerFactory and waitForCacheSync: sharing by resource, namespace and list-option tweaks, start/shutdown, sync results and abort.
import { Registry } from 'prom-client';
import { NEVER, Observable, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { dropManagedFields } from '../../../src/informers/drop-managed-fields.ts';
import { informerFactory, resourceName } from '../../../src/informers/informer-factory.ts';
import { toPartialObjectMetadata } from '../../../src/informers/metadata-informer.ts';
import { waitForCacheSync } from '../../../src/informers/wait-for-cache-sync.ts';
import { reflectorMetrics } from '../../../src/metrics/reflector-metrics.ts';
import { FakeApiServer } from '../../../src/testing/fake-api-server.ts';
import { VirtualClock } from '../../../src/testing/virtual-clock.ts';
import type { ApiClient, ResourceDescriptor } from '../../../streams/api-client.ts';
import type { ListOptions, WatchOptions } from '../../../streams/ports.ts';
import { DEPLOYMENTS, NODES, PODS } from '../../../streams/resources.ts';

/** An ApiClient whose lists and watches go to one fake server per resource, recording the options. */
function fakeClient(servers: Record<string, FakeApiServer>) {
  const calls: { resource: string; options: ListOptions & WatchOptions & { namespace?: string } }[] = [];
  const client = {
    list: (r: ResourceDescriptor, options = {}) => {
      calls.push({ resource: r.plural, options });
      return servers[r.plural]!.list(options);
    },
    watch: (r: ResourceDescriptor, options = {}) => {
      calls.push({ resource: r.plural, options });
      return servers[r.plural]!.watch(options);
    },
  } as unknown as ApiClient;
  return { client, calls };
}

describe('informerFactory', () => {
  it('hands every informer’s watches to the client with the response-head hedge bound (2 s before any answer)', () => {
    const clock = new VirtualClock();
    const pods = new FakeApiServer({ scheduler: clock.scheduler });
    const nodes = new FakeApiServer({ scheduler: clock.scheduler });
    const { client, calls } = fakeClient({ pods, nodes });
    const factory = informerFactory({ client, scheduler: clock.scheduler });
    factory.forResource(PODS);
    factory.metadataForResource(NODES);
    factory.start();
    clock.advance(0);
    const watches = calls.filter((c) => c.options.sendInitialEvents);
    expect(watches.map((c) => [c.resource, c.options.responseHeadHedgeMs]).sort()).toEqual([
      ['nodes', 2000],
      ['pods', 2000],
    ]);
    factory.shutdown();
  });

  it('gives every informer its own metrics sink, labelled by its name, unless listWatch has one', async () => {
    const clock = new VirtualClock();
    const pods = new FakeApiServer({ scheduler: clock.scheduler });
    const nodes = new FakeApiServer({ scheduler: clock.scheduler });
    const { client } = fakeClient({ pods, nodes });
    const registry = new Registry();
    const factory = informerFactory({
      client,
      scheduler: clock.scheduler,
      listWatch: { watchList: false },
      metrics: reflectorMetrics(registry),
    });
    factory.forResource(PODS);
    factory.metadataForResource(NODES);
    factory.start();
    clock.advance(0);
    const lists = await registry.getSingleMetric('kube_rx_reflector_lists_total')!.get();
    expect(lists.values.map((v) => [v.labels.resource, v.labels.reason, v.value]).sort()).toEqual([
      ['nodes (metadata)', 'initial', 1],
      ['pods', 'initial', 1],
    ]);
    factory.shutdown();
    const own: string[] = [];
    const sink = { restarted: () => {}, listed: () => own.push('listed'), track: () => () => {} };
    const explicit = informerFactory({
      client,
      scheduler: clock.scheduler,
      listWatch: { watchList: false, metrics: sink },
      metrics: {
        sink: () => {
          throw new Error('not asked when listWatch has a sink');
        },
      },
    });
    explicit.forResource(PODS);
    explicit.start();
    clock.advance(0);
    expect(own).toEqual(['listed']);
    explicit.shutdown();
  });

  it("drops a watched object of another kind than the resource's (client-go's expected type)", () => {
    const clock = new VirtualClock();
    const watch = new Subject<{ type: 'ADDED'; object: object }>();
    const client = {
      list: () => new Observable((s) => s.next({ metadata: { resourceVersion: '1' }, items: [] })),
      watch: () => watch,
    } as unknown as ApiClient;
    const factory = informerFactory({ client, scheduler: clock.scheduler, listWatch: { watchList: false } });
    const pods = factory.forResource(PODS);
    factory.start();
    clock.advance(0);
    const meta = (name: string, rv: string) => ({ name, namespace: 'ns', resourceVersion: rv });
    watch.next({ type: 'ADDED', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: meta('cm', '2') } });
    watch.next({ type: 'ADDED', object: { kind: 'Pod', apiVersion: 'v1', metadata: meta('p', '3') } });
    clock.advance(0);
    expect(pods.getStore().listKeys()).toEqual(['ns/p']);
    factory.shutdown();
  });

  it('returns the same informer per resource and scopes namespaced resources to its namespace, after the tweak', () => {
    const clock = new VirtualClock();
    const pods = new FakeApiServer({ scheduler: clock.scheduler });
    const nodes = new FakeApiServer({ scheduler: clock.scheduler });
    const { client, calls } = fakeClient({ pods, nodes });
    const factory = informerFactory({
      client,
      namespace: 'prod',
      scheduler: clock.scheduler,
      tweakListOptions: (o) => {
        o.labelSelector = 'app=web';
        (o as { namespace?: string }).namespace = 'ignored';
      },
    });
    const a = factory.forResource(PODS);
    expect(factory.forResource(PODS)).toBe(a);
    expect(factory.forResource(NODES)).not.toBe(a);
    factory.start();
    expect(a.running).toBe(true);
    expect(calls.map((c) => [c.resource, c.options.namespace, c.options.labelSelector])).toEqual([
      ['pods', 'prod', 'app=web'],
      ['nodes', undefined, 'app=web'],
    ]);
    factory.shutdown();
    expect(a.running).toBe(false);
    factory.start();
    expect(a.running).toBe(false);
  });

  it('start() starts only informers not started yet; later ones need another start()', () => {
    const clock = new VirtualClock();
    const servers = {
      pods: new FakeApiServer({ scheduler: clock.scheduler }),
      deployments: new FakeApiServer({ scheduler: clock.scheduler }),
    };
    const { client } = fakeClient(servers);
    const factory = informerFactory({ client, scheduler: clock.scheduler });
    const pods = factory.forResource(PODS);
    factory.start();
    const deployments = factory.forResource(DEPLOYMENTS);
    expect(deployments.running).toBe(false);
    factory.start();
    expect([pods.running, deployments.running]).toEqual([true, true]);
    factory.shutdown();
  });

  it('waitForCacheSync reports per resource, false for one that cannot sync before the abort', async () => {
    const clock = new VirtualClock();
    const pods = new FakeApiServer({ scheduler: clock.scheduler });
    const nodes = new FakeApiServer({ scheduler: clock.scheduler });
    nodes.inject({ type: 'hangNext', op: 'watch' });
    const { client } = fakeClient({ pods, nodes });
    const factory = informerFactory({ client, scheduler: clock.scheduler, listWatch: { watchList: false } });
    factory.forResource(PODS);
    factory.forResource(NODES);
    nodes.inject({ type: 'hangNext', op: 'list' });
    factory.start();
    const controller = new AbortController();
    const result = factory.waitForCacheSync(controller.signal);
    controller.abort();
    expect(await result).toEqual({ pods: true, nodes: false });
    factory.shutdown();
  });

  it('applies customResyncMs by resource name and the factory transform', () => {
    const clock = new VirtualClock();
    const pods = new FakeApiServer({ scheduler: clock.scheduler });
    pods.upsert({ metadata: { name: 'a', namespace: 'n', managedFields: [{ manager: 'x' }] } });
    const { client } = fakeClient({ pods });
    const factory = informerFactory({
      client,
      scheduler: clock.scheduler,
      customResyncMs: { pods: 10_000 },
      transform: dropManagedFields,
    });
    const informer = factory.forResource(PODS, { indexers: { byName: (o) => [o.metadata?.name ?? ''] } });
    const syncs: string[] = [];
    informer.addEventHandler({ onUpdate: (_o, n) => void syncs.push(n.metadata!.name!) });
    factory.start();
    expect(informer.getStore().getByKey('n/a')?.metadata).not.toHaveProperty('managedFields');
    clock.advance(10_000);
    expect(syncs).toEqual(['a']);
    factory.forResource(PODS, { indexers: { byName: (o) => [o.metadata?.name ?? ''], other: () => ['x'] } });
    expect(Object.keys(informer.getStore().getIndexers()).sort()).toEqual(['byName', 'namespace', 'other']);
    expect(factory.metadataForResource(PODS)).not.toBe(informer);
  });

  it('metadataForResource asks for metadata only on every list and watch (the tweak cannot undo it); forResource never does', () => {
    const clock = new VirtualClock();
    const pods = new FakeApiServer({ scheduler: clock.scheduler });
    // a client that ignores the request and answers whole objects: the informer still caches metadata only
    pods.upsert({ kind: 'Pod', metadata: { name: 'a', namespace: 'n' }, spec: { nodeName: 'x' } });
    const { client, calls } = fakeClient({ pods });
    const factory = informerFactory({
      client,
      scheduler: clock.scheduler,
      tweakListOptions: (o) => {
        (o as { metadataOnly?: boolean }).metadataOnly = false;
      },
    });
    const meta = factory.metadataForResource(PODS);
    factory.start();
    const metaCalls = calls.splice(0);
    factory.forResource(PODS);
    factory.start();
    pods.upsert({ kind: 'Pod', metadata: { name: 'b', namespace: 'n' }, spec: { nodeName: 'y' } });
    const flags = (cs: typeof calls) => cs.map((c) => (c.options as { metadataOnly?: boolean }).metadataOnly);
    expect(metaCalls.length).toBeGreaterThan(0);
    expect(flags(metaCalls).every((f) => f === true)).toBe(true);
    expect(calls.length).toBeGreaterThan(0);
    expect(flags(calls).some((f) => f !== undefined)).toBe(false);
    expect(
      meta
        .getStore()
        .list()
        .map((o) => [o.kind, o.metadata.name, 'spec' in o]),
    ).toEqual([
      ['PartialObjectMetadata', 'a', false],
      ['PartialObjectMetadata', 'b', false],
    ]);
    factory.shutdown();
  });

  it('names resources as client-go keys them', () => {
    expect([resourceName(PODS), resourceName(DEPLOYMENTS), resourceName(PODS, true)]).toEqual([
      'pods',
      'deployments.apps',
      'pods (metadata)',
    ]);
  });

  it('rejects a missing client', () => {
    expect(() => informerFactory({} as never)).toThrow(/client/);
  });
});

describe('waitForCacheSync', () => {
  it('resolves true once every observable source is synced', async () => {
    const a = new Subject<boolean>();
    const b = new Subject<boolean>();
    const done = waitForCacheSync(undefined, { hasSynced$: a }, { hasSynced$: b });
    a.next(true);
    b.next(false);
    b.next(true);
    expect(await done).toBe(true);
    expect(a.observed || b.observed).toBe(false);
  });

  it('resolves false on abort and removes its listener', async () => {
    const controller = new AbortController();
    const done = waitForCacheSync(controller.signal, { hasSynced$: NEVER });
    controller.abort();
    expect(await done).toBe(false);
  });

  it('checks first: already synced wins over an already aborted signal; nothing to wait for is true', async () => {
    expect(await waitForCacheSync(AbortSignal.abort(), () => true)).toBe(true);
    expect(await waitForCacheSync(AbortSignal.abort(), () => false)).toBe(false);
    expect(await waitForCacheSync(AbortSignal.abort())).toBe(true);
  });

  it('polls functions every 100 ms on the given scheduler', async () => {
    const clock = new VirtualClock();
    let synced = false;
    let polls = 0;
    const done = waitForCacheSync({ scheduler: clock.scheduler }, () => {
      polls++;
      return synced;
    });
    clock.advance(250);
    expect(polls).toBe(3);
    synced = true;
    clock.advance(100);
    expect(await done).toBe(true);
    expect(clock.pending).toBe(0);
  });

  it('unsubscribes its sources when done', async () => {
    let active = 0;
    const source = new Observable<boolean>((s) => {
      active++;
      s.next(false);
      const t = setTimeout(() => s.next(true), 1);
      return () => {
        clearTimeout(t);
        active--;
      };
    });
    expect(await waitForCacheSync(undefined, { hasSynced$: source })).toBe(true);
    expect(active).toBe(0);
  });
});

describe('metadata helpers', () => {
  it('toPartialObjectMetadata keeps only kind, apiVersion and metadata, and leaves a partial one alone', () => {
    const full = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { k: 'djE=' } };
    const partial = toPartialObjectMetadata(full);
    expect(partial).toEqual({
      apiVersion: 'meta.k8s.io/v1',
      kind: 'PartialObjectMetadata',
      metadata: { name: 's' },
    });
    expect(toPartialObjectMetadata(partial)).toBe(partial);
  });
});
