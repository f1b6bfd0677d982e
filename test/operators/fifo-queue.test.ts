// Go-style tables for the FIFO core: cases from client-go's delta_fifo_test.go and the_real_fifo_test.go.
import { describe, expect, it } from 'vitest';
import {
  FifoContractError,
  type FifoMode,
  FifoQueue,
  type FifoQueueConfig,
} from '../../operators/fifo-queue.ts';
import type { KnownObjects } from '../../operators/indexed-store.ts';
import type { Logger } from '../../operators/logger.ts';
import { DeletedFinalStateUnknown, type Delta, type KubeObject } from '../../operators/types.ts';

/** client-go's testFifoObject: keyed by name, carrying a value. */
interface Obj extends KubeObject {
  val: unknown;
}
const o = (name: string, val: unknown): Obj => ({ metadata: { name }, val });
const dfsu = (key: string, obj: Obj | undefined) => new DeletedFinalStateUnknown<Obj>(key, obj);
const d = (type: Delta['type'], object: Obj | DeletedFinalStateUnknown<Obj>): Delta<Obj> => ({
  type,
  object,
});

/** A fixed list of known objects (client-go's literalListerGetter). */
function known(...objs: Obj[]): KnownObjects<Obj> {
  return {
    listKeys: () => objs.map((x) => x.metadata!.name!),
    getByKey: (key) => objs.find((x) => x.metadata!.name === key),
  };
}

function fifo(mode: FifoMode, config: Omit<FifoQueueConfig<Obj>, 'mode'> = {}): FifoQueue<Obj> {
  return new FifoQueue<Obj>({ mode, ...config });
}

/** Pops and finishes one item, returning its deltas (client-go's Pop helper). */
function pop(q: FifoQueue<Obj>): Delta<Obj>[] | undefined {
  const p = q.pop();
  if (!p) return undefined;
  q.done(p.item.key);
  return [...p.item.deltas];
}

function popAll(q: FifoQueue<Obj>): Delta<Obj>[][] {
  const out: Delta<Obj>[][] = [];
  for (let next = pop(q); next; next = pop(q)) out.push(next);
  return out;
}

const newestVal = (deltas: Delta<Obj>[] | undefined) => {
  const obj = deltas?.[deltas.length - 1]?.object;
  return obj instanceof DeletedFinalStateUnknown ? obj : obj?.val;
};

function recordingLogger(): Logger & { lines: { level: string; msg?: string }[] } {
  const lines: { level: string; msg?: string }[] = [];
  const at =
    (level: string) =>
    (a: unknown, b?: string): void => {
      lines.push({ level, msg: typeof a === 'string' ? a : b });
    };
  const logger = {
    lines,
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: () => logger,
  };
  return logger as Logger & { lines: typeof lines };
}

