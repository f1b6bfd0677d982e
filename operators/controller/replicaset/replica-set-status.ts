// replicaSetStatus: a ReplicaSet's status from its claimed pods and the last sync's error, as upstream's calculateStatus, and whether it needs writing.
import type { Pod } from '../../api/core-v1.ts';
import { labelSelectorFromSet } from '../../label-selector.ts';
import { isPodReady } from '../pod-deletion-order.ts';
import { wantedReplicas } from './replica-diff.ts';
import { REPLICA_FAILURE, type ReplicaSet, type ReplicaSetStatus } from './replica-set-types.ts';

/** Ready, and (with minReadySeconds > 0) ready since strictly more than minReadySeconds before `now` (upstream's IsPodAvailable). */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds <= 0) return true;
  const c = pod.status?.conditions?.find((x) => x.type === 'Ready');
  const since = c?.lastTransitionTime ? Date.parse(c.lastTransitionTime) : Number.NaN;
  return !Number.isNaN(since) && since + minReadySeconds * 1000 < now;
}

const stamp = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/**
 * The new status: replicas (the active claimed pods), fullyLabeledReplicas (those carrying every template
 * label), readyReplicas, availableReplicas (ready for minReadySeconds); a ReplicaFailure=True condition
 * (reason FailedCreate with too few pods, FailedDelete with too many, the error's text as message) added
 * when the sync's create/delete failed and none is there, removed once a sync succeeds. observedGeneration
 * is left as it was; {@link replicaSetStatusUpToDate} and the writer set it.
 *
 * @param rs the ReplicaSet as the sync read it
 * @param active its claimed active pods
 * @param manageError the error of the sync's creations or deletions, if any
 * @param now the time in ms (availability, the condition's lastTransitionTime)
 */
export function replicaSetStatus(
  rs: ReplicaSet,
  active: readonly Pod[],
  manageError: unknown,
  now: number,
): ReplicaSetStatus {
  const templateLabels = labelSelectorFromSet(rs.spec.template?.metadata?.labels);
  const minReady = rs.spec.minReadySeconds ?? 0;
  let fully = 0;
  let ready = 0;
  let available = 0;
  for (const pod of active) {
    if (templateLabels.matches(pod.metadata.labels ?? {})) fully++;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReady, now)) available++;
    }
  }
  const status: ReplicaSetStatus = { ...(rs.status ?? { replicas: 0 }) };
  const failure = status.conditions?.find((c) => c.type === REPLICA_FAILURE);
  if (manageError !== undefined && !failure) {
    const diff = active.length - wantedReplicas(rs);
    const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
    const message = manageError instanceof Error ? manageError.message : String(manageError);
    status.conditions = [
      ...(status.conditions ?? []),
      { type: REPLICA_FAILURE, status: 'True', reason, message, lastTransitionTime: stamp(now) },
    ];
  } else if (manageError === undefined && failure) {
    const rest = (status.conditions ?? []).filter((c) => c.type !== REPLICA_FAILURE);
    if (rest.length > 0) status.conditions = rest;
    else delete status.conditions;
  }
  status.replicas = active.length;
  status.fullyLabeledReplicas = fully;
  status.readyReplicas = ready;
  status.availableReplicas = available;
  return status;
}

/**
 * Whether writing `next` would change nothing (upstream's early return in updateReplicaSetStatus): the four
 * counts equal, the generation already observed, the conditions the same.
 */
export function replicaSetStatusUpToDate(rs: ReplicaSet, next: ReplicaSetStatus): boolean {
  const cur = rs.status ?? { replicas: 0 };
  return (
    (cur.replicas ?? 0) === next.replicas &&
    (cur.fullyLabeledReplicas ?? 0) === (next.fullyLabeledReplicas ?? 0) &&
    (cur.readyReplicas ?? 0) === (next.readyReplicas ?? 0) &&
    (cur.availableReplicas ?? 0) === (next.availableReplicas ?? 0) &&
    (rs.metadata.generation ?? 0) === (cur.observedGeneration ?? 0) &&
    JSON.stringify(cur.conditions ?? []) === JSON.stringify(next.conditions ?? [])
  );
}
