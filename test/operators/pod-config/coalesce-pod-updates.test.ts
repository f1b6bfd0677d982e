// coalescePodUpdates: marble tests (five questions) and the folding table of pulled, per-pod coalescing.
import { map, Observable, of, Subject, take, timer } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { coalescePodUpdates } from '../../../operators/pod-config/coalesce-pod-updates.ts';
import type { Pod, PodOperation, PodUpdate } from '../../../operators/pod-config/types.ts';
import { testScheduler } from '../../../src/testing/marbles.ts';

const pod = (uid: string, version = 0): Pod => ({
  metadata: { uid, name: uid, namespace: 'ns', generation: version },
});
const up = (op: PodOperation, source: string, ...pods: Pod[]): PodUpdate => ({ op, source, pods });
const summary = (u: PodUpdate) =>
  `${u.op} ${u.source} [${u.pods.map((p) => `${p.metadata?.uid}@${p.metadata?.generation}`).join(',')}]`;

/** Feeds `updates` while the consumer is busy with a first update, then lets it drain. */
function foldedWhileBusy(updates: PodUpdate[]): string[] {
  const input = new Subject<PodUpdate>();
  const gate = new Subject<void>();
  const out: string[] = [];
  let first = true;
  input
    .pipe(
      coalescePodUpdates(() => {
        if (first) {
          first = false;
          return gate;
        }
        return of(null);
      }),
    )
    .subscribe((u) => out.push(summary(u)));
  input.next(up('ADD', 'busy', pod('x')));
  for (const u of updates) input.next(u);
  gate.complete();
  return out.slice(1);
}