describe.each<FifoMode>(['delta', 'real'])('FifoQueue (%s): shared behaviour', (mode) => {
  it('keeps each producer in order when two interleave (TestDeltaFIFO_basic)', () => {
    const q = fifo(mode);
    for (let i = 0; i < 500; i++) {
      q.add(o(`a${i}`, i + 1));
      q.add(o(`b${i}`, -(i + 1)));
    }
    const vals = popAll(q).map((x) => newestVal(x) as number);
    const a = vals.filter((v) => v > 0);
    const b = vals.filter((v) => v < 0).map((v) => -v);
    expect(a).toEqual([...a].sort((x, y) => x - y));
    expect(b).toEqual([...b].sort((x, y) => x - y));
    expect(vals).toHaveLength(1000);
  });

  it('queues the delete with a lister that knows the key (TestDeltaFIFO_enqueueingWithLister)', () => {
    const q = fifo(mode, { knownObjects: known(o('foo', 5), o('bar', 6), o('baz', 7)) });
    q.add(o('foo', 10));
    q.update(o('bar', 15));
    q.delete(o('baz', 20));
    expect(popAll(q).map(newestVal)).toEqual([10, 15, 20]);
    expect(q.length).toBe(0);
  });

  it('resync skips a key that already has a delete queued (TestDeltaFIFO_ResyncNonExisting)', () => {
    const q = fifo(mode, { knownObjects: known(o('foo', 5)) });
    q.delete(o('foo', 10));
    q.resync();
    expect(q.pending()).toEqual([{ key: 'foo', deltas: [d('Deleted', o('foo', 10))] }]);
  });

  it('resync queues a Sync for a known key (TestDeltaFIFO_Resync)', () => {
    const q = fifo(mode, { knownObjects: known(o('foo', 5)) });
    q.resync();
    expect(q.pending()).toEqual([{ key: 'foo', deltas: [d('Sync', o('foo', 5))] }]);
  });

  it('resync without known objects does nothing', () => {
    const q = fifo(mode);
    q.resync();
    expect(q.length).toBe(0);
  });

  it('a delete of a key added but never stored is queued (TestDeltaFIFO_DeleteExistingNonPropagated)', () => {
    const q = fifo(mode, { knownObjects: known() });
    q.add(o('foo', 5));
    q.delete(o('foo', 6));
    const deltas = q.pending().flatMap((i) => i.deltas);
    expect(deltas).toHaveLength(2);
    expect(deltas[1]!.type).toBe('Deleted');
  });

  it('resync does not overwrite a queued update with the stale store copy (TestDeltaFIFO_UpdateResyncRace)', () => {
    const q = fifo(mode, { knownObjects: known(o('foo', 5)) });
    q.update(o('foo', 6));
    q.resync();
    expect(popAll(q)).toEqual([[d('Updated', o('foo', 6))]]);
  });

  it.each<[string, (q: FifoQueue<Obj>) => void, boolean]>([
    ['nothing done', () => {}, false],
    ['an Add first', (q) => q.add(o('a', 1)), true],
    ['an empty Replace first', (q) => q.replace([]), true],
    ['a Replace of two, nothing popped', (q) => q.replace([o('a', 1), o('b', 2)]), false],
    [
      'a Replace of two, one popped',
      (q) => {
        q.replace([o('a', 1), o('b', 2)]);
        pop(q);
      },
      false,
    ],
    [
      'a Replace of two, both popped',
      (q) => {
        q.replace([o('a', 1), o('b', 2)]);
        pop(q);
        pop(q);
      },
      true,
    ],
    [
      'a Replace listing one key twice, popped until empty',
      (q) => {
        q.replace([o('a', 1), o('a', 2)]);
        popAll(q);
      },
      true,
    ],
    [
      'a later Replace never resets it',
      (q) => {
        q.replace([]);
        q.replace([o('a', 1)]);
      },
      true,
    ],
  ])('hasSynced after %s (TestDeltaFIFO_HasSynced)', (_name, act, synced) => {
    const q = fifo(mode, { knownObjects: known() });
    act(q);
    expect(q.hasSynced).toBe(synced);
  });

  it('hands out tombstones of the first Replace as initial items (TestDeltaFIFO_HasSyncedCorrectOnDeletion)', () => {
    const q = fifo(mode, { knownObjects: known(o('foo', 5), o('bar', 6), o('baz', 7)) });
    q.replace([o('foo', 5)]);
    const seen: Delta<Obj>[][] = [];
    for (let i = 0; i < 3; i++) {
      expect(q.hasSynced).toBe(false);
      const p = q.pop()!;
      expect(p.isInInitialList).toBe(true);
      seen.push([...p.item.deltas]);
      q.done(p.item.key);
    }
    expect(q.hasSynced).toBe(true);
    const action = mode === 'delta' ? 'Sync' : 'Replaced';
    expect(seen).toEqual(
      expect.arrayContaining([
        [d(action, o('foo', 5))],
        [d('Deleted', dfsu('bar', o('bar', 6)))],
        [d('Deleted', dfsu('baz', o('baz', 7)))],
      ]),
    );
  });

  it('applies the transform once to every new object, never to tombstones or resync copies (TestDeltaFIFO_transformer)', () => {
    const counted = (name: string, rv: number): Obj => ({ metadata: { name }, val: { rv, xfrm: 0 } });
    const transform = (obj: Obj) => {
      (obj.val as { xfrm: number }).xfrm++;
      return obj;
    };
    const q = fifo(mode, { transform, knownObjects: known() });
    q.add(counted('foo', 10));
    q.add(counted('bar', 11));
    q.update(counted('foo', 12));
    q.delete(counted('foo', 15));
    q.replace([]);
    q.add(counted('bar', 16));
    q.replace([]);
    for (const deltas of popAll(q)) {
      for (const delta of deltas) {
        const obj = delta.object instanceof DeletedFinalStateUnknown ? delta.object.obj! : delta.object;
        expect((obj.val as { xfrm: number }).xfrm).toBe(1);
      }
    }
  });

  it('logs and keeps the object when the transform throws', () => {
    const logger = recordingLogger();
    const q = fifo(mode, {
      logger,
      transform: () => {
        throw new Error('bad transform');
      },
    });
    q.add(o('a', 1));
    expect(popAll(q)).toEqual([[d('Added', o('a', 1))]]);
    expect(logger.lines.some((l) => l.level === 'error')).toBe(true);
  });

  it('logs and skips objects without a key, also inside a Replace', () => {
    const logger = recordingLogger();
    const q = fifo(mode, { logger });
    q.add({ val: 1 } as Obj);
    q.replace([o('a', 1), { val: 2 } as Obj]);
    expect(popAll(q).map((x) => x.map((y) => y.object))).toEqual([[o('a', 1)]]);
    expect(logger.lines.filter((l) => l.level === 'warn')).toHaveLength(2);
  });

  it('rejects done() for a key that is not in flight', () => {
    expect(() => fifo(mode).done('nope')).toThrow(FifoContractError);
  });
});

