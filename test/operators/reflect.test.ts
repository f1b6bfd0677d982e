// Tests for reflect and applyDeltas: client-go's processDeltas rules, the five marble questions, the cell.
import { from, of, take } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { createIndexedStore, IndexFuncError } from '../../operators/indexed-store.ts';
import { applyDeltas, reflect, type StoreChange, type StoreUpdate } from '../../operators/reflect.ts';
import { createStoreCell } from '../../operators/store-cell.ts';
import { DeletedFinalStateUnknown, type Delta, type KubeObject } from '../../operators/types.ts';

const o = (name: string, v = 0): KubeObject => ({ metadata: { name, resourceVersion: String(v) } });
const d = (type: Delta['type'], object: KubeObject | DeletedFinalStateUnknown): Delta => ({ type, object });
const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const summary = (u: StoreUpdate) => ({
  keys: u.store.listKeys().sort(),
  changes: u.changes.map((c) => c.type),
});

describe('applyDeltas (processDeltas)', () => {
  it.each<[string, KubeObject[], Delta[], string[], StoreChange['type'][]]>([
    ['Added for a new key adds', [], [d('Added', o('a'))], ['a'], ['Added']],
    ['Added for a stored key updates', [o('a')], [d('Added', o('a', 1))], ['a'], ['Updated']],
    ['Updated for a new key adds', [], [d('Updated', o('a'))], ['a'], ['Added']],
    [
      'Sync and Replaced update a stored key',
      [o('a')],
      [d('Sync', o('a')), d('Replaced', o('a', 2))],
      ['a'],
      ['Updated', 'Updated'],
    ],
    ['Replaced for a new key adds', [], [d('Replaced', o('a'))], ['a'], ['Added']],
    ['Deleted removes', [o('a'), o('b')], [d('Deleted', o('a'))], ['b'], ['Deleted']],
    [
      'a tombstone removes by its key',
      [o('a')],
      [d('Deleted', new DeletedFinalStateUnknown('a', undefined))],
      [],
      ['Deleted'],
    ],
    ['Deleted of an unknown key still reports a delete', [], [d('Deleted', o('zz'))], [], ['Deleted']],
    [
      'add, update, delete in one item',
      [],
      [d('Added', o('a')), d('Updated', o('a', 1)), d('Deleted', o('a', 1))],
      [],
      ['Added', 'Updated', 'Deleted'],
    ],
  ])('%s', (_name, initial, deltas, keys, changes) => {
    const before = createIndexedStore().replace(initial);
    const update = applyDeltas(before, deltas);
    expect(summary(update)).toEqual({ keys, changes });
    expect(before.listKeys().sort()).toEqual(initial.map((x) => x.metadata!.name).sort());
  });

  it('reports old and new objects on update, and the stored object on delete', () => {
    const store = createIndexedStore().add(o('a', 1));
    const { changes } = applyDeltas(store, [
      d('Updated', o('a', 2)),
      d('Deleted', new DeletedFinalStateUnknown('a', o('a', 1))),
    ]);
    expect(changes).toEqual([
      { type: 'Updated', oldObject: o('a', 1), object: o('a', 2), deltaType: 'Updated' },
      { type: 'Deleted', object: new DeletedFinalStateUnknown('a', o('a', 1)), oldObject: o('a', 2) },
    ]);
  });
});

describe('reflect', () => {
  const a = [d('Added', o('x'))];
  const u = [d('Updated', o('x', 1))];
  const del = [d('Deleted', o('x', 1))];

  it('values: applies each item and emits the snapshot with its changes (the documented diagram)', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const out = cold('a-u-d|', { a, u, d: del }).pipe(reflect());
      expectObservable(out.pipe(take(10))).toBe('A-U-D|', {
        A: expect.objectContaining({ changes: [{ type: 'Added', object: o('x'), deltaType: 'Added' }] }),
        U: expect.objectContaining({
          changes: [{ type: 'Updated', oldObject: o('x'), object: o('x', 1), deltaType: 'Updated' }],
        }),
        D: expect.objectContaining({
          changes: [{ type: 'Deleted', object: o('x', 1), oldObject: o('x', 1) }],
        }),
      });
    });
  });

  it('error: passes a source error through', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<Delta[]>('a#', { a }).pipe(reflect())).toBe('A#', { A: expect.anything() });
    });
  });

  it('empty: completes', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<Delta[]>('|').pipe(reflect())).toBe('|');
    });
  });

  it('early unsubscribe: unsubscribes from the source', () => {
    scheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot<Delta[]>('-a-u-d-', { a, u, d: del });
      expectObservable(source.pipe(reflect()), '^--!').toBe('-A-', { A: expect.anything() });
      expectSubscriptions(source.subscriptions).toBe('^--!');
    });
  });

  it('synchronous source then take: stops pulling', () => {
    let pulled = 0;
    function* items() {
      for (const name of ['a', 'b', 'c']) {
        pulled++;
        yield [d('Added', o(name))];
      }
    }
    const sizes: number[] = [];
    from(items())
      .pipe(reflect(), take(2))
      .subscribe((x) => sizes.push(x.store.size));
    expect(sizes).toEqual([1, 2]);
    expect(pulled).toBe(2);
  });

  it('writes through a cell shared across per-item subscriptions', () => {
    const cell = createStoreCell({ indexers: { byRv: (x) => [x.metadata?.resourceVersion ?? ''] } });
    of({ key: 'x', deltas: a }).pipe(reflect(cell)).subscribe();
    of({ key: 'y', deltas: [d('Added', o('y', 1))] })
      .pipe(reflect(cell))
      .subscribe();
    expect(cell.current.listKeys().sort()).toEqual(['x', 'y']);
    expect(cell.current.indexKeys('byRv', '1')).toEqual(['y']);
    expect(cell.getByKey('x')).toEqual(o('x'));
  });

  it('without a cell, each subscription starts from an empty store', () => {
    const op = of(a).pipe(reflect());
    const sizes: number[] = [];
    op.subscribe((x) => sizes.push(x.store.size));
    op.subscribe((x) => sizes.push(x.store.size));
    expect(sizes).toEqual([1, 1]);
  });

  it('a throwing index function errors the stream and leaves the cell at the last good snapshot', () => {
    const cell = createStoreCell({
      indexers: {
        bad: (x) => {
          if (x.metadata?.name === 'boom') throw new Error('nope');
          return [];
        },
      },
    });
    let error: unknown;
    of(a, [d('Added', o('boom'))])
      .pipe(reflect(cell))
      .subscribe({ error: (e) => (error = e) });
    expect(error).toBeInstanceOf(IndexFuncError);
    expect(cell.current.listKeys()).toEqual(['x']);
  });
});
