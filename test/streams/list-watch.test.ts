// Tests of listWatch: marbles in virtual time (five questions), recovery against the fake API server, health, teardown.
import { concat, NEVER, Observable, of, take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { InvalidInputError, KubeRxError } from '../../operators/errors.ts';
import type { Logger } from '../../operators/logger.ts';
import type {
  KubeObject,
  ObjectList,
  ReflectorEvent,
  ReflectorHealth,
  WatchEvent,
} from '../../operators/types.ts';
import { expiredError, internalError, tooManyRequestsError } from '../../src/testing/api-errors.ts';
import { FakeApiServer } from '../../src/testing/fake-api-server.ts';
import { marbles } from '../../src/testing/marbles.ts';
import { VirtualClock } from '../../src/testing/virtual-clock.ts';
import { listerWatcher, type ResourceDescriptor } from '../../streams/api-client.ts';
import type { HttpAnswer, HttpTransport } from '../../streams/client-node/http-transport.ts';
import { kubeApiClient } from '../../streams/client-node/kube-api-client.ts';
import { listWatch } from '../../streams/list-watch.ts';
import type { ListerWatcher, ListOptions, WatchOptions } from '../../streams/ports.ts';

const obj = (name: string, rv: string): KubeObject => ({
  kind: 'Pod',
  metadata: { name, namespace: 'ns', resourceVersion: rv },
});
const page = (rv: string, items: KubeObject[]): ObjectList => ({ metadata: { resourceVersion: rv }, items });

/** A lister-watcher that hands out the given observables in call order and records the options. */
function scripted(lists: Observable<ObjectList>[], watches: Observable<WatchEvent>[]) {
  const listCalls: ListOptions[] = [];
  const watchCalls: WatchOptions[] = [];
  const lw: ListerWatcher = {
    list: (o) => {
      listCalls.push(o);
      return lists[listCalls.length - 1] ?? NEVER;
    },
    watch: (o) => {
      watchCalls.push(o);
      return watches[watchCalls.length - 1] ?? NEVER;
    },
  };
  return { lw, listCalls, watchCalls };
}

const classic = { watchList: false, random: () => 0, inactivityTimeoutMs: 0 } as const;

function capturingLogger() {
  const lines: { level: string; fields: Record<string, unknown>; msg: string | undefined }[] = [];
  const make = (bindings: Record<string, unknown>): Logger => {
    const at =
      (level: string) =>
      (a: Record<string, unknown> | string, msg?: string): void => {
        if (typeof a === 'string') lines.push({ level, fields: { ...bindings }, msg: a });
        else lines.push({ level, fields: { ...bindings, ...a }, msg });
      };
    return {
      trace: at('trace'),
      debug: at('debug'),
      info: at('info'),
      warn: at('warn'),
      error: at('error'),
      child: (more) => make({ ...bindings, ...more }),
    };
  };
  return { logger: make({}), lines };
}

describe('listWatch marbles', () => {
  it('values: list → Replace, watch events, a 410 relists after the backoff (the doc diagram)', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const pages: Record<string, ObjectList> = {
        L: page('5', [obj('a', '5')]),
        M: page('9', [obj('a', '5'), obj('c', '6')]),
      };
      const events: Record<string, WatchEvent> = {
        c: { type: 'ADDED', object: obj('c', '6') },
        b: { type: 'BOOKMARK', object: { metadata: { resourceVersion: '7' } } },
        e: { type: 'ERROR', object: expiredError().status },
      };
      const list1 = cold('-(L|)', pages);
      const watch1 = cold('  --c-b-e', events);
      const list2 = cold('-(M|)', pages);
      const { lw, listCalls, watchCalls } = scripted([list1, list2], [watch1]);
      const expected = '-R-A-B 802ms S';
      expectObservable(listWatch(lw, classic), '^ 1000ms !').toBe(expected, {
        R: { type: 'Replace', items: [obj('a', '5')], resourceVersion: '5' },
        A: { type: 'Added', object: obj('c', '6') },
        B: { type: 'Bookmark', resourceVersion: '7' },
        S: { type: 'Replace', items: [obj('a', '5'), obj('c', '6')], resourceVersion: '9' },
      });
      expectSubscriptions(watch1.subscriptions).toBe('-^-----!');
      expectSubscriptions(list2.subscriptions).toBe('807ms ^!');
      return { listCalls, watchCalls };
    });
  });

  it('error: a failing list never ends the stream; it is retried after 800 ms', () => {
    marbles(({ cold, expectObservable }) => {
      const { lw } = scripted(
        [cold('-#', {}, internalError()), cold('-(L|)', { L: page('3', []) })],
        [cold<WatchEvent>('-')],
      );
      expectObservable(listWatch(lw, classic), '^ 2000ms !').toBe('802ms R', {
        R: { type: 'Replace', items: [], resourceVersion: '3' },
      });
    });
  });

  it('empty: an empty list is one Replace with no items', () => {
    marbles(({ cold, expectObservable }) => {
      const { lw } = scripted([cold('-(L|)', { L: page('1', []) })], [cold('-')]);
      expectObservable(listWatch(lw, classic), '^ 10ms !').toBe('-R', {
        R: { type: 'Replace', items: [], resourceVersion: '1' },
      });
    });
  });

  it('early unsubscribe aborts the in-flight list, and later the open watch', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const slowList = cold('----(L|)', { L: page('1', []) });
      const { lw } = scripted([slowList], []);
      expectObservable(listWatch(lw, classic), '^-!').toBe('');
      expectSubscriptions(slowList.subscriptions).toBe('^-!');
    });
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const watch = cold<WatchEvent>('-------');
      const { lw } = scripted([cold('-(L|)', { L: page('1', []) })], [watch]);
      expectObservable(listWatch(lw, classic), '^----!').toBe('-R', {
        R: { type: 'Replace', items: [], resourceVersion: '1' },
      });
      expectSubscriptions(watch.subscriptions).toBe('-^---!');
    });
  });

  it('synchronous source then take: values arrive in order and the watch is released', () => {
    let watchOpen = 0;
    marbles(({ expectObservable }) => {
      const lw: ListerWatcher = {
        list: () => of(page('1', [obj('a', '1')])),
        watch: () =>
          new Observable<WatchEvent>((subscriber) => {
            watchOpen++;
            const sub = concat(
              of<WatchEvent[]>(
                { type: 'ADDED', object: obj('b', '2') },
                { type: 'MODIFIED', object: obj('a', '3') },
              ),
              NEVER,
            ).subscribe(subscriber);
            return () => {
              watchOpen--;
              sub.unsubscribe();
            };
          }),
      };
      expectObservable(listWatch(lw, classic).pipe(take(3))).toBe('(RAU|)', {
        R: { type: 'Replace', items: [obj('a', '1')], resourceVersion: '1' },
        A: { type: 'Added', object: obj('b', '2') },
        U: { type: 'Updated', object: obj('a', '3') },
      });
    });
    expect(watchOpen).toBe(0);
  });

  it('a source that replays its events and completes synchronously is backed off, not spun', () => {
    marbles(({ expectObservable }) => {
      const lw: ListerWatcher = {
        list: () => of(page('1', [])),
        watch: () => of<WatchEvent[]>({ type: 'ADDED', object: obj('b', '2') }),
      };
      // Each cycle: Replace, Added, then the instant close costs a backoff (800, 1600 ms) before the relist.
      expectObservable(listWatch(lw, classic), '^ 3000ms !').toBe('(RA) 796ms (RA) 1596ms (RA)', {
        R: { type: 'Replace', items: [], resourceVersion: '1' },
        A: { type: 'Added', object: obj('b', '2') },
      });
    });
  });
});

