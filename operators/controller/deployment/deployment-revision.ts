// Deployment revisions: the revision, revision-history, desired-replicas and max-replicas annotations of a Deployment's ReplicaSets, read and set as upstream does.
import type { ReplicaSet } from '../replicaset/replica-set-types.ts';
import {
  DEPRECATED_ROLLBACK_TO_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  type Deployment,
  deploymentReplicas,
  LAST_APPLIED_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  MAX_REVISION_HISTORY_CHARS,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
} from './deployment-types.ts';
import { maxSurge } from './rolling-fenceposts.ts';

const INT = /^-?\d+$/;

/** The revision annotation as a number: 0 when absent, undefined when not an integer (such sets are skipped). */
export function revisionOf(o: { metadata?: { annotations?: Record<string, string> } }): number | undefined {
  const v = o.metadata?.annotations?.[REVISION_ANNOTATION];
  if (v === undefined) return 0;
  return INT.test(v) ? Number(v) : undefined;
}

/** The highest revision among the sets (0 for none). */
export function maxRevision(rss: readonly ReplicaSet[]): number {
  let max = 0;
  for (const rs of rss) {
    const v = revisionOf(rs);
    if (v !== undefined && v > max) max = v;
  }
  return max;
}

/** The second-highest revision (the one `kubectl rollout undo` goes back to by default). */
export function lastRevision(rss: readonly ReplicaSet[]): number {
  let max = 0;
  let second = 0;
  for (const rs of rss) {
    const v = revisionOf(rs);
    if (v === undefined) continue;
    if (v >= max) {
      second = max;
      max = v;
    } else if (v > second) second = v;
  }
  return second;
}

/** Annotations a Deployment never copies to its ReplicaSets (and a rollback never copies back). */
export const SKIPPED_ANNOTATIONS: ReadonlySet<string> = new Set([
  LAST_APPLIED_ANNOTATION,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  DEPRECATED_ROLLBACK_TO_ANNOTATION,
]);

const intAnnotation = (rs: ReplicaSet, key: string): number | undefined => {
  const v = rs.metadata.annotations?.[key];
  return v !== undefined && INT.test(v) ? Number(v) : undefined;
};
/** The desired-replicas annotation, when it is an integer. */
export const desiredReplicasOf = (rs: ReplicaSet): number | undefined =>
  intAnnotation(rs, DESIRED_REPLICAS_ANNOTATION);
/** The max-replicas annotation, when it is an integer. */
export const maxReplicasOf = (rs: ReplicaSet): number | undefined =>
  intAnnotation(rs, MAX_REPLICAS_ANNOTATION);

/** Whether the set's desired-replicas and max-replicas annotations differ from these values. */
export function replicasAnnotationsNeedUpdate(rs: ReplicaSet, desired: number, max: number): boolean {
  const a = rs.metadata.annotations ?? {};
  return a[DESIRED_REPLICAS_ANNOTATION] !== String(desired) || a[MAX_REPLICAS_ANNOTATION] !== String(max);
}

/** Sets the two replica annotations on a (copied) set; whether anything changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): boolean {
  if (!replicasAnnotationsNeedUpdate(rs, desired, max)) return false;
  rs.metadata.annotations = {
    ...(rs.metadata.annotations ?? {}),
    [DESIRED_REPLICAS_ANNOTATION]: String(desired),
    [MAX_REPLICAS_ANNOTATION]: String(max),
  };
  return true;
}

/**
 * Brings a (copied) new ReplicaSet's annotations up to date (upstream's SetNewReplicaSetAnnotations): the
 * Deployment's own annotations copied (except {@link SKIPPED_ANNOTATIONS}); the revision raised to
 * `newRevision` when lower, the one it had appended to revision-history (a rollback to it), oldest entries
 * dropped past {@link MAX_REVISION_HISTORY_CHARS}; and, for a set about to be created, the replica annotations.
 *
 * @param d the Deployment
 * @param rs the set, mutated
 * @param newRevision the max revision of the old sets + 1
 * @param exists false for a set about to be created
 * @returns whether any annotation changed
 */
export function setNewReplicaSetAnnotations(
  d: Deployment,
  rs: ReplicaSet,
  newRevision: number,
  exists: boolean,
  historyLimitChars = MAX_REVISION_HISTORY_CHARS,
): boolean {
  const annotations = { ...(rs.metadata.annotations ?? {}) };
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (SKIPPED_ANNOTATIONS.has(k) || annotations[k] === v) continue;
    annotations[k] = v;
    changed = true;
  }
  const had = annotations[REVISION_ANNOTATION];
  let oldRevision = 0;
  if (had !== undefined && had !== '') {
    if (!INT.test(had)) {
      rs.metadata.annotations = annotations;
      return false;
    }
    oldRevision = Number(had);
  }
  if (oldRevision < newRevision) {
    annotations[REVISION_ANNOTATION] = String(newRevision);
    changed = true;
    if (had !== undefined) {
      const history = annotations[REVISION_HISTORY_ANNOTATION] ?? '';
      if (history === '') annotations[REVISION_HISTORY_ANNOTATION] = had;
      else {
        const entries = history.split(',');
        let total = history.length + had.length + 1;
        let start = 0;
        while (total > historyLimitChars && start < entries.length) {
          total -= entries[start]!.length + 1;
          start++;
        }
        if (total <= historyLimitChars)
          annotations[REVISION_HISTORY_ANNOTATION] = [...entries.slice(start), had].join(',');
      }
    }
  }
  rs.metadata.annotations = annotations;
  if (!exists) {
    const replicas = deploymentReplicas(d);
    if (setReplicasAnnotations(rs, replicas, replicas + maxSurge(d))) changed = true;
  }
  return changed;
}
