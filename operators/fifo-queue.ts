// The pure queue behind deltaFifo and realFifo: client-go's DeltaFIFO and RealFIFO as one synchronous class.
import { KeyError, KubeRxError } from './errors.ts';
import type { KnownObjects } from './indexed-store.ts';
import { type Logger, silentLogger } from './logger.ts';
import { type KeyFunc, objectKey } from './object-key.ts';
import {
  DeletedFinalStateUnknown,
  type Delta,
  type DeltaType,
  isTombstone,
  type KubeObject,
} from './types.ts';

/**
 * What a FIFO hands to its consumer: the key and, oldest first, its deltas. A DeltaFIFO item holds
 * every delta accumulated for the key; a RealFIFO item holds exactly one.
 */
export interface FifoItem<T extends KubeObject = KubeObject> {
  readonly key: string;
  readonly deltas: readonly Delta<T>[];
}

/**
 * `delta`: client-go's DeltaFIFO (deltas accumulate per key, the key keeps its place in line).
 * `real`: client-go's RealFIFO (every notification is its own entry, in arrival order).
 */
export type FifoMode = 'delta' | 'real';

/** Options shared by both FIFOs (and so by the deltaFifo and realFifo operators). */
export interface FifoOptions<T extends KubeObject = KubeObject> {
  /** Key of an object; default {@link objectKey} (tombstones by their key). */
  keyFunc?: KeyFunc<T>;
  /**
   * The consumer's store as it will be once every handed-out item is processed. Drives deletion
   * detection on Replace, Delete of unknown keys (DeltaFIFO) and Resync. Optional: without it,
   * Replace only tombstones keys still queued, and Resync does nothing.
   */
  knownObjects?: KnownObjects<T>;
  /** Replace emits `Replaced` deltas instead of `Sync`. Default: false for deltaFifo, true for realFifo. */
  emitDeltaTypeReplaced?: boolean;
  /** Applied to every new object (not to tombstones or Resync's store copies); a throw is logged and the object kept. */
  transform?: (obj: T) => T;
  /** Keep only the newest delta per key, bounding memory by the number of keys. Default false. */
  compact?: boolean;
  logger?: Logger;
}

export interface FifoQueueConfig<T extends KubeObject = KubeObject> extends FifoOptions<T> {
  mode: FifoMode;
}

/** A popped item and whether it belongs to the first list (client-go's isInInitialList). */
export interface Popped<T extends KubeObject = KubeObject> {
  readonly item: FifoItem<T>;
  readonly isInInitialList: boolean;
}

/** The queue was asked to finish a key it never handed out. */
export class FifoContractError extends KubeRxError {
  constructor(message: string) {
    super('KUBE_RX_FIFO_CONTRACT', message);
  }
}

/**
 * Thrown (or errored) by a FIFO consumer's `process` to put the item back, as client-go's ErrRequeue: the
 * item is queued again at the end of the line unless newer deltas for its key arrived meanwhile (then
 * those win, as AddIfNotPresent). With `inner`, the processing still counts as failed with that error.
 */
export class RequeueError extends KubeRxError {
  readonly inner: unknown;
  constructor(inner?: unknown) {
    super(
      'KUBE_RX_REQUEUE',
      inner === undefined ? 'requeue' : `requeue: ${String((inner as Error)?.message ?? inner)}`,
      {
        cause: inner,
      },
    );
    this.inner = inner;
  }
}

/**
 * client-go's DeltaFIFO.KeyOf: the key of an object, a tombstone, or a delta list (its newest delta's object).
 * @throws KeyError for an empty delta list or an object the key function cannot key
 */
export function keyOfDeltas<T extends KubeObject>(
  obj: T | DeletedFinalStateUnknown<T> | readonly Delta<T>[],
  keyFunc: KeyFunc<T> = objectKey as KeyFunc<T>,
): string {
  if (Array.isArray(obj)) {
    const newest = (obj as readonly Delta<T>[])[obj.length - 1];
    if (!newest) throw new KeyError(obj, "0 length Deltas object; can't get key");
    return keyOfDeltas(newest.object, keyFunc);
  }
  const one = obj as T | DeletedFinalStateUnknown<T>;
  return isTombstone(one) ? one.key : keyFunc(one);
}

