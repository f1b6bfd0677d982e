// Tests of the FakeApiServer: history, pagination, watch replay and expiry, initial events, each fault; a model-based check.
import fc from 'fast-check';
import { firstValueFrom, lastValueFrom, type Subscription, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  InvalidInputError,
  isExpired,
  isTooLargeResourceVersion,
} from '../../../operators/errors.ts';
import type { KubeObject, ObjectList, WatchEvent } from '../../../operators/types.ts';
import { tooManyRequestsError } from '../../../src/testing/api-errors.ts';
import { FakeApiServer, fakeListerWatcher } from '../../../src/testing/fake-api-server.ts';
import { VirtualClock } from '../../../src/testing/virtual-clock.ts';

function make(config: ConstructorParameters<typeof FakeApiServer>[0] = {}) {
  const clock = new VirtualClock();
  const server = new FakeApiServer({ scheduler: clock.scheduler, ...config });
  return { clock, server };
}

function collect(server: FakeApiServer, options: Parameters<FakeApiServer['watch']>[0]) {
  const events: WatchEvent[] = [];
  const ends: unknown[] = [];
  const sub = server.watch(options).subscribe({
    next: (e) => events.push(e),
    error: (e) => ends.push(e),
    complete: () => ends.push('complete'),
  });
  return { events, ends, sub };
}

const names = (events: WatchEvent[]) =>
  events.map((e) => `${e.type}:${e.object.metadata?.name ?? ''}@${e.object.metadata?.resourceVersion}`);

async function listAll(server: FakeApiServer, limit: number): Promise<ObjectList[]> {
  const pages: ObjectList[] = [];
  let token: string | undefined;
  do {
    const page: ObjectList = await firstValueFrom(
      server.list(token ? { limit, continue: token } : { limit }),
    );
    pages.push(page);
    token = page.metadata.continue;
  } while (token);
  return pages;
}

describe('FakeApiServer writes', () => {
  it('bumps the resourceVersion per write, keeps uids, and returns the final state on delete', () => {
    const server = fakeListerWatcher();
    const a1 = server.write({ op: 'upsert', namespace: 'ns', name: 'a' })!;
    const a2 = server.write({ op: 'upsert', namespace: 'ns', name: 'a', labels: { x: 'y' } })!;
    expect([a1.metadata?.resourceVersion, a2.metadata?.resourceVersion]).toEqual(['2', '3']);
    expect(a2.metadata?.uid).toBe(a1.metadata?.uid);
    const gone = server.delete('ns/a');
    expect(gone?.metadata).toMatchObject({ resourceVersion: '4', labels: { x: 'y' } });
    expect(server.delete('ns/a')).toBeUndefined();
    expect(server.snapshot().size).toBe(0);
    expect(server.resourceVersion).toBe('4');
  });

  it('stores copies, so callers cannot mutate its state', () => {
    const server = fakeListerWatcher();
    const obj: KubeObject = { metadata: { name: 'a' }, spec: { n: 1 } };
    server.upsert(obj);
    (obj.spec as { n: number }).n = 2;
    expect(server.get('a')?.spec).toEqual({ n: 1 });
  });
});

