// Test fixtures for the scheduler's handler wiring: an informer that records the handlers registered on it, and a queue that records its moves.
import type { ClusterEvent, EventResource } from '../../../operators/scheduling/framework/interface.ts';
import type { PriorityQueue } from '../../../operators/scheduling/queue/priority-queue.ts';
import type { KubeObject } from '../../../operators/types.ts';
import type { EventHandler } from '../../../src/informers/event-handler.ts';
import type { HandlerRegistration, SharedInformer } from '../../../src/informers/shared-informer.ts';
import { SchedulerCache } from '../../../src/scheduler/cache/scheduler-cache.ts';
import { addEventHandlers, type StorageInformers } from '../../../src/scheduler/event-handlers.ts';

/** One handler registered on a {@link recordingInformer}. */
export interface RecordedHandler {
  handler: EventHandler;
  name?: string;
  removed: boolean;
}

/** An informer that only records the handlers registered on it (and whether they were removed). */
export function recordingInformer(): { informer: SharedInformer<KubeObject>; handlers: RecordedHandler[] } {
  const handlers: RecordedHandler[] = [];
  const informer = {
    addEventHandler(handler: EventHandler, options: { name?: string } = {}): HandlerRegistration {
      const entry: RecordedHandler = { handler, name: options.name, removed: false };
      handlers.push(entry);
      return {
        hasSynced: () => true,
        pending: 0,
        remove: () => {
          entry.removed = true;
        },
      } as unknown as HandlerRegistration;
    },
  } as unknown as SharedInformer<KubeObject>;
  return { informer, handlers };
}

/** A call of `moveAllToActiveOrBackoffQueue`. */
export interface RecordedMove {
  event: ClusterEvent;
  oldObj?: KubeObject;
  newObj?: KubeObject;
}

/** A queue that records `moveAllToActiveOrBackoffQueue` calls (the only method the storage handlers use). */
export function recordingQueue(): { queue: PriorityQueue; moves: RecordedMove[] } {
  const moves: RecordedMove[] = [];
  const queue = {
    moveAllToActiveOrBackoffQueue: (event: ClusterEvent, oldObj?: KubeObject, newObj?: KubeObject) =>
      moves.push({ event, oldObj, newObj }),
  } as unknown as PriorityQueue;
  return { queue, moves };
}

/**
 * addEventHandlers over recording informers and a recording queue, with `actions` as the registered
 * actions (all actions when absent): the storage informers' handlers, the queue's moves, the registrations.
 */
export function wireStorageHandlers(actions?: ReadonlyMap<EventResource, number>) {
  const storage = {
    persistentVolumeClaims: recordingInformer(),
    persistentVolumes: recordingInformer(),
    storageClasses: recordingInformer(),
    csiNodes: recordingInformer(),
  };
  const { queue, moves } = recordingQueue();
  const registrations = addEventHandlers({
    pods: recordingInformer().informer,
    nodes: recordingInformer().informer,
    cache: new SchedulerCache(),
    queue,
    profiles: new Set(['default-scheduler']),
    storage: Object.fromEntries(
      Object.entries(storage).map(([k, v]) => [k, v.informer]),
    ) as unknown as StorageInformers,
    ...(actions ? { registeredActions: actions } : {}),
  });
  return { storage, moves, registrations };
}
