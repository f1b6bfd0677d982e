// The scheduler's informer handlers: pods and nodes feed the cache and the scheduling queue, storage kinds move waiting pods, as upstream's eventhandlers.go.
import type { Node, Pod } from '../../operators/api/core-v1.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import {
  ActionType,
  type ClusterEventWithHint,
  type EventResource,
} from '../../operators/scheduling/framework/interface.ts';
import {
  EVENT_ASSIGNED_POD_DELETE,
  EVENT_NODE_ADD,
  EVENT_NODE_DELETE,
} from '../../operators/scheduling/queue/cluster-events.ts';
import { nodeSchedulingPropertiesChange } from '../../operators/scheduling/queue/node-scheduling-properties-change.ts';
import { podSchedulingPropertiesChange } from '../../operators/scheduling/queue/pod-scheduling-properties-change.ts';
import type { PriorityQueue } from '../../operators/scheduling/queue/priority-queue.ts';
import { DeletedFinalStateUnknown, type KubeObject } from '../../operators/types.ts';
import { type EventHandler, filteringEventHandler } from '../informers/event-handler.ts';
import type { HandlerRegistration, SharedInformer } from '../informers/shared-informer.ts';
import type { SchedulerCache } from './cache/scheduler-cache.ts';

/** What the handlers feed and consult. */
export interface EventHandlersConfig {
  pods: SharedInformer<KubeObject>;
  nodes: SharedInformer<KubeObject>;
  cache: SchedulerCache;
  queue: PriorityQueue;
  /** The scheduler names this scheduler serves (its profiles). */
  profiles: ReadonlySet<string>;
  /** The pod as the scheduler sees it (priority resolved); identity by default. */
  resolvePod?: (pod: Pod) => Pod;
  /**
   * The storage informers whose changes move waiting pods (claims, volumes, classes, CSINodes). Each gets
   * handlers only for the actions some plugin registered for its kind (`registeredActions`).
   */
  storage?: StorageInformers;
  /** Action bits registered per resource by the plugins (see {@link registeredActions}); default: all. */
  registeredActions?: ReadonlyMap<EventResource, number>;
  /** Rejects the pod if it waits at Permit (in its profile's framework); true when it was waiting. */
  rejectWaitingPod?: (pod: Pod) => boolean;
  logger?: Logger;
}

/** The storage kinds' informers, keyed as their cluster events' resources. */
export interface StorageInformers {
  persistentVolumeClaims: SharedInformer<KubeObject>;
  persistentVolumes: SharedInformer<KubeObject>;
  storageClasses: SharedInformer<KubeObject>;
  csiNodes: SharedInformer<KubeObject>;
}

const STORAGE_RESOURCES: readonly [keyof StorageInformers, EventResource][] = [
  ['persistentVolumeClaims', 'PersistentVolumeClaim'],
  ['persistentVolumes', 'PersistentVolume'],
  ['storageClasses', 'StorageClass'],
  ['csiNodes', 'CSINode'],
];

/**
 * The union of the action bits each resource's registered events name, over every profile and plugin, as
 * upstream's gvkMap (`unionedGVKs`): which informers the scheduler must handle, and for which actions.
 * A wildcard event's resource (`*`) is kept as is.
 */
export function registeredActions(
  hints: Readonly<Record<string, Readonly<Record<string, readonly ClusterEventWithHint[]>>>>,
): Map<EventResource, number> {
  const out = new Map<EventResource, number>();
  for (const plugins of Object.values(hints))
    for (const events of Object.values(plugins))
      for (const { event } of events) out.set(event.resource, (out.get(event.resource) ?? 0) | event.action);
  return out;
}

/**
 * A storage kind's handler, as upstream's buildEvtResHandler: an add, update or delete (when `actions` has
 * that bit) moves the waiting pods with the event `{resource, Add|Update|Delete}`; the plugins' queueing
 * hints pick which pods the object may help.
 */
function storageEventHandler(queue: PriorityQueue, resource: EventResource, actions: number): EventHandler {
  const handler: EventHandler = {};
  if (actions & ActionType.Add) {
    const event = { resource, action: ActionType.Add };
    handler.onAdd = (o) => queue.moveAllToActiveOrBackoffQueue(event, undefined, o);
  }
  if (actions & ActionType.Update) {
    const event = { resource, action: ActionType.Update };
    handler.onUpdate = (oldO, newO) => queue.moveAllToActiveOrBackoffQueue(event, oldO, newO);
  }
  if (actions & ActionType.Delete) {
    const event = { resource, action: ActionType.Delete };
    handler.onDelete = (o) => queue.moveAllToActiveOrBackoffQueue(event, finalState(o), undefined);
  }
  return handler;
}

/** The last known object of a delete (a tombstone's object when the delete was only seen by a relist). */
const finalState = (obj: KubeObject | DeletedFinalStateUnknown<KubeObject>): KubeObject =>
  obj instanceof DeletedFinalStateUnknown ? (obj.obj ?? { metadata: { name: obj.key } }) : obj;

const assigned = (pod: Pod): boolean => Boolean(pod.spec?.nodeName);
/** Objects from a relist tombstone may lack a spec; they count as neither bound nor ours. */
const priorityOf = (pod: Pod): number => pod.spec.priority ?? 0;
/** Only pods of lower or equal priority may benefit from a nominated pod going away. */
const atMostPriority =
  (p: number) =>
  (pod: Pod): boolean =>
    priorityOf(pod) <= p;