describe('coalescePodUpdates', () => {
  it('hands out one update at a time and folds what piles up (the doc diagram)', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const updates = cold('-a-u-v-|', {
        a: up('ADD', 's', pod('p1', 1)),
        u: up('UPDATE', 's', pod('p1', 2)),
        v: up('UPDATE', 's', pod('p1', 3)),
      });
      const handled = updates.pipe(
        coalescePodUpdates(() => timer(5)),
        map(summary),
      );
      expectObservable(handled).toBe('------A----(V|)', { A: 'ADD s [p1@1]', V: 'UPDATE s [p1@3]' });
    });
  });

  it.each<[string, PodUpdate[], string[]]>([
    [
      'ADD then UPDATE: one ADD of the latest',
      [up('ADD', 's', pod('a', 1)), up('UPDATE', 's', pod('a', 2))],
      ['ADD s [a@2]'],
    ],
    [
      'ADD then REMOVE: nothing but the ready signal',
      [up('ADD', 's', pod('a')), up('REMOVE', 's', pod('a'))],
      ['ADD s []'],
    ],
    [
      'UPDATE then RECONCILE: one UPDATE',
      [up('UPDATE', 's', pod('a', 1)), up('RECONCILE', 's', pod('a', 2))],
      ['UPDATE s [a@2]'],
    ],
    [
      'RECONCILE then UPDATE: one UPDATE',
      [up('RECONCILE', 's', pod('a', 1)), up('UPDATE', 's', pod('a', 2))],
      ['UPDATE s [a@2]'],
    ],
    [
      'UPDATE then DELETE: one DELETE',
      [up('UPDATE', 's', pod('a', 1)), up('DELETE', 's', pod('a', 2))],
      ['DELETE s [a@2]'],
    ],
    [
      'DELETE then UPDATE: still DELETE',
      [up('DELETE', 's', pod('a', 1)), up('UPDATE', 's', pod('a', 2))],
      ['DELETE s [a@2]'],
    ],
    [
      'UPDATE then REMOVE: one REMOVE',
      [up('UPDATE', 's', pod('a', 1)), up('REMOVE', 's', pod('a', 2))],
      ['REMOVE s [a@2]'],
    ],
    [
      'REMOVE then ADD of the same UID: both, in order',
      [up('REMOVE', 's', pod('a', 1)), up('ADD', 's', pod('a', 2))],
      ['REMOVE s [a@1]', 'ADD s [a@2]'],
    ],
    [
      'many pods: grouped in the kubelet order',
      [
        up('ADD', 's', pod('a')),
        up('UPDATE', 's', pod('b')),
        up('REMOVE', 's', pod('c')),
        up('RECONCILE', 's', pod('d')),
      ],
      ['REMOVE s [c@0]', 'ADD s [a@0]', 'UPDATE s [b@0]', 'RECONCILE s [d@0]'],
    ],
    [
      'two sources: the one with the oldest pending change first',
      [up('ADD', 't', pod('a')), up('ADD', 's', pod('b')), up('ADD', 't', pod('c'))],
      ['ADD t [a@0,c@0]', 'ADD s [b@0]'],
    ],
    ['the empty ready ADD of a new source is kept', [up('ADD', 'r')], ['ADD r []']],
    [
      'a SET supersedes what came before it',
      [up('ADD', 's', pod('a')), up('SET', 's', pod('a'), pod('b')), up('UPDATE', 's', pod('b', 2))],
      ['SET s [a@0,b@0]', 'UPDATE s [b@2]'],
    ],
  ])('%s', (_name, updates, expected) => {
    expect(foldedWhileBusy(updates)).toEqual(expected);
  });

  it('logs a failing handler and carries on', () => {
    const errors: string[] = [];
    testScheduler().run(({ cold, expectObservable }) => {
      const updates = cold('-a-b-|', { a: up('ADD', 's', pod('a')), b: up('ADD', 's', pod('b')) });
      const logger: Logger = {
        ...silentLogger,
        error: ((o: Record<string, unknown>) => {
          errors.push(String(o.err));
        }) as Logger['error'],
      };
      const handled = updates.pipe(
        coalescePodUpdates(
          (u) => {
            if (u.pods[0]?.metadata?.uid === 'a') throw new Error('thrown');
            return cold('-#', undefined, new Error('failed'));
          },
          { logger },
        ),
        map(summary),
      );
      expectObservable(handled).toBe('-a--b|', { a: 'ADD s [a@0]', b: 'ADD s [b@0]' });
    });
    expect(errors).toEqual(['thrown', 'failed']);
  });

  it('passes an upstream error through', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<PodUpdate>('--#').pipe(coalescePodUpdates(() => of(1)))).toBe('--#');
    });
  });

  it('completes at once for an empty source', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<PodUpdate>('--|').pipe(coalescePodUpdates(() => of(1)))).toBe('--|');
    });
  });

  it('unsubscribes the source and the running handler early', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const updates = cold('-a----', { a: up('ADD', 's', pod('a')) });
      const work = cold('-----|');
      expectObservable(updates.pipe(coalescePodUpdates(() => work)), '^--!').toBe('---');
      expectSubscriptions(updates.subscriptions).toBe('^--!');
      expectSubscriptions(work.subscriptions).toBe('-^-!');
    });
  });

  it('works with a synchronous source and handler followed by take', () => {
    const seen: string[] = [];
    new Observable<PodUpdate>((s) => {
      s.next(up('ADD', 's', pod('a')));
      s.next(up('ADD', 's', pod('b')));
      s.next(up('ADD', 's', pod('c')));
    })
      .pipe(
        coalescePodUpdates(() => of(true)),
        map(summary),
        take(2),
      )
      .subscribe((v) => seen.push(v));
    expect(seen).toEqual(['ADD s [a@0]', 'ADD s [b@0]']);
  });

  it('holds at most one pending entry per pod however many updates pile up', () => {
    const input = new Subject<PodUpdate>();
    const gate = new Subject<void>();
    const handed: PodUpdate[] = [];
    input
      .pipe(
        coalescePodUpdates((u) => {
          handed.push(u);
          return handed.length === 1 ? gate : of(1);
        }),
      )
      .subscribe();
    input.next(up('ADD', 's', pod('first')));
    for (let i = 0; i < 10_000; i++) input.next(up('UPDATE', 's', pod(`p${i % 10}`, i)));
    gate.complete();
    expect(handed.map((u) => u.pods.length)).toEqual([1, 10]);
    expect(handed[1]!.pods.map((p) => p.metadata?.generation)).toEqual([
      9990, 9991, 9992, 9993, 9994, 9995, 9996, 9997, 9998, 9999,
    ]);
  });
});
