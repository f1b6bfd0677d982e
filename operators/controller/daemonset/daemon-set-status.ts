// daemonSetStatus: a daemon set's status counts from its nodes and pods, as upstream's updateDaemonSetStatus, and whether it needs writing.
import type { Node, Pod } from '../../api/core-v1.ts';
import { isPodReady } from '../pod-deletion-order.ts';
import { isPodAvailable } from '../replicaset/replica-set-status.ts';
import { isDaemonPodUpdated } from './daemon-set-plan.ts';
import type { DaemonSet, DaemonSetStatus } from './daemon-set-types.ts';
import { nodeShouldRunDaemonPod } from './node-should-run-daemon-pod.ts';
import { nodesToDaemonPods } from './nodes-to-daemon-pods.ts';

/**
 * The counts: for each node that should run a pod, desiredNumberScheduled; if it has one,
 * currentNumberScheduled, and by its first (oldest scheduled) pod numberReady, numberAvailable (ready for
 * minReadySeconds) and updatedNumberScheduled (of the current revision); a node with pods that should not
 * run one adds to numberMisscheduled. numberUnavailable is desired − available; observedGeneration the
 * daemon set's generation when `observe`.
 *
 * @param ds the daemon set
 * @param nodes every node
 * @param pods its claimed pods
 * @param hash the current revision's hash
 * @param now the time in ms
 * @param observe whether to raise observedGeneration (false while earlier creations and deletions are unobserved)
 */
export function daemonSetStatus(
  ds: DaemonSet,
  nodes: readonly Node[],
  pods: readonly Pod[],
  hash: string,
  now: number,
  observe = true,
): DaemonSetStatus {
  const byNode = nodesToDaemonPods(pods);
  const minReady = ds.spec.minReadySeconds ?? 0;
  let desired = 0;
  let current = 0;
  let mis = 0;
  let ready = 0;
  let available = 0;
  let updated = 0;
  for (const node of nodes) {
    const list = byNode.get(node.metadata.name ?? '') ?? [];
    if (nodeShouldRunDaemonPod(node, ds).shouldRun) {
      desired++;
      const pod = list[0];
      if (!pod) continue;
      current++;
      if (isPodReady(pod)) {
        ready++;
        if (isPodAvailable(pod, minReady, now)) available++;
      }
      if (isDaemonPodUpdated(pod, hash, ds.metadata.generation)) updated++;
    } else if (list.length > 0) {
      mis++;
    }
  }
  const status: DaemonSetStatus = {
    ...(ds.status ?? {}),
    currentNumberScheduled: current,
    numberMisscheduled: mis,
    desiredNumberScheduled: desired,
    numberReady: ready,
    updatedNumberScheduled: updated,
    numberAvailable: available,
    numberUnavailable: desired - available,
  };
  if (observe && ds.metadata.generation !== undefined) status.observedGeneration = ds.metadata.generation;
  return status;
}

const COUNTS = [
  'currentNumberScheduled',
  'numberMisscheduled',
  'desiredNumberScheduled',
  'numberReady',
  'updatedNumberScheduled',
  'numberAvailable',
  'numberUnavailable',
  'observedGeneration',
] as const;

/** Whether writing `next` would change nothing (upstream's storeDaemonSetStatus early return). */
export function daemonSetStatusUpToDate(ds: DaemonSet, next: DaemonSetStatus): boolean {
  const cur = ds.status;
  return cur !== undefined && COUNTS.every((k) => (cur[k] ?? 0) === (next[k] ?? 0));
}
