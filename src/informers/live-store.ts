// LiveStore: an informer's cache as a plain map written per event, with immutable indexed snapshots built only when read.
import type { FreezeMode, IndexedStore, Indexers, KnownObjects } from '../../operators/indexed-store.ts';
import type { Logger } from '../../operators/logger.ts';
import type { DeltaStore } from '../../operators/process-deltas.ts';
import type { DeletedFinalStateUnknown, KubeObject } from '../../operators/types.ts';

/**
 * The one writer's view of an informer's cache. Writes go to a map (cheap: no persistent-trie path copy
 * and no index maintenance per event); the keys written since the last read are remembered, and
 * {@link LiveStore.snapshot} folds them into the last {@link IndexedStore} snapshot when someone reads it
 * (one bulk rebuild when most keys changed, e.g. after the first list). A store nobody reads between two
 * events costs a map write per event.
 *
 * Invariants: `snapshot()` always equals the map's contents; snapshots handed out never change; objects
 * are frozen (shallowly by default) when written.
 *
 * Recovery: an index function that throws while a snapshot is built (a broken user contract) is logged
 * and that object is dropped from the cache, so map and snapshot stay equal.
 */
export class LiveStore<T extends KubeObject = KubeObject>
  implements DeltaStore<T, LiveStore<T>>, KnownObjects<T>
{
  readonly #current = new Map<string, T>();
  /** Keys written since the last snapshot, possibly repeated (an array push costs no hashing). */
  #dirty: string[] = [];
  /** Too many writes since the last snapshot: rebuild it from the map instead of replaying keys. */
  #rebuild = false;
  readonly #logger: Logger;
  readonly #freeze: FreezeMode;
  #snapshot: IndexedStore<T>;
  #lastObject: unknown;
  #lastKey = '';

  constructor(empty: IndexedStore<T>, logger: Logger, freeze: FreezeMode = 'shallow') {
    this.#snapshot = empty;
    this.#logger = logger;
    this.#freeze = freeze;
  }

  get size(): number {
    return this.#current.size;
  }

  keyOf(obj: T | DeletedFinalStateUnknown<T>): string {
    if (obj === this.#lastObject) return this.#lastKey;
    const key = this.#snapshot.keyOf(obj);
    this.#lastObject = obj;
    this.#lastKey = key;
    return key;
  }

  getByKey(key: string): T | undefined {
    return this.#current.get(key);
  }

  listKeys(): string[] {
    return [...this.#current.keys()];
  }

  /** The cached objects by key, in insertion order. */
  entries(): IterableIterator<[string, T]> {
    return this.#current.entries();
  }

  update(obj: T): LiveStore<T> {
    const key = this.keyOf(obj);
    if (this.#freeze !== 'none') Object.freeze(obj);
    this.#current.set(key, obj);
    this.#touch(key);
    return this;
  }

  delete(obj: T | DeletedFinalStateUnknown<T>): LiveStore<T> {
    const key = this.keyOf(obj);
    if (this.#current.delete(key)) this.#touch(key);
    return this;
  }

  #touch(key: string): void {
    if (this.#rebuild) return;
    const dirty = this.#dirty;
    dirty.push(key);
    if (dirty.length > 64 && dirty.length > this.#snapshot.size) {
      this.#rebuild = true;
      this.#dirty = [];
    }
  }

  /**
   * The current contents as an immutable indexed snapshot (the same object until the next write).
   * @param resourceVersion recorded on a snapshot rebuilt in bulk
   */
  snapshot(resourceVersion = ''): IndexedStore<T> {
    let dirty = this.#dirty;
    if (!this.#rebuild && dirty.length === 0) return this.#snapshot;
    let snap = this.#snapshot;
    if (this.#rebuild) {
      this.#rebuild = false;
      try {
        this.#snapshot = snap.replace([...this.#current.values()], resourceVersion);
        return this.#snapshot;
      } catch {
        // an index function failed: go key by key over everything, which can skip the culprit
        dirty = [...new Set([...snap.listKeys(), ...this.#current.keys()])];
      }
    }
    this.#dirty = [];
    for (const key of dirty) {
      const obj = this.#current.get(key);
      try {
        snap = obj === undefined ? snap.deleteByKey(key) : snap.update(obj);
      } catch (error) {
        this.#logger.error({ err: error, key }, 'indexing failed; dropping the object from the cache');
        this.#current.delete(key);
        try {
          snap = snap.deleteByKey(key);
        } catch {
          // the old object cannot be unindexed either; the snapshot keeps it
        }
      }
    }
    this.#snapshot = snap;
    return snap;
  }

  /**
   * Adds indexes (indexing everything cached at once).
   * @throws InvalidConfigError when a name is already taken
   */
  addIndexers(indexers: Indexers<T>): void {
    this.#snapshot = this.snapshot().addIndexers(indexers);
  }

  /** Empties the cache, keeping the indexers. */
  clear(): void {
    this.#current.clear();
    this.#dirty = [];
    this.#rebuild = false;
    this.#snapshot = this.#snapshot.replace([]);
    this.#lastObject = undefined;
  }
}
