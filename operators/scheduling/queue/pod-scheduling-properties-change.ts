// podSchedulingPropertiesChange: the specific pod update events (label, scale-down, toleration, gates) an update makes.
import type { Pod } from '../../api/core-v1.ts';
import { ActionType, type ClusterEvent } from '../framework/interface.ts';
import { podRequests, type Resource } from '../framework/node-info.ts';

function sameLabels(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ka = Object.keys(a ?? {});
  const kb = Object.keys(b ?? {});
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (a![k] !== b?.[k]) return false;
  return true;
}

function requestsByName(r: Resource): Map<string, number> {
  const m = new Map<string, number>();
  if (r.milliCPU) m.set('cpu', r.milliCPU);
  if (r.memory) m.set('memory', r.memory);
  if (r.ephemeralStorage) m.set('ephemeral-storage', r.ephemeralStorage);
  for (const [k, v] of Object.entries(r.scalar)) if (v) m.set(k, v);
  return m;
}

function scaledDown(newPod: Pod, oldPod: Pod): boolean {
  let oldReq: Map<string, number>;
  let newReq: Map<string, number>;
  try {
    oldReq = requestsByName(podRequests(oldPod));
    newReq = requestsByName(podRequests(newPod));
  } catch {
    return false;
  }
  for (const [name, before] of oldReq) {
    const after = newReq.get(name);
    if (after === undefined || before > after) return true;
  }
  return false;
}

/**
 * The events an update of a pod makes, as kube-scheduler's PodSchedulingPropertiesChange: one per
 * kind of change among labels (UpdatePodLabel), requests scaled down (UpdatePodScaleDown), all
 * scheduling gates removed (UpdatePodSchedulingGatesEliminated) and tolerations added
 * (UpdatePodToleration); the generic Update when none applies. The resource is `AssignedPod` for a
 * bound pod, `UnschedulablePod` otherwise.
 */
export function podSchedulingPropertiesChange(newPod: Pod, oldPod: Pod): ClusterEvent[] {
  const resource = newPod.spec.nodeName ? 'AssignedPod' : 'UnschedulablePod';
  const actions: number[] = [];
  if (!sameLabels(newPod.metadata.labels, oldPod.metadata.labels)) actions.push(ActionType.UpdatePodLabel);
  if (scaledDown(newPod, oldPod)) actions.push(ActionType.UpdatePodScaleDown);
  if ((newPod.spec.schedulingGates?.length ?? 0) === 0 && (oldPod.spec.schedulingGates?.length ?? 0) !== 0) {
    actions.push(ActionType.UpdatePodSchedulingGatesEliminated);
  }
  if ((newPod.spec.tolerations?.length ?? 0) !== (oldPod.spec.tolerations?.length ?? 0)) {
    actions.push(ActionType.UpdatePodToleration);
  }
  if (actions.length === 0) actions.push(ActionType.Update);
  return actions.map((action) => ({ resource, action }));
}
