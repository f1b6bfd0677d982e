// attemptToDeleteDecision: what the garbage collector does with one node of the attemptToDelete queue, step by step as the live look-ups come in.
import type { ObjectMeta, OwnerReference } from '../../types.ts';
import { classifyOwnerReferences, type OwnerLookup } from './classify-owner-references.ts';
import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS, type GraphNode } from './owner-graph.ts';

/** What the collector knows when it decides about one node. */
export interface AttemptToDeleteInput {
  /** The node as the graph has it. */
  readonly node: Pick<GraphNode, 'identity' | 'beingDeleted' | 'deletingDependents'>;
  /** The node's dependents in the graph. */
  readonly dependents: readonly Pick<GraphNode, 'identity' | 'deletingDependents'>[];
  /** The dependents that reference the node with blockOwnerDeletion. */
  readonly blockingDependents: readonly Pick<GraphNode, 'identity' | 'deletingDependents'>[];
  /** The live object's metadata from a GET; `null` when the server has none; absent when not fetched yet. */
  readonly latest?: ObjectMeta | null;
  /** What was found for each of `latest.ownerReferences`, in order; absent when not looked up yet. */
  readonly owners?: readonly OwnerLookup[];
}

/** The propagation policy of a delete. */
export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

/**
 * The next step:
 * - `get`: fetch the live object and decide again with `latest`;
 * - `lookupOwners`: look up each owner reference of `latest` and decide again with `owners`;
 * - `done`: nothing to do (`reason` says why);
 * - `virtualDelete`: the object is gone (or has another uid): feed the graph a virtual delete;
 * - `invalidReference`: a reference that never resolves; drop the item without retrying;
 * - `removeFinalizer`: every blocking dependent is gone: remove `foregroundDeletion`;
 * - `attemptToDelete`: queue these blocking dependents (the owner waits for them);
 * - `removeOwnerReferences`: keep the object, remove its references to these owner uids;
 * - `delete`: delete it with this propagation policy, first making its references non-blocking when
 *   `unblockFirst` (a dependent also deletes its dependents in the foreground: a possible cycle).
 */
export type AttemptToDeleteDecision =
  | { readonly action: 'get' }
  | { readonly action: 'lookupOwners'; readonly references: readonly OwnerReference[] }
  | { readonly action: 'done'; readonly reason: 'beingDeleted' | 'noOwners' | 'solidOwner' }
  | { readonly action: 'virtualDelete' }
  | { readonly action: 'invalidReference'; readonly references: readonly OwnerReference[] }
  | { readonly action: 'removeFinalizer'; readonly finalizer: typeof FINALIZER_DELETE_DEPENDENTS }
  | { readonly action: 'attemptToDelete'; readonly uids: readonly string[] }
  | { readonly action: 'removeOwnerReferences'; readonly uids: readonly string[] }
  | { readonly action: 'delete'; readonly policy: PropagationPolicy; readonly unblockFirst: boolean };

/**
 * Upstream's attemptToDeleteItem as a pure step function: call it with what is known, perform the step it
 * returns, and for `get` and `lookupOwners` call it again with the answer.
 *
 * Rules: a node being deleted (and not deleting its dependents) is left to finish; an object gone or with
 * another uid is a virtual delete; an owner deleting its dependents removes its `foregroundDeletion`
 * finalizer once no blocking dependent is left, else queues them; an object with a solid owner stays (its
 * dangling and waiting references are removed); one whose owners wait for it and which has dependents is
 * deleted in the foreground; otherwise it is deleted with the policy its own finalizers ask for (`orphan`
 * → Orphan, `foregroundDeletion` → Foreground), else in the background.
 *
 * @example
 * attemptToDeleteDecision({ node, dependents: [], blockingDependents: [] }); // { action: 'get' }
 * @param input what the collector knows
 * @returns the next step
 */
export function attemptToDeleteDecision(input: AttemptToDeleteInput): AttemptToDeleteDecision {
  const { node, latest } = input;
  if (node.beingDeleted && !node.deletingDependents) return { action: 'done', reason: 'beingDeleted' };
  if (latest === undefined) return { action: 'get' };
  if (latest === null || latest.uid !== node.identity.uid) return { action: 'virtualDelete' };
  if (node.deletingDependents) {
    if (input.blockingDependents.length === 0)
      return { action: 'removeFinalizer', finalizer: FINALIZER_DELETE_DEPENDENTS };
    return {
      action: 'attemptToDelete',
      uids: input.blockingDependents.filter((d) => !d.deletingDependents).map((d) => d.identity.uid),
    };
  }
  const refs = latest.ownerReferences ?? [];
  if (refs.length === 0) return { action: 'done', reason: 'noOwners' };
  if (input.owners === undefined) return { action: 'lookupOwners', references: refs };
  const c = classifyOwnerReferences(refs, input.owners);
  if (c.invalid.length > 0) return { action: 'invalidReference', references: c.invalid };
  if (c.solid.length > 0) {
    if (c.dangling.length === 0 && c.waitingForDependentsDeletion.length === 0)
      return { action: 'done', reason: 'solidOwner' };
    return {
      action: 'removeOwnerReferences',
      uids: [...c.dangling, ...c.waitingForDependentsDeletion].map((r) => r.uid),
    };
  }
  if (c.waitingForDependentsDeletion.length > 0 && input.dependents.length > 0) {
    return {
      action: 'delete',
      policy: 'Foreground',
      unblockFirst: input.dependents.some((d) => d.deletingDependents),
    };
  }
  const finalizers = latest.finalizers ?? [];
  const policy: PropagationPolicy = finalizers.includes(FINALIZER_ORPHAN_DEPENDENTS)
    ? 'Orphan'
    : finalizers.includes(FINALIZER_DELETE_DEPENDENTS)
      ? 'Foreground'
      : 'Background';
  return { action: 'delete', policy, unblockFirst: false };
}
