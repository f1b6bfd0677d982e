// History cleanup: the old ReplicaSets a Deployment deletes beyond its revisionHistoryLimit (upstream's cleanupDeployment).
import type { ReplicaSet } from '../replicaset/replica-set-types.ts';
import { type Deployment, MAX_INT32, specReplicas } from './deployment-types.ts';
import { byRevision } from './replica-set-order.ts';

/** The API server's default of spec.revisionHistoryLimit. */
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;

/**
 * The old sets to delete: none when the limit is MaxInt32 (keep all); otherwise, of the old sets not already
 * being deleted, the (count − limit) lowest revisions, skipping any that still has replicas in spec or status
 * or whose latest generation its controller has not observed yet.
 *
 * @example
 * historyToCleanUp(d, [rs1, rs2, rs3]);   // limit 1, all three at 0 replicas → [rs1, rs2]
 * @param d the Deployment (spec.revisionHistoryLimit, default 10)
 * @param oldRSs every old set of the Deployment
 */
export function historyToCleanUp(d: Deployment, oldRSs: readonly ReplicaSet[]): ReplicaSet[] {
  const limit = d.spec.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT;
  if (limit === MAX_INT32) return [];
  const alive = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp);
  const diff = alive.length - limit;
  if (diff <= 0) return [];
  return [...alive]
    .sort(byRevision)
    .slice(0, diff)
    .filter(
      (rs) =>
        (rs.status?.replicas ?? 0) === 0 &&
        specReplicas(rs) === 0 &&
        (rs.metadata.generation ?? 0) <= (rs.status?.observedGeneration ?? 0),
    );
}
