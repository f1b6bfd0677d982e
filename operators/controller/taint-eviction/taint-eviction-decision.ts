// taintEvictionDecision: what the taint eviction controller does with one pod given its node's NoExecute taints, pure.
import type { Taint, Toleration } from '../../api/core-v1.ts';
import { toleratesTaint } from '../../scheduling/plugins/helpers/toleration.ts';

/**
 * The decision for one pod: delete it now (a NoExecute taint it does not tolerate), delete it after
 * `afterMs` (every taint tolerated, the shortest tolerationSeconds among the tolerations used), or keep it
 * (no NoExecute taint, or every taint tolerated forever) and cancel any deletion planned.
 */
export type TaintEvictionDecision =
  | { readonly kind: 'delete-now' }
  | { readonly kind: 'delete-after'; readonly afterMs: number }
  | { readonly kind: 'keep' };

/**
 * Decides one pod's fate (upstream's processPodOnNode with GetMatchingTolerations and
 * getMinTolerationTime): only NoExecute taints count; the first toleration matching each taint is the one
 * used; a negative tolerationSeconds counts as 0.
 *
 * @param taints the node's taints (any effect; non-NoExecute ones are ignored)
 * @param tolerations the pod's tolerations
 * @returns delete now, delete after a delay, or keep
 */
export function taintEvictionDecision(
  taints: readonly Taint[] | undefined,
  tolerations: readonly Toleration[] | undefined,
): TaintEvictionDecision {
  const noExecute = (taints ?? []).filter((t) => t.effect === 'NoExecute');
  if (noExecute.length === 0) return { kind: 'keep' };
  let minSeconds = -1;
  for (const taint of noExecute) {
    const used = (tolerations ?? []).find((t) => toleratesTaint(t, taint));
    if (!used) return { kind: 'delete-now' };
    if (used.tolerationSeconds === undefined || used.tolerationSeconds === null) continue;
    const seconds = Math.max(0, used.tolerationSeconds);
    if (minSeconds < 0 || seconds < minSeconds) minSeconds = seconds;
  }
  return minSeconds < 0 ? { kind: 'keep' } : { kind: 'delete-after', afterMs: minSeconds * 1000 };
}
