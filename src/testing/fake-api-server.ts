// FakeApiServer: an in-memory ListerWatcher with history, pagination, bookmarks and fault injection.
import { asyncScheduler, Observable, type SchedulerLike, type Subscriber, type Subscription } from 'rxjs';
import { InvalidInputError } from '../../operators/errors.ts';
import { objectKey } from '../../operators/object-key.ts';
import {
  INITIAL_EVENTS_END_ANNOTATION,
  type KubeObject,
  type ObjectList,
  type Status,
  type WatchEvent,
} from '../../operators/types.ts';
import type { ListerWatcher, ListOptions, WatchOptions } from '../../streams/ports.ts';
import { expiredError, tooLargeResourceVersionError } from './api-errors.ts';

/** Options of a {@link FakeApiServer}. */
export interface FakeApiServerConfig {
  /** Clock for latency, bookmarks and watch timeouts; default `asyncScheduler`. Use a virtual one in tests. */
  scheduler?: SchedulerLike;
  /** Send every open watch (that allows bookmarks) a BOOKMARK this often; default 0 (only on `sendBookmarks()`). */
  bookmarkIntervalMs?: number;
  /** Close a watch cleanly after its `timeoutSeconds`, as the API server does; default true. */
  honourWatchTimeout?: boolean;
  /** History kept for watches and continue tokens; older changes are compacted away (410). Default 10 000. */
  historyLimit?: number;
  /** What is served, in messages; default `objects`. */
  resource?: string;
}

/** A write, as data (see `arbWriteSequence`). `upsert` creates or updates; labels and data are optional. */
export type WriteOp =
  | { op: 'upsert'; namespace?: string; name: string; labels?: Record<string, string>; data?: unknown }
  | { op: 'delete'; namespace?: string; name: string };

/** The faults a {@link FakeApiServer} can inject, as data (see `arbFaultPlan`). */
export type Fault =
  /** End every open watch cleanly. */
  | { type: 'dropWatches' }
  /** Break every open watch with a network-style error. */
  | { type: 'breakWatches' }
  /** Send every open watch a 410 Expired ERROR event, then close it. */
  | { type: 'expireWatches' }
  /** Forget all history: every older resourceVersion and continue token is now expired. */
  | { type: 'compact' }
  /** The next list (or watch) fails with this error. */
  | { type: 'failNext'; op: 'list' | 'watch'; error: unknown }
  /** The next list (or watch) never answers. */
  | { type: 'hangNext'; op: 'list' | 'watch' }
  /** Every open watch goes silent (no events, no end). */
  | { type: 'stallWatches' }
  /** Every open watch receives garbage now. */
  | { type: 'garbleWatches'; kind?: GarbleKind }
  /** The next event of every open watch is replaced by garbage (and so is lost on that watch). */
  | { type: 'garbleNextEvent'; kind?: GarbleKind }
  /** Send a BOOKMARK to every open watch that allows them. */
  | { type: 'bookmark' };

/** Garbage on a watch: a line that is not JSON (an error), an event without metadata, or an unknown type. */
export type GarbleKind = 'invalid-json' | 'no-metadata' | 'unknown-type';

interface HistoryEntry<T> {
  rv: number;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  key: string;
  object: T;
}

interface OpenWatch<T extends KubeObject> {
  subscriber: Subscriber<WatchEvent<T>>;
  bookmarks: boolean;
  stalled: boolean;
  /** False until the response has "arrived" (after any latency); writes before then are replayed from history. */
  opened: boolean;
  garbleNext: GarbleKind | undefined;
  timers: Subscription[];
}

type PendingFault = { kind: 'error'; error: unknown } | { kind: 'hang' };

const clone: <V>(value: V) => V = (value) => structuredClone(value);

/**
 * An in-memory API server for one resource, modelled on client-go's fake controller source: writes bump
 * a resourceVersion counter and are kept as history; `list` pages with continue tokens at a consistent
 * snapshot; `watch` replays history from a resourceVersion (410 when it is compacted away), supports
 * `sendInitialEvents` with the initial-events-end bookmark, and delivers new writes synchronously.
 * Faults are injected with {@link FakeApiServer.inject}. Label and field selectors are not evaluated.
 *
 * It implements {@link ListerWatcher}, so pass it straight to `listWatch` or an informer.
 *
 * @example
 * const server = new FakeApiServer({ scheduler });
 * server.write({ op: 'upsert', namespace: 'ns', name: 'a' });
 * listWatch(server, { scheduler }).subscribe(...);
 * server.inject({ type: 'expireWatches' });
 */
export class FakeApiServer<T extends KubeObject = KubeObject> implements ListerWatcher<T> {
  /** Options of every list call, in order. */
  readonly listCalls: ListOptions[] = [];
  /** Options of every watch call, in order. */
  readonly watchCalls: WatchOptions[] = [];