describe('FifoQueue (delta): DeltaFIFO semantics', () => {
  it('puts a Sync after a queued Delete of the same key (TestDeltaFIFO_replaceWithDeleteDeltaIn)', () => {
    const q = fifo('delta', { knownObjects: known(o('foo', 1)) });
    q.delete(o('foo', 1));
    q.replace([o('foo', 2)]);
    expect(pop(q)).toEqual([d('Deleted', o('foo', 1)), d('Sync', o('foo', 2))]);
  });

  const obj = o('foo', 2);
  const objV2 = o('foo', 3);
  it.each<[string, boolean, (q: FifoQueue<Obj>) => void, Delta<Obj>[]]>([
    [
      'an added object is deleted on Replace',
      false,
      (q) => {
        q.add(obj);
        q.replace([]);
      },
      [d('Added', obj), d('Deleted', dfsu('foo', obj))],
    ],
    [
      'a replaced object gets a single delete',
      true,
      (q) => {
        q.add(obj);
        q.replace([obj]);
        q.replace([]);
      },
      [d('Added', obj), d('Replaced', obj), d('Deleted', dfsu('foo', obj))],
    ],
    [
      'a deleted object gets a single delete',
      false,
      (q) => {
        q.add(obj);
        q.delete(obj);
        q.replace([]);
      },
      [d('Added', obj), d('Deleted', obj)],
    ],
    [
      'synced objects get a single delete',
      false,
      (q) => {
        q.add(obj);
        q.replace([obj]);
        q.replace([obj]);
        q.replace([]);
      },
      [d('Added', obj), d('Sync', obj), d('Sync', obj), d('Deleted', dfsu('foo', obj))],
    ],
    [
      'an added object gets a single delete over several Replaces',
      false,
      (q) => {
        q.add(obj);
        q.replace([]);
        q.replace([]);
      },
      [d('Added', obj), d('Deleted', dfsu('foo', obj))],
    ],
    [
      'added, deleted and re-added object is deleted with its newest state',
      false,
      (q) => {
        q.add(obj);
        q.delete(obj);
        q.add(objV2);
        q.replace([]);
      },
      [d('Added', obj), d('Deleted', obj), d('Added', objV2), d('Deleted', dfsu('foo', objV2))],
    ],
  ])('%s (TestDeltaFIFOW_ReplaceMakesDeletionsForObjectsOnlyInQueue)', (_name, replaced, act, want) => {
    for (const knownObjects of [known(), undefined]) {
      const q = fifo('delta', { knownObjects, emitDeltaTypeReplaced: replaced });
      act(q);
      expect(pop(q)).toEqual(want);
      expect(q.length).toBe(0);
    }
  });

  it('merges add, update and delete of one key into one item (TestDeltaFIFO_addUpdate)', () => {
    const q = fifo('delta');
    q.add(o('foo', 10));
    q.update(o('foo', 12));
    q.delete(o('foo', 15));
    expect(q.pending().map((i) => i.key)).toEqual(['foo']);
    expect(newestVal(pop(q))).toBe(15);
    expect(pop(q)).toBeUndefined();
  });

  it('ignores the delete of an unknown key without a lister (TestDeltaFIFO_enqueueingNoLister)', () => {
    const q = fifo('delta');
    q.add(o('foo', 10));
    q.update(o('bar', 15));
    q.add(o('qux', 17));
    q.delete(o('qux', 18));
    q.delete(o('baz', 20));
    expect(popAll(q).map(newestVal)).toEqual([10, 15, 18]);
  });

  it('ignores the delete of a key neither queued nor known', () => {
    const q = fifo('delta', { knownObjects: known(o('foo', 1)) });
    q.delete(o('bar', 1));
    expect(q.length).toBe(0);
    expect(q.hasSynced).toBe(true);
  });

  it('a Replace after an Add leaves one item with the newest value (TestDeltaFIFO_addReplace)', () => {
    const q = fifo('delta');
    q.add(o('foo', 10));
    q.replace([o('foo', 15)]);
    expect(newestVal(pop(q))).toBe(15);
    expect(pop(q)).toBeUndefined();
  });

  const three = () => known(o('foo', 5), o('bar', 6), o('baz', 7));
  it.each<[string, boolean, (q: FifoQueue<Obj>) => void, Delta<Obj>[][]]>([
    [
      'with a queued Delete',
      false,
      (q) => {
        q.delete(o('baz', 10));
        q.replace([o('foo', 5)]);
      },
      [[d('Deleted', o('baz', 10))], [d('Sync', o('foo', 5))], [d('Deleted', dfsu('bar', o('bar', 6)))]],
    ],
    [
      'with a queued Add',
      false,
      (q) => {
        q.add(o('baz', 10));
        q.replace([o('foo', 5)]);
      },
      [
        [d('Added', o('baz', 10)), d('Deleted', dfsu('baz', o('baz', 10)))],
        [d('Sync', o('foo', 5))],
        [d('Deleted', dfsu('bar', o('bar', 6)))],
      ],
    ],
    [
      'with a delete and re-create queued',
      false,
      (q) => {
        q.delete(o('bar', 6));
        q.add(o('bar', 100));
        q.replace([o('foo', 5)]);
      },
      [
        [d('Deleted', o('bar', 6)), d('Added', o('bar', 100)), d('Deleted', dfsu('bar', o('bar', 100)))],
        [d('Sync', o('foo', 5))],
        [d('Deleted', dfsu('baz', o('baz', 7)))],
      ],
    ],
    [
      'after a first Replace, the tombstone carries the newest object',
      false,
      (q) => {
        q.replace([o('bar', 100), o('foo', 5)]);
        q.replace([o('foo', 5)]);
      },
      [
        [d('Sync', o('bar', 100)), d('Deleted', dfsu('bar', o('bar', 100)))],
        [d('Sync', o('foo', 5)), d('Sync', o('foo', 5))],
        [d('Deleted', dfsu('baz', o('baz', 7)))],
      ],
    ],
    [
      'emitting Replaced (TestDeltaFIFO_ReplaceMakesDeletionsReplaced)',
      true,
      (q) => {
        q.delete(o('baz', 10));
        q.replace([o('foo', 6)]);
      },
      [[d('Deleted', o('baz', 10))], [d('Replaced', o('foo', 6))], [d('Deleted', dfsu('bar', o('bar', 6)))]],
    ],
  ])('Replace makes deletions %s (TestDeltaFIFO_ReplaceMakesDeletions)', (_name, replaced, act, want) => {
    const q = fifo('delta', { knownObjects: three(), emitDeltaTypeReplaced: replaced });
    act(q);
    expect(popAll(q)).toEqual(want);
  });

  it('Replace makes deletions for queued keys without a lister', () => {
    const q = fifo('delta');
    q.add(o('baz', 10));
    q.replace([o('foo', 5)]);
    expect(popAll(q)).toEqual([
      [d('Added', o('baz', 10)), d('Deleted', dfsu('baz', o('baz', 10)))],
      [d('Sync', o('foo', 5))],
    ]);
  });

  it('emits Replaced when asked (TestDeltaFIFO_ReplaceDeltaType)', () => {
    const q = fifo('delta', { knownObjects: known(o('foo', 5)), emitDeltaTypeReplaced: true });
    q.replace([o('foo', 5)]);
    expect(popAll(q)).toEqual([[d('Replaced', o('foo', 5))]]);
  });

  it('a key keeps its place in line until popped (TestDeltaFIFO_detectLineJumpers)', () => {
    const q = fifo('delta');
    q.add(o('foo', 10));
    q.add(o('bar', 1));
    q.add(o('foo', 11));
    q.add(o('foo', 13));
    q.add(o('zab', 30));
    expect(newestVal(pop(q))).toBe(13);
    q.add(o('foo', 14));
    expect([pop(q), pop(q), pop(q)].map(newestVal)).toEqual([1, 30, 14]);
  });

  it.each<[string, Delta<Obj>[], Delta<Obj>[]]>([
    [
      'real then real: the older wins',
      [d('Deleted', o('a', 1)), d('Deleted', o('a', 2))],
      [d('Deleted', o('a', 1))],
    ],
    [
      'tombstone then real: the real one wins',
      [d('Deleted', dfsu('a', o('a', 1))), d('Deleted', o('a', 2))],
      [d('Deleted', o('a', 2))],
    ],
    [
      'real then tombstone: the real one wins',
      [d('Deleted', o('a', 1)), d('Deleted', dfsu('a', o('a', 2)))],
      [d('Deleted', o('a', 1))],
    ],
    [
      'tombstone then tombstone: the newer wins',
      [d('Deleted', dfsu('a', o('a', 1))), d('Deleted', dfsu('a', undefined))],
      [d('Deleted', dfsu('a', undefined))],
    ],
    [
      'nothing else merges',
      [d('Sync', o('a', 1)), d('Sync', o('a', 1)), d('Updated', o('a', 2))],
      [d('Sync', o('a', 1)), d('Sync', o('a', 1)), d('Updated', o('a', 2))],
    ],
  ])('dedups consecutive deletes: %s', (_name, input, want) => {
    const q = fifo('delta', { knownObjects: known(o('a', 0)) });
    for (const delta of input) {
      if (delta.type === 'Deleted') q.delete(delta.object);
      else if (delta.type === 'Sync') q.replace([delta.object as Obj]);
      else q.update(delta.object as Obj);
    }
    expect(pop(q)).toEqual(want);
  });
});

