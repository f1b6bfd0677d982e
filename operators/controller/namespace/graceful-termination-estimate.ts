// gracefulTerminationEstimate: how long the pods of a terminating namespace may still take to go, as the namespace controller estimates it.
import type { Pod } from '../../api/core-v1.ts';

/**
 * The longest `terminationGracePeriodSeconds` among the namespace's pods that are not Succeeded or Failed;
 * 0 once that long has passed since the namespace's deletionTimestamp (the pods have had their time).
 * Only pods are estimated: other resources report 0.
 *
 * @example
 * gracefulTerminationEstimate(pods, Date.parse(ns.metadata.deletionTimestamp), now); // e.g. 30
 * @param pods the namespace's pods
 * @param deletedAtMs the namespace's deletionTimestamp, in ms
 * @param nowMs the clock, in ms
 * @returns seconds to wait, or 0
 */
export function gracefulTerminationEstimate(
  pods: readonly Pick<Pod, 'spec' | 'status'>[],
  deletedAtMs: number,
  nowMs: number,
): number {
  let estimate = 0;
  for (const pod of pods) {
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') continue;
    const grace = pod.spec?.terminationGracePeriodSeconds;
    if (typeof grace === 'number' && grace > estimate) estimate = grace;
  }
  return nowMs - deletedAtMs >= estimate * 1000 ? 0 : estimate;
}
