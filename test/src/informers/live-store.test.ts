// LiveStore: per-event writes to a map, snapshots built on read that always equal it, and a throwing index function contained.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createIndexedStore } from '../../../operators/indexed-store.ts';
import { silentLogger } from '../../../operators/logger.ts';
import { DeletedFinalStateUnknown, type KubeObject } from '../../../operators/types.ts';
import { LiveStore } from '../../../src/informers/live-store.ts';

const obj = (name: string, rv: number, ns = 'n'): KubeObject => ({
  metadata: { name, namespace: ns, resourceVersion: String(rv) },
});

describe('LiveStore', () => {
  it('snapshots always equal the written state, whether read after every write or rarely (property)', () => {
    const write = fc.record({
      name: fc.constantFrom('a', 'b', 'c', 'd'),
      ns: fc.constantFrom('x', 'y'),
      del: fc.boolean(),
      read: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(write, { maxLength: 400 }), (writes) => {
        const live = new LiveStore(createIndexedStore(), silentLogger);
        const model = new Map<string, KubeObject>();
        let rv = 0;
        for (const w of writes) {
          const o = obj(w.name, ++rv, w.ns);
          if (w.del) {
            live.delete(o);
            model.delete(`${w.ns}/${w.name}`);
          } else {
            live.update(o);
            model.set(`${w.ns}/${w.name}`, o);
          }
          if (w.read) {
            const snap = live.snapshot();
            expect(new Map(snap.listKeys().map((k) => [k, snap.getByKey(k)]))).toEqual(model);
          }
        }
        const snap = live.snapshot();
        expect(new Map(snap.listKeys().map((k) => [k, snap.getByKey(k)]))).toEqual(model);
        expect(snap.byIndex('namespace', 'x').length).toBe(
          [...model.keys()].filter((k) => k.startsWith('x/')).length,
        );
        expect(live.size).toBe(model.size);
      }),
      { numRuns: 150 },
    );
  });

  it('hands out the same snapshot until the next write, and never changes one handed out', () => {
    const live = new LiveStore(createIndexedStore(), silentLogger);
    live.update(obj('a', 1));
    const first = live.snapshot();
    expect(live.snapshot()).toBe(first);
    live.update(obj('a', 2));
    live.delete(new DeletedFinalStateUnknown('n/b', undefined));
    const second = live.snapshot();
    expect(second).not.toBe(first);
    expect(first.getByKey('n/a')?.metadata?.resourceVersion).toBe('1');
    expect(second.getByKey('n/a')?.metadata?.resourceVersion).toBe('2');
    expect(Object.isFrozen(second.getByKey('n/a'))).toBe(true);
  });

  it('drops an object whose index function throws, logging it, and keeps map and snapshot equal', () => {
    const errors: string[] = [];
    const logger = {
      ...silentLogger,
      error: (f: unknown, m?: string) => void errors.push(`${(f as { key: string }).key}: ${m}`),
      child: () => logger,
    };
    const store = createIndexedStore({
      indexers: {
        picky: (o) => {
          if (o.metadata?.name === 'bad') throw new Error('no');
          return [o.metadata?.name ?? ''];
        },
      },
    });
    const live = new LiveStore(store, logger as never);
    for (let i = 0; i < 100; i++) live.update(obj(`p${i}`, i));
    live.update(obj('bad', 200));
    expect(live.snapshot().size).toBe(100);
    expect(live.getByKey('n/bad')).toBeUndefined();
    live.update(obj('bad', 201));
    expect(live.snapshot().size).toBe(100);
    expect(errors).toEqual([
      'n/bad: indexing failed; dropping the object from the cache',
      'n/bad: indexing failed; dropping the object from the cache',
    ]);
  });

  it('adds indexers over what is cached, and clear() keeps them', () => {
    const live = new LiveStore(createIndexedStore(), silentLogger);
    live.update(obj('a', 1));
    live.addIndexers({ byName: (o) => [o.metadata?.name ?? ''] });
    expect(live.snapshot().indexKeys('byName', 'a')).toEqual(['n/a']);
    live.clear();
    expect(live.size).toBe(0);
    expect(live.snapshot().size).toBe(0);
    expect(Object.keys(live.snapshot().getIndexers()).sort()).toEqual(['byName', 'namespace']);
  });
});
