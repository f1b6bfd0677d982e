// The API server's storage: one global resourceVersion, a map per resource and a bounded event history.
import type { KubeObject } from '../../operators/types.ts';
import { expired, tooLargeResourceVersion } from './api-status.ts';

/** One stored version of an object; `object` is never mutated once stored, `json` is its text. */
export interface StoredObject {
  readonly object: KubeObject;
  readonly json: string;
  readonly rv: number;
}

/** One committed change. `object` is the new state (for DELETED the last state, at the deletion's rv). */
export interface StoreEvent {
  readonly rv: number;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly resource: string;
  readonly key: string;
  readonly object: KubeObject;
  readonly json: string;
  /** The state before this change; undefined for ADDED. */
  readonly prev: StoredObject | undefined;
}

/**
 * Where committed changes are made durable. A synchronous journal's `append` returns only once the
 * record is on disk (or throws, and the commit is not applied). A journal with `confirmsLater`
 * (a remote store) only queues the record: the store keeps the commit pending, visible to reads but
 * not to watchers or the history, until the journal calls {@link ObjectStore.confirmNext} or
 * {@link ObjectStore.rollbackPending}.
 */
export interface Journal {
  append(record: JournalRecord): void;
  readonly confirmsLater?: boolean;
}

/** One line of the journal. SNAPSHOT lines restore state without entering the watch history. */
export type JournalRecord =
  | {
      type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'SNAPSHOT';
      rv: number;
      resource: string;
      key: string;
      object?: KubeObject;
      /** `object` as JSON text, when the store has it (not written to the JSONL journal). */
      json?: string;
      /** For DELETED: the deleted object's last JSON text, when the store has it (not written either). */
      prevJson?: string;
    }
  | { type: 'RV'; rv: number };

export interface ObjectStoreConfig {
  /** How many past events a watch or an exact list can reach back over; default 10,000. */
  historyWindow?: number;
  journal?: Journal;
}

/**
 * The storage behind the API server.
 *
 * Invariants: every commit takes the next resourceVersion and produces exactly one event; events in
 * the history are in rv order; every rv in (compactedRv, currentRv] that belongs to a commit is in
 * the history, so a watch or an exact list from any rv >= compactedRv is served faithfully; a commit
 * is journalled before any map, history or listener sees it.
 */
export class ObjectStore {
  readonly historyWindow: number;
  /** The newest rv handed out, pending commits included. */
  private rv = 0;
  /** The newest rv in the history (equal to `rv` unless commits are pending). */
  private confirmed = 0;
  private compacted = 0;
  private pending: StoreEvent[] = [];
  private readonly maps = new Map<string, Map<string, StoredObject>>();
  private history: StoreEvent[] = [];
  private historyStart = 0;
  private readonly listeners = new Set<(event: StoreEvent) => void>();
  private journal: Journal | undefined;

  constructor(config: ObjectStoreConfig = {}) {
    this.historyWindow = Math.max(1, config.historyWindow ?? 10_000);
    this.journal = config.journal;
  }

  /** The newest confirmed resourceVersion (commits a remote journal has not confirmed yet are not counted). */
  get currentRv(): number {
    return this.confirmed;
  }

  /** The rv of the oldest commit waiting for the journal's confirmation, if any. */
  get oldestPendingRv(): number | undefined {
    return this.pending[0]?.rv;
  }

  /** True while commits wait for the journal's confirmation. */
  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** The oldest resourceVersion a watch or an exact list can start from. */
  get compactedRv(): number {
    return this.compacted;
  }

  /** Sets or replaces the journal (after a restore, which must not re-journal). */
  setJournal(journal: Journal | undefined): void {
    this.journal = journal;
  }

  private mapOf(resource: string): Map<string, StoredObject> {
    let m = this.maps.get(resource);
    if (!m) {
      m = new Map();
      this.maps.set(resource, m);
    }
    return m;
  }

  /** The current state of one object. */
  get(resource: string, key: string): StoredObject | undefined {
    return this.maps.get(resource)?.get(key);
  }

  /** The current objects of one resource (unsorted, live view: copy before yielding control). */
  current(resource: string): ReadonlyMap<string, StoredObject> {
    return this.mapOf(resource);
  }

  /** Every resource id that has held objects. */
  resources(): string[] {
    return [...this.maps.keys()];
  }

