// Tests for the indexed store: cases from client-go's store_test, index_test and thread_safe_store_test.
import { describe, expect, it } from 'vitest';
import { InvalidConfigError, KeyError } from '../../operators/errors.ts';
import {
  createIndexedStore,
  type IndexedStore,
  IndexFuncError,
  NAMESPACE_INDEX,
  UnknownIndexError,
} from '../../operators/indexed-store.ts';
import { DeletedFinalStateUnknown, type KubeObject } from '../../operators/types.ts';

interface Obj extends KubeObject {
  val: string;
}
/** client-go's testStoreObject: key `id`, indexed `by_val` on `val`. */
const mk = (id: string, val: string, ns?: string): Obj => ({
  metadata: { name: id, ...(ns ? { namespace: ns } : {}) },
  val,
});
const byVal = { by_val: (o: Obj) => [o.val] };
const vals = (objs: Obj[]) => objs.map((o) => o.val).sort();
const names = (objs: KubeObject[]) => objs.map((o) => o.metadata?.name).sort();

describe('IndexedStore as a store (store_test doTestStore)', () => {
  it('adds, updates, deletes, lists and replaces', () => {
    let s = createIndexedStore<Obj>();
    s = s.add(mk('foo', 'bar'));
    expect(s.get(mk('foo', ''))?.val).toBe('bar');
    s = s.update(mk('foo', 'baz'));
    expect(s.get(mk('foo', ''))?.val).toBe('baz');
    s = s.delete(mk('foo', ''));
    expect(s.get(mk('foo', ''))).toBeUndefined();

    s = s.add(mk('a', 'b')).add(mk('c', 'd')).add(mk('e', 'e'));
    expect(vals(s.list())).toEqual(['b', 'd', 'e']);
    expect(s.listKeys().sort()).toEqual(['a', 'c', 'e']);

    s = s.replace([mk('foo', 'foo'), mk('bar', 'bar')], '0');
    expect(vals(s.list())).toEqual(['bar', 'foo']);
    expect(s.size).toBe(2);
  });

  it('replace: later duplicates win and a key error leaves the store unchanged', () => {
    const s = createIndexedStore<Obj>().add(mk('x', '1'));
    const r = s.replace([mk('a', '1'), mk('a', '2')]);
    expect(r.list()).toEqual([mk('a', '2')]);
    expect(() => s.replace([mk('b', '1'), { val: 'no name' } as Obj])).toThrow(KeyError);
    expect(s.list()).toEqual([mk('x', '1')]);
  });

  it('deletes by tombstone key, and deleting an absent key changes nothing', () => {
    const s = createIndexedStore<Obj>().add(mk('a', '1', 'ns'));
    expect(s.delete(new DeletedFinalStateUnknown<Obj>('ns/a', undefined)).size).toBe(0);
    expect(s.deleteByKey('ns/zzz')).toBe(s);
  });

  it('snapshots never change after later writes', () => {
    const s1 = createIndexedStore<Obj>({ indexers: byVal }).add(mk('a', 'x'));
    const s2 = s1.update(mk('a', 'y')).add(mk('b', 'x'));
    s2.delete(mk('a', ''));
    expect(s1.list()).toEqual([mk('a', 'x')]);
    expect(s1.indexKeys('by_val', 'x')).toEqual(['a']);
    expect(s1.indexKeys('by_val', 'y')).toEqual([]);
    expect(s2.indexKeys('by_val', 'x')).toEqual(['b']);
  });

  it('freezes stored objects shallowly by default, deeply on request, not at all with none', () => {
    const shallow = mk('a', '1');
    createIndexedStore<Obj>().add(shallow);
    expect(Object.isFrozen(shallow)).toBe(true);
    expect(Object.isFrozen(shallow.metadata)).toBe(false);
    const deep = mk('b', '1');
    createIndexedStore<Obj>({ freeze: 'deep' }).replace([deep]);
    expect(Object.isFrozen(deep.metadata)).toBe(true);
    const none = mk('c', '1');
    createIndexedStore<Obj>({ freeze: 'none' }).add(none);
    expect(Object.isFrozen(none)).toBe(false);
  });

  it('tracks the resourceVersion of the last write', () => {
    const rv = (name: string, v: string): Obj => ({ metadata: { name, resourceVersion: v }, val: '' });
    let s = createIndexedStore<Obj>();
    expect(s.resourceVersion).toBe('');
    s = s.add(rv('k1', '10')).add(rv('k3', '10'));
    expect(s.resourceVersion).toBe('10');
    s = s.add(rv('k4', '20'));
    expect(s.resourceVersion).toBe('20');
    s = s.delete(rv('k4', '30'));
    expect(s.resourceVersion).toBe('30');
    s = s.delete(new DeletedFinalStateUnknown<Obj>('k1', undefined));
    expect(s.resourceVersion).toBe('30');
    expect(s.replace([rv('k2', '40')], '50').resourceVersion).toBe('50');
  });
});