describe('listWatch recovery timing (marbles)', () => {
  const events: Record<string, WatchEvent> = {
    a: { type: 'ADDED', object: obj('a', '6') },
    b: { type: 'ADDED', object: obj('b', '7') },
    c: { type: 'MODIFIED', object: obj('a', '8') },
  };
  const cut = new KubeRxError('KUBE_RX_CONNECTION', 'GET …?watch=true: the connection closed mid-stream');
  const garbled = new InvalidInputError('watch v1/pods', 'line', 'not JSON: "{\\"ty"');

  it('a connection cut mid-stream re-watches at once from the last rv, without a backoff or relist', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const list1 = cold('-(L|)', { L: page('5', []) });
      const watch1 = cold<WatchEvent>('  -a-#', events, cut);
      const watch2 = cold<WatchEvent>('      -b', events);
      const { lw, listCalls, watchCalls } = scripted([list1], [watch1, watch2]);
      expectObservable(listWatch(lw, classic), '^ 100ms !').toBe('-RA--B', {
        R: { type: 'Replace', items: [], resourceVersion: '5' },
        A: { type: 'Added', object: obj('a', '6') },
        B: { type: 'Added', object: obj('b', '7') },
      });
      expectSubscriptions(watch1.subscriptions).toBe('-^--!');
      expectSubscriptions(watch2.subscriptions).toBe('----^ 96ms !');
      return { listCalls, watchCalls };
    });
  });

  it('a cut whose rewatch delivers nothing within a second is backed off, then relisted', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const list1 = cold('-(L|)', { L: page('5', []) });
      const list2 = cold('-(M|)', { M: page('9', []) });
      const watch1 = cold<WatchEvent>('  -a-#', events, cut);
      const watch2 = cold<WatchEvent>('      --#', events, cut);
      const { lw } = scripted([list1, list2], [watch1, watch2]);
      // watch2 breaks 2 ms after it opened, with no event: very short, so 800 ms, then a relist
      expectObservable(listWatch(lw, classic), '^ 1000ms !').toBe('-RA 804ms S', {
        R: { type: 'Replace', items: [], resourceVersion: '5' },
        A: { type: 'Added', object: obj('a', '6') },
        S: { type: 'Replace', items: [], resourceVersion: '9' },
      });
      expectSubscriptions(list2.subscriptions).toBe('806ms ^!');
    });
  });

  it('garbage after progress resumes at once; garbage with no event between backs off, growing', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const list1 = cold('-(L|)', { L: page('5', []) });
      const w1 = cold<WatchEvent>('-a-#', events, garbled); // opens at 1, a at 2, garbled at 4
      const w2 = cold<WatchEvent>('-b-#', events, garbled); // resumes at once at 4, b at 5, garbled at 7
      const w3 = cold<WatchEvent>('-#', events, garbled); //   resumes at once at 7, garbled with no event at 8
      const w4 = cold<WatchEvent>('-#', events, garbled); //   after 800 ms (the reset first step), at 808
      const w5 = cold<WatchEvent>('-c', events); //            after 1600 ms (consecutive), at 2409
      const { lw, watchCalls } = scripted([list1], [w1, w2, w3, w4, w5]);
      expectObservable(listWatch(lw, classic), '^ 3000ms !').toBe('-RA--B 2404ms C', {
        R: { type: 'Replace', items: [], resourceVersion: '5' },
        A: { type: 'Added', object: obj('a', '6') },
        B: { type: 'Added', object: obj('b', '7') },
        C: { type: 'Updated', object: obj('a', '8') },
      });
      expectSubscriptions(w2.subscriptions).toBe('----^--!');
      expectSubscriptions(w3.subscriptions).toBe('-------^!');
      expectSubscriptions(w4.subscriptions).toBe('808ms ^!');
      expectSubscriptions(w5.subscriptions).toBe('2409ms ^ 591ms !');
      return watchCalls;
    });
  });

  it('a failure after progress waits the first backoff step again, however long the run before it', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const lists = [cold('-(L|)', { L: page('5', []) })];
      const fail = () => cold<WatchEvent>('-#', events, internalError());
      // three consecutive 500s relist after 800, 1600, 3200 ms; then a watch with an event, then a 500
      for (let i = 0; i < 4; i++) lists.push(cold('-(L|)', { L: page('5', []) }));
      const w4 = cold<WatchEvent>('-a-#', events, internalError());
      const { lw } = scripted(lists, [fail(), fail(), fail(), w4]);
      // R at 1, watch fails at 2: +800 → list at 802 (R 803), fails 804: +1600 → 2404 (R 2405), fails
      // 2406: +3200 → 5606 (R 5607), w4: a at 5608, fails 5610: +800 (reset) → list at 6410 (R 6411)
      expectObservable(listWatch(lw, classic), '^ 7000ms !').toBe('-R 801ms R 1601ms R 3201ms RA 802ms R', {
        R: { type: 'Replace', items: [], resourceVersion: '5' },
        A: { type: 'Added', object: obj('a', '6') },
      });
      expectSubscriptions(lists[4]!.subscriptions).toBe('6410ms ^!');
    });
  });
});

