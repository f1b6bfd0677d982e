// The indexed store: immutable, structurally shared snapshots of objects by key, with client-go's indexers.
import { freeze as immerFreeze } from 'immer';
import { InvalidConfigError, KubeRxError } from './errors.ts';
import { type KeyFunc, objectKey } from './object-key.ts';
import { PersistentMap } from './persistent-map.ts';
import { type DeletedFinalStateUnknown, isTombstone, type KubeObject } from './types.ts';

/** Computes the values an object is indexed under (client-go's IndexFunc). */
export type IndexFunc<T extends KubeObject = KubeObject> = (obj: T) => readonly string[];

/** Index functions by index name. */
export type Indexers<T extends KubeObject = KubeObject> = Readonly<Record<string, IndexFunc<T>>>;

/** The name of the built-in index by `metadata.namespace`. */
export const NAMESPACE_INDEX = 'namespace';

/** Indexes an object under its namespace (`''` for cluster-scoped objects). */
export function namespaceIndexFunc(obj: KubeObject): string[] {
  return [obj.metadata?.namespace ?? ''];
}

/** A read view by key: what a FIFO needs to know about the store (client-go's KeyListerGetter). */
export interface KnownObjects<T extends KubeObject = KubeObject> {
  listKeys(): readonly string[];
  getByKey(key: string): T | undefined;
}

/** How stored objects are frozen: `shallow` (default, ~free), `deep` (for tests; costs more than JSON.parse), `none`. */
export type FreezeMode = 'none' | 'shallow' | 'deep';

export interface IndexedStoreConfig<T extends KubeObject = KubeObject> {
  /** Key of an object; default {@link objectKey} (`namespace/name`, tombstones by their key). */
  keyFunc?: KeyFunc<T>;
  /** Extra indexes by name; the namespace index is added unless `namespaceIndex` is false. */
  indexers?: Indexers<T>;
  /** Default true: maintain {@link NAMESPACE_INDEX}. */
  namespaceIndex?: boolean;
  /** Default `shallow`. */
  freeze?: FreezeMode;
}

/** An index name that the store does not have. */
export class UnknownIndexError extends KubeRxError {
  readonly index: string;
  constructor(index: string) {
    super('KUBE_RX_UNKNOWN_INDEX', `Index with name ${index} does not exist`);
    this.index = index;
  }
}

/** An index function threw: the store cannot stay consistent (client-go panics here). */
export class IndexFuncError extends KubeRxError {
  constructor(key: string, index: string, cause: unknown) {
    super(
      'KUBE_RX_INDEX_FUNC',
      `unable to calculate an index entry for key ${JSON.stringify(key)} on index ${JSON.stringify(index)}: ${
        cause instanceof Error ? cause.message : String(cause)
      }`,
      { cause },
    );
  }
}

type KeySet = PersistentMap<true>;
type Index = PersistentMap<KeySet>;

const EMPTY_KEYS: readonly string[] = Object.freeze([]);

interface Shared<T extends KubeObject> {
  readonly keyFunc: KeyFunc<T>;
  readonly indexers: Indexers<T>;
  /** `indexers` as entries, computed once for the write path. */
  readonly indexerList: readonly (readonly [string, IndexFunc<T>])[];
  readonly freeze: FreezeMode;
}

/**
 * One immutable snapshot of a store of objects, keyed and indexed as client-go's thread-safe store.
 * Every write returns a new snapshot that shares structure with this one; this one never changes,
 * so readers may hold it as long as they like.
 *
 * Invariants: every stored object is under its key; for every index, a key is in the set of value
 * `v` exactly when the index function maps its object to `v`; no index keeps an empty set.
 *
 * @example
 * let pods = createIndexedStore<Pod>({ indexers: { byNode: (p) => [p.spec?.nodeName ?? ''] } });
 * pods = pods.add(pod);
 * pods.byIndex('byNode', 'node-1');
 */
export class IndexedStore<T extends KubeObject = KubeObject> implements KnownObjects<T> {
  readonly #items: PersistentMap<T>;
  readonly #indices: Readonly<Record<string, Index>>;
  readonly #shared: Shared<T>;
  /** The resourceVersion of the last write (object's, or the one given to `replace`). */
  readonly resourceVersion: string;

  private constructor(
    items: PersistentMap<T>,
    indices: Readonly<Record<string, Index>>,
    shared: Shared<T>,
    resourceVersion: string,
  ) {
    this.#items = items;
    this.#indices = indices;
    this.#shared = shared;
    this.resourceVersion = resourceVersion;
    Object.freeze(this);
  }

