// listWatch's learned stall window in virtual time: a flowing stream that stops is abandoned within about a second, a quiet one is left alone.
import { Observable, of, timer } from 'rxjs';
import { map } from 'rxjs/operators';
import { describe, expect, it } from 'vitest';
import type { ObjectList } from '../../operators/types.ts';
import { expiredError } from '../../src/testing/api-errors.ts';
import { FakeApiServer } from '../../src/testing/fake-api-server.ts';
import { VirtualClock } from '../../src/testing/virtual-clock.ts';
import { listWatch } from '../../streams/list-watch.ts';
import { endBookmark, harness, pod } from './list-watch-harness.ts';

describe('listWatch: the learned stall window', () => {
  it('a flowing stream that stops is abandoned within about a second and resumed from its last resourceVersion', () => {
    const t = harness();
    const last = t.flow(10, 200);
    t.clock.advance(999);
    expect(t.watchCalls).toHaveLength(1);
    t.clock.advance(1);
    expect(t.watchCalls).toHaveLength(2);
    expect(t.watchCalls[1]).toMatchObject({ resourceVersion: String(last) });
    expect(t.health.at(-1)!.lastRestart).toEqual({ reason: 'stalled', during: 'watch', at: 3000 });
    t.sub.unsubscribe();
  });

  it('a stall that resumes before the window is not abandoned', () => {
    const t = harness();
    t.flow(10, 100);
    t.clock.advance(900);
    t.flow(10, 100); // resumes after a 910 ms gap
    t.clock.advance(500);
    expect(t.watchCalls).toHaveLength(1);
    expect(t.health.at(-1)!.restarts).toBe(0);
    t.sub.unsubscribe();
  });

  it('a slower stream earns a longer window: events every 2 s, a 3 s pause is not a stall', () => {
    const t = harness();
    t.flow(2000, 10);
    t.clock.advance(1000);
    t.flow(2000, 1); // a 3 s gap
    expect(t.watchCalls).toHaveLength(1);
    t.clock.advance(5999); // the window is now twice 3 s
    expect(t.watchCalls).toHaveLength(1);
    t.clock.advance(1);
    expect(t.watchCalls).toHaveLength(2);
    t.sub.unsubscribe();
  });

  it.each([1000, 10_000])('a quiet watch with a bookmark every %i ms is never restarted', (every) => {
    const t = harness();
    t.bookmarks(every, Math.ceil(300_000 / every));
    expect(t.watchCalls).toHaveLength(1);
    expect(t.health.at(-1)!.restarts).toBe(0);
    t.sub.unsubscribe();
  });

  it('a flow that ends on a quiet watch costs at most one re-watch, then bookmarks keep it alive', () => {
    const t = harness();
    t.bookmarks(10_000, 2);
    t.flow(10, 100);
    t.clock.advance(1000); // nothing more to send: taken for a stall once
    expect(t.watchCalls).toHaveLength(2);
    t.bookmarks(10_000, 30); // the next watch waits for twice the bookmark interval
    expect(t.watchCalls).toHaveLength(2);
    t.sub.unsubscribe();
  });

  it('a quiet watch whose bookmarks stop is abandoned after twice their interval', () => {
    const t = harness();
    t.bookmarks(5000, 3);
    t.clock.advance(9999);
    expect(t.watchCalls).toHaveLength(1);
    t.clock.advance(1);
    expect(t.watchCalls).toHaveLength(2);
    t.sub.unsubscribe();
  });

  it('before anything is learned the window is inactivityTimeoutMs (the ceiling)', () => {
    const t = harness({ inactivityTimeoutMs: 8000 });
    t.clock.advance(7999);
    expect(t.watchCalls).toHaveLength(1);
    t.clock.advance(1);
    expect(t.watchCalls).toHaveLength(2);
    t.sub.unsubscribe();
  });

  it('stallFloorMs sets the floor; a floor at the ceiling keeps the fixed window', () => {
    const floor = harness({ stallFloorMs: 3000 });
    floor.flow(10, 100);
    floor.clock.advance(2999);
    expect(floor.watchCalls).toHaveLength(1);
    floor.clock.advance(1);
    expect(floor.watchCalls).toHaveLength(2);
    floor.sub.unsubscribe();
    const fixed = harness({ stallFloorMs: 25_000 });
    fixed.flow(10, 100);
    fixed.clock.advance(24_999);
    expect(fixed.watchCalls).toHaveLength(1);
    fixed.clock.advance(1);
    expect(fixed.watchCalls).toHaveLength(2);
    fixed.sub.unsubscribe();
  });

  it('the initial streaming list that stops mid-stream is abandoned within a second and falls back to a list', () => {
    const t = harness({ watchList: true });
    for (let i = 0; i < 50; i++) {
      t.clock.advance(2);
      t.watches[0]!.next({ type: 'ADDED', object: pod(`p${i}`, i + 2) });
    }
    t.clock.advance(999);
    expect(t.listCalls).toHaveLength(0);
    t.clock.advance(1);
    expect(t.listCalls).toHaveLength(1);
    expect(t.health.at(-1)).toMatchObject({
      synced: true,
      lastRestart: { reason: 'stalled', during: 'watchList' },
      lastList: { reason: 'stalled' },
    });
    t.sub.unsubscribe();
  });

  it('the pace of the initial events does not set the window of the quiet watch that follows', () => {
    const t = harness({ watchList: true });
    for (let i = 0; i < 50; i++) {
      t.clock.advance(2);
      t.watches[0]!.next({ type: 'ADDED', object: pod(`p${i}`, i + 2) });
    }
    t.watches[0]!.next(endBookmark(60));
    t.clock.advance(20_000);
    expect(t.watchCalls).toHaveLength(1);
    t.sub.unsubscribe();
  });

  it('a list that stops answering is bounded by the learned duration of its pages, not the 60 s request timeout', () => {
    const t = harness({}, (clock) => [
      timer(50, clock.scheduler).pipe(
        map((): ObjectList => ({ metadata: { resourceVersion: '1' }, items: [pod('a', 1)] })),
      ),
      new Observable<ObjectList>(), // the relist never answers
      of({ metadata: { resourceVersion: '9' }, items: [pod('a', 9)] }),
    ]);
    t.clock.advance(50);
    expect(t.watchCalls).toHaveLength(1);
    t.watches[0]!.next({ type: 'ERROR', object: expiredError().status });
    t.clock.advance(800); // the backoff; the relist begins
    expect(t.listCalls).toHaveLength(2);
    t.clock.advance(999);
    expect(t.health.at(-1)!.lastRestart?.reason).not.toBe('timeout');
    t.clock.advance(1);
    expect(t.health.at(-1)!.lastRestart).toMatchObject({ reason: 'timeout', during: 'list' });
    t.clock.advance(1600);
    expect(t.listCalls).toHaveLength(3);
    expect(t.health.at(-1)).toMatchObject({ state: 'watching', resourceVersion: '9' });
    t.sub.unsubscribe();
  });

  it('a fallback list after a stalled streaming list is bounded by the pace the stream showed', () => {
    const t = harness({ watchList: true }, () => [new Observable<ObjectList>()]); // the list never answers
    for (let i = 0; i < 400; i++) {
      t.clock.advance(1);
      t.watches[0]!.next({ type: 'ADDED', object: pod(`p${i}`, i + 2) });
    }
    t.clock.advance(1000); // the stream stalls: a list instead
    expect(t.listCalls).toHaveLength(1);
    t.clock.advance(1599); // 4 × the 400 ms the stream took for 400 objects
    expect(t.health.at(-1)!.lastRestart?.during).toBe('watchList');
    t.clock.advance(1);
    expect(t.health.at(-1)!.lastRestart).toMatchObject({ reason: 'timeout', during: 'list' });
    t.sub.unsubscribe();
  });

  it('against the fake API server, bookmarks every second keep a quiet watch alive for minutes', () => {
    const clock = new VirtualClock();
    const server = new FakeApiServer({ scheduler: clock.scheduler, bookmarkIntervalMs: 1000 });
    const sub = listWatch(server, { scheduler: clock.scheduler, random: () => 0 }).subscribe();
    for (let i = 0; i < 20; i++) {
      clock.advance(5);
      server.write({ op: 'upsert', name: `n${i}` });
    }
    clock.advance(300_000);
    expect(server.watchCalls.length).toBeLessThanOrEqual(2);
    sub.unsubscribe();
  });
});
