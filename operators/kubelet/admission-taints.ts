// Taints and tolerations as the kubelet's admission reads them: which taint, if any, a pod does not tolerate.
import type { Taint, Toleration } from '../api/core-v1.ts';

/**
 * Whether a toleration tolerates a taint (core/v1 `Toleration.ToleratesTaint`): the effect matches (an
 * empty toleration effect matches all), the key matches (an empty key with `Exists` matches every key),
 * and with `Equal` (or no operator) the values are equal.
 */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  const operator = toleration.operator || 'Equal';
  if (operator === 'Exists') return true;
  if (operator === 'Equal') return (toleration.value ?? '') === (taint.value ?? '');
  return false;
}

/**
 * The first taint (among those `filter` keeps) that no toleration tolerates, as component-helpers'
 * `FindMatchingUntoleratedTaint`.
 *
 * @param taints the node's taints
 * @param tolerations the pod's tolerations
 * @param filter which taints count (the kubelet only looks at NoExecute)
 * @returns the untolerated taint, or undefined when all are tolerated
 */
export function findUntoleratedTaint(
  taints: readonly Taint[] | undefined,
  tolerations: readonly Toleration[] | undefined,
  filter: (taint: Taint) => boolean = () => true,
): Taint | undefined {
  for (const taint of taints ?? []) {
    if (!filter(taint)) continue;
    if (!(tolerations ?? []).some((t) => toleratesTaint(t, taint))) return taint;
  }
  return undefined;
}
