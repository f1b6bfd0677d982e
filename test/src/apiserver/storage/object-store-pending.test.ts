// The store under a journal that confirms later (etcd): pending commits, confirmation, rollback, remote changes.
import { describe, expect, it } from 'vitest';
import { type JournalRecord, ObjectStore } from '../../../../src/apiserver/object-store.ts';

const obj = (name: string, v: number) => ({ metadata: { name }, data: { v: String(v) } });

function deferredStore() {
  const records: JournalRecord[] = [];
  const store = new ObjectStore({ journal: { confirmsLater: true, append: (r) => records.push(r) } });
  const seen: string[] = [];
  store.subscribe((e) => seen.push(`${e.type} ${e.key} ${e.rv}`));
  return { store, records, seen };
}

describe('ObjectStore with a journal that confirms later', () => {
  it('shows a pending commit to reads but not to watchers, the history or currentRv', () => {
    const { store, records, seen } = deferredStore();
    const e = store.commit('cm', 'a', 'ADDED', obj('a', 1));
    expect(e.rv).toBe(1);
    expect(records.map((r) => r.rv)).toEqual([1]);
    expect(store.get('cm', 'a')?.rv).toBe(1);
    expect(store.hasPending).toBe(true);
    expect(store.currentRv).toBe(0);
    expect(seen).toEqual([]);
    expect(store.eventsAfter(0)).toEqual([]);
  });

  it('confirms pending commits in order: they enter the history and reach watchers', () => {
    const { store, seen } = deferredStore();
    store.commit('cm', 'a', 'ADDED', obj('a', 1));
    store.commit('cm', 'a', 'MODIFIED', obj('a', 2));
    expect(() => store.confirmNext(0)).toThrow(/oldest pending is 1/);
    store.confirmNext(1);
    expect(store.currentRv).toBe(1);
    store.confirmNext(2);
    expect(seen).toEqual(['ADDED a 1', 'MODIFIED a 2']);
    expect(store.eventsAfter(0).map((e) => e.rv)).toEqual([1, 2]);
    expect(store.hasPending).toBe(false);
  });

  it('renumbers a commit the journal stored at a later rv: its object, the maps, later prevs, later commits', () => {
    const { store, seen } = deferredStore();
    store.commit('cm', 'a', 'ADDED', obj('a', 1)); // predicted 1
    const second = store.commit('cm', 'a', 'MODIFIED', obj('a', 2)); // predicted 2, prev: the one at 1
    expect(second.prev?.rv).toBe(1);
    const first = store.confirmNext(5);
    expect([first.rv, first.object.metadata?.resourceVersion]).toEqual([5, '5']);
    expect(first.json).toBe(JSON.stringify(first.object));
    const confirmed = store.confirmNext(6);
    expect([confirmed.rv, confirmed.prev?.rv, confirmed.prev?.object.metadata?.resourceVersion]).toEqual([
      6,
      5,
      '5',
    ]);
    expect(store.get('cm', 'a')?.object.metadata?.resourceVersion).toBe('6');
    expect(store.commit('cm', 'b', 'ADDED', obj('b', 1)).rv).toBe(7);
    expect(seen).toEqual(['ADDED a 5', 'MODIFIED a 6']);
    expect(store.snapshotAt('cm', 5).get('a')?.rv).toBe(5);
  });

  it('rolls pending commits back to the confirmed state, newest first, and reuses their rvs', () => {
    const { store, seen } = deferredStore();
    store.commit('cm', 'a', 'ADDED', obj('a', 1));
    store.confirmNext(1);
    store.commit('cm', 'a', 'MODIFIED', obj('a', 2));
    store.commit('cm', 'b', 'ADDED', obj('b', 1));
    store.commit('cm', 'a', 'DELETED', obj('a', 2));
    expect(store.rollbackPending().map((e) => e.rv)).toEqual([2, 3, 4]);
    expect(store.get('cm', 'a')?.object.data).toEqual({ v: '1' });
    expect(store.get('cm', 'b')).toBeUndefined();
    expect(store.commit('cm', 'c', 'ADDED', obj('c', 1)).rv).toBe(2);
    expect(seen).toEqual(['ADDED a 1']);
  });

  it('applies another writer’s change at its own rv, gaps allowed, and refuses one while commits are pending', () => {
    const { store, seen } = deferredStore();
    const remote = { ...obj('r', 1), metadata: { name: 'r', resourceVersion: '7' } };
    store.applyRemote('cm', 'r', 'ADDED', remote, 7);
    expect(store.currentRv).toBe(7);
    expect(store.commit('cm', 'a', 'ADDED', obj('a', 1)).rv).toBe(8);
    expect(() => store.applyRemote('cm', 'x', 'ADDED', remote, 9)).toThrow(/roll them back/);
    store.rollbackPending();
    expect(() => store.applyRemote('cm', 'x', 'ADDED', remote, 6)).toThrow(/not after 7/);
    expect(seen).toEqual(['ADDED r 7']);
    expect(store.eventsAfter(0).map((e) => e.rv)).toEqual([7]);
  });

  it('loads objects outside the history: a watch can start at the loaded rv, not before', () => {
    const store = new ObjectStore();
    store.load('cm', 'a', 5, JSON.stringify({ metadata: { name: 'a', resourceVersion: '5' } }));
    store.loaded(9);
    expect(store.get('cm', 'a')?.object.metadata?.name).toBe('a');
    expect(store.currentRv).toBe(9);
    expect(store.eventsAfter(9)).toEqual([]);
    expect(() => store.eventsAfter(8)).toThrow(/too old resource version: 8 \(9\)/);
    expect(store.commit('cm', 'b', 'ADDED', obj('b', 1)).rv).toBe(10);
  });

  it('stamps a loaded object written without its resourceVersion when it is first used', () => {
    const store = new ObjectStore();
    store.load('cm', 'x', 12, JSON.stringify({ metadata: { name: 'x' }, data: { k: 'v' } }), false);
    store.loaded(12);
    const stored = store.get('cm', 'x')!;
    expect(JSON.parse(stored.json)).toEqual({
      metadata: { name: 'x', resourceVersion: '12' },
      data: { k: 'v' },
    });
    expect(stored.object.metadata?.resourceVersion).toBe('12');
    expect(stored.rv).toBe(12);
  });
});
