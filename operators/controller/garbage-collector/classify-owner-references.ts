// classifyOwnerReferences: sorts a dependent's owner references into solid, dangling and waiting-for-dependents-deletion by what a live look-up found.
import type { OwnerReference } from '../../types.ts';
import { FINALIZER_DELETE_DEPENDENTS } from './owner-graph.ts';

/**
 * What the collector found for one owner reference:
 * - `absent`: the API server has no object by that name, or one with another uid (or the absent-owner
 *   cache says so);
 * - `present`: the owner exists with the referenced uid; whether it is being deleted and its finalizers;
 * - `invalid`: a cluster-scoped dependent names a namespaced owner, which can never resolve.
 */
export type OwnerLookup =
  | { readonly state: 'absent' }
  | { readonly state: 'present'; readonly beingDeleted: boolean; readonly finalizers: readonly string[] }
  | { readonly state: 'invalid' };

/** The three kinds of owner reference (upstream's classifyReferences). */
export interface ClassifiedReferences {
  /** The owner exists and is not deleting its dependents in the foreground: the dependent stays. */
  readonly solid: OwnerReference[];
  /** The owner does not exist. */
  readonly dangling: OwnerReference[];
  /** The owner is being deleted with the `foregroundDeletion` finalizer: it waits for its dependents. */
  readonly waitingForDependentsDeletion: OwnerReference[];
  /** References that can never resolve (a cluster-scoped dependent with a namespaced owner). */
  readonly invalid: OwnerReference[];
}

/**
 * Sorts owner references by what was found for each.
 *
 * @example
 * classifyOwnerReferences([rsRef], [{ state: 'absent' }]).dangling; // [rsRef]
 * @param refs the dependent's owner references (from its latest state)
 * @param lookups what was found for each, in the same order
 * @returns the references by kind
 */
export function classifyOwnerReferences(
  refs: readonly OwnerReference[],
  lookups: readonly OwnerLookup[],
): ClassifiedReferences {
  const out: ClassifiedReferences = {
    solid: [],
    dangling: [],
    waitingForDependentsDeletion: [],
    invalid: [],
  };
  refs.forEach((ref, i) => {
    const found = lookups[i] ?? { state: 'absent' };
    if (found.state === 'invalid') out.invalid.push(ref);
    else if (found.state === 'absent') out.dangling.push(ref);
    else if (found.beingDeleted && found.finalizers.includes(FINALIZER_DELETE_DEPENDENTS))
      out.waitingForDependentsDeletion.push(ref);
    else out.solid.push(ref);
  });
  return out;
}
