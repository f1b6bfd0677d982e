// Deployment status: the counts from its ReplicaSets and the Available, Progressing and ReplicaFailure conditions with upstream's reasons, deadlines and requeue times.
import type { ReplicaSet } from '../replicaset/replica-set-types.ts';
import {
  DEPLOYMENT_AVAILABLE,
  DEPLOYMENT_PROGRESSING,
  DEPLOYMENT_REASONS,
  DEPLOYMENT_REPLICA_FAILURE,
  type Deployment,
  type DeploymentCondition,
  type DeploymentStatus,
  deploymentReplicas,
  MAX_INT32,
} from './deployment-types.ts';
import { availableTotal, readyTotal, specTotal, statusTotal } from './replica-set-order.ts';
import { maxUnavailable } from './rolling-fenceposts.ts';

/** A metav1.Time: whole seconds, RFC 3339. */
export const stamp = (ms: number): string =>
  new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** A condition stamped `now` (both times). */
export function newDeploymentCondition(
  type: string,
  status: DeploymentCondition['status'],
  reason: string,
  message: string,
  now: number,
): DeploymentCondition {
  const t = stamp(now);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

export function getDeploymentCondition(
  status: DeploymentStatus | undefined,
  type: string,
): DeploymentCondition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

/**
 * Puts `condition` into `status` (upstream's SetDeploymentCondition): nothing when one of its type has the
 * same status and reason; the old lastTransitionTime kept when only the reason changes; it goes last.
 */
export function setDeploymentCondition(status: DeploymentStatus, condition: DeploymentCondition): void {
  const current = getDeploymentCondition(status, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  const next = { ...condition };
  if (current && current.status === condition.status && current.lastTransitionTime)
    next.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== condition.type), next];
}

export function removeDeploymentCondition(status: DeploymentStatus, type: string): void {
  if (!status.conditions) return;
  const rest = status.conditions.filter((c) => c.type !== type);
  if (rest.length > 0) status.conditions = rest;
  else delete status.conditions;
}

/** progressDeadlineSeconds is set and not MaxInt32. */
export const hasProgressDeadline = (d: Deployment): boolean =>
  d.spec.progressDeadlineSeconds !== undefined &&
  d.spec.progressDeadlineSeconds !== null &&
  d.spec.progressDeadlineSeconds !== MAX_INT32;

/**
 * The status the sets give (upstream's calculateStatus): replicas, ready and available summed from their
 * status, updatedReplicas from the new set, unavailableReplicas = Σ spec − available (≥ 0), the generation
 * observed, the collision count kept, the old conditions kept, and Available set True (MinimumReplicasAvailable)
 * when available ≥ replicas − maxUnavailable, else False (MinimumReplicasUnavailable).
 */
export function calculateStatus(
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
  now: number,
): DeploymentStatus {
  const available = availableTotal(allRSs);
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation ?? 0,
    replicas: statusTotal(allRSs),
    updatedReplicas: statusTotal([newRS]),
    readyReplicas: readyTotal(allRSs),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, specTotal(allRSs) - available),
  };
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;
  if (d.status?.conditions?.length) status.conditions = d.status.conditions.map((c) => ({ ...c }));
  if (available >= deploymentReplicas(d) - maxUnavailable(d)) {
    setDeploymentCondition(
      status,
      newDeploymentCondition(
        DEPLOYMENT_AVAILABLE,
        'True',
        DEPLOYMENT_REASONS.minimumReplicasAvailable,
        'Deployment has minimum availability.',
        now,
      ),
    );
  } else {
    setDeploymentCondition(
      status,
      newDeploymentCondition(
        DEPLOYMENT_AVAILABLE,
        'False',
        DEPLOYMENT_REASONS.minimumReplicasUnavailable,
        'Deployment does not have minimum availability.',
        now,
      ),
    );
  }
  return status;
}

/** Every replica updated, counted and available, and the generation observed (upstream's DeploymentComplete). */
export function deploymentComplete(d: Deployment, s: DeploymentStatus | undefined): boolean {
  const replicas = deploymentReplicas(d);
  return (
    (s?.updatedReplicas ?? 0) === replicas &&
    (s?.replicas ?? 0) === replicas &&
    (s?.availableReplicas ?? 0) === replicas &&
    (s?.observedGeneration ?? 0) >= (d.metadata.generation ?? 0)
  );
}