/**
 * Registers the scheduler's handlers:
 * - bound pods (spec.nodeName set) go to the cache (add, update, remove; a bound add confirms an assumed
 *   pod) and tell the queue which waiting pods they may help (AssignedPodAdd/Update/Delete);
 * - pods not bound whose spec.schedulerName is one of `profiles` go to the queue (add, update, delete; an
 *   update of an assumed pod is ignored; when a nominated pod changes its nomination or goes away, lower or
 *   equal priority pods are retried); a pod that becomes bound leaves the queue and enters the cache;
 * - nodes go to the cache and move waiting pods (NodeAdd, one event per changed property, NodeDelete);
 * - claims, volumes, classes and CSINodes (`storage`) move waiting pods with their Add/Update/Delete
 *   events, for the actions the plugins registered (a kind no plugin registered gets no handler).
 *
 * @param config the informers, cache, queue, profile names and pod resolver
 * @returns the registrations (remove them to stop)
 */
export function addEventHandlers(config: EventHandlersConfig): HandlerRegistration[] {
  const { cache, queue, profiles } = config;
  const logger = (config.logger ?? silentLogger).child({ component: 'scheduler-events' });
  const resolve = config.resolvePod ?? ((p: Pod) => p);
  const podName = (p: Pod) => `${p.metadata.namespace}/${p.metadata.name}`;
  const logError = (err: Error | undefined, what: string, pod?: Pod) => {
    if (err) logger.error({ err: err.message, ...(pod ? { pod: podName(pod) } : {}) }, what);
  };

  const responsible = (pod: Pod) => profiles.has(pod.spec?.schedulerName ?? 'default-scheduler');

  const assignedHandler = filteringEventHandler<KubeObject>((o) => assigned(finalState(o) as Pod), {
    onAdd: (o) => {
      const pod = resolve(o as Pod);
      logError(cache.addPod(pod), 'scheduler cache AddPod failed', pod);
      queue.assignedPodAdded(pod);
    },
    onUpdate: (oldO, newO) => {
      const oldPod = resolve(oldO as Pod);
      const newPod = resolve(newO as Pod);
      logError(cache.updatePod(oldPod, newPod), 'scheduler cache UpdatePod failed', newPod);
      for (const event of podSchedulingPropertiesChange(newPod, oldPod))
        queue.assignedPodUpdated(oldPod, newPod, event);
    },
    onDelete: (o) => {
      const pod = resolve(finalState(o) as Pod);
      logError(cache.removePod(pod), 'scheduler cache RemovePod failed', pod);
      queue.moveAllToActiveOrBackoffQueue(EVENT_ASSIGNED_POD_DELETE, pod, undefined);
    },
  });

  const unassignedHandler = filteringEventHandler<KubeObject>(
    (o) => {
      const pod = finalState(o) as Pod;
      return !assigned(pod) && responsible(pod);
    },
    {
      onAdd: (o) => queue.add(resolve(o as Pod)),
      onUpdate: (oldO, newO) => {
        if (oldO.metadata?.resourceVersion === newO.metadata?.resourceVersion) return;
        const oldPod = resolve(oldO as Pod);
        const newPod = resolve(newO as Pod);
        if (cache.isAssumedPod(newPod)) return;
        queue.update(oldPod, newPod);
        const oldNominated = oldPod.status?.nominatedNodeName ?? '';
        if (oldNominated !== '' && oldNominated !== (newPod.status?.nominatedNodeName ?? '')) {
          queue.moveAllToActiveOrBackoffQueue(
            EVENT_ASSIGNED_POD_DELETE,
            oldPod,
            undefined,
            atMostPriority(priorityOf(oldPod)),
          );
        }
      },
      onDelete: (o) => {
        const pod = resolve(finalState(o) as Pod);
        queue.delete(pod);
        if (config.rejectWaitingPod?.(pod))
          queue.moveAllToActiveOrBackoffQueue(EVENT_ASSIGNED_POD_DELETE, pod, undefined);
        if (pod.status?.nominatedNodeName) {
          queue.moveAllToActiveOrBackoffQueue(
            EVENT_ASSIGNED_POD_DELETE,
            pod,
            undefined,
            atMostPriority(priorityOf(pod)),
          );
        }
      },
    },
  );

  const nodeHandler = {
    onAdd: (o: KubeObject) => {
      const node = o as Node;
      cache.addNode(node);
      queue.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD, undefined, node);
    },
    onUpdate: (oldO: KubeObject, newO: KubeObject) => {
      const oldNode = oldO as Node;
      const newNode = newO as Node;
      cache.updateNode(oldNode, newNode);
      for (const event of nodeSchedulingPropertiesChange(newNode, oldNode)) {
        queue.moveAllToActiveOrBackoffQueue(event, oldNode, newNode);
      }
    },
    onDelete: (o: KubeObject | DeletedFinalStateUnknown<KubeObject>) => {
      const node = finalState(o) as Node;
      queue.moveAllToActiveOrBackoffQueue(EVENT_NODE_DELETE, node, undefined);
      logError(cache.removeNode(node), 'scheduler cache RemoveNode failed');
    },
  };

  const registrations = [
    config.nodes.addEventHandler(nodeHandler, { name: 'scheduler-nodes' }),
    config.pods.addEventHandler(assignedHandler, { name: 'scheduler-assigned-pods' }),
    config.pods.addEventHandler(unassignedHandler, { name: 'scheduler-unassigned-pods' }),
  ];
  const storage = config.storage;
  if (storage) {
    for (const [field, resource] of STORAGE_RESOURCES) {
      const actions = config.registeredActions
        ? (config.registeredActions.get(resource) ?? 0)
        : ActionType.All;
      if (actions === 0) continue;
      registrations.push(
        storage[field].addEventHandler(storageEventHandler(queue, resource, actions), {
          name: `scheduler-${resource}`,
        }),
      );
    }
  }
  return registrations;
}