describe('listWatch over the HTTP client (virtual time)', () => {
  const PODS: ResourceDescriptor = {
    group: '',
    version: 'v1',
    plural: 'pods',
    kind: 'Pod',
    namespaced: true,
  };
  const answer = (statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpAnswer => ({
    statusCode,
    headers,
    body: JSON.stringify(body),
  });

  it('a 429 on the list whose Retry-After is past the request timeout is honoured, not cut short by a timeout', () => {
    const health: ReflectorHealth[] = [];
    marbles(({ cold, expectObservable }) => {
      const answers = [
        cold('(a|)', {
          a: answer(429, { kind: 'Status', code: 429, reason: 'TooManyRequests' }, { 'retry-after': '90' }),
        }),
        cold('(a|)', { a: answer(200, { metadata: { resourceVersion: '4' }, items: [] }) }),
      ];
      const transport: HttpTransport = { request: () => answers.shift() ?? NEVER, stream: () => NEVER };
      const lw = listerWatcher(kubeApiClient({ transport }), PODS, { namespace: 'ns' });
      const source = listWatch(lw, { ...classic, health: { next: (h) => health.push(h) } });
      // The client hands the 429 back at once (its wait would pass its 60 s timeout); listWatch waits the
      // 90 s the server asked for, and reports the 429 meanwhile, not a timeout.
      expectObservable(source, '^ 100s !').toBe('90s R', {
        R: { type: 'Replace', items: [], resourceVersion: '4' },
      });
    });
    const errors = health.flatMap((h) => (h.lastError ? [h.lastError.message] : []));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((m) => /TooManyRequests \(429\)/.test(m))).toBe(true);
  });
});

