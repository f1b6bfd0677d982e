// podEligibleToPreemptOthers: may this pod preempt at all (preemptionPolicy, a victim still terminating on its nominated node)?
import type { Pod } from '../../../api/core-v1.ts';
import type { NodeInfoLister } from '../../framework/interface.ts';
import type { Status } from '../../framework/status.ts';
import { isPreemptionAllowed, type VictimEligibility } from './select-victims-on-node.ts';

export const NOT_ELIGIBLE_NEVER = 'not eligible due to preemptionPolicy=Never.';
export const NOT_ELIGIBLE_TERMINATING = 'not eligible due to a terminating pod on the nominated node.';

/** True when the pod is being deleted because the scheduler preempted it (DisruptionTarget, PreemptionByScheduler). */
export function podTerminatingByPreemption(pod: Pod): boolean {
  if (!pod.metadata.deletionTimestamp) return false;
  const condition = pod.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
  return condition?.status === 'True' && condition.reason === 'PreemptionByScheduler';
}

/**
 * Whether the pod may preempt, and why not:
 * - preemptionPolicy Never → "not eligible due to preemptionPolicy=Never.";
 * - it is nominated to a node that its filters did not mark UnschedulableAndUnresolvable, and a
 *   pod there that it may preempt is still terminating by preemption → "not eligible due to a terminating
 *   pod on the nominated node." (an earlier preemption is still making room).
 */
export function podEligibleToPreemptOthers(
  pod: Pod,
  nodes: NodeInfoLister,
  nominatedNodeStatus: Status | undefined,
  isEligible?: VictimEligibility,
): { eligible: true } | { eligible: false; message: string } {
  if (pod.spec.preemptionPolicy === 'Never') return { eligible: false, message: NOT_ELIGIBLE_NEVER };
  const nominated = pod.status?.nominatedNodeName;
  if (nominated) {
    if (nominatedNodeStatus?.code === 'UnschedulableAndUnresolvable') return { eligible: true };
    const nodeInfo = nodes.get(nominated);
    if (
      nodeInfo?.pods.some(
        (p) => isPreemptionAllowed(nodeInfo, p, pod, isEligible) && podTerminatingByPreemption(p.pod),
      )
    ) {
      return { eligible: false, message: NOT_ELIGIBLE_TERMINATING };
    }
  }
  return { eligible: true };
}
