// nodeSchedulingPropertiesChange: the specific node update events (allocatable, label, taint, condition, annotation, schedulable) an update makes.
import type { Node } from '../../operators/api/core-v1.ts';
import { ActionType, type ClusterEvent } from '../../operators/scheduling/framework/interface.ts';

const json = (v: unknown): string => JSON.stringify(v ?? null);

function sameRecord(a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined): boolean {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b ?? {}).length) return false;
  return ka.every((k) => json(a?.[k]) === json(b?.[k]));
}

function conditionStatuses(node: Node): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of node.status?.conditions ?? []) out[c.type] = c.status;
  return out;
}

/**
 * The node update events kube-scheduler derives from an update, in upstream's order: the node became
 * schedulable (reported as UpdateNodeTaint, since unschedulable acts as a taint), allocatable changed,
 * labels changed, taints changed, condition statuses changed (heartbeat times ignored), annotations changed.
 * An update that changes none of them makes no event.
 *
 * @param newNode the node after the update
 * @param oldNode the node before it
 * @returns the events, resource Node
 */
export function nodeSchedulingPropertiesChange(newNode: Node, oldNode: Node): ClusterEvent[] {
  const actions: number[] = [];
  if (
    Boolean(newNode.spec?.unschedulable) !== Boolean(oldNode.spec?.unschedulable) &&
    !newNode.spec?.unschedulable
  )
    actions.push(ActionType.UpdateNodeTaint);
  if (!sameRecord(newNode.status?.allocatable, oldNode.status?.allocatable))
    actions.push(ActionType.UpdateNodeAllocatable);
  if (!sameRecord(newNode.metadata.labels, oldNode.metadata.labels)) actions.push(ActionType.UpdateNodeLabel);
  if (json(newNode.spec?.taints ?? []) !== json(oldNode.spec?.taints ?? []))
    actions.push(ActionType.UpdateNodeTaint);
  if (!sameRecord(conditionStatuses(newNode), conditionStatuses(oldNode)))
    actions.push(ActionType.UpdateNodeCondition);
  if (!sameRecord(newNode.metadata.annotations, oldNode.metadata.annotations))
    actions.push(ActionType.UpdateNodeAnnotation);
  return actions.map((action) => ({ resource: 'Node', action }));
}
