// daemonSetHistory: a daemon set's ControllerRevisions planned as upstream's constructHistory and cleanupHistory — the current revision (found, renumbered or to create), duplicates and old revisions to delete.
import type { Pod } from '../../api/core-v1.ts';
import { newControllerRef } from '../controller-ref.ts';
import { canonicalJson, podTemplateHash } from '../deployment/pod-template-hash.ts';
import {
  CONTROLLER_REVISION_HASH_LABEL,
  type ControllerRevision,
  DAEMON_SET_GVK,
  type DaemonSet,
} from './daemon-set-types.ts';

/** The hash of the daemon set's template and collision count (upstream's ComputeHash). */
export const daemonSetHash = (ds: DaemonSet): string =>
  podTemplateHash(ds.spec.template, ds.status?.collisionCount);

/** What a revision stores: a patch replacing spec.template (upstream's getPatch), which `kubectl rollout undo` applies. */
export function daemonSetRevisionData(ds: DaemonSet): unknown {
  return { spec: { template: { ...structuredClone(ds.spec.template ?? {}), $patch: 'replace' } } };
}

/** The ControllerRevision snapshotting the daemon set at `revision`, named `<ds>-<hash>`. */
export function daemonSetRevision(ds: DaemonSet, revision: number): ControllerRevision {
  const hash = daemonSetHash(ds);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: `${ds.metadata.name}-${hash}`,
      namespace: ds.metadata.namespace ?? 'default',
      labels: { ...(ds.spec.template?.metadata?.labels ?? {}), [CONTROLLER_REVISION_HASH_LABEL]: hash },
      annotations: { ...(ds.metadata.annotations ?? {}) },
      ownerReferences: [newControllerRef(ds, DAEMON_SET_GVK)],
    },
    data: daemonSetRevisionData(ds),
    revision,
  };
}

/** Whether a revision holds the daemon set's current template (upstream's Match). */
export const revisionMatches = (ds: DaemonSet, r: ControllerRevision): boolean =>
  canonicalJson(r.data) === canonicalJson(daemonSetRevisionData(ds));

/** The history step's decisions. */
export interface HistoryPlan {
  /** The current revision as it exists, or undefined when `create` must be made. */
  current: ControllerRevision | undefined;
  /** The revision to create when none matches. */
  create: ControllerRevision | undefined;
  /** A new revision number for `current` (it was rolled back to and is not the newest). */
  renumber: number | undefined;
  /** Duplicates of the current revision to delete (their pods are relabelled to the kept one's hash). */
  duplicates: ControllerRevision[];
  /** The revisions that are not current. */
  old: ControllerRevision[];
  /** The hash label value pods of the current revision carry. */
  hash: string;
}

const hashOf = (r: ControllerRevision) =>
  r.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? r.metadata.name ?? '';

/**
 * Splits the claimed revisions into current and old; none current means one to create numbered one past
 * the highest old; several current keep the highest-numbered; a current one not newer than every old one
 * is renumbered past them.
 *
 * @param ds the daemon set
 * @param revisions its claimed ControllerRevisions
 */
export function daemonSetHistoryPlan(ds: DaemonSet, revisions: readonly ControllerRevision[]): HistoryPlan {
  const current: ControllerRevision[] = [];
  const old: ControllerRevision[] = [];
  for (const r of revisions) (revisionMatches(ds, r) ? current : old).push(r);
  const next = Math.max(0, ...old.map((r) => r.revision)) + 1;
  if (current.length === 0) {
    const create = daemonSetRevision(ds, next);
    return { current: undefined, create, renumber: undefined, duplicates: [], old, hash: hashOf(create) };
  }
  const sorted = [...current].sort((a, b) => b.revision - a.revision);
  const keep = sorted[0] as ControllerRevision;
  return {
    current: keep,
    create: undefined,
    renumber: keep.revision < next ? next : undefined,
    duplicates: sorted.slice(1),
    old,
    hash: hashOf(keep),
  };
}

/**
 * The old revisions beyond revisionHistoryLimit (default 10) to delete, oldest first, sparing any whose
 * hash a live pod still carries (upstream's cleanupHistory).
 *
 * @param ds the daemon set
 * @param old its old revisions
 * @param pods its pods
 */
export function revisionsToDelete(
  ds: DaemonSet,
  old: readonly ControllerRevision[],
  pods: readonly Pod[],
): ControllerRevision[] {
  let toKill = old.length - (ds.spec.revisionHistoryLimit ?? 10);
  if (toKill <= 0) return [];
  const live = new Set(pods.map((p) => p.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL]).filter(Boolean));
  const out: ControllerRevision[] = [];
  for (const r of [...old].sort((a, b) => a.revision - b.revision)) {
    if (toKill <= 0) break;
    if (live.has(r.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL])) continue;
    out.push(r);
    toKill--;
  }
  return out;
}