describe('FifoQueue (real): RealFIFO semantics', () => {
  const pendingDeltas = (q: FifoQueue<Obj>) => q.pending().flatMap((i) => i.deltas);

  it('queues a Replaced after a queued Delete of the same key (TestRealFIFO_replaceWithDeleteDeltaIn)', () => {
    const q = fifo('real', { knownObjects: known(o('foo', 1)) });
    q.delete(o('foo', 1));
    q.replace([o('foo', 2)]);
    expect(pendingDeltas(q)).toEqual([d('Deleted', o('foo', 1)), d('Replaced', o('foo', 2))]);
  });

  const obj = o('foo', 2);
  const objV2 = o('foo', 3);
  it.each<[string, (q: FifoQueue<Obj>) => void, Delta<Obj>[]]>([
    [
      'an added object is deleted on Replace',
      (q) => {
        q.add(obj);
        q.replace([]);
      },
      [d('Added', obj), d('Deleted', dfsu('foo', obj))],
    ],
    [
      'a deleted object gets a single delete',
      (q) => {
        q.add(obj);
        q.delete(obj);
        q.replace([]);
      },
      [d('Added', obj), d('Deleted', obj)],
    ],
    [
      'replaced objects get a single delete',
      (q) => {
        q.add(obj);
        q.replace([obj]);
        q.replace([obj]);
        q.replace([]);
      },
      [d('Added', obj), d('Replaced', obj), d('Replaced', obj), d('Deleted', dfsu('foo', obj))],
    ],
    [
      'an added object gets a single delete over several Replaces',
      (q) => {
        q.add(obj);
        q.replace([]);
        q.replace([]);
      },
      [d('Added', obj), d('Deleted', dfsu('foo', obj))],
    ],
    [
      'added, deleted and re-added object is deleted with its newest state',
      (q) => {
        q.add(obj);
        q.delete(obj);
        q.add(objV2);
        q.replace([]);
      },
      [d('Added', obj), d('Deleted', obj), d('Added', objV2), d('Deleted', dfsu('foo', objV2))],
    ],
  ])('%s (TestRealFIFOW_ReplaceMakesDeletionsForObjectsOnlyInQueue)', (_name, act, want) => {
    const q = fifo('real', { knownObjects: known() });
    act(q);
    expect(popAll(q).flat()).toEqual(want);
    expect(q.length).toBe(0);
  });

  it('keeps every notification, one per item (TestRealFIFO_addUpdate)', () => {
    const q = fifo('real', { knownObjects: known() });
    q.add(o('foo', 10));
    q.update(o('foo', 12));
    q.delete(o('foo', 15));
    expect(pendingDeltas(q)).toEqual([
      d('Added', o('foo', 10)),
      d('Updated', o('foo', 12)),
      d('Deleted', o('foo', 15)),
    ]);
    expect(popAll(q).map(newestVal)).toEqual([10, 12, 15]);
  });

  it('queues every delete, known or not (TestRealFIFO_enqueueingNoLister)', () => {
    const q = fifo('real', { knownObjects: known() });
    q.add(o('foo', 10));
    q.update(o('bar', 15));
    q.add(o('qux', 17));
    q.delete(o('qux', 18));
    q.delete(o('baz', 20));
    expect(popAll(q).map(newestVal)).toEqual([10, 15, 17, 18, 20]);
  });

  it('delivers both the add and the replace (TestRealFIFO_addReplace)', () => {
    const q = fifo('real', { knownObjects: known() });
    q.add(o('foo', 10));
    q.replace([o('foo', 15)]);
    expect(popAll(q).map(newestVal)).toEqual([10, 15]);
  });

  it('keeps all events in the transformer case, tombstones carrying the last queued state (TestRealFIFO_transformer)', () => {
    const q = fifo('real', { knownObjects: known() });
    q.add(o('foo', 10));
    q.add(o('bar', 11));
    q.update(o('foo', 12));
    q.delete(o('foo', 15));
    q.replace([]);
    q.add(o('bar', 16));
    q.replace([]);
    expect(pendingDeltas(q)).toEqual([
      d('Added', o('foo', 10)),
      d('Added', o('bar', 11)),
      d('Updated', o('foo', 12)),
      d('Deleted', o('foo', 15)),
      d('Deleted', dfsu('bar', o('bar', 11))),
      d('Added', o('bar', 16)),
      d('Deleted', dfsu('bar', o('bar', 16))),
    ]);
  });

  const three = () => known(o('foo', 5), o('bar', 6), o('baz', 7));
  it.each<[string, (q: FifoQueue<Obj>) => void, Delta<Obj>[]]>([
    [
      'with a queued Delete: known deletions come before the new items',
      (q) => {
        q.delete(o('baz', 10));
        q.replace([o('foo', 5)]);
      },
      [d('Deleted', o('baz', 10)), d('Deleted', dfsu('bar', o('bar', 6))), d('Replaced', o('foo', 5))],
    ],
    [
      'with a queued Add',
      (q) => {
        q.add(o('baz', 10));
        q.replace([o('foo', 5)]);
      },
      [
        d('Added', o('baz', 10)),
        d('Deleted', dfsu('baz', o('baz', 10))),
        d('Deleted', dfsu('bar', o('bar', 6))),
        d('Replaced', o('foo', 5)),
      ],
    ],
    [
      'with a delete and re-create queued',
      (q) => {
        q.delete(o('bar', 6));
        q.add(o('bar', 100));
        q.replace([o('foo', 5)]);
      },
      [
        d('Deleted', o('bar', 6)),
        d('Added', o('bar', 100)),
        d('Deleted', dfsu('bar', o('bar', 100))),
        d('Deleted', dfsu('baz', o('baz', 7))),
        d('Replaced', o('foo', 5)),
      ],
    ],
    [
      'after a first Replace, in global order',
      (q) => {
        q.replace([o('bar', 100), o('foo', 5)]);
        q.replace([o('foo', 5)]);
      },
      [
        d('Deleted', dfsu('baz', o('baz', 7))),
        d('Replaced', o('bar', 100)),
        d('Replaced', o('foo', 5)),
        d('Deleted', dfsu('bar', o('bar', 100))),
        d('Replaced', o('foo', 5)),
      ],
    ],
  ])('Replace makes deletions %s (TestRealFIFO_ReplaceMakesDeletions)', (_name, act, want) => {
    const q = fifo('real', { knownObjects: three() });
    act(q);
    expect(popAll(q).flat()).toEqual(want);
  });

  it('emits Sync on Replace when Replaced is turned off', () => {
    const q = fifo('real', { knownObjects: known(), emitDeltaTypeReplaced: false });
    q.replace([o('a', 1)]);
    expect(popAll(q)).toEqual([[d('Sync', o('a', 1))]]);
  });

  it('delivers every event in order (TestRealFIFO_detectLineJumpers)', () => {
    const q = fifo('real', { knownObjects: known() });
    q.add(o('foo', 10));
    q.add(o('bar', 1));
    q.add(o('foo', 11));
    q.add(o('foo', 13));
    q.add(o('zab', 30));
    expect(newestVal(pop(q))).toBe(10);
    q.add(o('foo', 14));
    expect(popAll(q).map(newestVal)).toEqual([1, 11, 13, 30, 14]);
  });
});

