// DeltaFIFO's smaller surface from client-go's delta_fifo_test.go, in our words: AddIfNotPresent, KeyOf, Close, ErrRequeue.
import { of, Subject, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { deltaFifo } from '../../operators/delta-fifo.ts';
import { KeyError } from '../../operators/errors.ts';
import { FifoQueue, keyOfDeltas, RequeueError } from '../../operators/fifo-queue.ts';
import type { FifoEvent } from '../../operators/fifo-queue-operator.ts';
import {
  DeletedFinalStateUnknown,
  type Delta,
  type KubeObject,
  type ReflectorEvent,
} from '../../operators/types.ts';

const o = (name: string, val = 0): KubeObject => ({ metadata: { name }, val });
const valOf = (d: Delta | undefined) => (d?.object as KubeObject | undefined)?.val;

describe('FifoQueue.addIfNotPresent (TestDeltaFIFO_addIfNotPresent)', () => {
  it('queues an item whose key has nothing queued, at the end of the line', () => {
    const q = new FifoQueue({ mode: 'delta' });
    q.add(o('b', 1));
    expect(q.addIfNotPresent({ key: 'a', deltas: [{ type: 'Added', object: o('a', 2) }] })).toBe(true);
    expect(q.pending().map((i) => i.key)).toEqual(['b', 'a']);
  });

  it('leaves a key that already has deltas queued: the queued ones are newer and win', () => {
    const q = new FifoQueue({ mode: 'delta' });
    q.add(o('a', 3));
    expect(q.addIfNotPresent({ key: 'a', deltas: [{ type: 'Added', object: o('a', 1) }] })).toBe(false);
    const popped = q.pop()!;
    expect(popped.item.deltas.map(valOf)).toEqual([3]);
  });

  it('an item put back while its key is in flight goes out after done()', () => {
    const q = new FifoQueue({ mode: 'delta' });
    q.add(o('a', 1));
    const first = q.pop()!;
    expect(q.addIfNotPresent(first.item)).toBe(true);
    expect(q.canPop).toBe(false);
    q.done('a');
    expect(q.pop()!.item.deltas.map(valOf)).toEqual([1]);
  });

  it('a RealFIFO item counts one entry per delta', () => {
    const q = new FifoQueue({ mode: 'real' });
    q.addIfNotPresent({ key: 'a', deltas: [{ type: 'Added', object: o('a', 1) }] });
    expect(q.length).toBe(1);
  });
});

describe('keyOfDeltas / FifoQueue.keyOf (TestDeltaFIFO_KeyOf)', () => {
  it.each<[string, KubeObject | DeletedFinalStateUnknown | Delta[], string]>([
    ['an object', o('foo'), 'foo'],
    ['a tombstone', new DeletedFinalStateUnknown('ns/bar', undefined), 'ns/bar'],
    [
      'a delta list: its newest delta',
      [
        { type: 'Added', object: { metadata: { name: 'old' } } },
        { type: 'Updated', object: { metadata: { name: 'baz', namespace: 'ns' } } },
      ],
      'ns/baz',
    ],
    [
      'a delta list ending in a tombstone',
      [{ type: 'Deleted', object: new DeletedFinalStateUnknown('q', undefined) }],
      'q',
    ],
  ])('%s', (_case, input, key) => {
    expect(keyOfDeltas(input)).toBe(key);
    expect(new FifoQueue({ mode: 'delta' }).keyOf(input)).toBe(key);
  });

  it('refuses an empty delta list, as client-go does', () => {
    expect(() => keyOfDeltas([])).toThrow(KeyError);
    expect(() => keyOfDeltas([])).toThrow("0 length Deltas object; can't get key");
  });

  it('uses the queue key function', () => {
    const q = new FifoQueue({ mode: 'delta', keyFunc: (x) => `k-${(x as KubeObject).metadata?.name}` });
    expect(q.keyOf([{ type: 'Added', object: o('z') }])).toBe('k-z');
  });
});

describe('FifoQueue.close (TestDeltaFIFO_Close)', () => {
  it('still hands out what is queued; isClosed tells an empty closed queue from an idle one', () => {
    const q = new FifoQueue({ mode: 'delta' });
    q.add(o('a'));
    expect(q.isClosed).toBe(false);
    q.close();
    expect(q.isClosed).toBe(true);
    expect(q.pop()?.item.key).toBe('a');
    q.done('a');
    expect(q.pop()).toBeUndefined();
  });
});

/** Runs a deltaFifo over `events` with `process`, collecting what it emits until it completes. */
function run(
  events: ReflectorEvent[],
  process: Parameters<typeof deltaFifo>[0]['process'],
): FifoEvent<KubeObject, unknown>[] {
  const out: FifoEvent<KubeObject, unknown>[] = [];
  of(...events)
    .pipe(deltaFifo<KubeObject, unknown>({ process }))
    .subscribe((e) => out.push(e));
  return out;
}

describe('deltaFifo with RequeueError (TestDeltaFIFO_requeueOnPop)', () => {
  it('a requeue without an inner error puts the item back and is not a failure', () => {
    let calls = 0;
    const out = run([{ type: 'Added', object: o('a', 1) }], (item) => {
      calls += 1;
      if (calls === 1) throw new RequeueError();
      return [item.deltas.map(valOf).join(',')];
    });
    expect(calls).toBe(2);
    expect(out.filter((e) => e.type === 'Failed')).toEqual([]);
    expect(out.filter((e) => e.type === 'Processed').map((e) => (e as { result: unknown }).result)).toEqual([
      '1',
    ]);
  });

  it('a requeue with an inner error puts the item back and reports the inner error', () => {
    let calls = 0;
    const inner = new Error('try later');
    const out = run([{ type: 'Added', object: o('a', 1) }], () => {
      calls += 1;
      return calls === 1 ? throwError(() => new RequeueError(inner)) : [];
    });
    expect(calls).toBe(2);
    const failed = out.filter((e) => e.type === 'Failed');
    expect(failed).toHaveLength(1);
    expect((failed[0] as { error: unknown }).error).toBe(inner);
  });

  it('newer deltas that arrived while the item was processed win over the requeued item', () => {
    const seen: unknown[][] = [];
    const events = new Subject<ReflectorEvent>();
    let calls = 0;
    const sub = events
      .pipe(
        deltaFifo<KubeObject, never>({
          process: (item) => {
            calls += 1;
            seen.push(item.deltas.map(valOf));
            if (calls === 1) {
              events.next({ type: 'Updated', object: o('a', 2) });
              throw new RequeueError();
            }
            return [];
          },
        }),
      )
      .subscribe();
    events.next({ type: 'Added', object: o('a', 1) });
    sub.unsubscribe();
    expect(seen).toEqual([[1], [2]]);
  });
});
