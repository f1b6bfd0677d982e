// sharedInformer: marbles for the five questions, client-go's shared_informer_test cases in virtual time, slow handlers, lifecycle and bad input.
import { defer, finalize, map, of, Subject, take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { InformerNotification } from '../../../operators/informer-notification.ts';
import type { Logger } from '../../../operators/logger.ts';
import { DeletedFinalStateUnknown, type KubeObject, type ReflectorEvent } from '../../../operators/types.ts';
import { filteringEventHandler } from '../../../src/informers/event-handler.ts';
import { sharedInformer } from '../../../src/informers/shared-informer.ts';
import { FakeApiServer } from '../../../src/testing/fake-api-server.ts';
import { testScheduler } from '../../../src/testing/marbles.ts';
import { VirtualClock } from '../../../src/testing/virtual-clock.ts';

const pod = (name: string, rv: string, extra: Partial<KubeObject> = {}): KubeObject => ({
  metadata: { name, namespace: 'ns', resourceVersion: rv },
  ...extra,
});

/** A compact text per notification: `+a@1*` (add, initial), `~a 1→2` (update), `-a` (delete). */
function show(n: InformerNotification): string {
  switch (n.type) {
    case 'add':
      return `+${n.object.metadata?.name}@${n.object.metadata?.resourceVersion}${n.isInInitialList ? '*' : ''}`;
    case 'update':
      return `~${n.newObject.metadata?.name} ${n.oldObject.metadata?.resourceVersion}→${n.newObject.metadata?.resourceVersion}${n.isSync ? ' sync' : ''}`;
    case 'delete':
      return `-${n.key.split('/')[1]}${n.object instanceof DeletedFinalStateUnknown ? ' (tombstone)' : ''}`;
  }
}

function recordingLogger(): Logger & {
  lines: { level: string; fields: Record<string, unknown>; msg: string }[];
} {
  const lines: { level: string; fields: Record<string, unknown>; msg: string }[] = [];
  const make = (level: string) => (a: unknown, b?: string) =>
    typeof a === 'string'
      ? lines.push({ level, fields: {}, msg: a })
      : lines.push({ level, fields: a as Record<string, unknown>, msg: b ?? '' });
  const logger = {
    lines,
    trace: make('trace'),
    debug: make('debug'),
    info: make('info'),
    warn: make('warn'),
    error: make('error'),
    child: () => logger,
  } as unknown as Logger & { lines: typeof lines };
  return logger;
}

const R = (...items: KubeObject[]): ReflectorEvent => ({ type: 'Replace', items, resourceVersion: '1' });
const A = (o: KubeObject): ReflectorEvent => ({ type: 'Added', object: o });
const U = (o: KubeObject): ReflectorEvent => ({ type: 'Updated', object: o });
const D = (o: KubeObject): ReflectorEvent => ({ type: 'Deleted', object: o });

const mapShow = () => map((n: InformerNotification) => show(n));

describe('sharedInformer events() marbles', () => {
  const values = { r: R(pod('x', '1')), a: A(pod('y', '2')), u: U(pod('x', '3')), d: D(pod('y', '4')) };
  const out = { X: '+x@1*', Y: '+y@2', U: '~x 1→3', D: '-y' };

  it('values: the documented diagram', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const informer = sharedInformer({ source: cold('-r-a--u-d|', values) });
      expectObservable(informer.events().pipe(mapShow())).toBe('-X-Y--U-D|', out);
    });
  });

  it('error: the source error reaches the subscriber after what came before', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const informer = sharedInformer({ source: cold('-r-#', values, new Error('gave up')) });
      expectObservable(informer.events().pipe(mapShow())).toBe('-X-#', out, new Error('gave up'));
    });
  });

  it('empty: an empty source completes the events', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const informer = sharedInformer({ source: cold('|', values) });
      expectObservable(informer.events()).toBe('|');
    });
  });

  it('early unsubscribe: the last subscriber leaving unsubscribes the source', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-r-a--u-d|', values);
      const informer = sharedInformer({ source });
      expectObservable(informer.events().pipe(mapShow()), '^--!').toBe('-X-', out);
      expectSubscriptions(source.subscriptions).toBe('^--!');
    });
  });

  it('synchronous source then take: the source is released after enough', () => {
    let released = 0;
    const source = defer(() => of(R(pod('x', '1'), pod('y', '1')), A(pod('z', '2')))).pipe(
      finalize(() => released++),
    );
    const informer = sharedInformer({ source });
    const seen: string[] = [];
    informer
      .events()
      .pipe(mapShow(), take(2))
      .subscribe((s) => seen.push(s));
    expect(seen).toEqual(['+x@1*', '+y@1*']);
    expect(released).toBe(1);
    expect(informer.running).toBe(false);
  });

  it('every subscriber gets the events from its own buffer; a late one first gets the cache as initial adds', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const informer = sharedInformer({ source: cold('-r-a------u-d-', values) });
      expectObservable(informer.events().pipe(mapShow()), '^-------------!').toBe('-X-Y------U-D-', out);
      expectObservable(informer.events().pipe(mapShow()), '----^---------!').toBe('----(XY)--U-D-', {
        ...out,
        Y: '+y@2*',
      });
    });
  });
});