describe('IndexedStore indexing (index_test, thread_safe_store_test)', () => {
  it('Index returns every object sharing a value (doTestIndex)', () => {
    const s = createIndexedStore<Obj>({ indexers: byVal })
      .add(mk('a', 'b'))
      .add(mk('c', 'b'))
      .add(mk('e', 'f'))
      .add(mk('g', 'h'));
    expect(names(s.index('by_val', mk('', 'b')))).toEqual(['a', 'c']);
    expect(names(s.index('by_val', mk('', 'f')))).toEqual(['e']);
    expect(names(s.index('by_val', mk('', 'h')))).toEqual(['g']);
  });

  it('ListIndexFuncValues lists the values present (TestGetIndexFuncValues)', () => {
    const foo = { testmodes: (o: KubeObject) => [o.metadata?.labels?.foo ?? ''] };
    const pod = (name: string, v: string): KubeObject => ({ metadata: { name, labels: { foo: v } } });
    const s = createIndexedStore<KubeObject>({ indexers: foo })
      .add(pod('one', 'bar'))
      .add(pod('two', 'bar'))
      .add(pod('tre', 'biz'));
    expect(s.listIndexFuncValues('testmodes').sort()).toEqual(['bar', 'biz']);
    expect(s.listIndexFuncValues('no-such-index')).toEqual([]);
  });

  it('multi-valued index functions (TestMultiIndexKeys)', () => {
    const users = { byUser: (o: KubeObject) => (o.metadata?.annotations?.users ?? '').split(',') };
    const pod = (name: string, u: string): KubeObject => ({ metadata: { name, annotations: { users: u } } });
    let s = createIndexedStore<KubeObject>({ indexers: users })
      .add(pod('one', 'ernie,bert'))
      .add(pod('two', 'bert,oscar'))
      .add(pod('tre', 'ernie,elmo'));
    const expected: Record<string, string[]> = {
      ernie: ['one', 'tre'],
      bert: ['one', 'two'],
      elmo: ['tre'],
      oscar: ['two'],
      elmo1: [],
    };
    for (const [user, podNames] of Object.entries(expected))
      expect(names(s.byIndex('byUser', user))).toEqual(podNames);

    s = s.delete(pod('tre', ''));
    expect(names(s.byIndex('byUser', 'ernie'))).toEqual(['one']);
    expect(s.byIndex('byUser', 'elmo')).toEqual([]);

    s = s.update(pod('two', 'oscar'));
    expect(names(s.byIndex('byUser', 'bert'))).toEqual(['one']);
  });

  const byString = { testIndexer: (o: Obj) => o.val.split(',') };
  it.each<[string, (s: IndexedStore<Obj>) => IndexedStore<Obj>, Record<string, string[]>]>([
    ['add key1=foo, key2=bar', (s) => s, { foo: ['key1'], bar: ['key2'] }],
    ['key2 → foo,bar', (s) => s.update(mk('key2', 'foo,bar')), { foo: ['key1', 'key2'], bar: ['key2'] }],
    [
      'key1 → foo,bar',
      (s) => s.update(mk('key2', 'foo,bar')).update(mk('key1', 'foo,bar')),
      { foo: ['key1', 'key2'], bar: ['key1', 'key2'] },
    ],
    [
      'add key3=foo,bar,baz',
      (s) => s.update(mk('key2', 'foo,bar')).update(mk('key1', 'foo,bar')).add(mk('key3', 'foo,bar,baz')),
      { foo: ['key1', 'key2', 'key3'], bar: ['key1', 'key2', 'key3'], baz: ['key3'] },
    ],
    [
      'key1 → foo',
      (s) =>
        s
          .update(mk('key2', 'foo,bar'))
          .update(mk('key1', 'foo,bar'))
          .add(mk('key3', 'foo,bar,baz'))
          .update(mk('key1', 'foo')),
      { foo: ['key1', 'key2', 'key3'], bar: ['key2', 'key3'], baz: ['key3'] },
    ],
    [
      'key2 → bar',
      (s) =>
        s
          .update(mk('key2', 'foo,bar'))
          .update(mk('key1', 'foo,bar'))
          .add(mk('key3', 'foo,bar,baz'))
          .update(mk('key1', 'foo'))
          .update(mk('key2', 'bar')),
      { foo: ['key1', 'key3'], bar: ['key2', 'key3'], baz: ['key3'] },
    ],
    [
      'delete key1, then key3',
      (s) =>
        s
          .update(mk('key2', 'foo,bar'))
          .update(mk('key1', 'foo,bar'))
          .add(mk('key3', 'foo,bar,baz'))
          .update(mk('key1', 'foo'))
          .update(mk('key2', 'bar'))
          .delete(mk('key1', ''))
          .delete(mk('key3', '')),
      { foo: [], bar: ['key2'], baz: [] },
    ],
  ])(
    'multiple values per object: %s (TestThreadSafeStoreIndexingFunctionsWithMultipleValues)',
    (_name, steps, want) => {
      const start = createIndexedStore<Obj>({ indexers: byString, namespaceIndex: false })
        .add(mk('key1', 'foo'))
        .add(mk('key2', 'bar'));
      const s = steps(start);
      for (const [value, keys] of Object.entries(want))
        expect(s.indexKeys('testIndexer', value)).toEqual(keys);
      // no empty sets are kept
      expect(s.listIndexFuncValues('testIndexer').sort()).toEqual(
        Object.keys(want)
          .filter((v) => want[v]!.length > 0)
          .sort(),
      );
    },
  );

  it('deleting the last key of a value removes the value; others keep theirs', () => {
    const constant = { testIndexer: () => ['testIndex'] };
    let s = createIndexedStore<Obj>({ indexers: { ...byString } }).add(mk('testKey', 'testKey'));
    expect(s.indexKeys('testIndexer', 'testKey')).toEqual(['testKey']);
    s = s.delete(mk('testKey', ''));
    expect(s.listIndexFuncValues('testIndexer')).toEqual([]);

    let t = createIndexedStore<Obj>({ indexers: constant }).add(mk('retain', '')).add(mk('delete', ''));
    expect(t.indexKeys('testIndexer', 'testIndex')).toEqual(['delete', 'retain']);
    t = t.delete(mk('delete', ''));
    expect(t.indexKeys('testIndexer', 'testIndex')).toEqual(['retain']);
  });

  it('maintains the namespace index on add, move and delete', () => {
    let s = createIndexedStore<Obj>()
      .add(mk('a', '', 'ns1'))
      .add(mk('b', '', 'ns1'))
      .add(mk('c', '', 'ns2'))
      .add(mk('node', ''));
    expect(s.indexKeys(NAMESPACE_INDEX, 'ns1')).toEqual(['ns1/a', 'ns1/b']);
    expect(s.indexKeys(NAMESPACE_INDEX, '')).toEqual(['node']);
    s = s.delete(mk('a', '', 'ns1')).delete(mk('c', '', 'ns2'));
    expect(s.listIndexFuncValues(NAMESPACE_INDEX).sort()).toEqual(['', 'ns1']);
  });

  it('rejects unknown indexes on queries', () => {
    const s = createIndexedStore<Obj>();
    expect(() => s.byIndex('nope', 'x')).toThrow(UnknownIndexError);
    expect(() => s.indexKeys('nope', 'x')).toThrow(/Index with name nope does not exist/);
    expect(() => s.index('nope', mk('a', ''))).toThrow(UnknownIndexError);
  });

  it('addIndexers indexes existing objects and rejects conflicts', () => {
    const s = createIndexedStore<Obj>().add(mk('a', 'x')).add(mk('b', 'y'));
    const t = s.addIndexers(byVal);
    expect(t.indexKeys('by_val', 'x')).toEqual(['a']);
    expect(Object.keys(t.getIndexers()).sort()).toEqual(['by_val', 'namespace']);
    expect(() => t.addIndexers(byVal)).toThrow(InvalidConfigError);
    expect(() => s.byIndex('by_val', 'x')).toThrow(UnknownIndexError);
  });

  it('an index function that throws is a broken contract', () => {
    const s = createIndexedStore<Obj>({
      indexers: {
        bad: (o) => {
          if (o.val === 'boom') throw new Error('nope');
          return [o.val];
        },
      },
    });
    expect(() => s.add(mk('a', 'boom'))).toThrow(IndexFuncError);
    expect(() => createIndexedStore<Obj>({ indexers: { x: 'not a function' as never } })).toThrow(
      InvalidConfigError,
    );
  });
});
