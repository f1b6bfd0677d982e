// The Deployment's view of its ReplicaSets: which is new (its template), which are old, which are active, and the orders upstream sorts them in.
import type { ReplicaSet } from '../replicaset/replica-set-types.ts';
import { revisionOf } from './deployment-revision.ts';
import { type Deployment, specReplicas } from './deployment-types.ts';
import { equalIgnoreHash } from './pod-template-hash.ts';

const created = (rs: ReplicaSet): number => {
  const t = Date.parse(rs.metadata.creationTimestamp ?? '');
  return Number.isNaN(t) ? 0 : t;
};
const byName = (a: ReplicaSet, b: ReplicaSet) =>
  (a.metadata.name ?? '') < (b.metadata.name ?? '')
    ? -1
    : (a.metadata.name ?? '') > (b.metadata.name ?? '')
      ? 1
      : 0;

/** Oldest first; equal times by name (upstream's ReplicaSetsByCreationTimestamp). */
export const byCreation = (a: ReplicaSet, b: ReplicaSet): number => created(a) - created(b) || byName(a, b);
/** Largest spec.replicas first; equal sizes newer first (scaling up). */
export const bySizeNewer = (a: ReplicaSet, b: ReplicaSet): number =>
  specReplicas(b) - specReplicas(a) || byCreation(b, a);
/** Largest spec.replicas first; equal sizes older first (scaling down). */
export const bySizeOlder = (a: ReplicaSet, b: ReplicaSet): number =>
  specReplicas(b) - specReplicas(a) || byCreation(a, b);
/** Lowest revision first; equal revisions oldest first (history cleanup). */
export const byRevision = (a: ReplicaSet, b: ReplicaSet): number =>
  (revisionOf(a) ?? 0) - (revisionOf(b) ?? 0) || byCreation(a, b);

/** The sets with spec.replicas > 0. */
export const filterActive = (rss: readonly (ReplicaSet | undefined)[]): ReplicaSet[] =>
  rss.filter((rs): rs is ReplicaSet => rs !== undefined && specReplicas(rs) > 0);

/** The Deployment's new ReplicaSet: the oldest whose template equals its template ignoring the hash label. */
export function findNewReplicaSet(d: Deployment, rss: readonly ReplicaSet[]): ReplicaSet | undefined {
  return [...rss].sort(byCreation).find((rs) => equalIgnoreHash(rs.spec.template, d.spec.template));
}

/** Every set but the new one, oldest first. */
export function findOldReplicaSets(d: Deployment, rss: readonly ReplicaSet[]): ReplicaSet[] {
  const newRS = findNewReplicaSet(d, rss);
  return [...rss].sort(byCreation).filter((rs) => rs !== newRS);
}

/**
 * The only active set, or the newest (the new one first) when none is active; undefined when several are
 * active, for proportional scaling (upstream's FindActiveOrLatest).
 */
export function findActiveOrLatest(
  newRS: ReplicaSet | undefined,
  oldRSs: readonly ReplicaSet[],
): ReplicaSet | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  const newestFirst = [...oldRSs].sort((a, b) => byCreation(b, a));
  const active = filterActive([...newestFirst, newRS]);
  if (active.length === 0) return newRS ?? newestFirst[0];
  return active.length === 1 ? active[0] : undefined;
}

/** Σ spec.replicas. */
export const specTotal = (rss: readonly (ReplicaSet | undefined)[]): number =>
  rss.reduce((n, rs) => n + specReplicas(rs), 0);
/** Σ status.replicas. */
export const statusTotal = (rss: readonly (ReplicaSet | undefined)[]): number =>
  rss.reduce((n, rs) => n + (rs?.status?.replicas ?? 0), 0);
/** Σ status.readyReplicas. */
export const readyTotal = (rss: readonly (ReplicaSet | undefined)[]): number =>
  rss.reduce((n, rs) => n + (rs?.status?.readyReplicas ?? 0), 0);
/** Σ status.availableReplicas. */
export const availableTotal = (rss: readonly (ReplicaSet | undefined)[]): number =>
  rss.reduce((n, rs) => n + (rs?.status?.availableReplicas ?? 0), 0);