  /**
   * Commits one change: takes the next rv, stamps it on the object, journals it, applies it,
   * records it in the history and tells the listeners.
   * @param object the new state, or for DELETED the last state (it is copied, not mutated)
   */
  commit(resource: string, key: string, type: StoreEvent['type'], object: KubeObject): StoreEvent {
    const rv = this.rv + 1;
    const stamped: KubeObject = { ...object, metadata: { ...object.metadata, resourceVersion: String(rv) } };
    const json = JSON.stringify(stamped);
    this.journal?.append(
      type === 'DELETED'
        ? { type, rv, resource, key, prevJson: this.get(resource, key)?.json }
        : { type, rv, resource, key, object: stamped, json },
    );
    if (this.journal?.confirmsLater) {
      const map = this.mapOf(resource);
      const prev = map.get(key);
      if (type === 'DELETED') map.delete(key);
      else map.set(key, { object: stamped, json, rv });
      this.rv = rv;
      const event: StoreEvent = { rv, type, resource, key, object: stamped, json, prev };
      this.pending.push(event);
      return event;
    }
    return this.apply(resource, key, type, stamped, rv, true, json);
  }

  /**
   * The journal confirmed the oldest pending commit: it enters the history and watchers see it.
   * When the journal stored it at a later rv than predicted (another client wrote elsewhere in
   * between), the commit takes that rv: its object is restamped, and later pending commits' `prev`
   * follow; later commits are numbered above it.
   * @throws Error when nothing is pending or `rv` is below the oldest pending commit's (a journal bug)
   */
  confirmNext(rv: number): StoreEvent {
    let event = this.pending[0];
    if (!event || rv < event.rv || rv <= this.confirmed)
      throw new Error(`confirmed rv ${rv}, but the oldest pending is ${event?.rv}`);
    if (rv !== event.rv) event = this.renumber(event, rv);
    this.pending.shift();
    this.rv = Math.max(this.rv, rv);
    this.record(event, true);
    return event;
  }

  /** The pending head at `rv` instead of its predicted rv, in the maps and in later commits' `prev`. */
  private renumber(event: StoreEvent, rv: number): StoreEvent {
    const object: KubeObject = {
      ...event.object,
      metadata: { ...event.object.metadata, resourceVersion: String(rv) },
    };
    const json = JSON.stringify(object);
    const moved: StoredObject = { object, json, rv };
    const map = this.mapOf(event.resource);
    const old = map.get(event.key);
    if (event.type !== 'DELETED' && old?.rv === event.rv && old.json === event.json)
      map.set(event.key, moved);
    for (let i = 1; i < this.pending.length; i++) {
      const later = this.pending[i]!;
      if (later.resource === event.resource && later.key === event.key && later.prev?.rv === event.rv)
        this.pending[i] = { ...later, prev: event.type === 'DELETED' ? undefined : moved };
    }
    return { ...event, rv, object, json };
  }

  /** The journal refused the pending commits (another writer came first): undoes them all, newest first. */
  rollbackPending(): StoreEvent[] {
    const undone = this.pending;
    this.pending = [];
    for (let i = undone.length - 1; i >= 0; i--) {
      const e = undone[i]!;
      const map = this.mapOf(e.resource);
      if (e.prev) map.set(e.key, e.prev);
      else map.delete(e.key);
    }
    this.rv = this.confirmed;
    return undone;
  }

  /**
   * Applies a change another writer made to the shared store, at its rv (greater than every rv
   * here; gaps allowed). Pending commits must have been rolled back first.
   * @param object the new state, or for DELETED the last state, stamped with `rv`
   */
  applyRemote(
    resource: string,
    key: string,
    type: StoreEvent['type'],
    object: KubeObject,
    rv: number,
    json?: string,
  ): StoreEvent {
    if (this.pending.length > 0) throw new Error('applyRemote with pending commits; roll them back first');
    if (rv <= this.confirmed) throw new Error(`remote rv ${rv} is not after ${this.confirmed}`);
    return this.apply(resource, key, type, object, rv, true, json);
  }

  /**
   * Loads one stored object at start, outside the history; it is parsed on first use.
   * @param json the object's JSON; unless `stamped`, its resourceVersion is set to `rv` on first use
   */
  load(resource: string, key: string, rv: number, json: string, stamped = true): void {
    this.mapOf(resource).set(key, new LoadedObject(json, rv, stamped));
  }

  /** After {@link load}: the store's rv (a watch or exact list can start here, not earlier). */
  loaded(rv: number): void {
    this.rv = Math.max(this.rv, rv);
    this.confirmed = this.rv;
    this.compacted = this.rv;
  }