describe('FakeApiServer list', () => {
  it('pages at one consistent snapshot, in key order', async () => {
    const server = fakeListerWatcher();
    for (const n of ['e', 'c', 'a', 'd', 'b']) server.write({ op: 'upsert', name: n });
    const first = await firstValueFrom(server.list({ limit: 2 }));
    server.write({ op: 'upsert', name: 'aa' }); // after the snapshot: not in this list
    const rest = await listAll(server, 2);
    expect(first.metadata).toMatchObject({ resourceVersion: '6', remainingItemCount: 3 });
    const second = await firstValueFrom(server.list({ limit: 2, continue: first.metadata.continue! }));
    expect(second.items.map((i) => i.metadata?.name)).toEqual(['c', 'd']);
    expect(second.metadata.resourceVersion).toBe('6');
    expect(rest.flatMap((p) => p.items.map((i) => i.metadata?.name))).toEqual([
      'a',
      'aa',
      'b',
      'c',
      'd',
      'e',
    ]);
  });

  it('expires continue tokens older than the compacted history (410)', async () => {
    const server = fakeListerWatcher();
    for (const n of ['a', 'b', 'c']) server.write({ op: 'upsert', name: n });
    const first = await firstValueFrom(server.list({ limit: 1 }));
    server.write({ op: 'upsert', name: 'd' });
    server.inject({ type: 'compact' });
    const error = await firstValueFrom(server.list({ limit: 1, continue: first.metadata.continue! })).catch(
      (e) => e,
    );
    expect(isExpired(error)).toBe(true);
  });

  it('rejects a resourceVersion from the future as too large, and a garbled token by name', async () => {
    const server = fakeListerWatcher();
    const tooLarge = await firstValueFrom(server.list({ resourceVersion: '99' })).catch((e) => e);
    expect(isTooLargeResourceVersion(tooLarge)).toBe(true);
    const garbled = await firstValueFrom(server.list({ continue: '%%' })).catch((e) => e);
    expect(garbled).toBeInstanceOf(InvalidInputError);
    expect(garbled.field).toBe('continue');
  });

  it('records the options of every call', async () => {
    const server = fakeListerWatcher();
    await firstValueFrom(server.list({ resourceVersion: '0', limit: 500, labelSelector: 'a=b' }));
    expect(server.listCalls).toEqual([{ resourceVersion: '0', limit: 500, labelSelector: 'a=b' }]);
  });
});

