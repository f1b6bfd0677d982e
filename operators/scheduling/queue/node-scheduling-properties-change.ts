// nodeSchedulingPropertiesChange: the specific node update events (allocatable, labels, taints, conditions, annotations) an update makes.

import type { Node, ResourceList } from '../../api/core-v1.ts';
import { quantityMilliValue } from '../../api/quantity.ts';
import { deepEqual } from '../../pod-config/deep-equal.ts';
import { ActionType, type ClusterEvent } from '../framework/interface.ts';

/** Empty and missing maps and lists are the same (as Go's semantic equality of nil and empty). */
function orEmpty<T>(v: T | undefined, empty: T): T {
  return v === undefined || v === null ? empty : v;
}

function sameResources(a: ResourceList | undefined, b: ResourceList | undefined): boolean {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b ?? {}).length) return false;
  for (const k of ka) {
    const x = a![k];
    const y = b?.[k];
    if (y === undefined) return false;
    try {
      if (quantityMilliValue(x!, k) !== quantityMilliValue(y, k)) return false;
    } catch {
      if (String(x) !== String(y)) return false;
    }
  }
  return true;
}

function conditionStatuses(node: Node): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of node.status?.conditions ?? []) out[c.type] = c.status;
  return out;
}

/**
 * The events an update of a node makes, as kube-scheduler's NodeSchedulingPropertiesChange: one per
 * kind of change, in this order: spec.unschedulable turned off (reported as UpdateNodeTaint),
 * allocatable, labels, taints, conditions (type → status), annotations. Empty when nothing the
 * scheduler looks at changed (the scheduler then moves no pod).
 */
export function nodeSchedulingPropertiesChange(newNode: Node, oldNode: Node): ClusterEvent[] {
  const actions: number[] = [];
  if (
    Boolean(newNode.spec?.unschedulable) !== Boolean(oldNode.spec?.unschedulable) &&
    !newNode.spec?.unschedulable
  ) {
    actions.push(ActionType.UpdateNodeTaint);
  }
  if (!sameResources(oldNode.status?.allocatable, newNode.status?.allocatable)) {
    actions.push(ActionType.UpdateNodeAllocatable);
  }
  if (!deepEqual(orEmpty(oldNode.metadata.labels, {}), orEmpty(newNode.metadata.labels, {}))) {
    actions.push(ActionType.UpdateNodeLabel);
  }
  if (!deepEqual(orEmpty(oldNode.spec?.taints, []), orEmpty(newNode.spec?.taints, []))) {
    actions.push(ActionType.UpdateNodeTaint);
  }
  if (!deepEqual(conditionStatuses(oldNode), conditionStatuses(newNode)))
    actions.push(ActionType.UpdateNodeCondition);
  if (!deepEqual(orEmpty(oldNode.metadata.annotations, {}), orEmpty(newNode.metadata.annotations, {}))) {
    actions.push(ActionType.UpdateNodeAnnotation);
  }
  return actions.map((action) => ({ resource: 'Node', action }));
}