interface Entry<T extends KubeObject> {
  /** Arrival order of the entry; a key's place in line is the seq of its oldest entry. */
  seq: number;
  delta: Delta<T>;
}

interface InFlight<T extends KubeObject> {
  initial: boolean;
  last: Delta<T>;
}

/** A binary min-heap of keys ordered by the seq of their oldest queued entry. */
class ReadyHeap {
  private readonly seqs: number[] = [];
  private readonly keys: string[] = [];

  get size(): number {
    return this.keys.length;
  }

  push(seq: number, key: string): void {
    const { seqs, keys } = this;
    let i = keys.length;
    seqs.push(seq);
    keys.push(key);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (seqs[parent]! <= seq) break;
      seqs[i] = seqs[parent]!;
      keys[i] = keys[parent]!;
      i = parent;
    }
    seqs[i] = seq;
    keys[i] = key;
  }

  pop(): string | undefined {
    const { seqs, keys } = this;
    if (keys.length === 0) return undefined;
    const top = keys[0];
    const lastSeq = seqs.pop()!;
    const lastKey = keys.pop()!;
    const n = keys.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && seqs[r]! < seqs[l]! ? r : l;
        if (seqs[c]! >= lastSeq) break;
        seqs[i] = seqs[c]!;
        keys[i] = keys[c]!;
        i = c;
      }
      seqs[i] = lastSeq;
      keys[i] = lastKey;
    }
    return top;
  }

  clear(): void {
    this.seqs.length = 0;
    this.keys.length = 0;
  }
}

/**
 * client-go's DeltaFIFO / RealFIFO as a synchronous, single-threaded queue that also knows which keys
 * are being processed, so that a consumer may process several keys at once.
 *
 * Invariants:
 * - a key is handed out by `pop` only while no item of that key is in flight (until `done(key)`);
 * - per key, deltas are handed out in arrival order and none is lost (DeltaFIFO's dedup of two
 *   consecutive Deleted deltas and opt-in compaction are the only merges);
 * - keys are handed out in order of their oldest queued delta;
 * - `hasSynced` turns true once (never back): when the first Replace's items have all been popped
 *   and finished, or at once when the first write is not a Replace.
 *
 * Items in flight count as applied to `knownObjects` (their newest delta), so deletion detection,
 * Delete filtering and Resync see the store as it will be once processing finishes, as client-go does
 * by processing under the queue's lock.
 */
export class FifoQueue<T extends KubeObject = KubeObject> {
  readonly mode: FifoMode;
  private readonly keyFunc: KeyFunc<T>;
  private readonly knownObjects: KnownObjects<T> | undefined;
  private readonly emitReplaced: boolean;
  private readonly transform: ((obj: T) => T) | undefined;
  private readonly compact: boolean;
  private readonly logger: Logger;

  private readonly items = new Map<string, Entry<T>[]>();
  private readonly ready = new ReadyHeap();
  private readonly inFlight = new Map<string, InFlight<T>>();
  private seq = 0;
  /** Queued entries (RealFIFO) or queued keys (DeltaFIFO): what one pop removes. */
  private queued = 0;
  private populated = false;
  private initialPopulationCount = 0;
  private initialInFlight = 0;
  private synced = false;
  private syncedReported = false;
  private closed = false;

  constructor(config: FifoQueueConfig<T>) {
    this.mode = config.mode;
    this.keyFunc = config.keyFunc ?? (objectKey as KeyFunc<T>);
    this.knownObjects = config.knownObjects;
    this.emitReplaced = config.emitDeltaTypeReplaced ?? config.mode === 'real';
    this.transform = config.transform;
    this.compact = config.compact ?? false;
    this.logger = config.logger ?? silentLogger;
  }

