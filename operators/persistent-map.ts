// A persistent (immutable, structurally shared) string-keyed hash trie: the indexed store's backbone.

const BITS = 5;
const MASK = 31;
/** Entries a bucket holds before it splits into a branch. */
const BUCKET_SIZE = 8;
/** The last shift with hash bits left (bits 30..31); deeper buckets just grow (full-hash collisions). */
const MAX_SHIFT = 30;

/**
 * Ownership token: nodes created during one bulk build may be mutated in place by that build only;
 * the token is dropped when the build ends, so its nodes are immutable from then on.
 */
type Edit = object | null;

/** A leaf: entries stored flat as `hash, key, value` triples. */
interface Bucket {
  readonly kind: 0;
  owner: Edit;
  data: unknown[];
}

interface Branch {
  readonly kind: 1;
  owner: Edit;
  bitmap: number;
  children: TrieNode[];
}

type TrieNode = Bucket | Branch;

function hashOf(key: string): number {
  // FNV-1a over UTF-16 code units
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Set by setIn/deleteIn when the key count changed; single-threaded, read right after the call. */
let sizeChanged = false;

function findIn(data: unknown[], hash: number, key: string): number {
  for (let i = 0; i < data.length; i += 3) if (data[i] === hash && data[i + 1] === key) return i;
  return -1;
}

function setIn(
  node: TrieNode | undefined,
  shift: number,
  hash: number,
  key: string,
  value: unknown,
  edit: Edit,
): TrieNode {
  if (node === undefined) {
    sizeChanged = true;
    return { kind: 0, owner: edit, data: [hash, key, value] };
  }
  if (node.kind === 0) {
    const data = node.data;
    const i = findIn(data, hash, key);
    if (i >= 0) {
      if (data[i + 2] === value) return node;
      if (edit !== null && node.owner === edit) {
        data[i + 2] = value;
        return node;
      }
      const copy = data.slice();
      copy[i + 2] = value;
      return { kind: 0, owner: edit, data: copy };
    }
    if (data.length < BUCKET_SIZE * 3 || shift > MAX_SHIFT) {
      sizeChanged = true;
      if (edit !== null && node.owner === edit) {
        data.push(hash, key, value);
        return node;
      }
      const copy = data.slice();
      copy.push(hash, key, value);
      return { kind: 0, owner: edit, data: copy };
    }
    // split the full bucket into a branch at this level; the new nodes belong to a private edit
    const local = edit ?? {};
    let branch: TrieNode = { kind: 1, owner: local, bitmap: 0, children: [] };
    for (let i = 0; i < data.length; i += 3) {
      branch = setIn(branch, shift, data[i] as number, data[i + 1] as string, data[i + 2], local);
    }
    sizeChanged = false;
    return setIn(branch, shift, hash, key, value, local);
  }
  const bit = 1 << ((hash >>> shift) & MASK);
  const idx = popcount(node.bitmap & (bit - 1));
  if (node.bitmap & bit) {
    const child = node.children[idx]!;
    const next = setIn(child, shift + BITS, hash, key, value, edit);
    if (next === child) return node;
    if (edit !== null && node.owner === edit) {
      node.children[idx] = next;
      return node;
    }
    const children = node.children.slice();
    children[idx] = next;
    return { kind: 1, owner: edit, bitmap: node.bitmap, children };
  }
  sizeChanged = true;
  const leaf: Bucket = { kind: 0, owner: edit, data: [hash, key, value] };
  if (edit !== null && node.owner === edit) {
    node.children.splice(idx, 0, leaf);
    node.bitmap |= bit;
    return node;
  }
  const children = node.children.slice();
  children.splice(idx, 0, leaf);
  return { kind: 1, owner: edit, bitmap: node.bitmap | bit, children };
}

function deleteIn(node: TrieNode, shift: number, hash: number, key: string): TrieNode | undefined {
  if (node.kind === 0) {
    const i = findIn(node.data, hash, key);
    if (i < 0) return node;
    sizeChanged = true;
    if (node.data.length === 3) return undefined;
    const copy = node.data.slice();
    copy.splice(i, 3);
    return { kind: 0, owner: null, data: copy };
  }
  const bit = 1 << ((hash >>> shift) & MASK);
  if (!(node.bitmap & bit)) return node;
  const idx = popcount(node.bitmap & (bit - 1));
  const child = node.children[idx]!;
  const next = deleteIn(child, shift + BITS, hash, key);
  if (next === child) return node;
  if (next === undefined) {
    if (node.children.length === 1) return undefined;
    if (node.children.length === 2) {
      // a branch left with a single bucket collapses into it: buckets match on the full hash
      const other = node.children[1 - idx]!;
      if (other.kind === 0) return other;
    }
    const children = node.children.slice();
    children.splice(idx, 1);
    return { kind: 1, owner: null, bitmap: node.bitmap & ~bit, children };
  }
  if (next.kind === 0 && node.children.length === 1) return next;
  const children = node.children.slice();
  children[idx] = next;
  return { kind: 1, owner: null, bitmap: node.bitmap, children };
}

function visit(node: TrieNode | undefined, fn: (value: unknown, key: string) => void): void {
  if (node === undefined) return;
  if (node.kind === 0) {
    const data = node.data;
    for (let i = 0; i < data.length; i += 3) fn(data[i + 2], data[i + 1] as string);
    return;
  }
  for (const child of node.children) visit(child, fn);
}

/**
 * An immutable map from string keys to values with structural sharing: `set` and `delete` copy
 * only the O(log32 n) nodes on the key's path and return a new map, leaving this one untouched.
 * Iteration order is the trie's (by key hash), stable for a given set of keys.
 *
 * Invariants: `size` equals the number of distinct keys; a map is never mutated after construction.
 */
export class PersistentMap<V> {
  readonly size: number;
  readonly #root: TrieNode | undefined;

  private constructor(root: TrieNode | undefined, size: number) {
    this.#root = root;
    this.size = size;
    Object.freeze(this);
  }

  static readonly #EMPTY = new PersistentMap<never>(undefined, 0);

  /** The empty map (shared). */
  static empty<V>(): PersistentMap<V> {
    return PersistentMap.#EMPTY as PersistentMap<V>;
  }

  /** Builds a map in one pass, mutating fresh nodes in place; later duplicates win. */
  static fromEntries<V>(entries: Iterable<readonly [string, V]>): PersistentMap<V> {
    const edit = {};
    let root: TrieNode | undefined;
    let size = 0;
    for (const [key, value] of entries) {
      sizeChanged = false;
      root = setIn(root, 0, hashOf(key), key, value, edit);
      if (sizeChanged) size++;
    }
    return size === 0 ? PersistentMap.empty() : new PersistentMap(root, size);
  }

  /** Builds a map from parallel arrays of keys and values (no tuple per entry); later duplicates win. */
  static fromArrays<V>(keys: readonly string[], values: readonly V[]): PersistentMap<V> {
    const edit = {};
    let root: TrieNode | undefined;
    let size = 0;
    for (let i = 0; i < keys.length; i++) {
      sizeChanged = false;
      root = setIn(root, 0, hashOf(keys[i]!), keys[i]!, values[i], edit);
      if (sizeChanged) size++;
    }
    return size === 0 ? PersistentMap.empty() : new PersistentMap(root, size);
  }

  get(key: string): V | undefined {
    let node = this.#root;
    const hash = hashOf(key);
    let shift = 0;
    while (node !== undefined) {
      if (node.kind === 0) {
        const i = findIn(node.data, hash, key);
        return i < 0 ? undefined : (node.data[i + 2] as V);
      }
      const bit = 1 << ((hash >>> shift) & MASK);
      if (!(node.bitmap & bit)) return undefined;
      node = node.children[popcount(node.bitmap & (bit - 1))];
      shift += BITS;
    }
    return undefined;
  }

  has(key: string): boolean {
    let node = this.#root;
    const hash = hashOf(key);
    let shift = 0;
    while (node !== undefined) {
      if (node.kind === 0) return findIn(node.data, hash, key) >= 0;
      const bit = 1 << ((hash >>> shift) & MASK);
      if (!(node.bitmap & bit)) return false;
      node = node.children[popcount(node.bitmap & (bit - 1))];
      shift += BITS;
    }
    return false;
  }

  /** A map with `key` bound to `value`; this map itself when the value is already identical. */
  set(key: string, value: V): PersistentMap<V> {
    sizeChanged = false;
    const root = setIn(this.#root, 0, hashOf(key), key, value, null);
    if (root === this.#root) return this;
    return new PersistentMap(root, this.size + (sizeChanged ? 1 : 0));
  }

  /** A map without `key`; this map itself when the key is absent. */
  delete(key: string): PersistentMap<V> {
    if (this.#root === undefined) return this;
    sizeChanged = false;
    const root = deleteIn(this.#root, 0, hashOf(key), key);
    if (!sizeChanged) return this;
    return root === undefined ? PersistentMap.empty() : new PersistentMap(root, this.size - 1);
  }

  /** Calls `fn` for every entry, in trie order. */
  forEach(fn: (value: V, key: string) => void): void {
    visit(this.#root, fn as (value: unknown, key: string) => void);
  }

  keysArray(): string[] {
    const out: string[] = [];
    visit(this.#root, (_v, k) => out.push(k));
    return out;
  }

  valuesArray(): V[] {
    const out: V[] = [];
    visit(this.#root, (v) => out.push(v as V));
    return out;
  }

  *entries(): IterableIterator<[string, V]> {
    const stack: TrieNode[] = this.#root ? [this.#root] : [];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.kind === 0) {
        const data = node.data;
        for (let i = 0; i < data.length; i += 3) yield [data[i + 1] as string, data[i + 2] as V];
      } else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.entries();
  }
}
