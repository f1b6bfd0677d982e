// processDeltas: client-go's rules for applying a key's deltas to the store, as a table, plus the relist cases of TestReplaceEvents.
import { describe, expect, it } from 'vitest';
import { FifoQueue } from '../../operators/fifo-queue.ts';
import { createIndexedStore, type IndexedStore } from '../../operators/indexed-store.ts';
import type { InformerNotification } from '../../operators/informer-notification.ts';
import { objectKey, splitObjectKey } from '../../operators/object-key.ts';
import { processDelta, processDeltas, sameResourceVersion } from '../../operators/process-deltas.ts';
import {
  DeletedFinalStateUnknown,
  type Delta,
  type DeltaType,
  type KubeObject,
} from '../../operators/types.ts';

const pod = (name: string, rv: string, labels?: Record<string, string>): KubeObject => ({
  metadata: { name, namespace: 'default', resourceVersion: rv, ...(labels ? { labels } : {}) },
});
const d = (type: DeltaType, object: KubeObject | DeletedFinalStateUnknown): Delta => ({ type, object });

function show(n: InformerNotification): string {
  switch (n.type) {
    case 'add':
      return `add ${n.key}@${n.object.metadata?.resourceVersion}${n.isInInitialList ? ' initial' : ''}`;
    case 'update':
      return `update ${n.key} ${n.oldObject.metadata?.resourceVersion}→${n.newObject.metadata?.resourceVersion}${n.isSync ? ' sync' : ''}`;
    case 'delete':
      return `delete ${n.key}${n.object instanceof DeletedFinalStateUnknown ? ' (tombstone)' : ''}`;
  }
}

const storeWith = (...objs: KubeObject[]): IndexedStore => createIndexedStore().replace(objs);

describe('processDeltas', () => {
  it.each<[string, KubeObject[], Delta[], boolean, string[], string[]]>([
    [
      'Added for an unknown key is an add',
      [],
      [d('Added', pod('a', '1'))],
      false,
      ['add default/a@1'],
      ['default/a'],
    ],
    [
      'Added for a known key is an update',
      [pod('a', '1')],
      [d('Added', pod('a', '2'))],
      false,
      ['update default/a 1→2'],
      ['default/a'],
    ],
    [
      'Updated for an unknown key is an add',
      [],
      [d('Updated', pod('a', '2'))],
      false,
      ['add default/a@2'],
      ['default/a'],
    ],
    [
      'Replaced for an unknown key is an add in the initial list',
      [],
      [d('Replaced', pod('a', '1'))],
      true,
      ['add default/a@1 initial'],
      ['default/a'],
    ],
    [
      'Replaced with the same resourceVersion is a sync',
      [pod('a', '1')],
      [d('Replaced', pod('a', '1'))],
      false,
      ['update default/a 1→1 sync'],
      ['default/a'],
    ],
    [
      'Sync of a known key is a sync update',
      [pod('a', '3')],
      [d('Sync', pod('a', '3'))],
      false,
      ['update default/a 3→3 sync'],
      ['default/a'],
    ],
    [
      'Deleted removes the key',
      [pod('a', '1')],
      [d('Deleted', pod('a', '2'))],
      false,
      ['delete default/a'],
      [],
    ],
    [
      'Deleted of an unknown key still notifies',
      [],
      [d('Deleted', pod('a', '2'))],
      false,
      ['delete default/a'],
      [],
    ],
    [
      'a tombstone is deleted by its key',
      [pod('a', '1')],
      [d('Deleted', new DeletedFinalStateUnknown('default/a', pod('a', '1')))],
      false,
      ['delete default/a (tombstone)'],
      [],
    ],
    [
      'several deltas apply oldest first',
      [],
      [
        d('Added', pod('a', '1')),
        d('Updated', pod('a', '2')),
        d('Deleted', pod('a', '3')),
        d('Added', pod('a', '4')),
      ],
      false,
      ['add default/a@1', 'update default/a 1→2', 'delete default/a', 'add default/a@4'],
      ['default/a'],
    ],
  ])('%s', (_name, initial, deltas, isInInitialList, notifications, keys) => {
    const before = storeWith(...initial);
    const { store, notifications: out } = processDeltas(before, deltas, isInInitialList);
    expect(out.map(show)).toEqual(notifications);
    expect(store.listKeys().sort()).toEqual(keys);
    expect(before.listKeys().length).toBe(initial.length);
  });

  // processDelta is the single-delta form the informer's hot path uses: every type, on a known and an
  // unknown key, with an object or a tombstone, must do exactly what processDeltas does with [delta]
  const types: DeltaType[] = ['Added', 'Updated', 'Deleted', 'Replaced', 'Sync'];
  it.each(
    types.flatMap((type) =>
      [true, false].flatMap((known) =>
        [false, true].map((tombstone) => [type, known, tombstone] as [DeltaType, boolean, boolean]),
      ),
    ),
  )('processDelta(%s, known=%s, tombstone=%s) matches processDeltas', (type, known, tombstone) => {
    const initial = known ? [pod('a', '1')] : [];
    const object = tombstone ? new DeletedFinalStateUnknown('default/a', pod('a', '1')) : pod('a', '2');
    for (const initialList of [false, true]) {
      const expected = processDeltas(storeWith(...initial), [d(type, object)], initialList);
      const seen: InformerNotification[] = [];
      const store = processDelta(storeWith(...initial), type, object, initialList, (n) => seen.push(n));
      expect(seen).toEqual(expected.notifications);
      expect(store.list()).toEqual(expected.store.list());
    }
  });

  it('processDelta skips a delta the store rejects when given onError, and throws without it', () => {
    const store = createIndexedStore({
      indexers: {
        bad: () => {
          throw new Error('index says no');
        },
      },
    });
    const errors: string[] = [];
    const seen: InformerNotification[] = [];
    const after = processDelta(
      store,
      'Added',
      pod('boom', '1'),
      false,
      (n) => seen.push(n),
      (error, delta) =>
        errors.push(
          `${delta.type} ${splitObjectKey(objectKey(delta.object)).name}: ${(error as Error).message}`,
        ),
    );
    expect(errors).toEqual([expect.stringMatching(/^Added boom: .*index says no/)]);
    expect(seen).toEqual([]);
    expect(after).toBe(store);
    expect(() => processDelta(store, 'Added', pod('boom', '1'), false, () => {})).toThrow(/index says no/);
  });

  it('hands notifications to emit instead of collecting them', () => {
    const seen: string[] = [];
    const { notifications } = processDeltas(storeWith(), [d('Added', pod('a', '1'))], false, (n) =>
      seen.push(show(n)),
    );
    expect(seen).toEqual(['add default/a@1']);
    expect(notifications).toEqual([]);
  });

  it('skips a delta the store rejects when given onError, and throws without it', () => {
    const store = createIndexedStore({
      indexers: {
        bad: (o) => {
          if (o.metadata?.name === 'boom') throw new Error('index says no');
          return [];
        },
      },
    });
    const errors: string[] = [];
    const { store: after, notifications } = processDeltas(
      store,
      [d('Added', pod('boom', '1')), d('Added', pod('fine', '2'))],
      false,
      undefined,
      (error, delta) => errors.push(`${delta.type}: ${(error as Error).message}`),
    );
    expect(errors).toEqual([expect.stringContaining('index says no')]);
    expect(notifications.map(show)).toEqual(['add default/fine@2']);
    expect(after.listKeys()).toEqual(['default/fine']);
    expect(() => processDeltas(store, [d('Added', pod('boom', '1'))], false)).toThrow(/index says no/);
  });

  it.each([
    ['1', '1', true],
    ['1', '2', false],
    [undefined, undefined, true],
    ['1', undefined, false],
  ])('sameResourceVersion(%s, %s) is %s', (a, b, expected) => {
    expect(
      sameResourceVersion({ metadata: { resourceVersion: a } }, { metadata: { resourceVersion: b } }),
    ).toBe(expected);
  });
});

