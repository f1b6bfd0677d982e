// statefulSetRevisions: the ControllerRevisions of a stateful set — a new revision's name and data, which revision is current and which is the update, the rollback bump, history truncation.
import type { Pod } from '../../api/core-v1.ts';
import { newControllerRef } from '../controller-ref.ts';
import { safeEncodeString } from '../deployment/pod-template-hash.ts';
import { podRevision } from './stateful-pod-identity.ts';
import {
  type ControllerRevision,
  DEFAULT_REVISION_HISTORY_LIMIT,
  STATEFUL_SET_GVK,
  type StatefulSet,
} from './stateful-set-types.ts';

const encoder = new TextEncoder();

/** FNV-1 (not 1a), 32 bits, continuing from `seed`: upstream hashes revisions with fnv.New32. */
function fnv32(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (const b of bytes) {
    h = Math.imul(h, 0x01000193) >>> 0;
    h ^= b;
  }
  return h >>> 0;
}

/** JSON with object keys sorted (as Go writes a map) and undefined left out. */
export function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v === null || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .filter((k) => o[k] !== undefined)
        .map((k) => [k, sort(o[k])]),
    );
  };
  return JSON.stringify(sort(value)) ?? 'null';
}

/** The revision's data: a strategic-merge patch that replaces the set's pod template (upstream's getPatch). */
export const revisionData = (set: StatefulSet): unknown => ({
  spec: { template: { ...structuredClone(set.spec.template ?? {}), $patch: 'replace' } },
});

/** The hash in a revision's name: FNV-1 of the data and the collision count, safe-encoded (upstream's HashControllerRevision). */
export function revisionHash(data: unknown, collisionCount: number): string {
  let h = fnv32(encoder.encode(sortedJson(data)));
  h = fnv32(encoder.encode(String(collisionCount)), h);
  return safeEncodeString(String(h));
}

/** `<set>-<hash>`, the set's name cut to 223 characters first (upstream's ControllerRevisionName). */
export const revisionName = (set: StatefulSet, hash: string): string =>
  `${(set.metadata.name ?? '').slice(0, 223)}-${hash}`;

/**
 * The revision `set`'s current template makes (upstream's newRevision): the template's labels, the set's
 * annotations, the set as controller, `revision` as its number.
 */
export function newRevision(set: StatefulSet, revision: number, collisionCount: number): ControllerRevision {
  const data = revisionData(set);
  const labels = set.spec.template?.metadata?.labels;
  const annotations = set.metadata.annotations;
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: revisionName(set, revisionHash(data, collisionCount)),
      namespace: set.metadata.namespace ?? 'default',
      ...(labels ? { labels: { ...labels } } : {}),
      ...(annotations ? { annotations: { ...annotations } } : {}),
      ownerReferences: [newControllerRef(set, STATEFUL_SET_GVK)],
    },
    data,
    revision,
  };
}

/** Whether two revisions hold the same template (upstream's EqualRevision, by data). */
export const equalRevision = (a: ControllerRevision, b: ControllerRevision): boolean =>
  sortedJson(a.data) === sortedJson(b.data);

/** Oldest first: by revision number, then creation time, then name (upstream's SortControllerRevisions). */
export function sortRevisions(revisions: readonly ControllerRevision[]): ControllerRevision[] {
  return [...revisions].sort(
    (a, b) =>
      a.revision - b.revision ||
      (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
      (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''),
  );
}

/** What {@link planRevisions} decides. */
export interface RevisionPlan {
  /** The revision pods below the partition (and unchanged pods) keep: status.currentRevision's, or the update's. */
  current: ControllerRevision;
  /** The revision the template makes now. */
  update: ControllerRevision;
  /** The write that makes `update` exist: create it, or (a rollback) raise an older equal revision's number. */
  write?: { type: 'create'; revision: ControllerRevision } | { type: 'bump'; revision: ControllerRevision };
}

/**
 * The current and update revisions of `set` among its `revisions` (upstream's getStatefulSetRevisions): the
 * update revision is the newest revision when it holds the template; an older revision holding it is
 * renumbered to the next number (a rollback); otherwise a new revision is created with the next number.
 * The current revision is the one status.currentRevision names, or the update revision when none is named
 * or it is gone.
 *
 * @param set the set as read
 * @param revisions the revisions it controls
 */
export function planRevisions(set: StatefulSet, revisions: readonly ControllerRevision[]): RevisionPlan {
  const sorted = sortRevisions(revisions);
  const next = (sorted.at(-1)?.revision ?? 0) + 1;
  const candidate = newRevision(set, next, set.status?.collisionCount ?? 0);
  const equal = sorted.filter((r) => equalRevision(r, candidate));
  const last = sorted.at(-1);
  const lastEqual = equal.at(-1);
  let update: ControllerRevision;
  let write: RevisionPlan['write'];
  if (last && lastEqual && equalRevision(last, lastEqual)) {
    update = last;
  } else if (lastEqual) {
    update = { ...lastEqual, revision: next };
    write = { type: 'bump', revision: update };
  } else {
    update = candidate;
    write = { type: 'create', revision: candidate };
  }
  const named = set.status?.currentRevision;
  const current = sorted.find((r) => named !== undefined && r.metadata.name === named) ?? update;
  return { current, update, ...(write ? { write } : {}) };
}

/** The set with its template taken from `revision` (upstream's ApplyRevision of the replace patch). */
export function applyRevision(set: StatefulSet, revision: ControllerRevision): StatefulSet {
  const template = (revision.data as { spec?: { template?: Record<string, unknown> } } | undefined)?.spec
    ?.template;
  if (!template) return set;
  const { $patch: _replace, ...rest } = template;
  return {
    ...set,
    spec: { ...set.spec, template: structuredClone(rest) as StatefulSet['spec']['template'] },
  };
}

/**
 * The revisions to delete (upstream's truncateHistory): of those no pod is labelled with and that are neither
 * current nor update, the oldest beyond revisionHistoryLimit (default 10).
 */
export function revisionsToTruncate(
  set: StatefulSet,
  pods: readonly Pod[],
  revisions: readonly ControllerRevision[],
  current: ControllerRevision,
  update: ControllerRevision,
): ControllerRevision[] {
  const live = new Set([current.metadata.name, update.metadata.name, ...pods.map(podRevision)]);
  const history = sortRevisions(revisions).filter((r) => !live.has(r.metadata.name));
  const limit = set.spec.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT;
  return history.length <= limit ? [] : history.slice(0, history.length - limit);
}
