// gcPatches: the garbage collector's JSON merge patches of object metadata, each guarded by the resourceVersion it was computed from.
import type { ObjectMeta } from '../../types.ts';

/** A JSON merge patch of metadata, guarded by resourceVersion (a 409 Conflict when the object changed). */
export interface MetadataMergePatch {
  metadata: { resourceVersion?: string } & Pick<ObjectMeta, 'ownerReferences' | 'finalizers'>;
}

const guard = (latest: ObjectMeta) =>
  latest.resourceVersion ? { resourceVersion: latest.resourceVersion } : {};

/**
 * The patches the collector writes. Each is computed from the object's latest metadata and carries its
 * resourceVersion, so a concurrent change makes the server refuse it and the collector looks again; each
 * returns `undefined` when there is nothing to change.
 */
export const gcPatches = {
  /**
   * Removes the owner references to these uids (dangling or waiting owners; an orphaning owner).
   * @param latest the dependent's latest metadata
   * @param uids owner uids to remove
   */
  removeOwnerReferences(latest: ObjectMeta, uids: readonly string[]): MetadataMergePatch | undefined {
    const refs = latest.ownerReferences ?? [];
    const kept = refs.filter((r) => !uids.includes(r.uid));
    if (kept.length === refs.length) return undefined;
    return { metadata: { ...guard(latest), ownerReferences: kept } };
  },

  /**
   * Sets blockOwnerDeletion to false on every reference that blocks (before a foreground delete that could
   * otherwise wait on a cycle).
   * @param latest the object's latest metadata
   */
  unblockOwnerReferences(latest: ObjectMeta): MetadataMergePatch | undefined {
    const refs = latest.ownerReferences ?? [];
    if (!refs.some((r) => r.blockOwnerDeletion === true)) return undefined;
    return {
      metadata: {
        ...guard(latest),
        ownerReferences: refs.map((r) =>
          r.blockOwnerDeletion === true ? { ...r, blockOwnerDeletion: false } : r,
        ),
      },
    };
  },

  /**
   * Removes one finalizer (`orphan` once dependents are orphaned, `foregroundDeletion` once they are gone).
   * @param latest the object's latest metadata
   * @param finalizer the finalizer to remove
   */
  removeFinalizer(latest: ObjectMeta, finalizer: string): MetadataMergePatch | undefined {
    const finalizers = latest.finalizers ?? [];
    if (!finalizers.includes(finalizer)) return undefined;
    return { metadata: { ...guard(latest), finalizers: finalizers.filter((f) => f !== finalizer) } };
  },
};
