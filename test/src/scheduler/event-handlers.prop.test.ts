// Properties of the storage handlers: for any events the plugins register, a storage kind's add, update and delete move pods exactly when some registered event matches them, and with nothing else.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ActionType,
  type ClusterEventWithHint,
  type EventResource,
} from '../../../operators/scheduling/framework/interface.ts';
import { matchAnyClusterEvent } from '../../../operators/scheduling/queue/cluster-events.ts';
import type { KubeObject } from '../../../operators/types.ts';
import { registeredActions } from '../../../src/scheduler/event-handlers.ts';
import { wireStorageHandlers } from './recording-fakes.ts';

const STORAGE: readonly (readonly [
  EventResource,
  'persistentVolumeClaims' | 'persistentVolumes' | 'storageClasses' | 'csiNodes',
])[] = [
  ['PersistentVolumeClaim', 'persistentVolumeClaims'],
  ['PersistentVolume', 'persistentVolumes'],
  ['StorageClass', 'storageClasses'],
  ['CSINode', 'csiNodes'],
];

const resource = fc.constantFrom<EventResource>(
  'PersistentVolumeClaim',
  'PersistentVolume',
  'StorageClass',
  'CSINode',
  'Node',
  'Pod',
  '*',
);
const action = fc.constantFrom(
  ActionType.Add,
  ActionType.Update,
  ActionType.Delete,
  ActionType.Add | ActionType.Update,
  ActionType.Add | ActionType.Delete,
  ActionType.All,
  ActionType.UpdateNodeLabel,
);
const registered = fc.dictionary(
  fc.constantFrom('p1', 'p2'),
  fc.dictionary(
    fc.constantFrom('A', 'B', 'C'),
    fc.array(fc.record({ event: fc.record({ resource, action }) }), { maxLength: 4 }),
  ),
);

const obj = (rv: string): KubeObject => ({ metadata: { name: 'x', resourceVersion: rv } });

describe('storage handlers (property)', () => {
  it('move pods on a storage add/update/delete exactly when a registered event matches it', () => {
    fc.assert(
      fc.property(registered, (hints: Record<string, Record<string, ClusterEventWithHint[]>>) => {
        const all = Object.values(hints).flatMap((plugins) =>
          Object.values(plugins).flatMap((events) => events.map((e) => e.event)),
        );
        const { storage, moves } = wireStorageHandlers(registeredActions(hints));
        for (const [kind, field] of STORAGE) {
          const handlers = storage[field].handlers;
          const interested = all.some((e) => e.resource === kind);
          expect(handlers).toHaveLength(interested ? 1 : 0);
          for (const [what, bit] of [
            ['onAdd', ActionType.Add],
            ['onUpdate', ActionType.Update],
            ['onDelete', ActionType.Delete],
          ] as const) {
            const incoming = { resource: kind, action: bit };
            const handler = handlers[0]?.handler;
            const callback = handler?.[what];
            // A handler exists for an action iff some event of this kind names one of its bits.
            expect(callback !== undefined).toBe(
              all.some((e) => e.resource === kind && (e.action & bit) !== 0),
            );
            if (!callback) continue;
            moves.length = 0;
            if (what === 'onUpdate') handler!.onUpdate!(obj('1'), obj('2'));
            else if (what === 'onAdd') handler!.onAdd!(obj('1'), false);
            else handler!.onDelete!(obj('1'));
            expect(moves.map((m) => m.event)).toEqual([incoming]);
            // The queue would not drop it: the plugins that asked for this kind's action match the event.
            expect(
              matchAnyClusterEvent(
                incoming,
                all.filter((e) => e.resource === kind),
              ),
            ).toBe(all.some((e) => e.resource === kind && (e.action & bit) === bit));
          }
        }
      }),
    );
  });
});
