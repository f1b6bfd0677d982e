// replicaDiff: what one replicaset sync does to its pods — how many to create, or which to delete — as upstream's manageReplicas decides.
import type { Pod } from '../../api/core-v1.ts';
import { podsToDelete } from '../pod-deletion-order.ts';
import { BURST_REPLICAS, type ReplicaSet } from './replica-set-types.ts';

/** What {@link replicaDiff} asks for: never both creations and deletions. */
export interface ReplicaDiff {
  /** Active pods minus wanted replicas (negative: too few). */
  diff: number;
  /** How many pods to create (≤ burst). */
  create: number;
  /** The pods to delete, cheapest first (≤ burst). */
  delete: Pod[];
}

/** The replicas a ReplicaSet wants: spec.replicas, 1 when absent. */
export const wantedReplicas = (rs: ReplicaSet): number => rs.spec.replicas ?? 1;

/**
 * The replica diff of upstream's manageReplicas: with fewer active pods than replicas, create the
 * difference (at most `burstReplicas`); with more, delete the difference (at most `burstReplicas`), chosen
 * by {@link podsToDelete} — unscheduled, pending, not-ready, cheap (pod-deletion-cost), crowded (by the
 * `related` pods on the same node), recently-ready, restarting, new pods first.
 *
 * @example
 * replicaDiff({ rs, active: [p1], related: [p1] });  // → { diff: -1, create: 1, delete: [] } for replicas 2
 * @param input.rs the ReplicaSet
 * @param input.active its claimed active pods
 * @param input.related the active pods of every ReplicaSet of its Deployment (or `active`)
 * @param input.now the reference time (ms) for the logarithmic time buckets
 * @param input.burstReplicas the cap per sync; default {@link BURST_REPLICAS}
 */
export function replicaDiff(input: {
  rs: ReplicaSet;
  active: readonly Pod[];
  related?: readonly Pod[];
  now?: number;
  burstReplicas?: number;
}): ReplicaDiff {
  const burst = input.burstReplicas ?? BURST_REPLICAS;
  const diff = input.active.length - wantedReplicas(input.rs);
  if (diff < 0) return { diff, create: Math.min(-diff, burst), delete: [] };
  if (diff > 0) {
    const n = Math.min(diff, burst);
    return {
      diff,
      create: 0,
      delete: podsToDelete(input.active, input.related ?? input.active, n, input.now),
    };
  }
  return { diff, create: 0, delete: [] };
}
