// reflect: the single writer that applies FIFO items (deltas) to the indexed store, emitting snapshots and changes.
import { defer, map, type OperatorFunction } from 'rxjs';
import type { FifoItem } from './fifo-queue.ts';
import type { IndexedStore, IndexedStoreConfig } from './indexed-store.ts';
import { createStoreCell, StoreCell } from './store-cell.ts';
import {
  type DeletedFinalStateUnknown,
  type Delta,
  type DeltaType,
  isTombstone,
  type KubeObject,
} from './types.ts';

/**
 * What one delta did to the store, as client-go's processDeltas reports it to handlers: a delta for
 * a key the store lacks is an add, for a key it has an update (with the old object); a delete
 * carries the delta's object, which may be a tombstone, and the stored object if there was one.
 */
export type StoreChange<T extends KubeObject = KubeObject> =
  | { readonly type: 'Added'; readonly object: T; readonly deltaType: DeltaType }
  | { readonly type: 'Updated'; readonly oldObject: T; readonly object: T; readonly deltaType: DeltaType }
  | {
      readonly type: 'Deleted';
      readonly object: T | DeletedFinalStateUnknown<T>;
      readonly oldObject: T | undefined;
    };

/** The store after one item, and the change each of its deltas made, oldest first. */
export interface StoreUpdate<T extends KubeObject = KubeObject> {
  readonly store: IndexedStore<T>;
  readonly changes: readonly StoreChange<T>[];
}

/**
 * Applies deltas to a snapshot (client-go's processDeltas without the handler calls).
 * @param store the snapshot to start from (unchanged)
 * @param deltas oldest first
 * @returns the new snapshot and one change per delta
 * @throws KeyError / IndexFuncError from the store: broken contracts
 */
export function applyDeltas<T extends KubeObject>(
  store: IndexedStore<T>,
  deltas: readonly Delta<T>[],
): StoreUpdate<T> {
  const changes: StoreChange<T>[] = [];
  let next = store;
  for (const delta of deltas) {
    const obj = delta.object;
    if (delta.type === 'Deleted') {
      const oldObject = next.get(obj);
      next = next.delete(obj);
      changes.push({ type: 'Deleted', object: obj, oldObject });
      continue;
    }
    if (isTombstone(obj)) {
      // only Deleted deltas carry tombstones; anything else is a broken producer: treat as delete
      const oldObject = next.get(obj);
      next = next.delete(obj);
      changes.push({ type: 'Deleted', object: obj, oldObject });
      continue;
    }
    const oldObject = next.get(obj);
    next = next.update(obj);
    changes.push(
      oldObject === undefined
        ? { type: 'Added', object: obj, deltaType: delta.type }
        : { type: 'Updated', oldObject, object: obj, deltaType: delta.type },
    );
  }
  return { store: next, changes };
}

/**
 * Applies each FIFO item's deltas to the store held in a {@link StoreCell} and emits the new snapshot
 * with the changes. The cell is the single point of mutation; pass the same cell to the FIFO as
 * `knownObjects` so that deletion detection sees what reflect wrote.
 *
 * ```
 * source:  a-u-d|   a = [Added x], u = [Updated x], d = [Deleted x]
 * output:  A-U-D|   A = {store: {x}, Added}, U = {store: {x'}, Updated(x→x')}, D = {store: {}, Deleted}
 * ```
 *
 * Recovery/Teardown: state lives in the cell, not in the subscription, so `reflect(cell)` may be
 * applied per item (inside a FIFO's `process`) or to a whole stream. Without a cell, each
 * subscription starts from an empty store built from the config. A store error (an index function
 * throwing) errors the stream: the cell is left at the last good snapshot.
 *
 * @example
 * const cache = createStoreCell<Pod>({ indexers: { byNode: (p) => [p.spec?.nodeName ?? ''] } });
 * reflector$.pipe(realFifo({ knownObjects: cache, process: (item) => of(item).pipe(reflect(cache)) }))
 * @param target the cell to write, or the configuration of a private store
 * @returns the operator
 */
export function reflect<T extends KubeObject>(
  target: StoreCell<T> | IndexedStoreConfig<T> = {},
): OperatorFunction<FifoItem<T> | readonly Delta<T>[], StoreUpdate<T>> {
  const cell = target instanceof StoreCell ? target : undefined;
  return (source) =>
    defer(() => {
      const own = cell ?? createStoreCell<T>(target as IndexedStoreConfig<T>);
      return source.pipe(
        map((input) => {
          const deltas = 'deltas' in input ? input.deltas : input;
          const update = applyDeltas(own.current, deltas);
          own.set(update.store);
          return update;
        }),
      );
    });
}
