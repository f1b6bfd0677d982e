// Splits potential victims into those whose eviction would violate a PodDisruptionBudget and the others.
import type { Pod } from '../../../api/core-v1.ts';
import { type LabelSelectorObject, labelSelectorFromObject } from '../../../label-selector.ts';
import type { PodDisruptionBudget } from '../../framework/interface.ts';

/**
 * Walks the pods in order, spending each matching PDB's disruptionsAllowed once per pod (pods already
 * in its disruptedPods are not counted); a pod that takes any matching budget below zero is violating.
 * A PDB in another namespace, with an empty or invalid selector, matches no pod; a pod without labels
 * matches no PDB. Order within each list is kept.
 */
export function filterPodsWithPdbViolation<T extends { readonly pod: Pod }>(
  pods: readonly T[],
  pdbs: readonly PodDisruptionBudget[],
): { violating: T[]; nonViolating: T[] } {
  const allowed = pdbs.map((pdb) => pdb.status?.disruptionsAllowed ?? 0);
  const selectors = pdbs.map((pdb) => {
    try {
      return labelSelectorFromObject(pdb.spec?.selector as LabelSelectorObject | undefined);
    } catch {
      return undefined;
    }
  });
  const violating: T[] = [];
  const nonViolating: T[] = [];
  for (const item of pods) {
    const { pod } = item;
    let violated = false;
    if (Object.keys(pod.metadata.labels ?? {}).length > 0) {
      pdbs.forEach((pdb, i) => {
        if (pdb.metadata?.namespace !== pod.metadata.namespace) return;
        const selector = selectors[i];
        if (
          !selector ||
          selector.matchesNothing ||
          selector.isEmpty() ||
          !selector.matches(pod.metadata.labels)
        )
          return;
        if (
          pod.metadata.name !== undefined &&
          Object.hasOwn(pdb.status?.disruptedPods ?? {}, pod.metadata.name)
        )
          return;
        allowed[i]! -= 1;
        if (allowed[i]! < 0) violated = true;
      });
    }
    (violated ? violating : nonViolating).push(item);
  }
  return { violating, nonViolating };
}