describe('FakeApiServer watch', () => {
  it('replays history after the requested rv, then delivers writes live', () => {
    const { server } = make();
    server.write({ op: 'upsert', name: 'a' });
    server.write({ op: 'upsert', name: 'b' });
    const w = collect(server, { resourceVersion: '2' });
    server.write({ op: 'delete', name: 'a' });
    expect(names(w.events)).toEqual(['ADDED:b@3', 'DELETED:a@4']);
    w.sub.unsubscribe();
    expect(server.openWatches).toBe(0);
  });

  it('sends synthetic ADDED events for rv "" and "0"', () => {
    const { server } = make();
    server.write({ op: 'upsert', name: 'a' });
    server.write({ op: 'upsert', name: 'a' });
    for (const resourceVersion of ['', '0']) {
      const w = collect(server, { resourceVersion });
      expect(names(w.events)).toEqual(['ADDED:a@3']);
      w.sub.unsubscribe();
    }
  });

  it('with sendInitialEvents, ends the initial state with the annotated bookmark', () => {
    const { server } = make();
    server.write({ op: 'upsert', name: 'b' });
    server.write({ op: 'upsert', name: 'a' });
    const w = collect(server, {
      sendInitialEvents: true,
      allowWatchBookmarks: true,
      resourceVersionMatch: 'NotOlderThan',
    });
    expect(names(w.events)).toEqual(['ADDED:a@3', 'ADDED:b@2', 'BOOKMARK:@3']);
    expect(w.events[2]!.object.metadata?.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
    w.sub.unsubscribe();
  });

  it.each([
    ['compacted away', '1', 410, 'Expired'],
    ['from the future', '50', 504, 'Timeout'],
  ])('answers a watch from an rv %s with an ERROR event and closes', (_name, rv, code, reason) => {
    const { server } = make();
    server.write({ op: 'upsert', name: 'a' });
    server.write({ op: 'upsert', name: 'b' });
    server.inject({ type: 'compact' });
    const w = collect(server, { resourceVersion: rv });
    expect(w.events).toEqual([{ type: 'ERROR', object: expect.objectContaining({ code, reason }) }]);
    expect(w.ends).toEqual(['complete']);
  });

  it('closes a watch after its timeoutSeconds, unless told not to', () => {
    const { server, clock } = make();
    const w = collect(server, { resourceVersion: '1', timeoutSeconds: 5 });
    clock.advance(4999);
    expect(w.ends).toEqual([]);
    clock.advance(1);
    expect(w.ends).toEqual(['complete']);
    const quiet = make({ honourWatchTimeout: false });
    const q = collect(quiet.server, { resourceVersion: '1', timeoutSeconds: 5 });
    quiet.clock.advance(10_000);
    expect(q.ends).toEqual([]);
    q.sub.unsubscribe();
  });

  it('sends periodic bookmarks only to watches that allow them', () => {
    const { server, clock } = make({ bookmarkIntervalMs: 1000 });
    const yes = collect(server, { resourceVersion: '1', allowWatchBookmarks: true });
    const no = collect(server, { resourceVersion: '1' });
    clock.advance(3000);
    expect(names(yes.events)).toEqual(['BOOKMARK:@1', 'BOOKMARK:@1', 'BOOKMARK:@1']);
    expect(no.events).toEqual([]);
    yes.sub.unsubscribe();
    no.sub.unsubscribe();
    expect(clock.pending).toBe(0);
  });

  it('delays the opening of a watch by its latency; writes meanwhile are replayed once', () => {
    const { server, clock } = make();
    server.setLatency({ watch: 100 });
    const w = collect(server, { resourceVersion: '1' });
    server.write({ op: 'upsert', name: 'a' });
    expect(w.events).toEqual([]);
    clock.advance(100);
    expect(names(w.events)).toEqual(['ADDED:a@2']);
    w.sub.unsubscribe();
  });
});

describe('FakeApiServer faults', () => {
  it('failNext and hangNext affect only the next request of that kind', async () => {
    const { server } = make();
    server.inject({ type: 'failNext', op: 'list', error: tooManyRequestsError(3) });
    const failed = await firstValueFrom(server.list({})).catch((e) => e);
    expect(failed).toBeInstanceOf(ApiError);
    expect(failed.retryAfterSeconds).toBe(3);
    expect((await firstValueFrom(server.list({}))).items).toEqual([]);
    server.inject({ type: 'hangNext', op: 'list' });
    const hung = server.list({}).subscribe();
    expect(server.listsInFlight).toBe(1);
    hung.unsubscribe();
    expect(server.listsInFlight).toBe(0);
    server.inject({ type: 'failNext', op: 'watch', error: new Error('refused') });
    expect(collect(server, {}).ends).toEqual([new Error('refused')]);
  });

  it.each([
    ['dropWatches', ['complete']],
    ['breakWatches', [expect.objectContaining({ code: 'ECONNRESET' })]],
    ['expireWatches', ['complete']],
  ] as const)('%s ends every open watch', (type, ends) => {
    const { server } = make();
    const a = collect(server, { resourceVersion: '1' });
    const b = collect(server, { resourceVersion: '1' });
    expect(server.inject({ type })).toBe(2);
    expect(a.ends).toEqual(ends);
    expect(b.ends).toEqual(ends);
    expect(server.openWatches).toBe(0);
    if (type === 'expireWatches') expect(a.events[0]).toMatchObject({ type: 'ERROR', object: { code: 410 } });
  });

  it('a stalled watch receives nothing more and stays open', () => {
    const { server } = make();
    const w = collect(server, { resourceVersion: '1' });
    server.inject({ type: 'stallWatches' });
    server.write({ op: 'upsert', name: 'a' });
    expect(w.events).toEqual([]);
    expect(server.openWatches).toBe(1);
    w.sub.unsubscribe();
  });

  it.each([
    ['invalid-json', (w: ReturnType<typeof collect>) => expect(w.ends[0]).toBeInstanceOf(InvalidInputError)],
    [
      'no-metadata',
      (w: ReturnType<typeof collect>) =>
        expect(w.events[0]).toEqual({ type: 'MODIFIED', object: { kind: 'Object' } }),
    ],
    ['unknown-type', (w: ReturnType<typeof collect>) => expect(w.events[0]?.type).toBe('SURPRISE')],
  ] as const)('garbleNextEvent (%s) replaces the next event with garbage', (kind, check) => {
    const { server } = make();
    const w = collect(server, { resourceVersion: '1' });
    server.inject({ type: 'garbleNextEvent', kind });
    server.write({ op: 'upsert', name: 'a' });
    check(w);
    expect(names(w.events).filter((n) => n.startsWith('ADDED'))).toEqual([]);
    w.sub.unsubscribe();
  });

  it('a bookmark fault sends the current rv to watches that allow bookmarks', async () => {
    const { server } = make();
    server.write({ op: 'upsert', name: 'a' });
    const w = collect(server, { resourceVersion: '2', allowWatchBookmarks: true });
    server.inject({ type: 'bookmark' });
    expect(names(w.events)).toEqual(['BOOKMARK:@2']);
    server.inject({ type: 'dropWatches' });
    expect(await lastValueFrom(server.list({}).pipe(toArray()))).toHaveLength(1);
  });
});

describe('FakeApiServer against a model (fc.commands)', () => {
  interface Model {
    state: Map<string, number>;
  }
  interface Real {
    server: FakeApiServer;
    seen: Map<string, number>;
    sub: Subscription;
  }
  const key = (ns: string, name: string) => `${ns}/${name}`;

  type Cmd = fc.AsyncCommand<Model, Real>;
  const command = (label: string, run: (m: Model, r: Real) => void | Promise<void>): Cmd => ({
    check: () => true,
    run: async (m, r) => run(m, r),
    toString: () => label,
  });
  const upsert = (ns: string, name: string, data: number) =>
    command(`upsert(${ns}/${name}=${data})`, (m, r) => {
      r.server.write({ op: 'upsert', namespace: ns, name, data });
      m.state.set(key(ns, name), data);
    });
  const remove = (ns: string, name: string) =>
    command(`delete(${ns}/${name})`, (m, r) => {
      r.server.write({ op: 'delete', namespace: ns, name });
      m.state.delete(key(ns, name));
    });
  const compact = () => command('compact', (_m, r) => void r.server.inject({ type: 'compact' }));
  const checkList = (limit: number) =>
    command(`checkList(limit=${limit})`, async (m, r) => {
      const pages = await listAll(r.server, limit);
      const listed = new Map(
        pages.flatMap((p) => p.items).map((i) => [`${i.metadata?.namespace}/${i.metadata?.name}`, i.data]),
      );
      expect(listed).toEqual(m.state);
      // The watch opened at the start has seen exactly the same state.
      expect(r.seen).toEqual(m.state);
    });

  it('lists (in any page size) and a long-running watch both agree with a naive map', async () => {
    const ns = fc.constantFrom('x', 'y');
    const name = fc.constantFrom('a', 'b', 'c');
    const commands = [
      fc.tuple(ns, name, fc.nat(9)).map(([n, m, d]) => upsert(n, m, d)),
      fc.tuple(ns, name).map(([n, m]) => remove(n, m)),
      fc.constant(null).map(compact),
      fc.integer({ min: 1, max: 4 }).map(checkList),
    ];
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 30 }), async (cmds) => {
        const server = new FakeApiServer({ historyLimit: 5 });
        const seen = new Map<string, number>();
        const sub = server.watch({ resourceVersion: '1' }).subscribe((e) => {
          const k = `${e.object.metadata?.namespace}/${e.object.metadata?.name}`;
          if (e.type === 'DELETED') seen.delete(k);
          else seen.set(k, (e.object as KubeObject).data as number);
        });
        await fc.asyncModelRun(() => ({ model: { state: new Map() }, real: { server, seen, sub } }), cmds);
        sub.unsubscribe();
      }),
      { numRuns: 100 },
    );
  });
});
