// dropManagedFields: the transform most informers want, removing metadata.managedFields before objects are cached.
import type { KubeObject } from '../../operators/types.ts';

/**
 * Removes `metadata.managedFields` (server-side apply bookkeeping, often a third of an object's size) so
 * the cache does not hold it. Mutates and returns the object, which an informer's transform may do: the
 * object is freshly decoded and not yet shared.
 *
 * @example sharedInformer({ source, transform: dropManagedFields })
 * @param object an object from the server
 * @returns the same object without managedFields
 */
export function dropManagedFields<T extends KubeObject>(object: T): T {
  const meta = object.metadata;
  if (meta && meta.managedFields !== undefined) delete meta.managedFields;
  return object;
}
