// listWatch with a ReflectorMemory: a stopped and resubscribed reflector resumes from its last resourceVersion (client-go's relist rules).
import { NEVER, Observable, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { KubeObject, ObjectList, ReflectorEvent, WatchEvent } from '../../operators/types.ts';
import { expiredError, tooLargeResourceVersionError } from '../../src/testing/api-errors.ts';
import { FakeApiServer } from '../../src/testing/fake-api-server.ts';
import { VirtualClock } from '../../src/testing/virtual-clock.ts';
import { listWatch } from '../../streams/list-watch.ts';
import { reflectorMemory } from '../../streams/list-watch-state.ts';
import type { ListerWatcher, ListOptions } from '../../streams/ports.ts';

const classic = { watchList: false, random: () => 0, inactivityTimeoutMs: 0 } as const;

/** Wraps a lister-watcher, recording the options of every list. */
function recording(inner: ListerWatcher) {
  const lists: ListOptions[] = [];
  const lw: ListerWatcher = {
    list: (o) => {
      lists.push(o);
      return inner.list(o);
    },
    watch: (o) => inner.watch(o),
  };
  return { lw, lists };
}

describe('listWatch with memory', () => {
  it('resumes at the last synced resourceVersion instead of starting over at "0"', () => {
    const clock = new VirtualClock();
    const server = new FakeApiServer({ scheduler: clock.scheduler });
    server.write({ op: 'upsert', namespace: 'ns', name: 'a' });
    const { lw, lists } = recording(server);
    const memory = reflectorMemory();
    const config = { ...classic, scheduler: clock.scheduler, memory };

    const first: ReflectorEvent[] = [];
    const sub = listWatch(lw, config).subscribe((e) => first.push(e));
    clock.advance(0);
    server.write({ op: 'upsert', namespace: 'ns', name: 'b' });
    clock.advance(0);
    sub.unsubscribe();
    const lastRV = memory.lastSyncRV;
    expect(lastRV).not.toBe('');
    expect(first.map((e) => e.type)).toEqual(['Replace', 'Added']);

    const again: ReflectorEvent[] = [];
    const sub2 = listWatch(lw, config).subscribe((e) => again.push(e));
    clock.advance(0);
    sub2.unsubscribe();
    expect(lists.map((o) => o.resourceVersion)).toEqual(['0', lastRV]);
    expect(again[0]?.type).toBe('Replace');

    // without memory, every subscription is a fresh reflector
    const fresh = recording(server);
    listWatch(fresh.lw, { ...classic, scheduler: clock.scheduler })
      .subscribe()
      .unsubscribe();
    listWatch(fresh.lw, { ...classic, scheduler: clock.scheduler })
      .subscribe()
      .unsubscribe();
    expect(fresh.lists.map((o) => o.resourceVersion)).toEqual(['0', '0']);
  });

  it.each([
    ['410 Gone', expiredError()],
    ['too large resource version', tooLargeResourceVersionError()],
  ])(
    'falls back to a consistent read ("") when the remembered resourceVersion answers %s',
    (_case, error) => {
      const listed: ListOptions[] = [];
      const lw: ListerWatcher = {
        list: (o) => {
          listed.push(o);
          if (o.resourceVersion === '42') return new Observable<ObjectList>((s) => s.error(error));
          return of({ metadata: { resourceVersion: '50' }, items: [] });
        },
        watch: () => NEVER as Observable<WatchEvent>,
      };
      const memory = { ...reflectorMemory(), lastSyncRV: '42' };
      const clock = new VirtualClock();
      const sub = listWatch(lw, { ...classic, scheduler: clock.scheduler, memory }).subscribe();
      clock.advance(0);
      sub.unsubscribe();
      expect(listed.map((o) => o.resourceVersion)).toEqual(['42', '']);
      expect(memory).toEqual({ lastSyncRV: '50', rvUnavailable: false, paginatedResult: false });
    },
  );

  it('a server that ignores limit on a "0" list answers everything in one page: that is the full list', () => {
    const items: KubeObject[] = Array.from({ length: 700 }, (_, i) => ({
      kind: 'Pod',
      metadata: { name: `p${i}`, namespace: 'ns', resourceVersion: '9' },
    }));
    const listed: ListOptions[] = [];
    const lw: ListerWatcher = {
      list: (o) => {
        listed.push(o);
        return of({ metadata: { resourceVersion: '9' }, items });
      },
      watch: () => NEVER as Observable<WatchEvent>,
    };
    const memory = reflectorMemory();
    const events: ReflectorEvent[] = [];
    const sub = listWatch(lw, { ...classic, memory }).subscribe((e) => events.push(e));
    sub.unsubscribe();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ resourceVersion: '0', limit: 500 });
    expect(events).toHaveLength(1);
    expect((events[0] as unknown as { items: KubeObject[] }).items).toHaveLength(700);
    expect(memory.paginatedResult).toBe(false);
  });
});
