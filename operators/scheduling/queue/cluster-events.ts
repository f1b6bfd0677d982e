// Cluster events as the scheduling queue sees them: the well-known events, their labels and the matching rules.
import {
  ActionType,
  type ClusterEvent,
  FORCE_ACTIVATE,
  UNSCHEDULABLE_TIMEOUT,
} from '../framework/interface.ts';

/** Labels of the queue's own moves (scheduler_queue_incoming_pods_total{event}). */
export const QueueEventLabel = {
  ScheduleAttemptFailure: 'ScheduleAttemptFailure',
  BackoffComplete: 'BackoffComplete',
  PopFromBackoffQ: 'PopFromBackoffQ',
  ForceActivate: 'ForceActivate',
  UnschedulableTimeout: 'UnschedulableTimeout',
} as const;

/** A bound pod was added, updated or deleted (informer events on assigned pods). */
export const EVENT_ASSIGNED_POD_ADD: ClusterEvent = { resource: 'AssignedPod', action: ActionType.Add };
export const EVENT_ASSIGNED_POD_UPDATE: ClusterEvent = { resource: 'AssignedPod', action: ActionType.Update };
export const EVENT_ASSIGNED_POD_DELETE: ClusterEvent = { resource: 'AssignedPod', action: ActionType.Delete };
/** A pod not yet bound was added, updated or deleted. */
export const EVENT_UNSCHEDULED_POD_ADD: ClusterEvent = {
  resource: 'UnschedulablePod',
  action: ActionType.Add,
};
export const EVENT_UNSCHEDULED_POD_UPDATE: ClusterEvent = {
  resource: 'UnschedulablePod',
  action: ActionType.Update,
};
export const EVENT_UNSCHEDULED_POD_DELETE: ClusterEvent = {
  resource: 'UnschedulablePod',
  action: ActionType.Delete,
};
export const EVENT_NODE_ADD: ClusterEvent = { resource: 'Node', action: ActionType.Add };
export const EVENT_NODE_DELETE: ClusterEvent = { resource: 'Node', action: ActionType.Delete };
export { FORCE_ACTIVATE as EVENT_FORCE_ACTIVATE, UNSCHEDULABLE_TIMEOUT as EVENT_UNSCHEDULABLE_TIMEOUT };

const ACTION_NAMES: readonly [number, string][] = [
  [ActionType.All, 'All'],
  [ActionType.Update, 'Update'],
  [ActionType.Add, 'Add'],
  [ActionType.Delete, 'Delete'],
  [ActionType.UpdateNodeAllocatable, 'UpdateNodeAllocatable'],
  [ActionType.UpdateNodeLabel, 'UpdateNodeLabel'],
  [ActionType.UpdateNodeTaint, 'UpdateNodeTaint'],
  [ActionType.UpdateNodeCondition, 'UpdateNodeCondition'],
  [ActionType.UpdateNodeAnnotation, 'UpdateNodeAnnotation'],
  [ActionType.UpdatePodLabel, 'UpdatePodLabel'],
  [ActionType.UpdatePodScaleDown, 'UpdatePodScaleDown'],
  [ActionType.UpdatePodToleration, 'UpdatePodToleration'],
  [ActionType.UpdatePodSchedulingGatesEliminated, 'UpdatePodSchedulingGatesEliminated'],
  [ActionType.UpdatePodGeneratedResourceClaim, 'UpdatePodGeneratedResourceClaim'],
  [ActionType.UpdatePodOther, 'UpdatePodOther'],
];

/** The name of an action: a known constant's name, or its bits' names joined by `|`. */
export function actionTypeName(action: number): string {
  if (action === 0) return 'None';
  for (const [value, name] of ACTION_NAMES) if (value === action) return name;
  const parts: string[] = [];
  for (const [value, name] of ACTION_NAMES.slice(2)) if ((action & value) !== 0) parts.push(name);
  return parts.join('|');
}

/** The event's label: its own `label`, else resource then action, e.g. `NodeAdd`, `UnschedulablePodUpdate`. */
export function clusterEventLabel(event: ClusterEvent): string {
  if (event.label) return event.label;
  const resource = event.resource === '*' ? 'WildCard' : event.resource;
  return `${resource}${actionTypeName(event.action)}`;
}

/** True for the wildcard events (every resource, every action): UnschedulableTimeout, ForceActivate. */
export function clusterEventIsWildCard(event: ClusterEvent): boolean {
  return event.resource === '*' && event.action === ActionType.All;
}

function matchResource(registered: ClusterEvent['resource'], incoming: ClusterEvent['resource']): boolean {
  return (
    registered === '*' ||
    registered === incoming ||
    (registered === 'Pod' && (incoming === 'AssignedPod' || incoming === 'UnschedulablePod'))
  );
}

/**
 * Whether an `incoming` event matches an event a plugin `registered`: a registered wildcard matches
 * everything; otherwise the resources match (`*`, equal, or `Pod` for an assigned/unscheduled pod),
 * the action bits intersect, and the incoming action is no wider than the registered one (a generic
 * `Node/Update` does not match a registered `UpdateNodeLabel`; an incoming wildcard matches only a
 * registered wildcard).
 */
export function matchClusterEvents(registered: ClusterEvent, incoming: ClusterEvent): boolean {
  return (
    clusterEventIsWildCard(registered) ||
    (matchResource(registered.resource, incoming.resource) &&
      (registered.action & incoming.action) !== 0 &&
      incoming.action <= registered.action)
  );
}

/** True when `incoming` matches any of the `registered` events. */
export function matchAnyClusterEvent(incoming: ClusterEvent, registered: readonly ClusterEvent[]): boolean {
  for (const r of registered) if (matchClusterEvents(r, incoming)) return true;
  return false;
}
