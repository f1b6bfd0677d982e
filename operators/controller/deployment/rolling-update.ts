// Rolling-update arithmetic: how far the new ReplicaSet may grow (NewRSNewReplicas) and how far the old ones may shrink (unhealthy first, then by availability).
import type { ReplicaSet } from '../replicaset/replica-set-types.ts';
import { type Deployment, deploymentReplicas, specReplicas } from './deployment-types.ts';
import { availableTotal, byCreation, specTotal } from './replica-set-order.ts';
import { maxUnavailable, scaledValue } from './rolling-fenceposts.ts';

/** One ReplicaSet resized. */
export interface ScaleStep {
  replicaSet: ReplicaSet;
  replicas: number;
}

/**
 * The replicas the new ReplicaSet should have now (upstream's NewRSNewReplicas): for Recreate, all of them;
 * for RollingUpdate, grown by what replicas + maxSurge leaves over the sum of every set's spec, never past
 * replicas. An unknown strategy type is an error value.
 *
 * @example
 * // replicas 10, maxSurge 2, old 10, new 0 → 2
 * newRSNewReplicas(d, [old, newRS], newRS);
 */
export function newRSNewReplicas(
  d: Deployment,
  allRSs: readonly ReplicaSet[],
  newRS: ReplicaSet,
): number | { error: string } {
  const replicas = deploymentReplicas(d);
  const type = d.spec.strategy?.type ?? 'RollingUpdate';
  if (type === 'Recreate') return replicas;
  if (type !== 'RollingUpdate') return { error: `deployment type ${type} isn't supported` };
  const surgeValue = d.spec.strategy?.rollingUpdate?.maxSurge ?? '25%';
  let surge: number;
  try {
    surge = scaledValue(surgeValue, replicas, true, 'spec.strategy.rollingUpdate.maxSurge');
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
  const current = specTotal(allRSs);
  const maxTotal = replicas + surge;
  if (current >= maxTotal) return specReplicas(newRS);
  return specReplicas(newRS) + Math.min(maxTotal - current, replicas - specReplicas(newRS));
}

/**
 * The new ReplicaSet's target in a rolling sync (upstream's reconcileNewReplicaSet): undefined when it already
 * has replicas; replicas when it has more; else {@link newRSNewReplicas}.
 */
export function reconcileNewReplicaSetTarget(
  d: Deployment,
  allRSs: readonly ReplicaSet[],
  newRS: ReplicaSet,
): number | undefined | { error: string } {
  const replicas = deploymentReplicas(d);
  if (specReplicas(newRS) === replicas) return undefined;
  if (specReplicas(newRS) > replicas) return replicas;
  return newRSNewReplicas(d, allRSs, newRS);
}

/**
 * How many old replicas one rolling sync may remove at most: all pods − minAvailable − the new set's unavailable
 * pods (upstream's maxScaledDown in reconcileOldReplicaSets). ≤ 0 means none.
 */
export function maxScaledDown(d: Deployment, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): number {
  const minAvail = deploymentReplicas(d) - maxUnavailable(d);
  const newUnavailable = specReplicas(newRS) - (newRS.status?.availableReplicas ?? 0);
  return specTotal(allRSs) - minAvail - newUnavailable;
}

/**
 * Old sets shrunk by their unavailable replicas, oldest first, at most `maxCleanup` in all (upstream's
 * cleanupUnhealthyReplicas): they cost no availability. A set with more available than spec replicas is an
 * error value, as upstream refuses to "scale down" upwards.
 */
export function cleanupUnhealthyReplicas(
  oldRSs: readonly ReplicaSet[],
  maxCleanup: number,
): { steps: ScaleStep[]; total: number; error?: string } {
  const steps: ScaleStep[] = [];
  let total = 0;
  for (const rs of [...oldRSs].sort(byCreation)) {
    if (total >= maxCleanup) break;
    const spec = specReplicas(rs);
    const available = rs.status?.availableReplicas ?? 0;
    if (spec === 0 || spec === available) continue;
    const n = Math.min(maxCleanup - total, spec - available);
    const next = spec - n;
    if (next > spec) {
      return {
        steps,
        total,
        error: `when cleaning up unhealthy replicas, got invalid request to scale down ${rs.metadata.namespace}/${rs.metadata.name} ${spec} -> ${next}`,
      };
    }
    steps.push({ replicaSet: rs, replicas: next });
    total += n;
  }
  return { steps, total };
}

/**
 * Old sets shrunk, oldest first, by what availability allows: (available across every set) − minAvailable
 * (upstream's scaleDownOldReplicaSetsForRollingUpdate). Nothing when available ≤ minAvailable.
 */
export function scaleDownOldReplicaSetsForRollingUpdate(
  d: Deployment,
  allRSs: readonly ReplicaSet[],
  oldRSs: readonly ReplicaSet[],
): { steps: ScaleStep[]; total: number } {
  const minAvail = deploymentReplicas(d) - maxUnavailable(d);
  const available = availableTotal(allRSs);
  const steps: ScaleStep[] = [];
  if (available <= minAvail) return { steps, total: 0 };
  const toScaleDown = available - minAvail;
  let total = 0;
  for (const rs of [...oldRSs].sort(byCreation)) {
    if (total >= toScaleDown) break;
    const spec = specReplicas(rs);
    if (spec === 0) continue;
    const n = Math.min(spec, toScaleDown - total);
    steps.push({ replicaSet: rs, replicas: spec - n });
    total += n;
  }
  return { steps, total };
}
