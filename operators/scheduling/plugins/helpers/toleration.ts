// Toleration matching: whether a pod's tolerations tolerate a node's taints, as core/v1 helper's ToleratesTaint.
import type { Taint, Toleration } from '../../../api/core-v1.ts';

/**
 * True when `t` tolerates `taint`: an empty effect matches every effect, an empty key (with Exists)
 * every key; operator Equal (or empty) compares values, Exists ignores them; any other operator never
 * matches.
 */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** True when any toleration tolerates the taint. */
export function tolerationsTolerateTaint(
  tolerations: readonly Toleration[] | undefined,
  taint: Taint,
): boolean {
  if (!tolerations) return false;
  for (const t of tolerations) if (toleratesTaint(t, taint)) return true;
  return false;
}

/** The taints Filter plugins care about: NoSchedule and NoExecute (upstream's DoNotScheduleTaintsFilterFunc). */
export function isDoNotScheduleTaint(t: Taint): boolean {
  return t.effect === 'NoSchedule' || t.effect === 'NoExecute';
}

/** The first taint passing `include` that no toleration tolerates, or undefined. */
export function findMatchingUntoleratedTaint(
  taints: readonly Taint[] | undefined,
  tolerations: readonly Toleration[] | undefined,
  include: (t: Taint) => boolean = isDoNotScheduleTaint,
): Taint | undefined {
  if (!taints) return undefined;
  for (const taint of taints) {
    if (!include(taint)) continue;
    if (!tolerationsTolerateTaint(tolerations, taint)) return taint;
  }
  return undefined;
}
