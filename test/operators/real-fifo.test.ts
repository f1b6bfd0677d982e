// Marble tests for realFifo: the five questions, in-order delivery, Replace order, compaction under a slow consumer.
import { from, of, take, timer } from 'rxjs';
import { map } from 'rxjs/operators';
import { describe, expect, it } from 'vitest';
import type { FifoEvent } from '../../operators/fifo-queue-operator.ts';
import { realFifo } from '../../operators/real-fifo.ts';
import { reflect } from '../../operators/reflect.ts';
import { createStoreCell } from '../../operators/store-cell.ts';
import { DeletedFinalStateUnknown, type KubeObject, type ReflectorEvent } from '../../operators/types.ts';
import { testScheduler as scheduler } from '../../src/testing/marbles.ts';
import { added, o, processed, slow, synced, updated } from '../helpers/fifo-events.ts';

describe('realFifo', () => {
  it('values: delivers every notification in order (the documented diagram)', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold<ReflectorEvent>('auv|', { a: added('x'), u: updated('x', 1), v: updated('x', 2) });
      expectObservable(source.pipe(realFifo({ process: slow(4) }))).toBe('S---A---B---(C|)', {
        S: synced,
        A: processed('x', 'Added'),
        B: processed('x', 'Updated'),
        C: processed('x', 'Updated'),
      });
    });
  });

  it('error: a source error errors at once and cancels processing in flight', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const inner = cold('----(r|)');
      const source = cold<ReflectorEvent>('a-#', { a: added('x') });
      expectObservable(source.pipe(realFifo({ process: () => inner }))).toBe('S-#', { S: synced });
      expectSubscriptions(inner.subscriptions).toBe('^-!');
    });
  });

  it('empty: an empty source completes without Synced', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<ReflectorEvent>('|').pipe(realFifo({ process: slow(1) }))).toBe('|');
    });
  });

  it('early unsubscribe: releases the source and the processing in flight', () => {
    scheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const inner = cold('------(r|)');
      const source = hot<ReflectorEvent>('-a-b-', { a: added('x'), b: added('y') });
      expectObservable(source.pipe(realFifo({ process: () => inner })), '^---!').toBe('-S', { S: synced });
      expectSubscriptions(source.subscriptions).toBe('^---!');
      expectSubscriptions(inner.subscriptions).toBe('-^--!');
    });
  });

  it('synchronous source then take: stops pulling from the source', () => {
    let pulled = 0;
    function* events() {
      for (const name of ['a', 'b', 'c']) {
        pulled++;
        yield added(name);
      }
    }
    const seen: FifoEvent<KubeObject, string>[] = [];
    from(events())
      .pipe(realFifo({ process: (item) => of(item.key) }), take(2))
      .subscribe((e) => seen.push(e));
    expect(seen).toEqual([synced, processed('a', 'a')]);
    expect(pulled).toBe(1);
  });

  it('a relist queues tombstones first, then the listed objects, all initial, then Synced', () => {
    const store = new Map([['gone', o('gone', 3)]]);
    const knownObjects = { listKeys: () => [...store.keys()], getByKey: (k: string) => store.get(k) };
    const seen: unknown[] = [];
    of<ReflectorEvent>({ type: 'Replace', items: [o('a'), o('b')], resourceVersion: '5' })
      .pipe(realFifo({ knownObjects, process: (item) => of(item.deltas[0]!) }))
      .subscribe((e) =>
        seen.push(e.type === 'Processed' ? [e.key, e.result.type, e.isInInitialList] : e.type),
      );
    expect(seen).toEqual([
      ['gone', 'Deleted', true],
      ['a', 'Replaced', true],
      ['b', 'Replaced', true],
      'Synced',
    ]);
  });

  it('with compaction, a slow consumer gets the newest delta per key while events keep coming', () => {
    scheduler().run(({ cold, expectObservable }) => {
      // k0, k1, k2 updated round-robin, one event per frame for 30 frames; each item takes 10 frames
      const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcd';
      const values = Object.fromEntries([...letters].map((c, i) => [c, updated(`k${i % 3}`, i)]));
      const stream = cold<ReflectorEvent>(`${letters}|`, values).pipe(
        realFifo({
          compact: true,
          process: (item) =>
            timer(10).pipe(map(() => (item.deltas[0]!.object as KubeObject).metadata!.resourceVersion)),
        }),
        map((e) => (e.type === 'Processed' ? `${e.key}@${e.result}` : e.type)),
      );
      // 7 deliveries for 30 events: each key waits once in line, holding only its newest version
      expectObservable(stream).toBe('S---------a---------b---------c---------d---------e---------(f|)', {
        S: 'Synced',
        a: 'k0@0',
        b: 'k1@10',
        c: 'k2@20',
        d: 'k0@27',
        e: 'k1@28',
        f: 'k2@29',
      });
    });
  });

  it('carries tombstones of what reflect stored as Deleted items', () => {
    const seen: unknown[] = [];
    const cache = createStoreCell();
    from<ReflectorEvent[]>([added('a'), { type: 'Replace', items: [], resourceVersion: '2' }])
      .pipe(
        realFifo({
          knownObjects: cache,
          process: (item) =>
            of(item).pipe(
              reflect(cache),
              map(() => item.deltas[0]!.object),
            ),
        }),
      )
      .subscribe((e) => e.type === 'Processed' && seen.push(e.result));
    expect(seen).toEqual([o('a'), new DeletedFinalStateUnknown('a', o('a'))]);
    expect(cache.current.size).toBe(0);
  });
});
