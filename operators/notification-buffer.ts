// A per-handler buffer of informer notifications that coalesces by key, so a slow handler costs memory per key, not per event.
import type { InformerNotification } from './informer-notification.ts';
import { isTombstone, type KubeObject } from './types.ts';

type AddOrUpdate<T extends KubeObject> = Extract<InformerNotification<T>, { type: 'add' | 'update' }>;
type Delete<T extends KubeObject> = Extract<InformerNotification<T>, { type: 'delete' }>;

/**
 * What is pending for one key: a delete of what the handler knew, then the key's newest state. Entries
 * form a list in hand-out order (`older`/`newer`), so taking the oldest is O(1): asking a Map for its
 * first entry after deleting from its front walks over every deleted slot, which made draining a large
 * backlog quadratic.
 */
interface Entry<T extends KubeObject> {
  key: string;
  del: Delete<T> | undefined;
  next: AddOrUpdate<T> | undefined;
  older: Entry<T> | undefined;
  newer: Entry<T> | undefined;
}

function isInitialAdd<T extends KubeObject>(n: AddOrUpdate<T> | undefined): boolean {
  return n !== undefined && n.type === 'add' && n.isInInitialList;
}

/**
 * The pending notifications of one handler, coalesced per key so that the buffer holds at most two
 * notifications per key however far the handler falls behind (client-go's per-listener ring buffer grows
 * without bound instead).
 *
 * Invariants:
 * - per key at most one pending `delete` followed by at most one pending `add`/`update`;
 * - keys are handed out in the order of their oldest pending notification (a key keeps its place in line
 *   while notifications merge into it);
 * - per key, what the handler receives is a subsequence of the states the informer saw, in order, and
 *   the handler's last received state for every key equals the informer's once the buffer is empty.
 *
 * Merge rules, pending → pending after the new notification (`x→y` is an update from x to y):
 *
 * | pending              | + add(b)             | + update(a→b)          | + delete(d)                   |
 * |----------------------|----------------------|------------------------|-------------------------------|
 * | nothing              | add(b)               | update(a→b)            | delete(d)                     |
 * | add(a)               | add(b)               | add(b)                 | nothing (never seen)          |
 * | update(o→a)          | update(o→b)          | update(o→b)            | delete(d)                     |
 * | delete(c)            | delete(c), add(b)    | delete(c), add(b)      | delete(c), or (d) if c is a tombstone |
 * | delete(c), add(a)    | delete(c), add(b)    | delete(c), add(b)      | delete(c)                     |
 *
 * A merged add keeps the first add's `isInInitialList`; a merged update is a sync only if both were.
 *
 * @example
 * const buffer = new NotificationBuffer<Pod>();
 * buffer.push({ type: 'add', key: 'ns/a', object: a1, isInInitialList: false });
 * buffer.push({ type: 'update', key: 'ns/a', oldObject: a1, newObject: a2, isSync: false });
 * buffer.shift(); // { type: 'add', key: 'ns/a', object: a2, ... }
 */
export class NotificationBuffer<T extends KubeObject = KubeObject> {
  #entries = new Map<string, Entry<T>>();
  /** The oldest and newest entries of the hand-out list. */
  #oldest: Entry<T> | undefined;
  #newest: Entry<T> | undefined;
  /** The map's high-water mark since it was last replaced (a Map keeps its capacity when emptied). */
  #peak = 0;
  /** The only pending notification while nothing else is pending: the common case needs no map entry. */
  #solo: InformerNotification<T> | undefined;
  #size = 0;
  #initial = 0;

  /** Notifications pending (at most twice the number of keys). */
  get size(): number {
    return this.#size;
  }

  /** Keys with something pending. */
  get keys(): number {
    return this.#solo ? 1 : this.#entries.size;
  }

  /** Pending adds marked `isInInitialList` (what a handler's has-synced waits for). */
  get initialPending(): number {
    return this.#initial;
  }