  private apply(
    resource: string,
    key: string,
    type: StoreEvent['type'],
    stamped: KubeObject,
    rv: number,
    notify: boolean,
    json = JSON.stringify(stamped),
  ): StoreEvent {
    this.rv = rv;
    const map = this.mapOf(resource);
    const prev = map.get(key);
    if (type === 'DELETED') map.delete(key);
    else map.set(key, { object: stamped, json, rv });
    const event: StoreEvent = { rv, type, resource, key, object: stamped, json, prev };
    this.record(event, notify);
    return event;
  }

  /** Appends a committed event to the history (compacting its oldest end) and tells the listeners. */
  private record(event: StoreEvent, notify: boolean): void {
    this.confirmed = event.rv;
    this.history.push(event);
    if (this.history.length - this.historyStart > this.historyWindow) {
      this.compacted = this.history[this.historyStart]!.rv;
      this.history[this.historyStart] = undefined as unknown as StoreEvent;
      this.historyStart++;
      if (this.historyStart > 1024 && this.historyStart * 2 > this.history.length) {
        this.history = this.history.slice(this.historyStart);
        this.historyStart = 0;
      }
    }
    if (notify) for (const l of [...this.listeners]) l(event);
  }

  /** Replays journal records (at start, before serving): state, rv and history are restored. */
  restore(records: Iterable<JournalRecord>): void {
    for (const r of records) {
      if (r.type === 'RV') {
        this.loaded(r.rv);
      } else if (r.type === 'SNAPSHOT') {
        const stamped = r.object!;
        this.mapOf(r.resource).set(r.key, { object: stamped, json: JSON.stringify(stamped), rv: r.rv });
        this.loaded(r.rv);
      } else if (r.type === 'DELETED') {
        const prev = this.get(r.resource, r.key);
        const last = prev?.object ?? { metadata: {} };
        this.apply(
          r.resource,
          r.key,
          'DELETED',
          { ...last, metadata: { ...last.metadata, resourceVersion: String(r.rv) } },
          r.rv,
          false,
        );
      } else {
        this.apply(r.resource, r.key, r.type, r.object!, r.rv, false);
      }
    }
  }

  /** Calls `listener` with every later commit, synchronously; returns the unsubscribe function. */
  subscribe(listener: (event: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private firstIndexAfter(rv: number): number {
    let lo = this.historyStart;
    let hi = this.history.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.history[mid]!.rv <= rv) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Checks that `rv` can be served exactly, throwing 410 Expired or 504 too-large otherwise. */
  checkReachable(rv: number): void {
    if (rv < this.compacted) throw expired(`too old resource version: ${rv} (${this.compacted})`);
    if (rv > this.confirmed) throw tooLargeResourceVersion(rv, this.confirmed);
  }

  /**
   * The committed events after `rv`, oldest first.
   * @throws ApiStatusError 410 when they are no longer all in the history
   */
  eventsAfter(rv: number): StoreEvent[] {
    this.checkReachable(rv);
    return this.history.slice(this.firstIndexAfter(rv));
  }

  /**
   * The state of one resource as it was at `rv`, by undoing the later events.
   * @throws ApiStatusError 410 when `rv` is older than the history, 504 when it is in the future
   */
  snapshotAt(resource: string, rv: number): Map<string, StoredObject> {
    this.checkReachable(rv);
    const snap = new Map(this.mapOf(resource));
    for (let i = this.history.length - 1; i >= this.historyStart; i--) {
      const e = this.history[i]!;
      if (e.rv <= rv) break;
      if (e.resource !== resource) continue;
      if (e.prev) snap.set(e.key, e.prev);
      else snap.delete(e.key);
    }
    return snap;
  }

  /** Every live object, for journal compaction. */
  *entries(): Generator<{ resource: string; key: string; stored: StoredObject }> {
    for (const [resource, map] of this.maps) for (const [key, stored] of map) yield { resource, key, stored };
  }
}

/** A stored version loaded at start: parsed on first use, so a restart over many objects is quick. */
class LoadedObject implements StoredObject {
  readonly rv: number;
  private text: string;
  private stamped: boolean;
  private parsed: KubeObject | undefined;
  constructor(json: string, rv: number, stamped: boolean) {
    this.text = json;
    this.rv = rv;
    this.stamped = stamped;
  }
  get object(): KubeObject {
    if (!this.parsed) {
      const o = JSON.parse(this.text) as KubeObject;
      this.parsed = this.stamped
        ? o
        : { ...o, metadata: { ...o.metadata, resourceVersion: String(this.rv) } };
    }
    return this.parsed;
  }
  get json(): string {
    if (!this.stamped) {
      this.text = JSON.stringify(this.object);
      this.stamped = true;
    }
    return this.text;
  }
}
