// comparePodsForDeletion and podsToDelete: which of a controller's pods go first when it scales down, as kube-controller-manager ranks them.
import type { Pod } from '../api/core-v1.ts';

/** The annotation a user sets to make a pod cheaper (lower) or dearer to delete; an int32. */
export const POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

const PHASE_ORDINAL: Readonly<Record<string, number>> = { Pending: 0, Unknown: 1, Running: 2 };

/** Not Succeeded, not Failed, not being deleted (upstream's IsPodActive). */
export function isPodActive(pod: Pod): boolean {
  return (
    pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed' && !pod.metadata.deletionTimestamp
  );
}

/** The Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

/** When the pod became ready (ms), or undefined when it is not ready or the time is unknown. */
function readySince(pod: Pod): number | undefined {
  const c = pod.status?.conditions?.find((x) => x.type === 'Ready' && x.status === 'True');
  return c?.lastTransitionTime ? Date.parse(c.lastTransitionTime) : undefined;
}

/** The annotation's value; a missing or malformed one counts as 0, as upstream ignores the error. */
function deletionCost(pod: Pod): number {
  const raw = pod.metadata.annotations?.[POD_DELETION_COST];
  if (raw === undefined || !/^[+-]?\d+$/.test(raw.trim())) return 0;
  const n = Number(raw.trim());
  return n >= -(2 ** 31) && n <= 2 ** 31 - 1 ? n : 0;
}

const maxRestarts = (pod: Pod) =>
  Math.max(0, ...(pod.status?.containerStatuses ?? []).map((c) => c.restartCount));

/** floor(log2(now - t)) in nanoseconds, -1 for a time not in the past: upstream's logarithmic buckets. */
function logRank(t: number, now: number): number {
  const d = (now - t) * 1e6;
  return d > 0 ? Math.floor(Math.log2(d)) : -1;
}

/**
 * Orders two of a controller's pods by how much it prefers to delete them (negative: `a` first), with
 * upstream's rules: unassigned before assigned; Pending, Unknown, then Running; not ready before ready;
 * lower pod-deletion-cost first; more co-located sibling pods (`rank`) first; ready for less time first;
 * more container restarts first; newer first. With `now`, the two time rules compare logarithmic buckets
 * (LogarithmicScaleDown, on by default) and break a tie by UID; a missing time comes first.
 *
 * @param a a pod and its rank (active sibling pods on its node)
 * @param b another
 * @param now the reference time in ms, or undefined for plain time comparisons
 */
export function comparePodsForDeletion(
  a: { pod: Pod; rank: number },
  b: { pod: Pod; rank: number },
  now?: number,
): number {
  const pa = a.pod;
  const pb = b.pod;
  const na = pa.spec.nodeName ?? '';
  const nb = pb.spec.nodeName ?? '';
  if (na !== nb && (na === '' || nb === '')) return na === '' ? -1 : 1;
  const oa = PHASE_ORDINAL[pa.status?.phase ?? ''] ?? 0;
  const ob = PHASE_ORDINAL[pb.status?.phase ?? ''] ?? 0;
  if (oa !== ob) return oa - ob;
  const ra = isPodReady(pa);
  const rb = isPodReady(pb);
  if (ra !== rb) return ra ? 1 : -1;
  const ca = deletionCost(pa);
  const cb = deletionCost(pb);
  if (ca !== cb) return ca - cb;
  if (a.rank !== b.rank) return b.rank - a.rank;
  const byTime = (ta: number | undefined, tb: number | undefined): number => {
    if (ta === tb) return 0;
    if (ta === undefined || tb === undefined || Number.isNaN(ta) || Number.isNaN(tb)) {
      return ta === undefined || Number.isNaN(ta) ? -1 : 1;
    }
    if (now === undefined) return tb - ta; // later (newer) first
    const diff = logRank(ta, now) - logRank(tb, now);
    if (diff !== 0) return diff;
    const ua = pa.metadata.uid ?? '';
    const ub = pb.metadata.uid ?? '';
    return ua < ub ? -1 : ua > ub ? 1 : 0;
  };
  if (ra && rb) {
    const t = byTime(readySince(pa), readySince(pb));
    if (t !== 0) return t;
  }
  const restarts = maxRestarts(pb) - maxRestarts(pa);
  if (restarts !== 0) return restarts;
  const created = (p: Pod) =>
    p.metadata.creationTimestamp ? Date.parse(p.metadata.creationTimestamp) : undefined;
  return byTime(created(pa), created(pb));
}

/**
 * The `diff` pods a ReplicaSet (or ReplicationController) deletes when scaling down: all of them when
 * `diff` covers them, else the first `diff` by {@link comparePodsForDeletion}, each ranked by the active
 * `related` pods (the owner's siblings included) on its node.
 *
 * @param filtered the owner's active pods
 * @param related the pods of every ReplicaSet of the same Deployment (or `filtered` itself)
 * @param diff how many to delete
 * @param now the reference time in ms
 */
export function podsToDelete(
  filtered: readonly Pod[],
  related: readonly Pod[],
  diff: number,
  now?: number,
): Pod[] {
  if (diff >= filtered.length) return filtered.slice(0, diff);
  const onNode = new Map<string, number>();
  for (const p of related) {
    if (isPodActive(p)) onNode.set(p.spec.nodeName ?? '', (onNode.get(p.spec.nodeName ?? '') ?? 0) + 1);
  }
  return filtered
    .map((pod) => ({ pod, rank: onNode.get(pod.spec.nodeName ?? '') ?? 0 }))
    .sort((x, y) => comparePodsForDeletion(x, y, now))
    .slice(0, diff)
    .map((x) => x.pod);
}
