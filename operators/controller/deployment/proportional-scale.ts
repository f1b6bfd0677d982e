// Proportional scaling: a Deployment resized mid-rollout spreads the change over its active ReplicaSets by their share (upstream's scale, getProportion).
import type { ReplicaSet } from '../replicaset/replica-set-types.ts';
import { desiredReplicasOf, maxReplicasOf } from './deployment-revision.ts';
import { type Deployment, deploymentReplicas, isRollingUpdate, specReplicas } from './deployment-types.ts';
import {
  bySizeNewer,
  bySizeOlder,
  filterActive,
  findActiveOrLatest,
  specTotal,
} from './replica-set-order.ts';
import { maxSurge } from './rolling-fenceposts.ts';
import type { ScaleStep } from './rolling-update.ts';

/** Go's math.Round: halves away from zero. */
const roundHalfAway = (x: number): number => Math.sign(x) * Math.round(Math.abs(x));

/**
 * The change a set's share calls for: −its size when scaling to 0; else its size × (replicas + maxSurge) ÷ its
 * max-replicas annotation (or the Deployment's status.replicas without one), rounded, minus its size.
 */
export function replicaSetFraction(rs: ReplicaSet, d: Deployment): number {
  const replicas = deploymentReplicas(d);
  if (replicas === 0) return -specReplicas(rs);
  const deploymentMax = replicas + maxSurge(d);
  const annotated = maxReplicasOf(rs) ?? d.status?.replicas ?? 0;
  if (annotated === 0) return 0;
  return roundHalfAway((specReplicas(rs) * deploymentMax) / annotated) - specReplicas(rs);
}

/**
 * The replicas one set gains (or loses) now (upstream's GetProportion): its fraction, bounded by what is
 * still to be added (a minimum when adding, a maximum when removing); 0 for an empty set or nothing left.
 *
 * @param toAdd replicas to spread over all sets (negative: to remove)
 * @param added replicas spread so far
 */
export function getProportion(
  rs: ReplicaSet | undefined,
  d: Deployment,
  toAdd: number,
  added: number,
): number {
  if (!rs || specReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = replicaSetFraction(rs, d);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

/**
 * Whether the new set already holds every replica: spec and desired-replicas annotation equal replicas, and
 * all of them available (upstream's IsSaturated).
 */
export function isSaturated(d: Deployment, rs: ReplicaSet | undefined): boolean {
  if (!rs) return false;
  const desired = desiredReplicasOf(rs);
  if (desired === undefined) return false;
  const replicas = deploymentReplicas(d);
  return (
    specReplicas(rs) === replicas && desired === replicas && (rs.status?.availableReplicas ?? 0) === replicas
  );
}

/**
 * What a scaling event (or a paused Deployment's resize) does to the sets (upstream's scale):
 * - one active set (or none: the newest) → it gets replicas;
 * - a saturated new set → every active old set to 0;
 * - rolling, several active → (replicas + maxSurge) − Σ spec spread by {@link getProportion}, largest set
 *   first (newer first when growing, older first when shrinking), the rounding leftover to the first, never
 *   below 0. Every active set is listed (its annotations may need the new sizes even when its size does not).
 * Recreate with several active sets: nothing.
 *
 * @returns the steps in order, and whether a step that keeps a size still refreshes the annotations (the proportional case)
 */
export function proportionalScale(
  d: Deployment,
  newRS: ReplicaSet | undefined,
  oldRSs: readonly ReplicaSet[],
): { steps: ScaleStep[]; refreshAnnotations: boolean } {
  const replicas = deploymentReplicas(d);
  const single = findActiveOrLatest(newRS, oldRSs);
  if (single) {
    if (specReplicas(single) === replicas) return { steps: [], refreshAnnotations: false };
    return { steps: [{ replicaSet: single, replicas }], refreshAnnotations: false };
  }
  if (isSaturated(d, newRS)) {
    return {
      steps: filterActive(oldRSs).map((rs) => ({ replicaSet: rs, replicas: 0 })),
      refreshAnnotations: false,
    };
  }
  if (!isRollingUpdate(d)) return { steps: [], refreshAnnotations: false };
  const all = filterActive([...oldRSs, newRS]);
  const allowed = replicas > 0 ? replicas + maxSurge(d) : 0;
  const toAdd = allowed - specTotal(all);
  if (toAdd > 0) all.sort(bySizeNewer);
  else if (toAdd < 0) all.sort(bySizeOlder);
  let added = 0;
  const sizes = all.map((rs) => {
    if (toAdd === 0) return specReplicas(rs);
    const p = getProportion(rs, d, toAdd, added);
    added += p;
    return specReplicas(rs) + p;
  });
  if (toAdd !== 0 && sizes.length > 0) sizes[0] = Math.max(0, sizes[0]! + (toAdd - added));
  return {
    steps: all.map((rs, i) => ({ replicaSet: rs, replicas: sizes[i]! })),
    refreshAnnotations: true,
  };
}