describe('client-go shared_informer_test cases (virtual time)', () => {
  const setup = (defaultResyncMs = 0) => {
    const clock = new VirtualClock();
    const server = new FakeApiServer({ scheduler: clock.scheduler });
    const informer = sharedInformer({
      source: server,
      scheduler: clock.scheduler,
      defaultResyncMs,
      listWatch: { random: () => 0 },
    });
    return { clock, server, informer };
  };
  const names = (seen: string[]) => [...new Set(seen)].sort();
  const recorder = () => {
    const seen: string[] = [];
    const handler = {
      onAdd: (o: KubeObject) => {
        seen.push(o.metadata!.name!);
      },
      onUpdate: (_o: KubeObject, n: KubeObject) => {
        seen.push(n.metadata!.name!);
      },
    };
    return { seen, handler };
  };

  it('TestListenerResyncPeriods: each handler resyncs on its own period', () => {
    const { clock, server, informer } = setup(1000);
    server.write({ op: 'upsert', namespace: 'ns', name: 'pod1' });
    server.write({ op: 'upsert', namespace: 'ns', name: 'pod2' });
    const [l1, l2, l3] = [recorder(), recorder(), recorder()];
    informer.addEventHandler(l1.handler, { resyncPeriodMs: 0 });
    informer.addEventHandler(l2.handler, { resyncPeriodMs: 2000 });
    informer.addEventHandler(l3.handler, { resyncPeriodMs: 3000 });
    for (const l of [l1, l2, l3]) expect(names(l.seen)).toEqual(['pod1', 'pod2']);
    for (const l of [l1, l2, l3]) l.seen.length = 0;
    clock.advance(2000);
    expect([names(l1.seen), names(l2.seen), names(l3.seen)]).toEqual([[], ['pod1', 'pod2'], []]);
    for (const l of [l1, l2, l3]) l.seen.length = 0;
    clock.advance(1000);
    expect([names(l1.seen), names(l2.seen), names(l3.seen)]).toEqual([[], [], ['pod1', 'pod2']]);
  });

  it('TestResyncCheckPeriod: a handler registered before the start lowers the check period', () => {
    const { clock, server, informer } = setup(12 * 3600_000);
    server.write({ op: 'upsert', namespace: 'ns', name: 'pod1' });
    const hold = informer.start();
    // once running, a shorter period is raised to the check period (12 h): no resync within a minute
    const raised = recorder();
    const raisedReg = informer.addEventHandler(raised.handler, { resyncPeriodMs: 60_000 });
    raised.seen.length = 0;
    clock.advance(61_000);
    expect(raised.seen).toEqual([]);
    hold.unsubscribe();
    expect(informer.running).toBe(true);
    raisedReg.remove();
    expect(informer.running).toBe(false);
    // a fresh start: the first handler lowers the check period to its own minute
    const lowered = recorder();
    const reg = informer.addEventHandler(lowered.handler, { resyncPeriodMs: 60_000 });
    lowered.seen.length = 0;
    clock.advance(60_000);
    expect(lowered.seen).toEqual(['pod1']);
    reg.remove();
  });

  it('TestSharedInformerWatchDisruption: after a relist a resyncing handler also gets the unchanged object', () => {
    const { clock, server, informer } = setup(1000);
    server.write({ op: 'upsert', namespace: 'ns', name: 'pod1' });
    server.write({ op: 'upsert', namespace: 'ns', name: 'pod2' });
    const noResync = recorder();
    const resync = recorder();
    informer.addEventHandler(noResync.handler, { resyncPeriodMs: 0 });
    informer.addEventHandler(resync.handler, { resyncPeriodMs: 1000 });
    expect([names(noResync.seen), names(resync.seen)]).toEqual([
      ['pod1', 'pod2'],
      ['pod1', 'pod2'],
    ]);
    server.inject({ type: 'stallWatches' });
    server.write({ op: 'upsert', namespace: 'ns', name: 'pod3' });
    server.write({ op: 'upsert', namespace: 'ns', name: 'pod2', data: 'changed' });
    expect(names(noResync.seen)).toEqual(['pod1', 'pod2']);
    noResync.seen.length = 0;
    resync.seen.length = 0;
    clock.advance(1000); // the check marks only the resyncing handler as syncing
    server.inject({ type: 'expireWatches' });
    clock.advance(1700); // backoff, then the relist
    expect(names(noResync.seen)).toEqual(['pod2', 'pod3']);
    expect(names(resync.seen)).toEqual(['pod1', 'pod2', 'pod3']);
  });

  it('a relist restarts the resync timer: no resync falls in the window right after it (reflector.go resyncChan)', () => {
    const { clock, server, informer } = setup(10_000);
    server.write({ op: 'upsert', namespace: 'ns', name: 'pod1' });
    const at: number[] = [];
    informer.addEventHandler({ onUpdate: () => void at.push(clock.now()) }, { resyncPeriodMs: 10_000 });
    clock.advance(8_000);
    server.inject({ type: 'expireWatches' });
    clock.advance(1_000); // the backoff, then the relist at about 8.8 s
    const relistAt = Math.max(...at, 8_000);
    at.length = 0;
    clock.advance(1_000); // 10 s after the start: the old timer would resync here
    expect(at).toEqual([]);
    clock.advance(9_000); // past 10 s after the relist
    expect(at.length).toBe(1);
    expect(at[0]!).toBeGreaterThanOrEqual(relistAt + 10_000 - 1_000);
    expect(at[0]!).toBeGreaterThan(10_000);
  });

  it('TestSharedInformerTransformer: handlers and the cache see transformed objects', () => {
    const { server } = setup();
    server.write({ op: 'upsert', namespace: 'ns', name: 'pod1' });
    server.write({ op: 'upsert', namespace: 'ns', name: 'pod2' });
    const informer = sharedInformer({
      source: server,
      transform: (o) => ({ ...o, metadata: { ...o.metadata, name: o.metadata!.name!.toUpperCase() } }),
    });
    const l = recorder();
    const reg = informer.addEventHandler(l.handler);
    expect(names(l.seen)).toEqual(['POD1', 'POD2']);
    expect(informer.getStore().listKeys().sort()).toEqual(['ns/POD1', 'ns/POD2']);
    reg.remove();
  });

  it('TestSharedInformerRemoveHandler / MultipleRegistration / RemovingRemoved: registrations are independent and remove is idempotent', () => {
    const { server, informer } = setup();
    server.write({ op: 'upsert', namespace: 'ns', name: 'pod1' });
    const handler = {};
    const r1 = informer.addEventHandler(handler);
    const r2 = informer.addEventHandler(handler);
    expect(informer.listenerCount).toBe(2);
    r1.remove();
    expect(informer.listenerCount).toBe(1);
    r1.remove();
    expect(informer.listenerCount).toBe(1);
    expect(informer.running).toBe(true);
    r2.remove();
    expect(informer.listenerCount).toBe(0);
    expect(informer.running).toBe(false);
  });

  it('TestRemoveWhileActive: a removed handler hears nothing more', () => {
    const { server, informer } = setup();
    const l = recorder();
    const other = informer.start();
    const reg = informer.addEventHandler(l.handler);
    server.write({ op: 'upsert', namespace: 'ns', name: 'pod1' });
    reg.remove();
    server.write({ op: 'upsert', namespace: 'ns', name: 'pod2' });
    expect(l.seen).toEqual(['pod1']);
    expect(informer.getStore().listKeys().sort()).toEqual(['ns/pod1', 'ns/pod2']);
    other.unsubscribe();
  });

  it('TestAddWhileActive: a late handler is not synced until it has handled the replayed cache', async () => {
    const { clock, server, informer } = setup();
    server.setLatency({ list: 10, watch: 10 });
    const l1 = recorder();
    const h1 = informer.addEventHandler(l1.handler);
    expect(h1.hasSynced()).toBe(false);
    server.write({ op: 'upsert', namespace: 'ns', name: 'pod1' });
    clock.advance(20);
    expect(l1.seen).toEqual(['pod1']);
    expect(h1.hasSynced()).toBe(true);
    let release = () => {};
    const seen2: string[] = [];
    const h2 = informer.addEventHandler({
      onAdd: (o, initial) => {
        seen2.push(`${o.metadata?.name}${initial ? '*' : ''}`);
        return new Promise<void>((r) => {
          release = r;
        });
      },
    });
    expect(seen2).toEqual(['pod1*']);
    expect(h2.hasSynced()).toBe(false);
    release();
    await Promise.resolve();
    expect(h2.hasSynced()).toBe(true);
    server.write({ op: 'upsert', namespace: 'ns', name: 'pod2' });
    expect(seen2).toEqual(['pod1*', 'pod2']);
    expect(l1.seen).toEqual(['pod1', 'pod2']);
  });

  it('TestIndexer: indexers given up front and added while running both answer at once', () => {
    const { server } = setup();
    server.write({ op: 'upsert', namespace: 'ns', name: 'pod1', labels: { a: 'a-val', b: 'b-val1' } });
    server.write({ op: 'upsert', namespace: 'ns', name: 'pod2', labels: { b: 'b-val2' } });
    const byLabelKey = (o: KubeObject) => Object.keys(o.metadata?.labels ?? {});
    const informer = sharedInformer({ source: server, indexers: { labels: byLabelKey } });
    const hold = informer.start();
    expect(
      informer
        .getStore()
        .byIndex('labels', 'a')
        .map((o) => o.metadata?.name),
    ).toEqual(['pod1']);
    server.write({ op: 'upsert', namespace: 'ns', name: 'pod3', labels: { a: 'a-val2' } });
    expect(informer.getStore().indexKeys('labels', 'a')).toEqual(['ns/pod1', 'ns/pod3']);
    informer.addIndexers({ 'labels-again': byLabelKey });
    expect(informer.getStore().indexKeys('labels-again', 'a')).toEqual(['ns/pod1', 'ns/pod3']);
    expect(informer.getStore().listIndexFuncValues('labels').sort()).toEqual(['a', 'b']);
    expect(() => informer.addIndexers({ labels: byLabelKey })).toThrow(/indexer conflict/);
    expect(
      informer
        .lister()
        .byNamespace('ns')
        .list('b')
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(['pod1', 'pod2']);
    hold.unsubscribe();
  });

  it('TestResetWatch: a relist turns a missed change into an update and a missed create into an add', () => {
    const { clock, server, informer } = setup();
    server.write({ op: 'upsert', namespace: 'default', name: 'pod-1' });
    const seen: string[] = [];
    informer.events().subscribe((n) => seen.push(show(n)));
    expect(seen).toEqual(['+pod-1@2*']);
    server.inject({ type: 'stallWatches' });
    server.write({ op: 'upsert', namespace: 'default', name: 'pod-1', data: 1 });
    server.write({ op: 'upsert', namespace: 'default', name: 'pod-2' });
    server.inject({ type: 'expireWatches' });
    clock.advance(1700);
    expect(seen.slice(1).sort()).toEqual(['+pod-2@4', '~pod-1 2→3']);
  });

  it('deletes seen only by a relist carry tombstones', () => {
    const { clock, server, informer } = setup();
    server.write({ op: 'upsert', namespace: 'ns', name: 'a' });
    const seen: string[] = [];
    const sub = informer.events().subscribe((n) => seen.push(show(n)));
    server.inject({ type: 'stallWatches' });
    server.write({ op: 'delete', namespace: 'ns', name: 'a' });
    server.inject({ type: 'expireWatches' });
    clock.advance(1700);
    expect(seen).toEqual(['+a@2*', '-a (tombstone)']);
    sub.unsubscribe();
  });
});

describe('handlers that are slow, failing or asynchronous', () => {
  it('a slow handler never delays a fast one, and its buffer stays bounded by the keys', () => {
    const server = new FakeApiServer();
    const informer = sharedInformer({ source: server });
    const fast: string[] = [];
    const slowSeen: string[] = [];
    let release = () => {};
    const slow = informer.addEventHandler({
      onAdd: (o) => {
        slowSeen.push(`${o.metadata?.name}@${o.metadata?.resourceVersion}`);
        return new Promise<void>((r) => {
          release = r;
        });
      },
      onUpdate: (_o, n) => {
        slowSeen.push(`${n.metadata?.name}@${n.metadata?.resourceVersion}`);
        return new Promise<void>((r) => {
          release = r;
        });
      },
    });
    informer.addEventHandler({
      onAdd: (o) => void fast.push(o.metadata!.name!),
      onUpdate: (_o, n) => void fast.push(n.metadata!.name!),
    });
    for (let i = 0; i < 300; i++) server.write({ op: 'upsert', namespace: 'ns', name: `k${i % 3}`, data: i });
    expect(fast).toHaveLength(300);
    expect(slowSeen).toHaveLength(1);
    expect(slow.pending).toBeLessThanOrEqual(3);
    expect(slow.pending).toBeGreaterThan(0);
    return (async () => {
      for (let i = 0; i < 10 && slow.pending > 0; i++) {
        release();
        await new Promise((r) => setImmediate(r));
      }
      const latest = [...server.snapshot().values()].map(
        (o) => `${o.metadata?.name}@${o.metadata?.resourceVersion}`,
      );
      for (const state of latest) expect(slowSeen).toContain(state);
      expect(slowSeen.length).toBeLessThanOrEqual(4);
    })();
  });

  it('a throwing or rejecting handler is logged and keeps receiving', async () => {
    const logger = recordingLogger();
    const source = new Subject<ReflectorEvent>();
    const informer = sharedInformer({ source, logger });
    const seen: string[] = [];
    informer.addEventHandler({
      onAdd: (o) => {
        seen.push(o.metadata!.name!);
        if (o.metadata?.name === 'a') throw new Error('handler bug');
        if (o.metadata?.name === 'b') return Promise.reject(new Error('async bug'));
        return undefined;
      },
    });
    source.next(A(pod('a', '1')));
    source.next(A(pod('b', '2')));
    await Promise.resolve();
    await Promise.resolve();
    source.next(A(pod('c', '3')));
    expect(seen).toEqual(['a', 'b', 'c']);
    const errors = logger.lines
      .filter((l) => l.level === 'error')
      .map((l) => [l.msg, l.fields.key, (l.fields.err as Error).message]);
    expect(errors).toEqual([
      ['event handler failed', 'ns/a', 'handler bug'],
      ['event handler failed', 'ns/b', 'async bug'],
    ]);
  });

  it('handle(): pulled — the next notification waits for the previous output to complete; outputs are emitted', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const informer = sharedInformer({
        source: cold('(rab)', { r: R(pod('x', '1')), a: A(pod('y', '2')), b: A(pod('z', '3')) }),
      });
      const work = (n: InformerNotification) => cold('--w|', { w: show(n) });
      expectObservable(informer.handle(work), '^---------!').toBe('--a--b--c-', {
        a: '+x@1*',
        b: '+y@2',
        c: '+z@3',
      });
    });
  });

  it('filteringEventHandler: updates across the filter become adds and deletes', () => {
    const seen: string[] = [];
    const handler = filteringEventHandler<KubeObject>(
      (o) => (o as KubeObject).metadata?.labels?.keep === 'yes',
      {
        onAdd: (o, initial) => void seen.push(`add ${o.metadata?.name} ${initial}`),
        onUpdate: (_o, n) => void seen.push(`update ${n.metadata?.name}`),
        onDelete: (o) => void seen.push(`delete ${(o as KubeObject).metadata?.name}`),
      },
    );
    const keep = (name: string) =>
      pod(name, '1', { metadata: { name, namespace: 'ns', labels: { keep: 'yes' } } });
    const drop = (name: string) => pod(name, '1');
    handler.onAdd!(keep('a'), true);
    handler.onAdd!(drop('b'), true);
    handler.onUpdate!(keep('a'), keep('a'));
    handler.onUpdate!(drop('c'), keep('c'));
    handler.onUpdate!(keep('d'), drop('d'));
    handler.onUpdate!(drop('e'), drop('e'));
    handler.onDelete!(keep('f'));
    handler.onDelete!(drop('g'));
    expect(seen).toEqual(['add a true', 'update a', 'add c false', 'delete d', 'delete f']);
  });
});

