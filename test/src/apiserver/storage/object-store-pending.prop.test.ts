// Property: confirming some pending commits and rolling back the rest leaves exactly the confirmed ones' state.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ObjectStore } from '../../../../src/apiserver/object-store.ts';

type Op = { key: string; type: 'put' | 'delete'; v: number };
const ops = fc.array(
  fc.record({ key: fc.constantFrom('a', 'b', 'c'), type: fc.constantFrom('put', 'delete'), v: fc.nat(99) }),
  { maxLength: 30 },
) as fc.Arbitrary<Op[]>;

function run(store: ObjectStore, list: Op[]): void {
  for (const op of list) {
    const exists = store.get('cm', op.key) !== undefined;
    if (op.type === 'delete') {
      if (exists) store.commit('cm', op.key, 'DELETED', store.get('cm', op.key)!.object);
    } else
      store.commit('cm', op.key, exists ? 'MODIFIED' : 'ADDED', {
        metadata: { name: op.key },
        data: { v: String(op.v) },
      });
  }
}

const state = (s: ObjectStore) => Object.fromEntries([...s.current('cm')].map(([k, v]) => [k, v.json]));

describe('ObjectStore pending commits', () => {
  it('confirm k, roll back the rest: state, history and watchers equal a plain store given the first k', () => {
    fc.assert(
      fc.property(ops, ops, (confirmedOps, doomedOps) => {
        const plain = new ObjectStore();
        run(plain, confirmedOps);
        const deferred = new ObjectStore({ journal: { confirmsLater: true, append: () => {} } });
        const seen: number[] = [];
        deferred.subscribe((e) => seen.push(e.rv));
        run(deferred, confirmedOps);
        const confirmedCount = plain.currentRv;
        for (let rv = 1; rv <= confirmedCount; rv++) deferred.confirmNext(rv);
        run(deferred, doomedOps);
        deferred.rollbackPending();
        expect(state(deferred)).toEqual(state(plain));
        expect(deferred.currentRv).toBe(plain.currentRv);
        expect(seen).toEqual(plain.eventsAfter(0).map((e) => e.rv));
        expect(deferred.eventsAfter(0).map((e) => e.json)).toEqual(plain.eventsAfter(0).map((e) => e.json));
      }),
    );
  });
});