describe.each<FifoMode>(['delta', 'real'])('FifoQueue (%s): concurrent consumers', (mode) => {
  it('never hands out a key in flight; other keys go ahead, the key resumes after done', () => {
    const q = fifo(mode);
    q.add(o('a', 1));
    q.add(o('b', 1));
    const first = q.pop()!;
    expect(first.item.key).toBe('a');
    q.update(o('a', 2));
    expect(q.pop()!.item.key).toBe('b');
    expect(q.pop()).toBeUndefined();
    expect(q.canPop).toBe(false);
    q.done('a');
    expect(q.pop()!.item.deltas).toEqual([d('Updated', o('a', 2))]);
  });

  it('tombstones an in-flight key that a Replace no longer lists, with its in-flight object', () => {
    const q = fifo(mode, { knownObjects: known() });
    q.add(o('a', 1));
    const p = q.pop()!;
    q.replace([]);
    q.done(p.item.key);
    expect(popAll(q).flat()).toEqual([d('Deleted', dfsu('a', o('a', 1)))]);
  });

  it('does not tombstone an in-flight key whose newest delta is a delete', () => {
    const q = fifo(mode, { knownObjects: known(o('a', 1)) });
    q.delete(o('a', 1));
    const p = q.pop()!;
    q.replace([]);
    q.done(p.item.key);
    expect(popAll(q)).toEqual([]);
  });

  it('queues the delete of a key whose add is in flight', () => {
    const q = fifo(mode, { knownObjects: known() });
    q.add(o('a', 1));
    const p = q.pop()!;
    q.delete(o('a', 2));
    q.done(p.item.key);
    expect(popAll(q)).toEqual([[d('Deleted', o('a', 2))]]);
  });

  it('resyncs an in-flight key with the object being processed', () => {
    const q = fifo(mode, { knownObjects: known(o('a', 5)) });
    q.update(o('a', 6));
    const p = q.pop()!;
    q.resync();
    q.done(p.item.key);
    expect(popAll(q)).toEqual([[d('Sync', o('a', 6))]]);
  });

  it('is synced only when the last initial item is done; later items are not initial', () => {
    const q = fifo(mode, { knownObjects: known() });
    q.replace([o('a', 1), o('b', 1)]);
    const a = q.pop()!;
    const b = q.pop()!;
    expect([a.isInInitialList, b.isInInitialList]).toEqual([true, true]);
    q.add(o('c', 1));
    const c = q.pop()!;
    expect(c.isInInitialList).toBe(false);
    q.done('c');
    q.done('a');
    expect(q.hasSynced).toBe(false);
    expect(q.takeSynced()).toBe(false);
    q.done('b');
    expect(q.hasSynced).toBe(true);
    expect(q.takeSynced()).toBe(true);
    expect(q.takeSynced()).toBe(false);
  });
});

describe.each<FifoMode>(['delta', 'real'])('FifoQueue (%s): compaction', (mode) => {
  it('keeps one delta per key, the newest, in the key’s original place', () => {
    const q = fifo(mode, { compact: true });
    q.add(o('a', 1));
    q.add(o('b', 1));
    for (let i = 2; i <= 100; i++) q.update(o('a', i));
    expect(q.queuedKeys).toBe(2);
    expect(q.length).toBe(2);
    expect(popAll(q)).toEqual([[d('Updated', o('a', 100))], [d('Added', o('b', 1))]]);
  });

  it('keeps a real final state over a later tombstone', () => {
    const q = fifo(mode, { compact: true, knownObjects: known(o('a', 0)) });
    q.delete(o('a', 1));
    q.replace([]);
    expect(popAll(q)).toEqual([[d('Deleted', o('a', 1))]]);
  });

  it('still syncs when later deltas fold into initial entries', () => {
    const q = fifo(mode, { compact: true, knownObjects: known() });
    q.replace([o('a', 1), o('b', 1)]);
    q.update(o('a', 2));
    q.update(o('b', 2));
    expect(popAll(q).map(newestVal)).toEqual([2, 2]);
    expect(q.hasSynced).toBe(true);
  });
});
