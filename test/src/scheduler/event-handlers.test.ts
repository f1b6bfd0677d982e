// addEventHandlers' storage wiring: claims, volumes, classes and CSINodes move waiting pods with upstream's cluster events, only for the registered actions.
import { describe, expect, it } from 'vitest';
import {
  ActionType,
  type ClusterEventWithHint,
  type EventResource,
} from '../../../operators/scheduling/framework/interface.ts';
import { DeletedFinalStateUnknown, type KubeObject } from '../../../operators/types.ts';
import { registeredActions } from '../../../src/scheduler/event-handlers.ts';
import { wireStorageHandlers } from './recording-fakes.ts';

const obj = (name: string, resourceVersion = '1'): KubeObject => ({ metadata: { name, resourceVersion } });

// The default profile's volume plugins register: VolumeRestrictions PVC Add; NodeVolumeLimits CSINode Add,
// PVC Add; VolumeZone StorageClass Add, PVC Add|Update, PV Add|Update.
const DEFAULT_PROFILE = new Map<EventResource, number>([
  ['PersistentVolumeClaim', ActionType.Add | ActionType.Update],
  ['PersistentVolume', ActionType.Add | ActionType.Update],
  ['StorageClass', ActionType.Add],
  ['CSINode', ActionType.Add],
]);

describe('addEventHandlers: storage kinds', () => {
  const informerOf = {
    PersistentVolumeClaim: 'persistentVolumeClaims',
    PersistentVolume: 'persistentVolumes',
    StorageClass: 'storageClasses',
    CSINode: 'csiNodes',
  } as const;

  it.each([
    ['PersistentVolumeClaim', 'add', ActionType.Add],
    ['PersistentVolumeClaim', 'update', ActionType.Update],
    ['PersistentVolume', 'add', ActionType.Add],
    ['PersistentVolume', 'update', ActionType.Update],
    ['StorageClass', 'add', ActionType.Add],
    ['CSINode', 'add', ActionType.Add],
  ] as const)('a %s %s moves waiting pods with its cluster event', (resource, what, action) => {
    const { storage, moves } = wireStorageHandlers(DEFAULT_PROFILE);
    const { handlers } = storage[informerOf[resource]];
    expect(handlers).toHaveLength(1);
    const { handler, name } = handlers[0]!;
    expect(name).toBe(`scheduler-${resource}`);
    const oldObj = obj('x', '1');
    const newObj = obj('x', '2');
    if (what === 'add') handler.onAdd!(newObj, false);
    else handler.onUpdate!(oldObj, newObj);
    expect(moves).toEqual([
      { event: { resource, action }, oldObj: what === 'add' ? undefined : oldObj, newObj },
    ]);
  });

  it.each([
    ['StorageClass', 'onUpdate'],
    ['CSINode', 'onUpdate'],
    ['PersistentVolumeClaim', 'onDelete'],
    ['PersistentVolume', 'onDelete'],
  ] as const)('no plugin registered it: a %s gets no %s handler', (resource, callback) => {
    const { storage } = wireStorageHandlers(DEFAULT_PROFILE);
    expect(storage[informerOf[resource]].handlers[0]!.handler[callback]).toBeUndefined();
  });

  it('registers no handler on a kind no plugin registered any event for', () => {
    const { storage, registrations } = wireStorageHandlers(
      new Map([['PersistentVolumeClaim', ActionType.Add]]),
    );
    expect(storage.persistentVolumeClaims.handlers).toHaveLength(1);
    for (const kind of ['persistentVolumes', 'storageClasses', 'csiNodes'] as const)
      expect(storage[kind].handlers).toHaveLength(0);
    // pods twice (assigned, unassigned), nodes once, the claims once
    expect(registrations).toHaveLength(4);
  });

  it('without registered actions every kind handles add, update and delete; a tombstone moves with its last state', () => {
    const { storage, moves, registrations } = wireStorageHandlers();
    expect(registrations).toHaveLength(7);
    const last = obj('gone', '9');
    storage.persistentVolumes.handlers[0]!.handler.onDelete!(new DeletedFinalStateUnknown('gone', last));
    storage.csiNodes.handlers[0]!.handler.onDelete!(obj('n1'));
    expect(moves).toEqual([
      { event: { resource: 'PersistentVolume', action: ActionType.Delete }, oldObj: last, newObj: undefined },
      { event: { resource: 'CSINode', action: ActionType.Delete }, oldObj: obj('n1'), newObj: undefined },
    ]);
  });

  it('removing the registrations removes the storage handlers too', () => {
    const { storage, registrations } = wireStorageHandlers(DEFAULT_PROFILE);
    for (const r of registrations) r.remove();
    for (const kind of Object.values(storage)) expect(kind.handlers.every((h) => h.removed)).toBe(true);
  });
});

describe('registeredActions', () => {
  const hint = (resource: EventResource, action: number): ClusterEventWithHint => ({
    event: { resource, action },
  });

  it.each<[string, Record<string, Record<string, ClusterEventWithHint[]>>, [EventResource, number][]]>([
    ['no profiles', {}, []],
    [
      'one plugin, two events on one kind are unioned',
      {
        'default-scheduler': {
          VolumeZone: [hint('PersistentVolume', ActionType.Add), hint('PersistentVolume', ActionType.Update)],
        },
      },
      [['PersistentVolume', ActionType.Add | ActionType.Update]],
    ],
    [
      'plugins and profiles are unioned per kind',
      {
        a: { VolumeRestrictions: [hint('PersistentVolumeClaim', ActionType.Add)] },
        b: {
          VolumeZone: [
            hint('PersistentVolumeClaim', ActionType.Update),
            hint('StorageClass', ActionType.Add),
          ],
          NodeVolumeLimits: [hint('CSINode', ActionType.Add)],
        },
      },
      [
        ['PersistentVolumeClaim', ActionType.Add | ActionType.Update],
        ['StorageClass', ActionType.Add],
        ['CSINode', ActionType.Add],
      ],
    ],
    [
      'node label updates stay node events',
      { p: { NodeAffinity: [hint('Node', ActionType.Add | ActionType.UpdateNodeLabel)] } },
      [['Node', ActionType.Add | ActionType.UpdateNodeLabel]],
    ],
  ])('%s', (_name, hints, expected) => {
    expect([...registeredActions(hints)].sort()).toEqual(expected.sort());
  });
});
