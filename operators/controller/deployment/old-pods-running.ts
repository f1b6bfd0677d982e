// oldPodsRunning: whether a Recreate rollout must still wait for old pods before it scales up the new ReplicaSet.
import type { Pod } from '../../api/core-v1.ts';
import { getControllerOf } from '../controller-ref.ts';
import type { ReplicaSet } from '../replicaset/replica-set-types.ts';
import { statusTotal } from './replica-set-order.ts';

/**
 * True while any old set still counts replicas in its status, or any pod of the Deployment's sets that is not
 * the new set's is neither Succeeded nor Failed (Unknown counts as running, as upstream has it).
 *
 * @param newRS the new set (undefined before it exists)
 * @param oldRSs every old set
 * @param pods the pods controlled by the Deployment's sets
 */
export function oldPodsRunning(
  newRS: ReplicaSet | undefined,
  oldRSs: readonly ReplicaSet[],
  pods: readonly Pod[],
): boolean {
  if (statusTotal(oldRSs) > 0) return true;
  const newUid = newRS?.metadata.uid;
  return pods.some((pod) => {
    const owner = getControllerOf(pod)?.uid;
    if (newUid !== undefined && owner === newUid) return false;
    const phase = pod.status?.phase;
    return phase !== 'Succeeded' && phase !== 'Failed';
  });
}