  readonly #scheduler: SchedulerLike;
  readonly #bookmarkIntervalMs: number;
  readonly #honourTimeout: boolean;
  readonly #historyLimit: number;
  readonly #resource: string;
  #rv = 1;
  #current = new Map<string, T>();
  /** State at `#compactedRV`, the base that history replays onto. */
  #base = new Map<string, T>();
  #compactedRV = 1;
  #history: HistoryEntry<T>[] = [];
  #watches = new Set<OpenWatch<T>>();
  #pending: Record<'list' | 'watch', PendingFault[]> = { list: [], watch: [] };
  #latency = { list: 0, watch: 0 };
  #listsInFlight = 0;

  constructor(config: FakeApiServerConfig = {}) {
    this.#scheduler = config.scheduler ?? asyncScheduler;
    this.#bookmarkIntervalMs = config.bookmarkIntervalMs ?? 0;
    this.#honourTimeout = config.honourWatchTimeout ?? true;
    this.#historyLimit = config.historyLimit ?? 10_000;
    this.#resource = config.resource ?? 'objects';
  }

  /** The current resourceVersion. */
  get resourceVersion(): string {
    return String(this.#rv);
  }

  /** Watches currently open (subscribed and not ended). */
  get openWatches(): number {
    return this.#watches.size;
  }

  /** Lists subscribed that have not answered yet. */
  get listsInFlight(): number {
    return this.#listsInFlight;
  }

  /** The object stored under `namespace/name` (or `name`), if any. */
  get(key: string): T | undefined {
    const obj = this.#current.get(key);
    return obj === undefined ? undefined : clone(obj);
  }

  /** The current state: key → object. */
  snapshot(): Map<string, T> {
    return new Map([...this.#current].map(([k, v]) => [k, clone(v)]));
  }

  /** Creates the object, or replaces the stored one with the same key; returns it with its new resourceVersion. */
  upsert(obj: T): T {
    const key = objectKey(obj);
    const stored = clone(obj);
    const rv = ++this.#rv;
    stored.metadata = { ...stored.metadata, resourceVersion: String(rv) };
    if (!stored.metadata.uid)
      stored.metadata.uid = this.#current.get(key)?.metadata?.uid ?? `uid-${key}-${rv}`;
    const type = this.#current.has(key) ? 'MODIFIED' : 'ADDED';
    this.#current.set(key, stored);
    this.#record({ rv, type, key, object: stored });
    return clone(stored);
  }

  /** Deletes the object with this key; returns its final state (with the deletion's resourceVersion), if it existed. */
  delete(key: string): T | undefined {
    const existing = this.#current.get(key);
    if (!existing) return undefined;
    const rv = ++this.#rv;
    const final = { ...existing, metadata: { ...existing.metadata, resourceVersion: String(rv) } } as T;
    this.#current.delete(key);
    this.#record({ rv, type: 'DELETED', key, object: final });
    return clone(final);
  }

  /** Applies a write given as data; `upsert` builds a minimal object (kind `Object`) from its fields. */
  write(op: WriteOp): T | undefined {
    const key = op.namespace ? `${op.namespace}/${op.name}` : op.name;
    if (op.op === 'delete') return this.delete(key);
    const metadata: KubeObject['metadata'] = { name: op.name };
    if (op.namespace) metadata.namespace = op.namespace;
    if (op.labels) metadata.labels = op.labels;
    const obj: KubeObject = { apiVersion: 'v1', kind: 'Object', metadata };
    if (op.data !== undefined) obj.data = op.data;
    return this.upsert(obj as T);
  }

  /** Responses to lists (and the opening of watches) arrive this many ms later on the scheduler. */
  setLatency(latency: { list?: number; watch?: number }): this {
    this.#latency = { list: latency.list ?? this.#latency.list, watch: latency.watch ?? this.#latency.watch };
    return this;
  }

  /**
   * Injects one fault.
   * @returns how many open watches it touched (0 for faults on the next request)
   */
  inject(fault: Fault): number {
    const open = [...this.#watches];
    switch (fault.type) {
      case 'dropWatches':
        for (const w of open) this.#end(w);
        return open.length;
      case 'breakWatches':
        for (const w of open)
          this.#end(w, Object.assign(new Error('connection reset by peer'), { code: 'ECONNRESET' }));
        return open.length;
      case 'expireWatches':
        for (const w of open) {
          w.subscriber.next({ type: 'ERROR', object: this.#expiredStatus('watch expired') });
          this.#end(w);
        }
        return open.length;
      case 'compact':
        this.#compactTo(this.#rv);
        return 0;
      case 'failNext':
        this.#pending[fault.op].push({ kind: 'error', error: fault.error });
        return 0;
      case 'hangNext':
        this.#pending[fault.op].push({ kind: 'hang' });
        return 0;
      case 'stallWatches':
        for (const w of open) w.stalled = true;
        return open.length;
      case 'garbleWatches':
        for (const w of open) this.#garble(w, fault.kind ?? 'invalid-json');
        return open.length;
      case 'garbleNextEvent':
        for (const w of open) w.garbleNext = fault.kind ?? 'invalid-json';
        return open.length;
      case 'bookmark':
        for (const w of open) this.#bookmark(w);
        return open.length;
    }
  }

  list(options: ListOptions): Observable<ObjectList<T>> {
    return new Observable<ObjectList<T>>((subscriber) => {
      this.listCalls.push({ ...options });
      const fault = this.#pending.list.shift();
      this.#listsInFlight++;
      let answered = false;
      const answer = () => {
        answered = true;
        this.#listsInFlight--;
        if (fault?.kind === 'error') return subscriber.error(fault.error);
        let page: ObjectList<T>;
        try {
          page = this.#page(options);
        } catch (error) {
          return subscriber.error(error);
        }
        subscriber.next(page);
        subscriber.complete();
      };
      let timer: Subscription | undefined;
      if (fault?.kind !== 'hang') {
        if (this.#latency.list > 0) timer = this.#scheduler.schedule(answer, this.#latency.list);
        else answer();
      }
      return () => {
        timer?.unsubscribe();
        if (!answered) this.#listsInFlight--;
      };
    });
  }

  watch(options: WatchOptions): Observable<WatchEvent<T>> {
    return new Observable<WatchEvent<T>>((subscriber) => {
      this.watchCalls.push({ ...options });
      const fault = this.#pending.watch.shift();
      const w: OpenWatch<T> = {
        subscriber,
        bookmarks: options.allowWatchBookmarks === true,
        stalled: fault?.kind === 'hang',
        opened: false,
        garbleNext: undefined,
        timers: [],
      };
      const open = () => {
        if (fault?.kind === 'error') return subscriber.error(fault.error);
        if (fault?.kind === 'hang') return;
        this.#open(w, options);
      };
      this.#watches.add(w);
      if (this.#latency.watch > 0) w.timers.push(this.#scheduler.schedule(open, this.#latency.watch));
      else open();
      return () => this.#forget(w);
    });
  }

  #open(w: OpenWatch<T>, options: WatchOptions): void {
    w.opened = true;
    const rvText = options.resourceVersion ?? '';
    const rv = rvText === '' ? 0 : Number(rvText);
    if (!Number.isFinite(rv)) {
      w.subscriber.error(new InvalidInputError('watch', 'resourceVersion', `not a number: ${rvText}`));
      return;
    }
    if (rv > this.#rv) {
      const error = tooLargeResourceVersionError(rvText, this.resourceVersion);
      w.subscriber.next({ type: 'ERROR', object: error.status });
      this.#end(w);
      return;
    }
    if (options.sendInitialEvents || rv === 0) {
      for (const obj of this.#sorted(this.#current)) this.#deliver(w, { type: 'ADDED', object: clone(obj) });
      if (options.sendInitialEvents && !w.stalled && !w.subscriber.closed) {
        w.subscriber.next({
          type: 'BOOKMARK',
          object: {
            kind: 'Object',
            metadata: {
              resourceVersion: this.resourceVersion,
              annotations: { [INITIAL_EVENTS_END_ANNOTATION]: 'true' },
            },
          } as KubeObject as T,
        });
      }
    } else if (rv < this.#compactedRV) {
      w.subscriber.next({
        type: 'ERROR',
        object: this.#expiredStatus(`too old resource version: ${rv} (${this.#compactedRV})`),
      });
      this.#end(w);
      return;
    } else {
      for (const entry of this.#history) {
        if (entry.rv > rv) this.#deliver(w, { type: entry.type, object: clone(entry.object) });
      }
    }
    if (!this.#watches.has(w)) return;
    if (this.#honourTimeout && options.timeoutSeconds && options.timeoutSeconds > 0) {
      w.timers.push(this.#scheduler.schedule(() => this.#end(w), options.timeoutSeconds * 1000));
    }
    if (this.#bookmarkIntervalMs > 0 && w.bookmarks) {
      const interval = this.#bookmarkIntervalMs;
      const self = this;
      w.timers.push(
        this.#scheduler.schedule(function tick() {
          self.#bookmark(w);
          if (self.#watches.has(w)) this.schedule(undefined, interval);
        }, interval),
      );
    }
  }

  #record(entry: HistoryEntry<T>): void {
    this.#history.push(entry);
    if (this.#history.length > this.#historyLimit) {
      this.#compactTo(this.#history[this.#history.length - this.#historyLimit - 1]!.rv);
    }
    for (const w of [...this.#watches]) this.#deliver(w, { type: entry.type, object: clone(entry.object) });
  }

  #compactTo(rv: number): void {
    let drop = 0;
    for (const entry of this.#history) {
      if (entry.rv > rv) break;
      if (entry.type === 'DELETED') this.#base.delete(entry.key);
      else this.#base.set(entry.key, entry.object);
      drop++;
    }
    this.#history.splice(0, drop);
    this.#compactedRV = Math.max(this.#compactedRV, rv);
  }

  #stateAt(rv: number): Map<string, T> {
    if (rv >= this.#rv) return this.#current;
    const state = new Map(this.#base);
    for (const entry of this.#history) {
      if (entry.rv > rv) break;
      if (entry.type === 'DELETED') state.delete(entry.key);
      else state.set(entry.key, entry.object);
    }
    return state;
  }

  #sorted(state: Map<string, T>): T[] {
    return [...state.keys()].sort().map((k) => state.get(k)!);
  }

  #page(options: ListOptions): ObjectList<T> {
    let snapshotRV = this.#rv;
    let after = '';
    if (options.continue) {
      let token: { rv: number; after: string };
      try {
        token = JSON.parse(Buffer.from(options.continue, 'base64url').toString('utf8'));
      } catch (error) {
        throw new InvalidInputError('list', 'continue', 'not a continue token of this server', {
          cause: error,
        });
      }
      if (token.rv < this.#compactedRV) {
        throw expiredError('The provided continue parameter is too old to display a consistent list result.');
      }
      snapshotRV = token.rv;
      after = token.after;
    } else {
      const asked = options.resourceVersion ? Number(options.resourceVersion) : 0;
      if (asked > this.#rv) throw tooLargeResourceVersionError(options.resourceVersion, this.resourceVersion);
    }
    const all = this.#sorted(this.#stateAt(snapshotRV)).filter((o) => after === '' || objectKey(o) > after);
    const limit = options.limit && options.limit > 0 ? options.limit : all.length;
    const items = all.slice(0, limit).map(clone);
    const metadata: ObjectList<T>['metadata'] = { resourceVersion: String(snapshotRV) };
    if (all.length > limit) {
      const last = objectKey(items[items.length - 1]!);
      metadata.continue = Buffer.from(JSON.stringify({ rv: snapshotRV, after: last })).toString('base64url');
      metadata.remainingItemCount = all.length - limit;
    }
    return { apiVersion: 'v1', kind: 'List', metadata, items };
  }

  #deliver(w: OpenWatch<T>, event: WatchEvent<T>): void {
    if (!w.opened || w.stalled || w.subscriber.closed) return;
    if (w.garbleNext) {
      const kind = w.garbleNext;
      w.garbleNext = undefined;
      this.#garble(w, kind);
      return;
    }
    w.subscriber.next(event);
  }

  #garble(w: OpenWatch<T>, kind: GarbleKind): void {
    if (w.stalled || w.subscriber.closed) return;
    if (kind === 'invalid-json') {
      const line = '{"type":"MODIFIED","object":{"metadata":{"name":';
      this.#forget(w);
      w.subscriber.error(new InvalidInputError(line, undefined, 'watch line is not valid JSON'));
    } else if (kind === 'no-metadata') {
      w.subscriber.next({ type: 'MODIFIED', object: { kind: 'Object' } as T });
    } else {
      w.subscriber.next({ type: 'SURPRISE', object: { kind: 'Object' } } as unknown as WatchEvent<T>);
    }
  }

  #bookmark(w: OpenWatch<T>): void {
    if (!w.bookmarks || !w.opened || w.stalled || w.subscriber.closed) return;
    w.subscriber.next({
      type: 'BOOKMARK',
      object: { kind: 'Object', metadata: { resourceVersion: this.resourceVersion } } as T,
    });
  }

  #expiredStatus(message: string): Status {
    return { ...expiredError(`${this.#resource}: ${message}`).status };
  }

  #end(w: OpenWatch<T>, error?: unknown): void {
    this.#forget(w);
    if (error === undefined) w.subscriber.complete();
    else w.subscriber.error(error);
  }

  #forget(w: OpenWatch<T>): void {
    if (!this.#watches.delete(w)) return;
    for (const t of w.timers) t.unsubscribe();
    w.timers.length = 0;
  }
}

/**
 * A fresh {@link FakeApiServer}, which is itself the `ListerWatcher`.
 * @param config clock, bookmark interval, watch timeouts and history size
 * @returns the fake server
 */
export function fakeListerWatcher<T extends KubeObject = KubeObject>(
  config: FakeApiServerConfig = {},
): FakeApiServer<T> {
  return new FakeApiServer<T>(config);
}