  /** True once the initial list has been handed out and finished (see the class invariants). */
  get hasSynced(): boolean {
    return this.synced;
  }

  /** True exactly once: the first time it is called after the queue has synced. */
  takeSynced(): boolean {
    if (!this.synced || this.syncedReported) return false;
    this.syncedReported = true;
    return true;
  }

  /** Items `pop` would still hand out (entries for RealFIFO, keys for DeltaFIFO), in flight excluded. */
  get length(): number {
    return this.queued;
  }

  /** Distinct keys with queued deltas; with `compact`, the queue holds at most one delta per key. */
  get queuedKeys(): number {
    return this.items.size;
  }

  /** Keys handed out and not yet finished. */
  get inFlightKeys(): readonly string[] {
    return [...this.inFlight.keys()];
  }

  /** True when some queued key is not in flight, so `pop` would return an item. */
  get canPop(): boolean {
    return this.ready.size > 0;
  }

  /** Queued items in hand-out order, without popping (for tests and debugging). */
  pending(): FifoItem<T>[] {
    if (this.mode === 'delta') {
      return [...this.items]
        .sort((a, b) => a[1][0]!.seq - b[1][0]!.seq)
        .map(([key, entries]) => ({ key, deltas: entries.map((e) => e.delta) }));
    }
    const all: { key: string; entry: Entry<T> }[] = [];
    for (const [key, entries] of this.items) for (const entry of entries) all.push({ key, entry });
    return all
      .sort((a, b) => a.entry.seq - b.entry.seq)
      .map(({ key, entry }) => ({ key, deltas: [entry.delta] }));
  }

  /** Queues an `Added` delta. */
  add(obj: T): void {
    this.markPopulated();
    this.enqueueNew('Added', obj);
  }

  /** Queues an `Updated` delta (even for a key never seen). */
  update(obj: T): void {
    this.markPopulated();
    this.enqueueNew('Updated', obj);
  }

  /**
   * Queues a `Deleted` delta. DeltaFIFO ignores the delete of a key that is neither queued nor known
   * (nor in flight); RealFIFO queues every delete.
   */
  delete(obj: T | DeletedFinalStateUnknown<T>): void {
    const key = this.keyOrSkip(obj);
    if (key === undefined) return;
    this.markPopulated();
    if (this.mode === 'delta' && !this.items.has(key)) {
      if (this.knownObjects === undefined) return;
      if (!this.knownHas(key)) return;
    }
    const object = isTombstone(obj) ? obj : this.transformed(obj, key);
    this.append(key, { type: 'Deleted', object });
  }

  /**
   * A relist: tombstones (`Deleted` with {@link DeletedFinalStateUnknown}) for keys queued or known but
   * missing from `list`, and a `Replaced` (or `Sync`) delta for every listed object. DeltaFIFO queues
   * the listed objects first, RealFIFO the tombstones first. Objects without a key are logged and skipped.
   */
  replace(list: readonly T[]): void {
    const keys: (string | undefined)[] = list.map((obj) => this.keyOrSkip(obj));
    const newKeys = new Set<string>();
    for (const k of keys) if (k !== undefined) newKeys.add(k);
    const action: DeltaType = this.emitReplaced ? 'Replaced' : 'Sync';
    const queueReplaced = () => {
      list.forEach((obj, i) => {
        const key = keys[i];
        if (key !== undefined) this.append(key, { type: action, object: this.transformed(obj, key) });
      });
    };
    let tombstones = 0;
    if (this.mode === 'delta') queueReplaced();
    // deletion detection against the queue, oldest key first
    const queuedKeys = [...this.items].sort((a, b) => a[1][0]!.seq - b[1][0]!.seq);
    for (const [key, entries] of queuedKeys) {
      if (newKeys.has(key)) continue;
      const last = entries[entries.length - 1]!.delta;
      if (this.mode === 'real' && last.type === 'Deleted') continue;
      const obj = isTombstone(last.object) ? last.object.obj : last.object;
      this.append(key, { type: 'Deleted', object: new DeletedFinalStateUnknown(key, obj) });
      tombstones++;
    }
    // deletion detection against what the consumer knows
    if (this.knownObjects !== undefined) {
      for (const key of this.knownKeys()) {
        if (newKeys.has(key) || this.items.has(key)) continue;
        const obj = this.knownGet(key);
        if (obj === undefined) {
          this.logger.info(
            { key },
            'key does not exist in known objects; placing a tombstone without an object',
          );
        }
        this.append(key, { type: 'Deleted', object: new DeletedFinalStateUnknown(key, obj) });
        tombstones++;
      }
    }
    if (this.mode === 'real') queueReplaced();
    if (!this.populated) {
      this.populated = true;
      this.initialPopulationCount = this.mode === 'delta' ? newKeys.size + tombstones : this.queued;
      this.checkSynced();
    }
  }

