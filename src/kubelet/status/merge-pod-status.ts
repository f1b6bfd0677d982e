// mergePodStatus: the status the kubelet writes, from the API server's copy and its own (status_manager.go).
import type { PodCondition, PodStatus } from '../../../operators/api/core-v1.ts';
import {
  isPodPhaseTerminal,
  KUBELET_POD_CONDITIONS,
  SHARED_POD_CONDITIONS,
  terminalReadyConditions,
} from './pod-conditions.ts';

/**
 * Merges the kubelet's status into the API server's: conditions other writers own are kept from the
 * server; kubelet-owned ones come from the kubelet; `DisruptionTarget` is only sent with the move to a
 * terminal phase. A move to a terminal phase waits while containers could still run
 * (`delayTerminal`), and a phase the server already has as terminal is never replaced by a
 * non-terminal one. In a terminal phase Ready and ContainersReady are False.
 *
 * @param server the status on the API server
 * @param kubelet the kubelet's status
 * @param delayTerminal whether the pod could still have running containers
 * @param now the time, for a DisruptionTarget transition
 * @returns the status to write
 */
export function mergePodStatus(
  server: PodStatus,
  kubelet: PodStatus,
  delayTerminal: boolean,
  now: string,
): PodStatus {
  const merged: PodStatus = { ...kubelet };
  const conditions: PodCondition[] = (server.conditions ?? []).filter(
    (c) => !KUBELET_POD_CONDITIONS.has(c.type),
  );
  const toTerminal = !isPodPhaseTerminal(server.phase) && isPodPhaseTerminal(kubelet.phase);
  for (const c of kubelet.conditions ?? []) {
    if (KUBELET_POD_CONDITIONS.has(c.type)) conditions.push(c);
    else if (SHARED_POD_CONDITIONS.has(c.type) && toTerminal && !delayTerminal) {
      const old = server.conditions?.find((x) => x.type === c.type);
      const stamped = {
        ...c,
        lastTransitionTime: old && old.status === c.status ? old.lastTransitionTime : now,
      };
      const i = conditions.findIndex((x) => x.type === c.type);
      if (i >= 0) conditions[i] = stamped;
      else conditions.push(stamped);
    }
  }
  merged.conditions = conditions;
  const keepServerPhase =
    (toTerminal && delayTerminal) || (isPodPhaseTerminal(server.phase) && !isPodPhaseTerminal(kubelet.phase));
  if (keepServerPhase) {
    for (const field of ['phase', 'reason', 'message'] as const) {
      if (server[field] === undefined) delete merged[field];
      else merged[field] = server[field];
    }
  }
  if (isPodPhaseTerminal(merged.phase)) {
    const readyTrue = merged.conditions.some(
      (c) => (c.type === 'Ready' || c.type === 'ContainersReady') && c.status === 'True',
    );
    if (readyTrue) {
      for (const forced of terminalReadyConditions(merged.phase)) {
        const i = merged.conditions.findIndex((c) => c.type === forced.type);
        const old = i >= 0 ? merged.conditions[i] : undefined;
        const stamped = {
          ...forced,
          lastTransitionTime: old?.status === forced.status ? old.lastTransitionTime : now,
        };
        if (i >= 0) merged.conditions[i] = stamped;
        else merged.conditions.push(stamped);
      }
    }
  }
  return merged;
}
