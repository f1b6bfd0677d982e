// The store cell: the one mutable reference to the latest store snapshot, written by reflect, read by everyone.
import {
  createIndexedStore,
  type IndexedStore,
  type IndexedStoreConfig,
  type KnownObjects,
} from './indexed-store.ts';
import type { KubeObject } from './types.ts';

/**
 * Holds the latest snapshot of a store. `reflect` is its single writer; readers take `current` (an
 * immutable snapshot they may keep) and a FIFO uses the cell as its `knownObjects`.
 *
 * Invariant: `current` only ever moves forward to snapshots derived from the previous one, or to a
 * snapshot explicitly `set` by the owner.
 */
export class StoreCell<T extends KubeObject = KubeObject> implements KnownObjects<T> {
  #current: IndexedStore<T>;

  constructor(initial: IndexedStore<T>) {
    this.#current = initial;
  }

  /** The latest snapshot. */
  get current(): IndexedStore<T> {
    return this.#current;
  }

  /** Replaces the latest snapshot (for the single writer). */
  set(snapshot: IndexedStore<T>): void {
    this.#current = snapshot;
  }

  listKeys(): readonly string[] {
    return this.#current.listKeys();
  }

  getByKey(key: string): T | undefined {
    return this.#current.getByKey(key);
  }
}

/**
 * A cell holding an empty store (or the given snapshot).
 * @param initial a snapshot, or the configuration of a new empty store
 * @returns the cell
 */
export function createStoreCell<T extends KubeObject = KubeObject>(
  initial: IndexedStore<T> | IndexedStoreConfig<T> = {},
): StoreCell<T> {
  return new StoreCell(isStore(initial) ? initial : createIndexedStore(initial));
}

function isStore<T extends KubeObject>(x: IndexedStore<T> | IndexedStoreConfig<T>): x is IndexedStore<T> {
  return typeof (x as IndexedStore<T>).getByKey === 'function';
}