describe('listWatch against the fake API server', () => {
  function setup(
    config: Parameters<typeof listWatch>[1] = {},
    prepare: (server: FakeApiServer) => void = () => {},
    serverConfig: { bookmarkIntervalMs?: number } = {},
  ) {
    const clock = new VirtualClock();
    const s = new FakeApiServer({ scheduler: clock.scheduler, ...serverConfig });
    prepare(s);
    const events: ReflectorEvent[] = [];
    const health: ReflectorHealth[] = [];
    const { logger, lines } = capturingLogger();
    const sub = listWatch(s, {
      scheduler: clock.scheduler,
      random: () => 0,
      logger,
      health: { next: (h) => health.push(h) },
      ...config,
    }).subscribe({ next: (e) => events.push(e), error: (e) => events.push({ type: 'error', e } as never) });
    return { clock, server: s, events, health, lines, sub };
  }

  it('streams the initial state by default (watch-list) and reuses that watch', () => {
    const t = setup({}, (s) => s.write({ op: 'upsert', namespace: 'ns', name: 'a' }));
    const server = t.server;
    server.write({ op: 'upsert', namespace: 'ns', name: 'b' });
    expect(server.listCalls).toEqual([]);
    expect(server.watchCalls).toHaveLength(1);
    expect(server.watchCalls[0]).toMatchObject({
      sendInitialEvents: true,
      resourceVersionMatch: 'NotOlderThan',
      resourceVersion: '',
    });
    expect(t.events.map((e) => e.type)).toEqual(['Replace', 'Added']);
    t.sub.unsubscribe();
  });

  it('falls back to a paginated list when the server refuses the streaming watch', () => {
    const t = setup({}, (s) => {
      s.inject({
        type: 'failNext',
        op: 'watch',
        error: internalError('sendInitialEvents is forbidden', 500),
      });
      s.write({ op: 'upsert', name: 'a' });
    });
    const server = t.server;
    expect(server.listCalls).toEqual([{ resourceVersion: '0', limit: 500 }]);
    expect(t.events).toEqual([{ type: 'Replace', items: [server.get('a')], resourceVersion: '2' }]);
    expect(t.lines.some((l) => l.level === 'warn' && /falling back/.test(l.msg ?? ''))).toBe(true);
    t.sub.unsubscribe();
  });

  it('paginates the list, and re-lists whole when a continue token expires', () => {
    const t = setup({ watchList: false, pageSize: 2 }, (s) => {
      for (const n of ['a', 'b', 'c', 'd', 'e']) s.write({ op: 'upsert', name: n });
      s.setLatency({ list: 100 });
    });
    const { server, clock } = t;
    clock.advance(100); // first page
    server.write({ op: 'upsert', name: 'f' });
    server.inject({ type: 'compact' });
    clock.advance(300);
    expect(
      server.listCalls.map((o) =>
        o.continue ? 'continue' : o.limit ? `rv=${o.resourceVersion},limit` : `rv=${o.resourceVersion}`,
      ),
    ).toEqual(['rv=0,limit', 'continue', 'rv=0']);
    const replace = t.events.find((e) => e.type === 'Replace') as Extract<
      ReflectorEvent,
      { type: 'Replace' }
    >;
    expect(replace.items.map((i) => i.metadata?.name)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    t.sub.unsubscribe();
  });

  it('honours Retry-After on 429 and 5xx when it is longer than the backoff', () => {
    const t = setup({ watchList: false }, (s) =>
      s.inject({ type: 'failNext', op: 'list', error: tooManyRequestsError(10) }),
    );
    const { server, clock } = t;
    clock.advance(9_999);
    expect(server.listCalls).toHaveLength(1);
    expect(t.health.at(-1)).toMatchObject({ state: 'backingOff', lastError: { code: 'KUBE_RX_API' } });
    clock.advance(1);
    expect(server.listCalls).toHaveLength(2);
    expect(t.events.map((e) => e.type)).toEqual(['Replace']);
    t.sub.unsubscribe();
  });

  it('abandons a hung list after the request timeout and retries it after a backoff', () => {
    const t = setup({ watchList: false }, (s) => s.inject({ type: 'hangNext', op: 'list' }));
    const { server, clock } = t;
    clock.advance(59_999);
    expect(server.listsInFlight).toBe(1);
    clock.advance(1);
    expect(server.listsInFlight).toBe(0);
    expect(t.health.at(-1)).toMatchObject({ state: 'backingOff', lastError: { code: 'KUBE_RX_TIMEOUT' } });
    clock.advance(800);
    expect(server.listCalls).toHaveLength(2);
    expect(t.events.map((e) => e.type)).toEqual(['Replace']);
    t.sub.unsubscribe();
  });

  it('resumes a silent watch from the last resourceVersion after the inactivity window', () => {
    const t = setup({ watchList: false });
    t.server.write({ op: 'upsert', name: 'a' });
    t.server.inject({ type: 'stallWatches' });
    t.server.write({ op: 'upsert', name: 'b' }); // lost on the stalled watch
    t.clock.advance(24_999);
    expect(t.server.watchCalls).toHaveLength(1);
    t.clock.advance(1);
    expect(t.server.watchCalls).toHaveLength(2);
    expect(t.server.watchCalls[1]).toMatchObject({ resourceVersion: '2' });
    expect(t.events.map((e) => e.type)).toEqual(['Replace', 'Added', 'Added']);
    t.sub.unsubscribe();
  });

  it('bookmarks keep a quiet watch alive; 0 disables the inactivity window', () => {
    const t = setup({ watchList: false }, undefined, { bookmarkIntervalMs: 10_000 });
    const { server, clock } = t;
    clock.advance(100_000);
    expect(server.watchCalls).toHaveLength(1);
    expect(t.events.filter((e) => e.type === 'Bookmark')).toHaveLength(10);
    t.sub.unsubscribe();
    const quiet = setup({ watchList: false, inactivityTimeoutMs: 0 });
    quiet.clock.advance(200_000);
    expect(quiet.server.watchCalls).toHaveLength(1);
    quiet.sub.unsubscribe();
  });

  it.each(['invalid-json', 'no-metadata', 'unknown-type'] as const)(
    'garbled data (%s) is logged with context and the lost update is recovered by resuming',
    (kind) => {
      const t = setup({ watchList: false });
      t.server.write({ op: 'upsert', name: 'a', data: 1 });
      t.server.inject({ type: 'garbleNextEvent', kind });
      t.server.write({ op: 'upsert', name: 'a', data: 2 });
      const logged = t.lines.find((l) => l.level === 'error');
      expect(logged?.fields).toMatchObject({ rv: '2', resource: '<unspecified>' });
      expect(JSON.stringify(logged?.fields)).toMatch(kind === 'invalid-json' ? /metadata/ : /kind/);
      t.clock.advance(800);
      expect(t.server.watchCalls[1]).toMatchObject({ resourceVersion: '2' });
      expect(t.events.at(-1)).toEqual({ type: 'Updated', object: t.server.get('a') });
      t.sub.unsubscribe();
    },
  );

  it('a 410 on the watch relists after the backoff; a compacted rv relists from ""', () => {
    const t = setup({ watchList: false });
    t.server.write({ op: 'upsert', name: 'a' });
    t.server.inject({ type: 'expireWatches' });
    t.clock.advance(800);
    expect(t.server.listCalls.map((o) => o.resourceVersion)).toEqual(['0', '2']);
    t.server.inject({ type: 'compact' });
    t.server.inject({ type: 'breakWatches' });
    t.clock.advance(1600);
    // The list at the last rv succeeds (not older than); the watch resumes from there.
    expect(t.server.watchCalls.at(-1)).toMatchObject({ resourceVersion: '2' });
    expect(t.events.filter((e) => e.type === 'Replace')).toHaveLength(3);
    t.sub.unsubscribe();
  });

  it('reports health on every change of state and stopped on unsubscribe', () => {
    const t = setup({ watchList: false }, (s) =>
      s.inject({ type: 'failNext', op: 'list', error: internalError() }),
    );
    t.clock.advance(800);
    t.sub.unsubscribe();
    expect(t.health.map((h) => [h.state, h.synced])).toEqual([
      ['starting', false],
      ['listing', false],
      ['backingOff', false],
      ['listing', false],
      ['watching', true],
      ['stopped', true],
    ]);
    expect(t.health.at(-1)).toMatchObject({
      resourceVersion: '1',
      lastError: { message: expect.stringMatching(/internal error/) },
    });
  });

  it('a health observer that throws is logged and does not break the stream', () => {
    const clock = new VirtualClock();
    const server = new FakeApiServer({ scheduler: clock.scheduler });
    const { logger, lines } = capturingLogger();
    const events: ReflectorEvent[] = [];
    const sub = listWatch(server, {
      scheduler: clock.scheduler,
      logger,
      health: {
        next: () => {
          throw new Error('boom');
        },
      },
    }).subscribe((e) => events.push(e));
    expect(events.map((e) => e.type)).toEqual(['Replace']);
    expect(lines.some((l) => l.level === 'error' && l.msg === 'health observer threw')).toBe(true);
    sub.unsubscribe();
  });

  it('unsubscribing aborts the in-flight list and the open watch, and leaves no timer', () => {
    const a = setup({ watchList: false }, (s) => s.inject({ type: 'hangNext', op: 'list' }), {
      bookmarkIntervalMs: 1000,
    });
    expect(a.server.listsInFlight).toBe(1);
    a.sub.unsubscribe();
    expect(a.server.listsInFlight).toBe(0);
    expect(a.clock.pending).toBe(0);
    const b = setup({}, undefined, { bookmarkIntervalMs: 1000 });
    expect(b.server.openWatches).toBe(1);
    expect(b.clock.pending).toBeGreaterThan(0);
    b.sub.unsubscribe();
    expect(b.server.openWatches).toBe(0);
    expect(b.clock.pending).toBe(0);
  });

  it('a backoff that gives up ends the stream with an error carrying the cause', () => {
    const t = setup({ watchList: false, backoff: () => ({ next: () => undefined, reset: () => {} }) }, (s) =>
      s.inject({ type: 'failNext', op: 'list', error: internalError() }),
    );
    const last = t.events.at(-1) as unknown as { type: string; e: Error };
    expect(last.type).toBe('error');
    expect(last.e).toMatchObject({ code: 'KUBE_RX_GAVE_UP', cause: { statusCode: 500 } });
    expect(t.clock.pending).toBe(0);
  });

  it.each([
    ['pageSize', { pageSize: 1.5 }],
    ['inactivityTimeoutMs', { inactivityTimeoutMs: -1 }],
    ['requestTimeoutMs', { requestTimeoutMs: Number.NaN }],
  ])('rejects a bad %s, naming it', (field, config) => {
    expect(() => listWatch(new FakeApiServer(), config)).toThrow(new RegExp(`listWatch.${field}`));
  });
});

describe('listWatch teardown with real timers', () => {
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

  it('leaves no timer or interval behind after unsubscribe', () => {
    const before = timers();
    const server = new FakeApiServer({ bookmarkIntervalMs: 60_000 });
    server.write({ op: 'upsert', name: 'a' });
    const subs = [
      listWatch(server).subscribe(),
      listWatch(server, { watchList: false }).subscribe(),
      (() => {
        server.inject({ type: 'hangNext', op: 'list' });
        return listWatch(server, { watchList: false }).subscribe();
      })(),
    ];
    expect(timers()).toBeGreaterThan(before);
    for (const s of subs) s.unsubscribe();
    expect(timers()).toBe(before);
    expect(server.openWatches).toBe(0);
    expect(server.listsInFlight).toBe(0);
  });
});
