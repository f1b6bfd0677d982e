// A scripted lister-watcher under listWatch in virtual time: watches are subjects the test drives, lists answer as scripted.
import { type Observable, of, Subject } from 'rxjs';
import {
  INITIAL_EVENTS_END_ANNOTATION,
  type KubeObject,
  type ObjectList,
  type ReflectorHealth,
  type WatchEvent,
} from '../../operators/types.ts';
import { VirtualClock } from '../../src/testing/virtual-clock.ts';
import { type ListWatchConfig, listWatch } from '../../streams/list-watch.ts';
import type { ListerWatcher, ListOptions, WatchOptions } from '../../streams/ports.ts';

export const pod = (name: string, rv: number): KubeObject => ({
  kind: 'Pod',
  metadata: { name, namespace: 'ns', resourceVersion: String(rv) },
});
const modified = (rv: number): WatchEvent => ({ type: 'MODIFIED', object: pod(`p${rv % 7}`, rv) });
export const bookmark = (rv: number): WatchEvent => ({
  type: 'BOOKMARK',
  object: { metadata: { resourceVersion: String(rv) } },
});
export const endBookmark = (rv: number): WatchEvent => ({
  type: 'BOOKMARK',
  object: {
    metadata: { resourceVersion: String(rv), annotations: { [INITIAL_EVENTS_END_ANNOTATION]: 'true' } },
  },
});

/** Watches are subjects the test drives; lists answer from `lists` (default: at once, one object at rv 1). */
export function harness(
  config: ListWatchConfig = {},
  lists: (clock: VirtualClock) => Observable<ObjectList>[] = () => [],
) {
  const clock = new VirtualClock();
  const watches: Subject<WatchEvent>[] = [];
  const watchCalls: WatchOptions[] = [];
  const listCalls: ListOptions[] = [];
  const scripted = lists(clock);
  const lw: ListerWatcher = {
    list: (o) => {
      listCalls.push(o);
      return (
        scripted[listCalls.length - 1] ?? of({ metadata: { resourceVersion: '1' }, items: [pod('a', 1)] })
      );
    },
    watch: (o) => {
      watchCalls.push(o);
      const s = new Subject<WatchEvent>();
      watches.push(s);
      return s;
    },
  };
  const health: ReflectorHealth[] = [];
  const sub = listWatch(lw, {
    scheduler: clock.scheduler,
    random: () => 0,
    watchList: false,
    health: { next: (h) => health.push(h) },
    ...config,
  }).subscribe();
  let rv = 1;
  /** Sends an event every `gap` ms, `count` times, on the latest watch. */
  const flow = (gap: number, count: number) => {
    for (let i = 0; i < count; i++) {
      clock.advance(gap);
      watches.at(-1)!.next(modified(++rv));
    }
    return rv;
  };
  const bookmarks = (every: number, count: number) => {
    for (let i = 0; i < count; i++) {
      clock.advance(every);
      watches.at(-1)!.next(bookmark(rv));
    }
  };
  return { clock, watches, watchCalls, listCalls, health, sub, flow, bookmarks };
}
