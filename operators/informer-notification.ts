// What an informer tells its handlers: an add, an update (old and new), or a delete (maybe a tombstone).
import type { DeletedFinalStateUnknown, KubeObject } from './types.ts';

/**
 * One notification of a shared informer, for one key.
 *
 * - `add`: the key is new to this handler; `isInInitialList` is true for the objects of the first list
 *   (and for the replay a late handler receives).
 * - `update`: `oldObject` is the state the handler saw last (or the store's previous state), `newObject`
 *   the current one; `isSync` is true when both carry the same resourceVersion (a periodic resync, or a
 *   relist that found the object unchanged).
 * - `delete`: the object's final state, or a {@link DeletedFinalStateUnknown} tombstone when the deletion
 *   was only noticed by a relist.
 */
export type InformerNotification<T extends KubeObject = KubeObject> =
  | { readonly type: 'add'; readonly key: string; readonly object: T; readonly isInInitialList: boolean }
  | {
      readonly type: 'update';
      readonly key: string;
      readonly oldObject: T;
      readonly newObject: T;
      readonly isSync: boolean;
    }
  | { readonly type: 'delete'; readonly key: string; readonly object: T | DeletedFinalStateUnknown<T> };

/** The object a notification leaves the key at (the new object; for a delete its final state or tombstone). */
export function notificationObject<T extends KubeObject>(
  n: InformerNotification<T>,
): T | DeletedFinalStateUnknown<T> {
  return n.type === 'update' ? n.newObject : n.object;
}
