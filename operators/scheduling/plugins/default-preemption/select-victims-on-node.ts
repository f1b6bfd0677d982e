// selectVictimsOnNode: the fewest, least important lower-priority pods whose removal lets the preemptor fit a node.
import type { Pod } from '../../../api/core-v1.ts';
import type { CycleState, FrameworkHandle, PodDisruptionBudget } from '../../framework/interface.ts';
import type { NodeInfo, PodInfo } from '../../framework/node-info.ts';
import { isSuccess, newStatus, type Status } from '../../framework/status.ts';
import { filterPodsWithPdbViolation } from './pdb-violation.ts';
import { moreImportantPod, podPriority } from './pod-importance.ts';

export const NO_VICTIMS_FOUND = 'No preemption victims found for incoming pod';

/**
 * An extra say on which lower-priority pods may be victims (upstream's IsEligiblePod hook); the
 * default allows every one.
 */
export type VictimEligibility = (nodeInfo: NodeInfo, victim: PodInfo, preemptor: Pod) => boolean;

/** True when `victim` may be preempted by `preemptor`: strictly lower priority, and the hook agrees. */
export function isPreemptionAllowed(
  nodeInfo: NodeInfo,
  victim: PodInfo,
  preemptor: Pod,
  isEligible: VictimEligibility = () => true,
): boolean {
  return podPriority(victim.pod) < podPriority(preemptor) && isEligible(nodeInfo, victim, preemptor);
}

/** The outcome on one node: victims (most important first) and how many of them violate a PDB, or why not. */
export type VictimsOnNode =
  | { readonly ok: true; readonly victims: readonly Pod[]; readonly numPdbViolations: number }
  | { readonly ok: false; readonly status: Status };

/** The part of the handle the dry run uses. */
export type VictimsHandle = Pick<
  FrameworkHandle,
  'runFilterPluginsWithNominatedPods' | 'runPreFilterExtensionAddPod' | 'runPreFilterExtensionRemovePod'
>;

/**
 * Finds the victims on `nodeInfo` (a private copy, changed here) with `state` (a private clone):
 * 1. remove every pod of lower priority than the preemptor that `isEligible` allows (none → UnschedulableAndUnresolvable
 *    "No preemption victims found for incoming pod");
 * 2. if the preemptor still does not fit, the Filter status is the answer;
 * 3. reprieve, most important first, the PDB-violating pods and then the others: add each back and
 *    keep it if the preemptor still fits, otherwise it is a victim.
 */
export function selectVictimsOnNode(
  handle: VictimsHandle,
  state: CycleState,
  preemptor: Pod,
  nodeInfo: NodeInfo,
  pdbs: readonly PodDisruptionBudget[],
  now: number,
  isEligible?: VictimEligibility,
): VictimsOnNode {
  const remove = (info: PodInfo): Status | undefined => {
    nodeInfo.removePod(info.pod);
    return handle.runPreFilterExtensionRemovePod(state, preemptor, info, nodeInfo);
  };
  const add = (info: PodInfo): Status | undefined => {
    nodeInfo.addPodInfo(info);
    return handle.runPreFilterExtensionAddPod(state, preemptor, info, nodeInfo);
  };
  const fits = () => handle.runFilterPluginsWithNominatedPods(state, preemptor, nodeInfo);

  const potential = nodeInfo.pods.filter((p) => isPreemptionAllowed(nodeInfo, p, preemptor, isEligible));
  for (const info of potential) {
    const status = remove(info);
    if (!isSuccess(status)) return { ok: false, status: status! };
  }
  if (potential.length === 0)
    return { ok: false, status: newStatus('UnschedulableAndUnresolvable', NO_VICTIMS_FOUND) };
  const withAllRemoved = fits();
  if (!isSuccess(withAllRemoved)) return { ok: false, status: withAllRemoved! };

  const byImportance = [...potential].sort((a, b) =>
    moreImportantPod(a.pod, b.pod, now) ? -1 : moreImportantPod(b.pod, a.pod, now) ? 1 : 0,
  );
  const { violating, nonViolating } = filterPodsWithPdbViolation(byImportance, pdbs);
  const victims: Pod[] = [];
  const reprieve = (info: PodInfo): { fits: boolean; status?: Status } => {
    const added = add(info);
    if (!isSuccess(added)) return { fits: false, status: added! };
    if (isSuccess(fits())) return { fits: true };
    const removed = remove(info);
    if (!isSuccess(removed)) return { fits: false, status: removed! };
    victims.push(info.pod);
    return { fits: false };
  };
  let numPdbViolations = 0;
  for (const info of violating) {
    const r = reprieve(info);
    if (r.status) return { ok: false, status: r.status };
    if (!r.fits) numPdbViolations++;
  }
  for (const info of nonViolating) {
    const r = reprieve(info);
    if (r.status) return { ok: false, status: r.status };
  }
  if (violating.length > 0 && nonViolating.length > 0) {
    victims.sort((a, b) => (moreImportantPod(a, b, now) ? -1 : moreImportantPod(b, a, now) ? 1 : 0));
  }
  return { ok: true, victims, numPdbViolations };
}
