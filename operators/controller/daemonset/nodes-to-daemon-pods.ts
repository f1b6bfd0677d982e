// nodesToDaemonPods: a daemon set's pods grouped by the node each is for, oldest (and scheduled) first, as upstream's getNodesToDaemonPods.
import type { Pod } from '../../api/core-v1.ts';
import { daemonPodTargetNode } from './daemon-pod-node-affinity.ts';

const terminal = (p: Pod) => p.status?.phase === 'Failed' || p.status?.phase === 'Succeeded';
const created = (p: Pod) => Date.parse(p.metadata.creationTimestamp ?? '') || 0;

/** Scheduled pods first, then by creation time, then by name (upstream's podByCreationTimestampAndPhase). */
export function compareDaemonPods(a: Pod, b: Pod): number {
  const sa = a.spec.nodeName ? 0 : 1;
  const sb = b.spec.nodeName ? 0 : 1;
  if (sa !== sb) return sa - sb;
  const d = created(a) - created(b);
  if (d !== 0) return d;
  const na = a.metadata.name ?? '';
  const nb = b.metadata.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/**
 * The claimed pods by target node ({@link daemonPodTargetNode}), each list sorted by {@link compareDaemonPods};
 * pods both being deleted and terminal are left out, as are pods naming no node.
 *
 * @param pods the daemon set's claimed pods
 */
export function nodesToDaemonPods(pods: readonly Pod[]): Map<string, Pod[]> {
  const out = new Map<string, Pod[]>();
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp && terminal(pod)) continue;
    const node = daemonPodTargetNode(pod);
    if (node === undefined) continue;
    const list = out.get(node);
    if (list) list.push(pod);
    else out.set(node, [pod]);
  }
  for (const list of out.values()) list.sort(compareDaemonPods);
  return out;
}