/** More updated, fewer old, more ready or more available replicas than the stored status (upstream's DeploymentProgressing). */
export function deploymentProgressing(d: Deployment, next: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (next.replicas ?? 0) - (next.updatedReplicas ?? 0);
  return (
    (next.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (next.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (next.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/**
 * Whether the rollout has timed out (upstream's DeploymentTimedOut): with a deadline and a Progressing
 * condition that is neither NewReplicaSetAvailable (false) nor ProgressDeadlineExceeded (true), when its
 * lastUpdateTime + progressDeadlineSeconds is before `now`.
 */
export function deploymentTimedOut(d: Deployment, next: DeploymentStatus, now: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getDeploymentCondition(next, DEPLOYMENT_PROGRESSING);
  if (!c) return false;
  if (c.reason === DEPLOYMENT_REASONS.newRSAvailable) return false;
  if (c.reason === DEPLOYMENT_REASONS.timedOut) return true;
  const from = Date.parse(c.lastUpdateTime ?? '');
  if (Number.isNaN(from)) return false;
  return from + (d.spec.progressDeadlineSeconds ?? 0) * 1000 < now;
}

/** The ReplicaFailure conditions of the new set, else of any set, as Deployment conditions. */
export function replicaFailures(
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
): DeploymentCondition[] {
  const of = (rs: ReplicaSet | undefined): DeploymentCondition[] =>
    (rs?.status?.conditions ?? [])
      .filter((c) => c.type === DEPLOYMENT_REPLICA_FAILURE)
      .map((c) => ({
        type: c.type,
        status: c.status,
        ...(c.lastTransitionTime
          ? { lastUpdateTime: c.lastTransitionTime, lastTransitionTime: c.lastTransitionTime }
          : {}),
        ...(c.reason !== undefined ? { reason: c.reason } : {}),
        ...(c.message !== undefined ? { message: c.message } : {}),
      }));
  const fromNew = of(newRS);
  return fromNew.length > 0 ? fromNew : allRSs.flatMap(of);
}

/**
 * The status a rollout sync writes (upstream's syncRolloutStatus without the write): {@link calculateStatus};
 * without a deadline no Progressing condition; with one, unless the last rollout already completed,
 * Progressing True NewReplicaSetAvailable when complete, True ReplicaSetUpdated (its lastUpdateTime moved)
 * on progress, False ProgressDeadlineExceeded when timed out; ReplicaFailure copied from the sets or removed.
 */
export function rolloutStatus(
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
  now: number,
): DeploymentStatus {
  const next = calculateStatus(allRSs, newRS, d, now);
  if (!hasProgressDeadline(d)) removeDeploymentCondition(next, DEPLOYMENT_PROGRESSING);
  const current = getDeploymentCondition(d.status, DEPLOYMENT_PROGRESSING);
  const complete =
    next.replicas === next.updatedReplicas && current?.reason === DEPLOYMENT_REASONS.newRSAvailable;
  const name = d.metadata.name ?? '';
  if (hasProgressDeadline(d) && !complete) {
    if (deploymentComplete(d, next)) {
      const msg = newRS
        ? `ReplicaSet "${newRS.metadata.name}" has successfully progressed.`
        : `Deployment "${name}" has successfully progressed.`;
      setDeploymentCondition(
        next,
        newDeploymentCondition(DEPLOYMENT_PROGRESSING, 'True', DEPLOYMENT_REASONS.newRSAvailable, msg, now),
      );
    } else if (deploymentProgressing(d, next)) {
      const msg = newRS
        ? `ReplicaSet "${newRS.metadata.name}" is progressing.`
        : `Deployment "${name}" is progressing.`;
      const condition = newDeploymentCondition(
        DEPLOYMENT_PROGRESSING,
        'True',
        DEPLOYMENT_REASONS.replicaSetUpdated,
        msg,
        now,
      );
      if (current) {
        if (current.status === 'True' && current.lastTransitionTime)
          condition.lastTransitionTime = current.lastTransitionTime;
        removeDeploymentCondition(next, DEPLOYMENT_PROGRESSING);
      }
      setDeploymentCondition(next, condition);
    } else if (deploymentTimedOut(d, next, now)) {
      const msg = newRS
        ? `ReplicaSet "${newRS.metadata.name}" has timed out progressing.`
        : `Deployment "${name}" has timed out progressing.`;
      setDeploymentCondition(
        next,
        newDeploymentCondition(DEPLOYMENT_PROGRESSING, 'False', DEPLOYMENT_REASONS.timedOut, msg, now),
      );
    }
  }
  const failures = replicaFailures(allRSs, newRS);
  if (failures.length > 0) setDeploymentCondition(next, failures[0]!);
  else removeDeploymentCondition(next, DEPLOYMENT_REPLICA_FAILURE);
  return next;
}

/**
 * Pause bookkeeping (upstream's checkPausedConditions), on `d.status` in place: with a deadline and no
 * ProgressDeadlineExceeded, a paused Deployment gets Progressing Unknown DeploymentPaused ("Deployment is
 * paused"), a resumed one Progressing Unknown DeploymentResumed ("Deployment is resumed").
 *
 * @returns whether the status changed
 */
export function checkPausedConditions(d: Deployment, now: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getDeploymentCondition(d.status, DEPLOYMENT_PROGRESSING);
  if (c?.reason === DEPLOYMENT_REASONS.timedOut) return false;
  const pausedExists = c?.reason === DEPLOYMENT_REASONS.paused;
  d.status ??= {};
  const status = d.status;
  if (d.spec.paused && !pausedExists) {
    setDeploymentCondition(
      status,
      newDeploymentCondition(
        DEPLOYMENT_PROGRESSING,
        'Unknown',
        DEPLOYMENT_REASONS.paused,
        'Deployment is paused',
        now,
      ),
    );
    return true;
  }
  if (!d.spec.paused && pausedExists) {
    setDeploymentCondition(
      status,
      newDeploymentCondition(
        DEPLOYMENT_PROGRESSING,
        'Unknown',
        DEPLOYMENT_REASONS.resumed,
        'Deployment is resumed',
        now,
      ),
    );
    return true;
  }
  return false;
}

/**
 * When to look again for a progress check (upstream's requeueStuckDeployment): -1 never (no deadline, no
 * Progressing condition, complete, or already timed out); 0 now, rate-limited (less than a second left);
 * else the time left in ms (the controller looks again a second after it).
 */
export function requeueStuckDeployment(d: Deployment, next: DeploymentStatus, now: number): number {
  const c = getDeploymentCondition(d.status, DEPLOYMENT_PROGRESSING);
  if (!hasProgressDeadline(d) || !c) return -1;
  if (deploymentComplete(d, next) || c.reason === DEPLOYMENT_REASONS.timedOut) return -1;
  const from = Date.parse(c.lastUpdateTime ?? '');
  if (Number.isNaN(from)) return -1;
  const after = from + (d.spec.progressDeadlineSeconds ?? 0) * 1000 - now;
  return after < 1000 ? 0 : after;
}

const COUNTS = [
  'observedGeneration',
  'replicas',
  'updatedReplicas',
  'readyReplicas',
  'availableReplicas',
  'unavailableReplicas',
] as const;
const CONDITION_FIELDS = [
  'type',
  'status',
  'reason',
  'message',
  'lastUpdateTime',
  'lastTransitionTime',
] as const;

/** Whether two statuses are the same: counts (absent as 0), collision count and conditions in order. */
export function deploymentStatusEqual(
  a: DeploymentStatus | undefined,
  b: DeploymentStatus | undefined,
): boolean {
  for (const k of COUNTS) if ((a?.[k] ?? 0) !== (b?.[k] ?? 0)) return false;
  if (a?.collisionCount !== b?.collisionCount) return false;
  const ca = a?.conditions ?? [];
  const cb = b?.conditions ?? [];
  if (ca.length !== cb.length) return false;
  return ca.every((c, i) => CONDITION_FIELDS.every((f) => (c[f] ?? '') === (cb[i]![f] ?? '')));
}
