// podGCPlan: which pods the pod garbage collector force-deletes in one pass, by upstream's four rules.
import type { Node, Pod } from '../../api/core-v1.ts';

/** Why a pod is collected: the `reason` label of upstream's pod_gc_collector metrics. */
export type PodGCReason =
  | 'terminated'
  | 'terminating_out_of_service'
  | 'orphaned'
  | 'terminating_unscheduled';

/** The taint an administrator puts on a node that is gone for good, so its terminating pods are released. */
export const OUT_OF_SERVICE_TAINT = 'node.kubernetes.io/out-of-service';

/** One pass's work: the pods to fail (if still running) and delete at once, each with its reason. */
export interface PodGCPlan {
  readonly deletions: readonly { pod: Pod; reason: PodGCReason }[];
  /** Node names pods are bound to that the node informer does not have: quarantined, then checked in the API. */
  readonly missingNodes: ReadonlySet<string>;
}

const isTerminated = (p: Pod) => !['Pending', 'Running', 'Unknown'].includes(p.status?.phase ?? 'Pending');
const isEvicted = (p: Pod) => p.status?.phase === 'Failed' && p.status.reason === 'Evicted';
const isNodeReady = (n: Node) =>
  n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** Evicted pods first, then oldest first, names breaking ties (upstream's byEvictionAndCreationTimestamp). */
export function byEvictionAndCreation(a: Pod, b: Pod): number {
  const ea = isEvicted(a);
  const eb = isEvicted(b);
  if (ea !== eb) return ea ? -1 : 1;
  const ta = Date.parse(a.metadata.creationTimestamp ?? '') || 0;
  const tb = Date.parse(b.metadata.creationTimestamp ?? '') || 0;
  if (ta !== tb) return ta - tb;
  const na = a.metadata.name ?? '';
  const nb = b.metadata.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/** The node names pods are bound to that are not among `nodes`: candidates for the orphan quarantine. */
export function missingNodeNames(pods: readonly Pod[], nodes: readonly Node[]): Set<string> {
  const known = new Set(nodes.map((n) => n.metadata.name ?? ''));
  const missing = new Set<string>();
  for (const p of pods) {
    const node = p.spec.nodeName;
    if (node && !known.has(node)) missing.add(node);
  }
  return missing;
}

/**
 * One pass of kube-controller-manager's pod GC over the informers' pods and nodes:
 * - `terminated`: with a threshold > 0, the terminated pods (not Pending, Running or Unknown) beyond the
 *   threshold, evicted then oldest first;
 * - `terminating_out_of_service`: terminating pods on a node that is not ready and carries the
 *   `node.kubernetes.io/out-of-service` taint;
 * - `orphaned`: pods bound to a node in `deletedNodes` (nodes the controller confirmed gone in the API after
 *   their quarantine); the other missing node names are returned to be quarantined;
 * - `terminating_unscheduled`: terminating pods bound to no node.
 * A pod appears once, under the first rule that takes it.
 *
 * @param pods every pod
 * @param nodes every node the informer has
 * @param threshold `--terminated-pod-gc-threshold` (≤ 0: no terminated-pod collection)
 * @param deletedNodes node names confirmed gone
 */
export function podGCPlan(
  pods: readonly Pod[],
  nodes: readonly Node[],
  threshold: number,
  deletedNodes: ReadonlySet<string>,
): PodGCPlan {
  const taken = new Set<Pod>();
  const deletions: { pod: Pod; reason: PodGCReason }[] = [];
  const take = (list: Pod[], reason: PodGCReason) => {
    for (const pod of list) {
      if (taken.has(pod)) continue;
      taken.add(pod);
      deletions.push({ pod, reason });
    }
  };
  if (threshold > 0) {
    const terminated = pods.filter(isTerminated);
    const count = terminated.length - threshold;
    if (count > 0) take(terminated.sort(byEvictionAndCreation).slice(0, count), 'terminated');
  }
  const byName = new Map(nodes.map((n) => [n.metadata.name ?? '', n]));
  take(
    pods
      .filter((p) => {
        if (!p.metadata.deletionTimestamp) return false;
        const node = byName.get(p.spec.nodeName ?? '');
        return (
          node !== undefined &&
          !isNodeReady(node) &&
          (node.spec?.taints ?? []).some((t) => t.key === OUT_OF_SERVICE_TAINT)
        );
      })
      .sort(byEvictionAndCreation),
    'terminating_out_of_service',
  );
  const missingNodes = missingNodeNames(pods, nodes);
  take(
    pods.filter((p) => p.spec.nodeName && deletedNodes.has(p.spec.nodeName) && !byName.has(p.spec.nodeName)),
    'orphaned',
  );
  take(
    pods.filter((p) => p.metadata.deletionTimestamp && !p.spec.nodeName),
    'terminating_unscheduled',
  );
  return { deletions, missingNodes };
}
