// Every restart of listWatch, during the initial streaming list and during the watch, shows in its health and its Prometheus counters.
import { Registry } from 'prom-client';
import { of, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { InvalidInputError, KubeRxError } from '../../operators/errors.ts';
import {
  INITIAL_EVENTS_END_ANNOTATION,
  type KubeObject,
  type ObjectList,
  type ReflectorHealth,
  type ReflectorRestartReason,
  type WatchEvent,
} from '../../operators/types.ts';
import { reflectorMetrics } from '../../src/metrics/reflector-metrics.ts';
import {
  expiredError,
  internalError,
  tooLargeResourceVersionError,
  tooManyRequestsError,
} from '../../src/testing/api-errors.ts';
import { VirtualClock } from '../../src/testing/virtual-clock.ts';
import { listWatch } from '../../streams/list-watch.ts';
import type { ListerWatcher, ListOptions, WatchOptions } from '../../streams/ports.ts';

const pod = (name: string, rv: string): KubeObject => ({
  kind: 'Pod',
  metadata: { name, namespace: 'ns', resourceVersion: rv },
});
const added = (name: string, rv: string): WatchEvent => ({ type: 'ADDED', object: pod(name, rv) });
const endBookmark = (rv: string): WatchEvent => ({
  type: 'BOOKMARK',
  object: { metadata: { resourceVersion: rv, annotations: { [INITIAL_EVENTS_END_ANNOTATION]: 'true' } } },
});

/** A lister-watcher whose watches are subjects the test drives; lists answer at once. */
function driven() {
  const watches: Subject<WatchEvent>[] = [];
  const watchCalls: WatchOptions[] = [];
  const listCalls: ListOptions[] = [];
  const lw: ListerWatcher = {
    list: (o) => {
      listCalls.push(o);
      return of<ObjectList>({ metadata: { resourceVersion: '10' }, items: [pod('a', '3')] });
    },
    watch: (o) => {
      watchCalls.push(o);
      const s = new Subject<WatchEvent>();
      watches.push(s);
      return s;
    },
  };
  return { lw, watches, watchCalls, listCalls };
}

type Ending = (w: Subject<WatchEvent>, clock: VirtualClock) => void;

const endings: [string, Ending, ReflectorRestartReason][] = [
  ['the server closes it', (w) => w.complete(), 'closed'],
  [
    'its connection breaks',
    (w) => w.error(new KubeRxError('KUBE_RX_CONNECTION', 'socket hang up')),
    'connectionBroken',
  ],
  ['a 410 Expired ERROR event', (w) => w.next({ type: 'ERROR', object: expiredError().status }), 'expired'],
  [
    'a too large resourceVersion ERROR event',
    (w) => w.next({ type: 'ERROR', object: tooLargeResourceVersionError('9', '5').status }),
    'tooLargeResourceVersion',
  ],
  ['a 500 ERROR event', (w) => w.next({ type: 'ERROR', object: internalError().status }), 'error'],
  ['a 429', (w) => w.error(tooManyRequestsError(1)), 'throttled'],
  [
    'a garbled line',
    (w) => w.error(new InvalidInputError('watch line', 'json', 'not JSON: <html>')),
    'malformed',
  ],
  ['a malformed event', (w) => w.next({ type: 'MODIFIED', object: {} } as WatchEvent), 'malformed'],
  ['silence past the window', (_w, clock) => clock.advance(25_000), 'stalled'],
];

function start() {
  const clock = new VirtualClock();
  const registry = new Registry();
  const metrics = reflectorMetrics(registry);
  const d = driven();
  const health: ReflectorHealth[] = [];
  const sub = listWatch(d.lw, {
    scheduler: clock.scheduler,
    random: () => 0,
    metrics: metrics.sink('v1/pods'),
    health: { next: (h) => health.push(h) },
  }).subscribe();
  const counter = async (name: string, reason: string) => {
    const metric = await registry.getSingleMetric(name)!.get();
    return metric.values.find((v) => v.labels.reason === reason)?.value ?? 0;
  };
  return { clock, registry, d, health, sub, counter };
}

describe('listWatch restarts in health and metrics', () => {
  it.each(endings)('during the initial streaming list: %s', async (_name, end, reason) => {
    const t = start();
    const w = t.d.watches[0]!;
    w.next(added('a', '3'));
    t.clock.advance(1500); // not a very short watch
    w.next(added('b', '4'));
    end(w, t.clock);
    const h = t.health.at(-1)!;
    expect(h.restarts).toBe(1);
    expect(h.lastRestart).toMatchObject({ reason, during: 'watchList' });
    expect(await t.counter('kube_rx_reflector_watch_restarts_total', reason)).toBe(1);
    t.clock.advance(60_000); // any backoff is over: the next (re)list began
    expect(t.health.at(-1)!.lists).toBeGreaterThanOrEqual(2);
    expect(t.health.find((x) => x.lastList?.reason === reason)).toBeDefined();
    expect(await t.counter('kube_rx_reflector_lists_total', reason)).toBeGreaterThanOrEqual(1);
    expect(await t.counter('kube_rx_reflector_lists_total', 'initial')).toBe(1);
    t.sub.unsubscribe();
  });

  it.each(endings)('during the watch: %s', async (_name, end, reason) => {
    const t = start();
    const w = t.d.watches[0]!;
    w.next(added('a', '3'));
    w.next(endBookmark('5'));
    t.clock.advance(1500);
    w.next(added('b', '6'));
    const before = t.health.length;
    end(w, t.clock);
    expect(t.health.length).toBeGreaterThan(before); // a new health value, even if the state stays 'watching'
    const h = t.health.at(-1)!;
    expect(h.restarts).toBe(1);
    expect(h.lastRestart).toMatchObject({ reason, during: 'watch' });
    expect(await t.counter('kube_rx_reflector_watch_restarts_total', reason)).toBe(1);
    t.sub.unsubscribe();
  });

  it('a watch that ends at once with no event is very short, during the watch-list and after it', async () => {
    const t = start();
    t.d.watches[0]!.complete();
    expect(t.health.at(-1)!.lastRestart).toMatchObject({ reason: 'veryShort', during: 'watchList' });
    expect(t.d.listCalls).toHaveLength(1); // fell back to a paginated list
    expect(t.health.at(-1)!.lastList).toMatchObject({ reason: 'veryShort' });
    t.d.watches[1]!.complete();
    expect(t.health.at(-1)).toMatchObject({
      state: 'backingOff',
      restarts: 2,
      lastRestart: { reason: 'veryShort', during: 'watch' },
    });
    expect(await t.counter('kube_rx_reflector_watch_restarts_total', 'veryShort')).toBe(2);
    t.sub.unsubscribe();
  });

  it('a list that fails is a restart during the list, and its retry a relist for the same reason', async () => {
    const clock = new VirtualClock();
    const registry = new Registry();
    const health: ReflectorHealth[] = [];
    let calls = 0;
    const lw: ListerWatcher = {
      list: () => {
        calls++;
        return calls === 1
          ? new Subject<ObjectList>() // never answers
          : of<ObjectList>({ metadata: { resourceVersion: '1' }, items: [] });
      },
      watch: () => new Subject<WatchEvent>(),
    };
    const sub = listWatch(lw, {
      watchList: false,
      scheduler: clock.scheduler,
      random: () => 0,
      metrics: reflectorMetrics(registry).sink('v1/pods'),
      health: { next: (h) => health.push(h) },
    }).subscribe();
    clock.advance(60_000);
    expect(health.at(-1)).toMatchObject({ lastRestart: { reason: 'timeout', during: 'list' } });
    clock.advance(800);
    expect(health.at(-1)).toMatchObject({ synced: true, lists: 2, lastList: { reason: 'timeout' } });
    const text = await registry.metrics();
    expect(text).toContain('kube_rx_reflector_watch_restarts_total{resource="v1/pods",reason="timeout"} 1');
    expect(text).toContain('kube_rx_reflector_lists_total{resource="v1/pods",reason="timeout"} 1');
    sub.unsubscribe();
  });

  it('the gauges read the last resourceVersion and event time at scrape time, and stop with the stream', async () => {
    const t = start();
    t.clock.advance(3000);
    t.d.watches[0]!.next(endBookmark('41'));
    let text = await t.registry.metrics();
    expect(text).toContain('kube_rx_reflector_last_resource_version{resource="v1/pods"} 41');
    expect(text).toContain('kube_rx_reflector_last_event_timestamp_seconds{resource="v1/pods"} 3');
    t.sub.unsubscribe();
    t.registry.resetMetrics();
    text = await t.registry.metrics();
    expect(text).not.toContain('kube_rx_reflector_last_resource_version{');
  });

  it('a health value without restarts still carries the counts (backward compatible fields)', () => {
    const t = start();
    t.d.watches[0]!.next(endBookmark('5'));
    expect(t.health.at(-1)).toMatchObject({ state: 'watching', synced: true, restarts: 0, lists: 1 });
    expect(t.health.at(-1)!.lastList).toEqual({ reason: 'initial', at: 0 });
    t.sub.unsubscribe();
  });
});
