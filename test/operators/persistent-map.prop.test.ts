// Model-based property test: the persistent hash trie behaves like a Map and never changes old versions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PersistentMap } from '../../operators/persistent-map.ts';

type Op = { kind: 'set'; key: string; value: number } | { kind: 'delete'; key: string };

// few distinct keys so that sets and deletes collide; some long and some similar keys
const key = fc.oneof(
  fc.integer({ min: 0, max: 400 }).map((i) => `ns-${i % 7}/pod-${i}`),
  fc.string({ maxLength: 3 }),
);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), key, value: fc.integer() }),
  fc.record({ kind: fc.constant('delete' as const), key }),
);

function sorted<V>(entries: Iterable<[string, V]>): [string, V][] {
  return [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

describe('PersistentMap', () => {
  it('agrees with a Map after any sequence of sets and deletes, and old versions stay intact', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        let map = PersistentMap.empty<number>();
        const model = new Map<string, number>();
        const versions: [PersistentMap<number>, [string, number][]][] = [];
        for (const o of ops) {
          if (o.kind === 'set') {
            map = map.set(o.key, o.value);
            model.set(o.key, o.value);
          } else {
            map = map.delete(o.key);
            model.delete(o.key);
          }
          if (versions.length < 20) versions.push([map, sorted(model)]);
        }
        expect(map.size).toBe(model.size);
        for (const [k, v] of model) {
          expect(map.get(k)).toBe(v);
          expect(map.has(k)).toBe(true);
        }
        expect(sorted(map.entries())).toEqual(sorted(model));
        expect(map.keysArray().length).toBe(model.size);
        for (const [old, snapshot] of versions) expect(sorted(old)).toEqual(snapshot);
      }),
      { numRuns: 150 },
    );
  });

  it('fromEntries equals successive sets (later duplicates win)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.integer()), { maxLength: 500 }), (entries) => {
        const built = PersistentMap.fromEntries(entries);
        const model = new Map(entries);
        expect(built.size).toBe(model.size);
        expect(sorted(built)).toEqual(sorted(model));
        // and the bulk-built map is persistent afterwards
        const first = entries[0];
        if (first) {
          const changed = built.set(first[0], 12345).delete('absent-key');
          expect(built.get(first[0])).toBe(model.get(first[0]));
          expect(changed.get(first[0])).toBe(12345);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('returns itself for no-op writes', () => {
    const m = PersistentMap.fromEntries([['a', 1]]);
    expect(m.set('a', 1)).toBe(m);
    expect(m.delete('b')).toBe(m);
    expect(PersistentMap.empty().delete('x')).toBe(PersistentMap.empty());
    expect(m.delete('a').size).toBe(0);
  });

  it('handles many keys (branches several levels deep)', () => {
    const n = 20000;
    let m = PersistentMap.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i] as const));
    expect(m.size).toBe(n);
    for (let i = 0; i < n; i += 2) m = m.delete(`k${i}`);
    expect(m.size).toBe(n / 2);
    expect(m.get('k1')).toBe(1);
    expect(m.get('k2')).toBeUndefined();
    let sum = 0;
    m.forEach((v) => {
      sum += v;
    });
    expect(sum).toBe((n / 2) * (n / 2)); // sum of the odd numbers below n
  });
});

describe('PersistentMap.fromArrays', () => {
  it('equals fromEntries over the zipped arrays', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.integer()), { maxLength: 300 }), (entries) => {
        const a = PersistentMap.fromArrays(
          entries.map(([k]) => k),
          entries.map(([, v]) => v),
        );
        expect(sorted(a)).toEqual(sorted(PersistentMap.fromEntries(entries)));
        expect(a.size).toBe(new Map(entries).size);
      }),
      { numRuns: 100 },
    );
  });
});
