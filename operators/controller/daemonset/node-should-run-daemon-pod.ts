// nodeShouldRunDaemonPod: whether a daemon set wants a pod on a node and whether a pod already there may stay, as upstream's NodeShouldRunDaemonPod.
import type { Node, Pod } from '../../api/core-v1.ts';
import { requiredNodeAffinity } from '../../scheduling/plugins/helpers/node-selector.ts';
import { findMatchingUntoleratedTaint } from '../../scheduling/plugins/helpers/toleration.ts';
import { daemonPodTolerations } from './daemon-pod-tolerations.ts';
import type { DaemonSet } from './daemon-set-types.ts';

/** The two answers for one node. Invariant: shouldRun implies shouldContinueRunning. */
export interface NodeDecision {
  /** A pod should be created here when none exists. */
  shouldRun: boolean;
  /** A pod already here may keep running (it tolerates every NoExecute taint). */
  shouldContinueRunning: boolean;
}

/**
 * The daemon set's decision for a node: a template spec.nodeName naming another node, or a node failing
 * the template's nodeSelector and required node affinity, means neither; a NoSchedule or NoExecute taint
 * the pod (with its automatic tolerations) does not tolerate means no new pod, and an untolerated
 * NoExecute taint also means the existing one goes.
 *
 * @param node the node
 * @param ds the daemon set
 */
export function nodeShouldRunDaemonPod(node: Node, ds: DaemonSet): NodeDecision {
  const spec = ds.spec.template?.spec ?? { containers: [] };
  const name = node.metadata.name ?? '';
  if (spec.nodeName && spec.nodeName !== name) return { shouldRun: false, shouldContinueRunning: false };
  const pod = { metadata: {}, spec: { ...spec, nodeName: name } } as Pod;
  if (!requiredNodeAffinity(pod).match(node)) return { shouldRun: false, shouldContinueRunning: false };
  const tolerations = daemonPodTolerations(spec);
  const taints = node.spec?.taints;
  if (!findMatchingUntoleratedTaint(taints, tolerations))
    return { shouldRun: true, shouldContinueRunning: true };
  const noExecute = findMatchingUntoleratedTaint(taints, tolerations, (t) => t.effect === 'NoExecute');
  return { shouldRun: false, shouldContinueRunning: noExecute === undefined };
}
