// effectiveGracePeriod: the grace period a terminating pod gets, which can only shrink once set.
import type { Pod } from '../api/core-v1.ts';

/**
 * The grace period for a pod being terminated, starting from `current` (0 = none chosen yet): the API
 * server's `deletionGracePeriodSeconds` and a kill's override win only when smaller (or nothing is
 * chosen yet); with neither, the pod's `terminationGracePeriodSeconds`; never below 1.
 *
 * Invariant: for `current > 0` the result is at most `current` unless `current` was below 1.
 *
 * @example effectiveGracePeriod(30, pod, 5) // { gracePeriod: 5, shortened: true }
 * @param current the grace period chosen so far, 0 if none
 * @param pod the pod (its deletion grace period and spec)
 * @param override a kill's `podTerminationGracePeriodSecondsOverride`
 * @returns the grace period in seconds and whether it shrank from a chosen value
 */
export function effectiveGracePeriod(
  current: number,
  pod: Pod | undefined,
  override?: number,
): { gracePeriod: number; shortened: boolean } {
  let gracePeriod = current;
  let overridden = false;
  const deletion = pod?.metadata?.deletionGracePeriodSeconds;
  if (typeof deletion === 'number' && (gracePeriod === 0 || deletion < gracePeriod)) {
    gracePeriod = deletion;
    overridden = true;
  }
  if (typeof override === 'number' && (gracePeriod === 0 || override < gracePeriod)) {
    gracePeriod = override;
    overridden = true;
  }
  const spec = pod?.spec?.terminationGracePeriodSeconds;
  if (!overridden && gracePeriod === 0 && typeof spec === 'number') gracePeriod = spec;
  if (gracePeriod < 1) gracePeriod = 1;
  return { gracePeriod, shortened: current !== 0 && current !== gracePeriod };
}