  /** @internal use {@link createIndexedStore} */
  static create<T extends KubeObject>(config: IndexedStoreConfig<T> = {}): IndexedStore<T> {
    const indexers: Record<string, IndexFunc<T>> = {};
    if (config.namespaceIndex !== false) indexers[NAMESPACE_INDEX] = namespaceIndexFunc;
    for (const [name, fn] of Object.entries(config.indexers ?? {})) {
      if (typeof fn !== 'function') throw new InvalidConfigError(`indexers.${name}`, 'must be a function');
      indexers[name] = fn;
    }
    const shared: Shared<T> = Object.freeze({
      keyFunc: (config.keyFunc ?? objectKey) as KeyFunc<T>,
      indexers: Object.freeze(indexers),
      indexerList: Object.freeze(Object.entries(indexers)),
      freeze: config.freeze ?? 'shallow',
    });
    const indices: Record<string, Index> = {};
    for (const name of Object.keys(indexers)) indices[name] = PersistentMap.empty();
    return new IndexedStore(PersistentMap.empty(), Object.freeze(indices), shared, '');
  }

  /** Number of stored objects. */
  get size(): number {
    return this.#items.size;
  }

  /** The key the store's key function gives an object (or a tombstone). */
  keyOf(obj: T | DeletedFinalStateUnknown<T>): string {
    return this.#shared.keyFunc(obj);
  }

  get(obj: T | DeletedFinalStateUnknown<T>): T | undefined {
    return this.#items.get(this.#shared.keyFunc(obj));
  }

  getByKey(key: string): T | undefined {
    return this.#items.get(key);
  }

  has(key: string): boolean {
    return this.#items.has(key);
  }

  /** All objects, in no defined order. */
  list(): T[] {
    return this.#items.valuesArray();
  }

  /** All keys, in no defined order. */
  listKeys(): string[] {
    return this.#items.keysArray();
  }

  /** The index functions by name (including the namespace index). */
  getIndexers(): Indexers<T> {
    return this.#shared.indexers;
  }