describe('lifecycle', () => {
  it('stops with the last user and starts again cleanly: fresh list, empty store rebuilt, adds again', () => {
    const clock = new VirtualClock();
    const server = new FakeApiServer({ scheduler: clock.scheduler });
    server.write({ op: 'upsert', namespace: 'ns', name: 'a' });
    const informer = sharedInformer({ source: server, scheduler: clock.scheduler, defaultResyncMs: 5000 });
    const synced: boolean[] = [];
    informer.hasSynced$.subscribe((s) => synced.push(s));
    const first: string[] = [];
    const sub = informer.events().subscribe((n) => first.push(show(n)));
    expect(first).toEqual(['+a@2*']);
    expect(informer.hasSynced()).toBe(true);
    expect(server.openWatches).toBe(1);
    sub.unsubscribe();
    expect(informer.running).toBe(false);
    expect(server.openWatches).toBe(0);
    expect(clock.pending).toBe(0);
    expect(informer.getStore().size).toBe(0);
    expect(informer.hasSynced()).toBe(false);
    server.write({ op: 'upsert', namespace: 'ns', name: 'b' });
    const second: string[] = [];
    const sub2 = informer.events().subscribe((n) => second.push(show(n)));
    expect(second).toEqual(['+a@2*', '+b@3*']);
    expect(server.watchCalls).toHaveLength(2);
    sub2.unsubscribe();
    expect(synced).toEqual([false, true, false, true, false]);
  });

  it('store$ emits snapshots and holds the informer; hasSynced$ and health$ only observe', () => {
    const clock = new VirtualClock();
    const server = new FakeApiServer({ scheduler: clock.scheduler });
    server.write({ op: 'upsert', namespace: 'ns', name: 'a' });
    const informer = sharedInformer({ source: server, scheduler: clock.scheduler });
    const health: string[] = [];
    informer.health$.subscribe((h) => health.push(`${h.state}${h.synced ? ' synced' : ''}`));
    expect(informer.running).toBe(false);
    const sizes: number[] = [];
    const sub = informer.store$.subscribe((s) => sizes.push(s.size));
    server.write({ op: 'upsert', namespace: 'ns', name: 'b' });
    expect(sizes).toEqual([0, 1, 2]);
    expect(informer.lastSyncResourceVersion()).toBe('3');
    sub.unsubscribe();
    expect(health).toEqual(['stopped', 'starting', 'listing', 'watching synced', 'stopped']);
  });

  it('after teardown no timer or socket handle remains (real timers)', async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const server = new FakeApiServer();
    server.write({ op: 'upsert', namespace: 'ns', name: 'a' });
    const informer = sharedInformer({ source: server, defaultResyncMs: 1000 });
    const reg = informer.addEventHandler({}, { resyncPeriodMs: 1000 });
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBeGreaterThan(before);
    reg.remove();
    await new Promise((r) => setImmediate(r));
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(before);
    expect(server.openWatches).toBe(0);
  });

  it('the classic DeltaFIFO mode gives the same notifications', () => {
    const server = new FakeApiServer();
    server.write({ op: 'upsert', namespace: 'ns', name: 'a' });
    const informer = sharedInformer({ source: server, fifo: 'delta' });
    const seen: string[] = [];
    const sub = informer.events().subscribe((n) => seen.push(show(n)));
    server.write({ op: 'upsert', namespace: 'ns', name: 'a', data: 1 });
    server.write({ op: 'delete', namespace: 'ns', name: 'a' });
    expect(seen).toEqual(['+a@2*', '~a 2→3', '-a']);
    sub.unsubscribe();
  });

  it('rejects a bad configuration naming the field', () => {
    expect(() => sharedInformer({ source: {} as never })).toThrow(/source/);
    expect(() => sharedInformer({ source: new Subject(), fifo: 'lifo' as never })).toThrow(/fifo/);
    expect(() => sharedInformer({ source: new Subject(), defaultResyncMs: -1 })).toThrow(/defaultResyncMs/);
  });
});