  /** Queues a `Sync` delta with the known object for every known key that has nothing queued. */
  resync(): void {
    if (this.knownObjects === undefined) return;
    for (const key of this.knownKeys()) {
      if (this.items.has(key)) continue;
      const obj = this.knownGet(key);
      if (obj === undefined) {
        this.logger.info({ key }, 'key does not exist in known objects; unable to queue object for sync');
        continue;
      }
      const id = this.keyOrSkip(obj);
      if (id === undefined || this.items.has(id)) continue;
      this.append(id, { type: 'Sync', object: obj });
    }
  }

  /**
   * Hands out the next item whose key is not in flight and marks the key in flight, or undefined.
   * Call {@link done} with the key when its processing has finished.
   */
  pop(): Popped<T> | undefined {
    const key = this.ready.pop();
    if (key === undefined) return undefined;
    const entries = this.items.get(key)!;
    let deltas: Delta<T>[];
    if (this.mode === 'delta') {
      this.items.delete(key);
      deltas = entries.map((e) => e.delta);
    } else {
      const head = entries.shift()!;
      if (entries.length === 0) this.items.delete(key);
      deltas = [head.delta];
    }
    this.queued--;
    const initial = this.initialPopulationCount > 0;
    if (initial) {
      this.initialPopulationCount--;
      this.initialInFlight++;
    }
    this.inFlight.set(key, { initial, last: deltas[deltas.length - 1]! });
    return { item: { key, deltas }, isInInitialList: initial };
  }

  /**
   * Marks the key's processing finished, letting its next deltas out.
   * @throws FifoContractError when the key is not in flight
   */
  done(key: string): void {
    const rec = this.inFlight.get(key);
    if (!rec) throw new FifoContractError(`done(${JSON.stringify(key)}) for a key that is not in flight`);
    this.inFlight.delete(key);
    if (rec.initial) this.initialInFlight--;
    const entries = this.items.get(key);
    if (entries) this.ready.push(entries[0]!.seq, key);
    this.checkSynced();
  }

  /**
   * client-go's AddIfNotPresent: queues the item's deltas again (at the end of the line) unless its key
   * already has deltas queued, in which case those newer ones win. Used to requeue a failed item.
   * @returns whether the item was queued
   */
  addIfNotPresent(item: FifoItem<T>): boolean {
    if (this.items.has(item.key) || item.deltas.length === 0) return false;
    this.markPopulated();
    const entries = item.deltas.map((delta) => ({ seq: this.seq++, delta }));
    this.items.set(item.key, entries);
    this.queued += this.mode === 'delta' ? 1 : entries.length;
    if (!this.inFlight.has(item.key)) this.ready.push(entries[0]!.seq, item.key);
    return true;
  }

  /**
   * client-go's Close: no more writes are expected. Items still queued are handed out as before; once
   * the queue is empty and closed, the consumer stops (the operator completes).
   */
  close(): void {
    this.closed = true;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** The key of an object, a tombstone or a delta list, with this queue's key function (client-go's KeyOf). */
  keyOf(obj: T | DeletedFinalStateUnknown<T> | readonly Delta<T>[]): string {
    return keyOfDeltas(obj, this.keyFunc);
  }

