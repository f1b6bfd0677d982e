// Marble tests for deltaFifo: the five questions, pulled N-way consumption, Synced, resync, failures.
import { asapScheduler, type Observable, of, from as rxFrom, take, throwError, timer } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { deltaFifo } from '../../operators/delta-fifo.ts';
import { InvalidConfigError } from '../../operators/errors.ts';
import type { FifoEvent } from '../../operators/fifo-queue-operator.ts';
import type { KubeObject, ReflectorEvent } from '../../operators/types.ts';
import { testScheduler as scheduler } from '../../src/testing/marbles.ts';
import { added, o, processed, slow, synced, updated } from '../helpers/fifo-events.ts';

const replace = (...names: string[]): ReflectorEvent => ({
  type: 'Replace',
  items: names.map((n) => o(n)),
  resourceVersion: '1',
});

describe('deltaFifo', () => {
  it('values: merges the deltas of a key that waits while it is in flight (the documented diagram)', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold<ReflectorEvent>('auv|', { a: added('x'), u: updated('x', 1), v: updated('x', 2) });
      expectObservable(source.pipe(deltaFifo({ process: slow(4) }))).toBe('S---A---(B|)', {
        S: synced,
        A: processed('x', 'Added'),
        B: processed('x', 'Updated+Updated'),
      });
    });
  });

  it('error: a source error errors at once and cancels processing in flight', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const inner = cold('----(r|)');
      const source = cold<ReflectorEvent>('-a-#', { a: added('x') });
      expectObservable(source.pipe(deltaFifo({ process: () => inner }))).toBe('-S-#', { S: synced });
      expectSubscriptions(inner.subscriptions).toBe('-^-!');
    });
  });

  it('empty: an empty source completes without Synced', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<ReflectorEvent>('|').pipe(deltaFifo({ process: slow(1) }))).toBe('|');
    });
  });

  it('early unsubscribe: releases the source and the processing in flight', () => {
    scheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const inner = cold('---(r|)');
      const source = hot<ReflectorEvent>('-a-b-c-', { a: added('x'), b: added('y'), c: added('z') });
      expectObservable(source.pipe(deltaFifo({ process: () => inner })), '^----!').toBe('-S--r', {
        S: synced,
        r: processed('x', 'r'),
      });
      expectSubscriptions(source.subscriptions).toBe('^----!');
      expectSubscriptions(inner.subscriptions).toBe(['-^--!', '----^!']);
    });
  });

  it('synchronous source then take: stops pulling from the source', () => {
    let pulled = 0;
    function* events() {
      for (const name of ['a', 'b', 'c', 'd']) {
        pulled++;
        yield added(name);
      }
    }
    const seen: FifoEvent<KubeObject, string>[] = [];
    rxFrom(events())
      .pipe(deltaFifo({ process: (item) => of(item.key) }), take(3))
      .subscribe((e) => seen.push(e));
    expect(seen).toEqual([synced, processed('a', 'a'), processed('b', 'b')]);
    expect(pulled).toBe(2);
  });

  it('drains the queue after the source completes', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold<ReflectorEvent>('(ab|)', { a: added('x'), b: added('y') });
      expectObservable(source.pipe(deltaFifo({ process: slow(2) }))).toBe('S-X-(Y|)', {
        S: synced,
        X: processed('x', 'Added'),
        Y: processed('y', 'Added'),
      });
    });
  });

  it('emits Synced after the last item of the first list, and marks those items initial', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold<ReflectorEvent>('r-a|', { r: replace('p', 'q'), a: added('z') });
      expectObservable(source.pipe(deltaFifo({ process: slow(4) }))).toBe('----P---(QS)(Z|)', {
        P: processed('p', 'Sync', true),
        Q: processed('q', 'Sync', true),
        S: synced,
        Z: processed('z', 'Added'),
      });
    });
  });

  it('runs up to `concurrency` keys at once, never two of one key', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold<ReflectorEvent>('(xzy)|', { x: added('x'), z: updated('x', 1), y: added('y') });
      // x starts; its update waits although a slot is free, so y goes ahead of it
      expectObservable(source.pipe(deltaFifo({ process: slow(5), concurrency: 2 }))).toBe('S----(XY)-(Z|)', {
        S: synced,
        X: processed('x', 'Added'),
        Y: processed('y', 'Added'),
        Z: processed('x', 'Updated'),
      });
    });
  });

  it('takes an array from the consumer as its synchronous results', () => {
    const seen: unknown[] = [];
    of(added('a'), added('b'))
      .pipe(deltaFifo<KubeObject, string>({ process: (item) => [item.key, `${item.key}!`] }))
      .subscribe((e) => seen.push(e.type === 'Processed' ? e.result : e.type));
    expect(seen).toEqual(['Synced', 'a', 'a!', 'b', 'b!']);
  });

  it('reports a failing consumer as Failed and carries on', () => {
    const seen: string[] = [];
    of(added('a'), added('b'), added('c'))
      .pipe(
        deltaFifo<KubeObject, string>({
          process: (item) => {
            if (item.key === 'a') throw new Error('boom');
            if (item.key === 'b') return throwError(() => new Error('bust'));
            return of('ok');
          },
        }),
      )
      .subscribe((e) =>
        seen.push(e.type === 'Failed' ? `failed ${e.key}: ${(e.error as Error).message}` : e.type),
      );
    expect(seen).toEqual(['Synced', 'failed a: boom', 'failed b: bust', 'Processed']);
  });

  it('queues Sync for known keys on each resync$ tick', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const store = new Map([['k', o('k', 5)]]);
      const knownObjects = { listKeys: () => [...store.keys()], getByKey: (key: string) => store.get(key) };
      const source = cold<ReflectorEvent>('a-------|', { a: added('n') });
      const resync$ = cold('---t---t');
      expectObservable(source.pipe(deltaFifo({ process: slow(1), knownObjects, resync$ }))).toBe(
        'Sa--k---(k|)',
        {
          S: synced,
          a: processed('n', 'Added'),
          k: processed('k', 'Sync'),
        },
      );
    });
  });

  it('hands out on the given scheduler instead of synchronously', async () => {
    const seen: string[] = [];
    const done = new Promise<void>((resolve) =>
      of(added('a'), added('b'))
        .pipe(deltaFifo({ process: (item) => of(item.key), scheduler: asapScheduler }))
        .subscribe({ next: (e) => seen.push(e.type === 'Processed' ? e.key : e.type), complete: resolve }),
    );
    expect(seen).toEqual(['Synced']);
    await done;
    expect(seen).toEqual(['Synced', 'a', 'b']);
  });

  it('ignores bookmarks', () => {
    const seen: string[] = [];
    of<ReflectorEvent>({ type: 'Bookmark', resourceVersion: '9' })
      .pipe(deltaFifo({ process: () => of(1) }))
      .subscribe({
        next: (e) => seen.push(e.type),
        complete: () => seen.push('complete'),
      });
    expect(seen).toEqual(['complete']);
  });

  it('rejects a bad configuration', () => {
    expect(() => deltaFifo({} as never)).toThrow(InvalidConfigError);
    expect(() => deltaFifo({ process: () => of(1), concurrency: 0 })).toThrow(/concurrency/);
  });

  it('leaves no timers behind after unsubscribe', () => {
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const sub = (rxFrom([added('a')]) as Observable<ReflectorEvent>)
      .pipe(deltaFifo({ process: () => timer(60_000) }))
      .subscribe();
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(before + 1);
    sub.unsubscribe();
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(before);
  });
});