describe('bad input is logged with context and skipped; the stream goes on', () => {
  it('from any source: objects without metadata or name, unknown event types, a Replace without items', () => {
    const logger = recordingLogger();
    const source = new Subject<ReflectorEvent>();
    const informer = sharedInformer({ source, logger });
    const seen: string[] = [];
    informer.events().subscribe((n) => seen.push(show(n)));
    source.next({ type: 'Added', object: { kind: 'Pod' } as KubeObject });
    source.next({ type: 'Added', object: { metadata: { namespace: 'ns' } } });
    source.next({ type: 'Surprise' } as unknown as ReflectorEvent);
    source.next({ type: 'Replace', items: 'nope' } as unknown as ReflectorEvent);
    source.next(null as unknown as ReflectorEvent);
    source.next(A(pod('ok', '1')));
    expect(seen).toEqual(['+ok@1']);
    const complaints = logger.lines
      .filter((l) => l.level === 'error' || l.level === 'warn')
      .map((l) => l.msg);
    expect(complaints).toEqual([
      'skipping an event whose object has no metadata',
      'skipping an object without a key',
      'skipping an event of unknown type',
      'skipping a Replace without an items array',
      'skipping an event of unknown type',
    ]);
    expect(logger.lines.find((l) => l.msg === 'skipping an event of unknown type')?.fields.event).toContain(
      'Surprise',
    );
  });

  it('over list-watch: garbled lines, unknown types and objects without metadata do not lose an update', () => {
    const clock = new VirtualClock();
    const server = new FakeApiServer({ scheduler: clock.scheduler });
    const logger = recordingLogger();
    const informer = sharedInformer({
      source: server,
      scheduler: clock.scheduler,
      logger,
      listWatch: { random: () => 0 },
    });
    const sub = informer.events().subscribe();
    for (const kind of ['no-metadata', 'unknown-type', 'invalid-json'] as const) {
      server.inject({ type: 'garbleNextEvent', kind });
      server.write({ op: 'upsert', namespace: 'ns', name: kind, data: 1 });
      clock.advance(10_000);
    }
    const cache = new Map(
      informer
        .getStore()
        .list()
        .map((o) => [o.metadata?.name, o.metadata?.resourceVersion]),
    );
    expect(cache).toEqual(
      new Map([...server.snapshot().values()].map((o) => [o.metadata?.name, o.metadata?.resourceVersion])),
    );
    expect(logger.lines.some((l) => l.level === 'error' && /malformed|garbled/.test(l.msg))).toBe(true);
    sub.unsubscribe();
  });
});
