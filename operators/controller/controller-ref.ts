// ControllerRef: the owner reference with controller=true, and what a controller does with an object it may own (keep, adopt, release, ignore).
import type { KubeObject, OwnerReference } from '../types.ts';

/** The object's controller reference (the owner reference with `controller: true`), if any. */
export function getControllerOf(object: KubeObject): OwnerReference | undefined {
  return object.metadata?.ownerReferences?.find((r) => r.controller === true);
}

/** The controller reference an owner puts on what it creates or adopts (upstream's NewControllerRef). */
export function newControllerRef(
  owner: KubeObject,
  gvk: { apiVersion: string; kind: string },
): OwnerReference {
  return {
    apiVersion: gvk.apiVersion,
    kind: gvk.kind,
    name: owner.metadata?.name ?? '',
    uid: owner.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** What a controller does with one candidate object. */
export type ClaimAction = 'keep' | 'adopt' | 'release' | 'ignore';

/**
 * The claim rule of upstream's ControllerRefManager.ClaimObject:
 * - controlled by another owner → ignore;
 * - controlled by this owner → keep while its selector matches, else release (unless the owner is being
 *   deleted: then ignore, so the garbage collector can finish);
 * - an orphan → adopt when the selector matches, neither the owner nor the object is being deleted and they
 *   share a namespace; else ignore.
 * The caller re-reads the owner from the API before its first adoption (`canAdopt`) and skips adopting when
 * that owner has gone or is being deleted.
 *
 * @param owner the controller's object (a ReplicaSet, a Job, ...)
 * @param object the candidate (a pod, a ReplicaSet of a Deployment, ...)
 * @param matches whether the owner's selector matches the object's labels
 */
export function claimAction(owner: KubeObject, object: KubeObject, matches: boolean): ClaimAction {
  const ref = getControllerOf(object);
  const ownerDeleting = Boolean(owner.metadata?.deletionTimestamp);
  if (ref) {
    if (ref.uid !== owner.metadata?.uid) return 'ignore';
    if (matches) return 'keep';
    return ownerDeleting ? 'ignore' : 'release';
  }
  if (ownerDeleting || !matches) return 'ignore';
  if (object.metadata?.deletionTimestamp) return 'ignore';
  if ((owner.metadata?.namespace ?? '') !== (object.metadata?.namespace ?? '')) return 'ignore';
  return 'adopt';
}

/**
 * The strategic-merge patch that adopts `object`: the owner's controller reference added (merged by uid),
 * guarded by the object's uid so a recreated object of the same name is never adopted by mistake.
 */
export function adoptPatch(
  owner: KubeObject,
  gvk: { apiVersion: string; kind: string },
  object: KubeObject,
  extra: { finalizers?: string[] } = {},
): object {
  return {
    metadata: {
      ownerReferences: [newControllerRef(owner, gvk)],
      uid: object.metadata?.uid,
      ...(extra.finalizers ? { finalizers: extra.finalizers } : {}),
    },
  };
}

/** The strategic-merge patch that releases `object`: this owner's reference deleted by uid, guarded by the object's uid. */
export function releasePatch(owner: KubeObject, object: KubeObject): object {
  return {
    metadata: {
      ownerReferences: [{ $patch: 'delete', uid: owner.metadata?.uid }],
      uid: object.metadata?.uid,
    },
  };
}