  /** Adds a notification, merging it into what is pending for its key. */
  push(n: InformerNotification<T>): void {
    if (this.#size === 0) {
      this.#solo = n;
      this.#size = 1;
      if (n.type === 'add' && n.isInInitialList) this.#initial++;
      return;
    }
    const solo = this.#solo;
    if (solo !== undefined) {
      // a second notification: move the first one into the map so that merging and order apply
      this.#solo = undefined;
      this.#append(solo);
    }
    const entry = this.#entries.get(n.key);
    if (entry === undefined) {
      if (this.#entries.size >= this.#peak) this.#peak = this.#entries.size + 1;
      const fresh = this.#append(n);
      this.#size++;
      if (isInitialAdd(fresh.next)) this.#initial++;
      return;
    }
    const before = entry.next;
    const sizeBefore = (entry.del ? 1 : 0) + (before ? 1 : 0);
    if (n.type === 'delete') {
      if (before !== undefined) {
        entry.next = undefined;
        // an update means the handler knew the object: it must hear of the delete; an add it never saw
        if (before.type === 'update') entry.del = n;
      } else if (entry.del !== undefined) {
        // client-go's rule for two deletes: a real final state beats a tombstone, else the older wins
        if (isTombstone(entry.del.object)) entry.del = n;
      }
    } else if (before === undefined) {
      // after a pending delete the handler believes the key is gone: whatever comes is an add
      entry.next =
        n.type === 'add' ? n : { type: 'add', key: n.key, object: n.newObject, isInInitialList: false };
    } else if (before.type === 'add') {
      entry.next = {
        type: 'add',
        key: n.key,
        object: n.type === 'add' ? n.object : n.newObject,
        isInInitialList: before.isInInitialList,
      };
    } else {
      const newObject = n.type === 'add' ? n.object : n.newObject;
      entry.next = {
        type: 'update',
        key: n.key,
        oldObject: before.oldObject,
        newObject,
        isSync: before.isSync && n.type === 'update' && n.isSync,
      };
    }
    if (isInitialAdd(before)) this.#initial--;
    if (isInitialAdd(entry.next)) this.#initial++;
    const sizeAfter = (entry.del ? 1 : 0) + (entry.next ? 1 : 0);
    this.#size += sizeAfter - sizeBefore;
    if (sizeAfter === 0) this.#remove(entry);
  }

  /** A new entry for `n`'s key, at the end of the hand-out list. */
  #append(n: InformerNotification<T>): Entry<T> {
    const isDelete = n.type === 'delete';
    const entry: Entry<T> = {
      key: n.key,
      del: isDelete ? n : undefined,
      next: isDelete ? undefined : n,
      older: this.#newest,
      newer: undefined,
    };
    if (this.#newest) this.#newest.newer = entry;
    else this.#oldest = entry;
    this.#newest = entry;
    this.#entries.set(n.key, entry);
    return entry;
  }

  #remove(entry: Entry<T>): void {
    if (entry.older) entry.older.newer = entry.newer;
    else this.#oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.#newest = entry.older;
    entry.older = entry.newer = undefined;
    this.#entries.delete(entry.key);
  }

  /** Takes the oldest key's first pending notification, or undefined when nothing is pending. */
  shift(): InformerNotification<T> | undefined {
    const solo = this.#solo;
    if (solo !== undefined) {
      this.#solo = undefined;
      this.#size = 0;
      if (solo.type === 'add' && solo.isInInitialList) this.#initial--;
      return solo;
    }
    const entry = this.#oldest;
    if (entry === undefined) return undefined;
    this.#size--;
    if (entry.del !== undefined) {
      const del = entry.del;
      entry.del = undefined;
      if (entry.next === undefined) this.#remove(entry);
      return del;
    }
    const next = entry.next!;
    this.#remove(entry);
    if (isInitialAdd(next)) this.#initial--;
    if (this.#entries.size === 0 && this.#peak > 1024) {
      // drained after a burst (e.g. a late handler's replay): let the big table go
      this.#entries = new Map();
      this.#peak = 0;
    }
    return next;
  }

  /** Pending notifications in hand-out order, without taking them (tests, debugging). */
  pending(): InformerNotification<T>[] {
    const out: InformerNotification<T>[] = this.#solo ? [this.#solo] : [];
    for (let entry = this.#oldest; entry; entry = entry.newer) {
      if (entry.del) out.push(entry.del);
      if (entry.next) out.push(entry.next);
    }
    return out;
  }

  /** Drops everything pending. */
  clear(): void {
    this.#entries = new Map();
    this.#oldest = this.#newest = undefined;
    this.#peak = 0;
    this.#solo = undefined;
    this.#size = 0;
    this.#initial = 0;
  }
}