  /** Drops everything queued and in flight (teardown). */
  clear(): void {
    this.items.clear();
    this.inFlight.clear();
    this.ready.clear();
    this.queued = 0;
  }

  private markPopulated(): void {
    if (this.populated) return;
    this.populated = true;
    this.checkSynced();
  }

  private checkSynced(): void {
    if (!this.synced && this.populated && this.initialPopulationCount === 0 && this.initialInFlight === 0) {
      this.synced = true;
    }
  }

  private keyOrSkip(obj: T | DeletedFinalStateUnknown<T>): string | undefined {
    if (isTombstone(obj)) return obj.key;
    try {
      return this.keyFunc(obj);
    } catch (error) {
      this.logger.warn({ err: error, object: obj?.metadata }, 'skipping an object without a key');
      return undefined;
    }
  }

  private transformed(obj: T, key: string): T {
    if (!this.transform) return obj;
    try {
      return this.transform(obj);
    } catch (error) {
      this.logger.error({ err: error, key }, 'transform threw; keeping the object untransformed');
      return obj;
    }
  }

  private enqueueNew(type: 'Added' | 'Updated', obj: T): void {
    const key = this.keyOrSkip(obj);
    if (key === undefined) return;
    this.append(key, { type, object: this.transformed(obj, key) });
  }

  private append(key: string, delta: Delta<T>): void {
    const entries = this.items.get(key);
    if (entries === undefined) {
      const seq = this.seq++;
      this.items.set(key, [{ seq, delta }]);
      this.queued++;
      if (!this.inFlight.has(key)) this.ready.push(seq, key);
      return;
    }
    const last = entries[entries.length - 1]!;
    if (this.compact) {
      // one delta per key: the newest, except that a real final state beats a later tombstone
      // (the entry keeps its seq, so the key keeps its place in line)
      last.delta = dedupDeleted(last.delta, delta) ?? delta;
      return;
    }
    if (this.mode === 'delta') {
      const kept = dedupDeleted(last.delta, delta);
      if (kept) {
        last.delta = kept;
        return;
      }
      entries.push({ seq: this.seq++, delta });
      return;
    }
    entries.push({ seq: this.seq++, delta });
    this.queued++;
  }

  private knownHas(key: string): boolean {
    const f = this.inFlight.get(key);
    if (f) return f.last.type !== 'Deleted';
    try {
      return this.knownObjects!.getByKey(key) !== undefined;
    } catch (error) {
      this.logger.error({ err: error, key }, 'knownObjects.getByKey threw; assuming the key is known');
      return true;
    }
  }

  private knownGet(key: string): T | undefined {
    const f = this.inFlight.get(key);
    if (f) return f.last.type === 'Deleted' || isTombstone(f.last.object) ? undefined : f.last.object;
    try {
      return this.knownObjects!.getByKey(key);
    } catch (error) {
      this.logger.error({ err: error, key }, 'knownObjects.getByKey threw');
      return undefined;
    }
  }

  private knownKeys(): string[] {
    const out: string[] = [];
    for (const key of this.knownObjects!.listKeys()) if (!this.inFlight.has(key)) out.push(key);
    for (const [key, f] of this.inFlight) if (f.last.type !== 'Deleted') out.push(key);
    return out;
  }
}

/**
 * client-go's dedupDeltas rule for two consecutive `Deleted` deltas: a real final state wins over a
 * tombstone, and between two real ones the older wins. Undefined when the pair is not two deletes.
 */
export function dedupDeleted<T extends KubeObject>(older: Delta<T>, newer: Delta<T>): Delta<T> | undefined {
  if (older.type !== 'Deleted' || newer.type !== 'Deleted') return undefined;
  return isTombstone(older.object) ? newer : older;
}
