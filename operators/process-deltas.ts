// processDeltas: applies one FIFO item to the informer's store and says what each handler must hear (client-go's rules).
import type { IndexedStore } from './indexed-store.ts';
import type { InformerNotification } from './informer-notification.ts';
import {
  type DeletedFinalStateUnknown,
  type Delta,
  type DeltaType,
  isTombstone,
  type KubeObject,
} from './types.ts';

const NONE: never[] = Object.freeze([]) as unknown as never[];

/**
 * What processDeltas needs of a store: keys, reads, and writes that return the store to use next (a new
 * snapshot for an {@link IndexedStore}, or the same object for a mutable store).
 */
export interface DeltaStore<T extends KubeObject, S> {
  keyOf(obj: T | DeletedFinalStateUnknown<T>): string;
  getByKey(key: string): T | undefined;
  update(obj: T): S;
  delete(obj: T | DeletedFinalStateUnknown<T>): S;
}

/** What applying deltas produced: the store after the writes and the notifications, oldest first. */
export interface ProcessedDeltas<T extends KubeObject = KubeObject, S = IndexedStore<T>> {
  store: S;
  notifications: InformerNotification<T>[];
}

/**
 * Applies a key's deltas, oldest first, as client-go's processDeltas does:
 *
 * - `Sync`, `Replaced`, `Added`, `Updated`: when the store has the key, the object replaces it and the
 *   handlers get an update from the stored object (`isSync` when both have the same resourceVersion);
 *   otherwise it is added and the handlers get an add. So an `Added` for a known key is an update and a
 *   `Replaced` or `Sync` for an unknown key is an add.
 * - `Deleted`: the key is removed (a tombstone by its key) and the handlers get a delete carrying the
 *   object or tombstone, even when the store did not have the key.
 *
 * @example
 * const { store, notifications } = processDeltas(snapshot, popped.item.deltas, popped.isInInitialList);
 * @param store the snapshot to apply to (an IndexedStore is not changed), or any {@link DeltaStore}
 * @param deltas one FIFO item's deltas, oldest first
 * @param isInInitialList whether the item belongs to the first list (carried by the adds)
 * @param emit optional sink called per notification instead of collecting them (saves an array on hot paths)
 * @param onError optional: called for a delta the store rejects (KeyError, IndexFuncError), which is then
 *   skipped with no notification; without it the error is thrown and nothing is applied
 * @returns the new snapshot and the notifications (empty when `emit` is given)
 */
export function processDeltas<T extends KubeObject, S extends DeltaStore<T, S> = IndexedStore<T>>(
  store: S,
  deltas: readonly Delta<T>[],
  isInInitialList: boolean,
  emit?: (n: InformerNotification<T>) => void,
  onError?: (error: unknown, delta: Delta<T>) => void,
): ProcessedDeltas<T, S> {
  const notifications: InformerNotification<T>[] = emit ? NONE : [];
  const out = emit ?? ((n: InformerNotification<T>) => notifications.push(n));
  for (const delta of deltas) {
    store = processDelta(store, delta.type, delta.object, isInInitialList, out, onError);
  }
  return { store, notifications };
}

/**
 * One delta by {@link processDeltas}' rules, without the array and result objects around it: the hot path
 * of an informer whose FIFO would hand a single event straight back.
 *
 * @example
 * store = processDelta(store, 'Updated', pod, false, (n) => handlers.push(n));
 * @param store the store to apply to
 * @param type the delta's type
 * @param object the delta's object (a tombstone only for `Deleted`; elsewhere it is skipped)
 * @param isInInitialList whether the object belongs to the first list (carried by an add)
 * @param emit called with the notification, if any
 * @param onError called for a delta the store rejects, which is then skipped; without it the error is thrown
 * @returns the store to use next
 */
export function processDelta<T extends KubeObject, S extends DeltaStore<T, S>>(
  store: S,
  type: DeltaType,
  object: T | DeletedFinalStateUnknown<T>,
  isInInitialList: boolean,
  emit: (n: InformerNotification<T>) => void,
  onError?: (error: unknown, delta: Delta<T>) => void,
): S {
  let n: InformerNotification<T>;
  try {
    if (type === 'Deleted') {
      const key = store.keyOf(object);
      store = store.delete(object);
      n = { type: 'delete', key, object };
    } else {
      if (isTombstone(object)) return store; // only deletes carry tombstones
      const key = store.keyOf(object);
      const old = store.getByKey(key);
      store = store.update(object);
      n =
        old === undefined
          ? { type: 'add', key, object, isInInitialList }
          : {
              type: 'update',
              key,
              oldObject: old,
              newObject: object,
              isSync: sameResourceVersion(old, object),
            };
    }
  } catch (error) {
    if (!onError) throw error;
    onError(error, { type, object } as Delta<T>);
    return store;
  }
  emit(n);
  return store;
}

/** client-go's isSync test: both objects carry the same resourceVersion (two missing ones count as equal). */
export function sameResourceVersion(a: KubeObject, b: KubeObject): boolean {
  return (a.metadata?.resourceVersion ?? '') === (b.metadata?.resourceVersion ?? '');
}