  /**
   * Objects whose index values intersect the values `obj` maps to (client-go's `Index`).
   * @throws UnknownIndexError
   */
  index(indexName: string, obj: T): T[] {
    const fn = this.#indexFunc(indexName);
    const index = this.#indices[indexName]!;
    const keys = new Set<string>();
    for (const value of fn(obj)) for (const key of index.get(value)?.keysArray() ?? []) keys.add(key);
    return [...keys].map((k) => this.#items.get(k)!);
  }

  /**
   * Objects indexed under `value`, in no defined order.
   * @throws UnknownIndexError
   */
  byIndex(indexName: string, value: string): T[] {
    this.#indexFunc(indexName);
    const set = this.#indices[indexName]!.get(value);
    if (!set) return [];
    const out: T[] = [];
    for (const key of set.keysArray()) out.push(this.#items.get(key)!);
    return out;
  }

  /**
   * Keys indexed under `value`, sorted.
   * @throws UnknownIndexError
   */
  indexKeys(indexName: string, value: string): string[] {
    this.#indexFunc(indexName);
    const set = this.#indices[indexName]!.get(value);
    return set ? set.keysArray().sort() : [];
  }

  /** The values present in an index (none for an unknown index). */
  listIndexFuncValues(indexName: string): string[] {
    return this.#indices[indexName]?.keysArray() ?? [];
  }

  /** Adds or replaces the object under its key (Add and Update are the same). */
  add(obj: T): IndexedStore<T> {
    return this.update(obj);
  }

  /** Adds or replaces the object under its key, maintaining every index. */
  update(obj: T): IndexedStore<T> {
    const key = this.#shared.keyFunc(obj);
    this.#freeze(obj);
    const old = this.#items.get(key);
    const items = this.#items.set(key, obj);
    const indices = this.#reindex(key, old, obj);
    return new IndexedStore(
      items,
      indices,
      this.#shared,
      obj.metadata?.resourceVersion ?? this.resourceVersion,
    );
  }

  /** Removes the object's key (a tombstone's key); a snapshot equal to this one when absent. */
  delete(obj: T | DeletedFinalStateUnknown<T>): IndexedStore<T> {
    const key = this.#shared.keyFunc(obj);
    const rv = isTombstone(obj)
      ? this.resourceVersion
      : (obj.metadata?.resourceVersion ?? this.resourceVersion);
    return this.#deleteKey(key, rv);
  }

  /** Removes a key; this snapshot when absent. */
  deleteByKey(key: string): IndexedStore<T> {
    return this.#deleteKey(key, this.resourceVersion);
  }

  #deleteKey(key: string, rv: string): IndexedStore<T> {
    const old = this.#items.get(key);
    if (old === undefined) return rv === this.resourceVersion ? this : this.#withVersion(rv);
    const indices = this.#reindex(key, old, undefined);
    return new IndexedStore(this.#items.delete(key), indices, this.#shared, rv);
  }

  #withVersion(rv: string): IndexedStore<T> {
    return new IndexedStore(this.#items, this.#indices, this.#shared, rv);
  }

  /**
   * Swaps in exactly `list` (later duplicates win) and rebuilds every index. All keys are computed
   * first, so a bad object leaves the store unchanged.
   * @throws KeyError for an object without a key
   */
  replace(list: readonly T[], resourceVersion = ''): IndexedStore<T> {
    const keys = list.map((obj) => this.#shared.keyFunc(obj));
    for (const obj of list) this.#freeze(obj);
    const items = PersistentMap.fromArrays(keys, list);
    return new IndexedStore(
      items,
      this.#buildIndices(items, this.#shared.indexers),
      this.#shared,
      resourceVersion,
    );
  }

  /**
   * A store with more indexers, indexing every existing object at once.
   * @throws InvalidConfigError when a name is already taken
   */
  addIndexers(indexers: Indexers<T>): IndexedStore<T> {
    const conflicts = Object.keys(indexers).filter((n) => Object.hasOwn(this.#shared.indexers, n));
    if (conflicts.length > 0)
      throw new InvalidConfigError('indexers', `indexer conflict: ${conflicts.join(', ')}`);
    const all = Object.freeze({ ...this.#shared.indexers, ...indexers });
    const shared: Shared<T> = Object.freeze({
      ...this.#shared,
      indexers: all,
      indexerList: Object.entries(all),
    });
    const indices = { ...this.#indices, ...this.#buildIndices(this.#items, indexers) };
    return new IndexedStore(this.#items, Object.freeze(indices), shared, this.resourceVersion);
  }

  #indexFunc(name: string): IndexFunc<T> {
    const fn = this.#shared.indexers[name];
    if (!fn) throw new UnknownIndexError(name);
    return fn;
  }

  #values(name: string, fn: IndexFunc<T>, key: string, obj: T | undefined): readonly string[] {
    if (obj === undefined) return EMPTY_KEYS;
    try {
      return fn(obj);
    } catch (cause) {
      throw new IndexFuncError(key, name, cause);
    }
  }

  #reindex(key: string, old: T | undefined, next: T | undefined): Readonly<Record<string, Index>> {
    let changed: Record<string, Index> | undefined;
    for (const [name, fn] of this.#shared.indexerList) {
      const before = this.#values(name, fn, key, old);
      const after = this.#values(name, fn, key, next);
      if (before.length === 1 && after.length === 1 && before[0] === after[0]) continue;
      let index = this.#indices[name]!;
      for (const value of before) {
        const set = index.get(value);
        if (!set) continue;
        const smaller = set.delete(key);
        index = smaller.size === 0 ? index.delete(value) : index.set(value, smaller);
      }
      for (const value of after) {
        const set = index.get(value) ?? PersistentMap.empty<true>();
        index = index.set(value, set.set(key, true));
      }
      changed ??= { ...this.#indices };
      changed[name] = index;
    }
    return changed ? Object.freeze(changed) : this.#indices;
  }

  #buildIndices(items: PersistentMap<T>, indexers: Indexers<T>): Readonly<Record<string, Index>> {
    const out: Record<string, Index> = {};
    for (const [name, fn] of Object.entries(indexers)) {
      const byValue = new Map<string, string[]>();
      items.forEach((obj, key) => {
        for (const value of this.#values(name, fn, key, obj)) {
          const keys = byValue.get(value);
          if (keys) keys.push(key);
          else byValue.set(value, [key]);
        }
      });
      const values: string[] = [];
      const sets: KeySet[] = [];
      for (const [value, keys] of byValue) {
        values.push(value);
        sets.push(PersistentMap.fromArrays(keys, new Array<true>(keys.length).fill(true)));
      }
      out[name] = PersistentMap.fromArrays(values, sets);
    }
    return Object.freeze(out);
  }

  #freeze(obj: T): void {
    const mode = this.#shared.freeze;
    if (mode === 'shallow') Object.freeze(obj);
    else if (mode === 'deep') immerFreeze(obj, true);
  }
}

/**
 * An empty indexed store snapshot with the namespace index and the given indexers.
 * @param config key function, extra indexers, freezing
 * @returns the empty snapshot
 * @throws InvalidConfigError for an indexer that is not a function
 */
export function createIndexedStore<T extends KubeObject = KubeObject>(
  config: IndexedStoreConfig<T> = {},
): IndexedStore<T> {
  return IndexedStore.create(config);
}
