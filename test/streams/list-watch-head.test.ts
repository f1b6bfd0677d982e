// listWatch's response-head hedge bound in virtual time: learned from answered requests, carried to the client, and what the HTTP client makes of it.
import { NEVER, type Observable, of, Subject, timer } from 'rxjs';
import { map } from 'rxjs/operators';
import { describe, expect, it } from 'vitest';
import type {
  KubeObject,
  ObjectList,
  ReflectorEvent,
  ReflectorHealth,
  WatchEvent,
} from '../../operators/types.ts';
import { expiredError } from '../../src/testing/api-errors.ts';
import { VirtualClock } from '../../src/testing/virtual-clock.ts';
import { listerWatcher } from '../../streams/api-client.ts';
import type { HttpStreamPart, HttpTransport } from '../../streams/client-node/http-transport.ts';
import { kubeApiClient } from '../../streams/client-node/kube-api-client.ts';
import { type ListWatchConfig, listWatch } from '../../streams/list-watch.ts';
import { CONFIG_MAPS } from '../../streams/resources.ts';
import { endBookmark, harness as stallHarness } from './list-watch-harness.ts';

const cm = (name: string, rv: number): KubeObject => ({
  kind: 'ConfigMap',
  apiVersion: 'v1',
  metadata: { name, namespace: 'ns', resourceVersion: String(rv) },
});
const page = (rv: number): ObjectList => ({
  metadata: { resourceVersion: String(rv) },
  items: [cm('a', rv)],
});

/** The shared harness with watch-lists on, and the n-th list answering after `listMs[n]` ms (default at once). */
const harness = (config: ListWatchConfig, listMs: number[] = []) =>
  stallHarness({ watchList: true, ...config }, (clock) =>
    listMs.map((ms, i) =>
      ms > 0 ? timer(ms, clock.scheduler).pipe(map(() => page(i + 1))) : of(page(i + 1)),
    ),
  );

describe('listWatch: the response-head hedge bound it asks for', () => {
  it('the first request, before anything was answered: twice the floor (2 s at the defaults)', () => {
    const t = harness({});
    expect(t.watchCalls[0]).toMatchObject({ sendInitialEvents: true, responseHeadHedgeMs: 2000 });
    t.sub.unsubscribe();
  });

  it.each([
    ['a list page answered in 10 ms: the floor', 10, 1000],
    ['a list page answered in 300 ms: four times it', 300, 1200],
    ['a list page answered in 10 s: the ceiling (inactivityTimeoutMs)', 10_000, 25_000],
  ])('%s', (_name, ms, expected) => {
    const t = harness({ watchList: false }, [ms]);
    t.clock.advance(ms);
    expect(t.watchCalls).toHaveLength(1);
    expect(t.watchCalls[0]!.responseHeadHedgeMs).toBe(expected);
    t.sub.unsubscribe();
  });

  it('a watch-list whose first event came 700 ms after it was sent: the next watch is hedged at 2.8 s', () => {
    const t = harness({});
    t.clock.advance(700);
    t.watches[0]!.next({ type: 'ADDED', object: cm('a', 2) });
    t.watches[0]!.next(endBookmark(3));
    t.watches[0]!.error(Object.assign(new Error('reset'), { code: 'ECONNRESET' }));
    expect(t.watchCalls).toHaveLength(2);
    expect(t.watchCalls[1]).toMatchObject({ resourceVersion: '3', responseHeadHedgeMs: 2800 });
    t.sub.unsubscribe();
  });

  it('the relist after a 410 carries what the first list taught', () => {
    const t = harness({ watchList: false }, [400, 0]);
    t.clock.advance(400);
    t.watches[0]!.next({ type: 'ERROR', object: expiredError().status });
    t.clock.advance(800); // the backoff, then the relist answers at once
    expect(t.watchCalls).toHaveLength(2);
    expect(t.watchCalls[1]!.responseHeadHedgeMs).toBe(1600);
    t.sub.unsubscribe();
  });

  it.each([
    ['fixed windows (a floor at the ceiling)', { stallFloorMs: 25_000 }],
    ['no inactivity window', { inactivityTimeoutMs: 0 }],
  ])('nothing is asked with %s', (_name, config) => {
    const t = harness(config);
    expect(t.watchCalls[0]).not.toHaveProperty('responseHeadHedgeMs');
    t.sub.unsubscribe();
  });
});

/** A transport whose watch streams are scripted in order; lists are not used. */
function streams(answers: Observable<HttpStreamPart>[]) {
  const sent: string[] = [];
  const transport: HttpTransport = {
    request: () => NEVER,
    stream: (spec) => {
      sent.push(spec.path);
      return answers[sent.length - 1] ?? NEVER;
    },
  };
  return { transport, sent };
}
const lines = (...events: WatchEvent[]): HttpStreamPart => ({
  type: 'text',
  text: events.map((e) => `${JSON.stringify(e)}\n`).join(''),
});
const HEAD: HttpStreamPart = { type: 'head', statusCode: 200, headers: {} };

describe('listWatch over kubeApiClient: a watch-list whose head never comes (virtual time)', () => {
  it('is hedged after 2 s; the hedge streams the state; nothing restarts and nothing waits for the 25 s ceiling', () => {
    const clock = new VirtualClock();
    const hedge = new Subject<HttpStreamPart>();
    const { transport, sent } = streams([NEVER, hedge]);
    const client = kubeApiClient({ transport, scheduler: clock.scheduler });
    const events: ReflectorEvent[] = [];
    const health: ReflectorHealth[] = [];
    const sub = listWatch(listerWatcher(client, CONFIG_MAPS, { namespace: 'ns' }), {
      scheduler: clock.scheduler,
      random: () => 0,
      health: { next: (h) => health.push(h) },
    }).subscribe((e) => events.push(e));
    clock.advance(1999);
    expect(sent).toHaveLength(1);
    clock.advance(1);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBe(sent[0]);
    expect(sent[0]).not.toContain('responseHeadHedgeMs'); // a hint to the client, not a query parameter
    clock.advance(30);
    hedge.next(HEAD);
    hedge.next(lines({ type: 'ADDED', object: cm('a', 2) }, endBookmark(2)));
    expect(events).toEqual([{ type: 'Replace', items: [cm('a', 2)], resourceVersion: '2' }]);
    expect(health.at(-1)).toMatchObject({ state: 'watching', synced: true, restarts: 0, lists: 1 });
    sub.unsubscribe();
  });

  it('a slow first head within the bound is kept: one request only', () => {
    const clock = new VirtualClock();
    const first = new Subject<HttpStreamPart>();
    const { transport, sent } = streams([first]);
    const client = kubeApiClient({ transport, scheduler: clock.scheduler });
    const events: ReflectorEvent[] = [];
    const sub = listWatch(listerWatcher(client, CONFIG_MAPS, { namespace: 'ns' }), {
      scheduler: clock.scheduler,
      random: () => 0,
    }).subscribe((e) => events.push(e));
    clock.advance(1900);
    first.next(HEAD);
    first.next(lines(endBookmark(1)));
    clock.advance(10_000);
    expect(sent).toHaveLength(1);
    expect(events).toEqual([{ type: 'Replace', items: [], resourceVersion: '1' }]);
    sub.unsubscribe();
  });
});