describe('a relist through the RealFIFO into processDeltas (TestReplaceEvents)', () => {
  const cases: [string, KubeObject[], KubeObject[], string[]][] = [
    ['create with no initial objects', [], [pod('pod-1', '1')], ['add default/pod-1@1']],
    [
      'delete all objects',
      [pod('pod-1', '1'), pod('pod-3', '2')],
      [],
      ['delete default/pod-1 (tombstone)', 'delete default/pod-3 (tombstone)'],
    ],
    [
      'create, update, delete',
      [pod('pod-1', '1'), pod('pod-2', '2', { ver: '1' }), pod('pod-3', '3')],
      [pod('pod-1', '4'), pod('pod-2', '5', { ver: '2' }), pod('pod-4', '6')],
      [
        'delete default/pod-3 (tombstone)',
        'update default/pod-1 1→4',
        'update default/pod-2 2→5',
        'add default/pod-4@6',
      ],
    ],
  ];
  it.each(cases)('%s', (_name, initial, replaced, expected) => {
    let store = createIndexedStore().replace(initial);
    const fifo = new FifoQueue({
      mode: 'real',
      knownObjects: { listKeys: () => store.listKeys(), getByKey: (k) => store.getByKey(k) },
    });
    fifo.replace(replaced);
    const out: string[] = [];
    for (let p = fifo.pop(); p; p = fifo.pop()) {
      store = processDeltas(store, p.item.deltas, false, (n) => out.push(show(n))).store;
      fifo.done(p.item.key);
    }
    const deletes = out.filter((s) => s.startsWith('delete')).sort();
    expect([...deletes, ...out.filter((s) => !s.startsWith('delete'))]).toEqual(expected);
    expect(
      store
        .list()
        .map((o) => o.metadata?.resourceVersion)
        .sort(),
    ).toEqual(replaced.map((o) => o.metadata?.resourceVersion).sort());
  });
});
