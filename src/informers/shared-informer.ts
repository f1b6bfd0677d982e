// sharedInformer: one list-watch per resource feeding a FIFO, an indexed store and any number of handlers, each with its own buffer.
import {
  asyncScheduler,
  BehaviorSubject,
  from,
  isObservable,
  map,
  Observable,
  type ObservableInput,
  type SchedulerAction,
  type SchedulerLike,
  type Subscriber,
  Subscription,
} from 'rxjs';
import { InvalidConfigError, KubeRxError } from '../../operators/errors.ts';
import { type FifoMode, FifoQueue } from '../../operators/fifo-queue.ts';
import {
  createIndexedStore,
  type FreezeMode,
  type IndexedStore,
  type Indexers,
} from '../../operators/indexed-store.ts';
import type { InformerNotification } from '../../operators/informer-notification.ts';
import { type Lister, lister } from '../../operators/lister.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import type { KeyFunc } from '../../operators/object-key.ts';
import { processDelta, processDeltas } from '../../operators/process-deltas.ts';
import { registerResync } from '../../operators/resync-period.ts';
import type { Delta, KubeObject, ReflectorEvent, ReflectorHealth } from '../../operators/types.ts';
import { type ListWatchConfig, listWatch } from '../../streams/list-watch.ts';
import type { ListerWatcher } from '../../streams/ports.ts';
import { deliverTo, type EventHandler } from './event-handler.ts';
import { type HandlerResult, InformerListener, type ListenerSink } from './informer-listener.ts';
import { LiveStore } from './live-store.ts';

/** Options of {@link sharedInformer}. Only `source` is required. */
export interface SharedInformerConfig<T extends KubeObject = KubeObject> {
  /** Where events come from: a ListerWatcher (run through `listWatch`) or any observable of reflector events. */
  source: ListerWatcher<T> | Observable<ReflectorEvent<T>>;
  /** Name in logs and handler names; default `informer`. */
  name?: string;
  /** Options of the list-watch when `source` is a ListerWatcher (selectors, page size, watch-list, ...). */
  listWatch?: Omit<ListWatchConfig, 'scheduler' | 'logger' | 'health' | 'name'>;
  /** `real` (default, client-go's in-order RealFIFO since 1.33) or `delta` (the classic DeltaFIFO). */
  fifo?: FifoMode;
  /** Applied to every object before it is cached and handed out (e.g. {@link dropManagedFields}); a throw is logged and the object kept. */
  transform?: (object: T) => T;
  /** Extra indexes of the store (the namespace index is always there). */
  indexers?: Indexers<T>;
  /** Key of an object; default `namespace/name`. */
  keyFunc?: KeyFunc<T>;
  /** Resync period of handlers that do not ask for one, and the initial resync check period; default 0 (never). */
  defaultResyncMs?: number;
  /** How cached objects are frozen; default `shallow`. */
  freeze?: FreezeMode;
  /** Clock for resync timers and the list-watch; default `asyncScheduler`. */
  scheduler?: SchedulerLike;
  logger?: Logger;
  /**
   * When the list-watch runs.
   * - `refCount` (default for a standalone informer): it starts with the first handler, subscriber or
   *   `start()` hold and stops when the last leaves; a later user starts it again with a fresh list.
   * - `explicit` (client-go's, and the informer factory's default): only `start()` starts it; handlers
   *   added before it all see the initial list; once the last `start()` hold is released the informer has
   *   stopped for good, and adding a handler throws {@link InformerStoppedError}.
   */
  lifecycle?: 'refCount' | 'explicit';
}

/** A handler was added to an informer that has stopped (client-go's AddEventHandler error). */
export class InformerStoppedError extends KubeRxError {
  constructor(handler: string) {
    super(
      'KUBE_RX_INFORMER_STOPPED',
      `handler ${handler} was not added to shared informer because it has stopped already`,
    );
  }
}

/** Options of one handler or one `events()` / `handle()` subscription. */
export interface ListenerOptions {
  /** How often this handler gets every cached object again as a sync update; default the informer's `defaultResyncMs`. */
  resyncPeriodMs?: number;
  /** Name in logs. */
  name?: string;
}

/** A registered handler: its own has-synced state, and `remove()`. */
export interface HandlerRegistration {
  /** True once the informer synced and this handler has handled every add of the initial list. */
  hasSynced(): boolean;
  readonly hasSynced$: Observable<boolean>;
  /** Notifications waiting for this handler (at most two per key). */
  readonly pending: number;
  /** Unregisters the handler (idempotent); what it had pending is dropped. */
  remove(): void;
}

/**
 * A shared informer: one list-watch, one cache, many handlers. See {@link sharedInformer}.
 *
 * Invariants: the store only changes by the processing of FIFO items (one writer); every handler sees,
 * per key, a subsequence of the store's states in order, and the store's current state once it catches
 * up; a handler never holds back the store or another handler.
 */
export interface SharedInformer<T extends KubeObject = KubeObject> {
  readonly name: string;
  /** The current snapshot, then every new one (after each processed event). Subscribing starts the informer. */
  readonly store$: Observable<IndexedStore<T>>;
  /** The informer's has-synced state (distinct). Observing it does not start the informer. */
  readonly hasSynced$: Observable<boolean>;
  /** The list-watch's health (distinct states). Observing it does not start the informer. */
  readonly health$: Observable<ReflectorHealth>;
  /** With the `explicit` lifecycle: true once started and stopped again, for good (client-go's IsStopped). */
  isStopped(): boolean;
  /** {@link isStopped} as an observable (distinct). Observing it does not start the informer. */
  readonly isStopped$: Observable<boolean>;
  /** True once the first list has been processed into the store (client-go's HasSynced). */
  hasSynced(): boolean;
  /** The current immutable snapshot (client-go's GetStore / GetIndexer). */
  getStore(): IndexedStore<T>;
  /** A lister over the current snapshot. */
  lister(): Lister<T>;
  /** The resourceVersion of the last list, event or bookmark processed. */
  lastSyncResourceVersion(): string;
  /** True while the list-watch runs. */
  readonly running: boolean;
  /** Handlers and subscriptions currently receiving notifications. */
  readonly listenerCount: number;
  /**
   * The notifications, per subscriber, from its own buffer: subscribing registers a listener (a late one
   * first gets the cached objects as adds) and starts the informer; unsubscribing removes it. Delivery is
   * synchronous; for asynchronous work use {@link SharedInformer.handle} (a `concatMap` here would buffer
   * every event instead of coalescing per key).
   */
  events(options?: ListenerOptions): Observable<InformerNotification<T>>;
  /**
   * Like `events().pipe(concatMap(fn))`, but pulled: notifications wait in this subscriber's per-key
   * buffer until `fn`'s previous output completes. `fn`'s values are emitted; its errors are logged.
   */
  handle<R>(fn: (n: InformerNotification<T>) => ObservableInput<R>, options?: ListenerOptions): Observable<R>;
  /** Registers callbacks (starting the informer); see {@link EventHandler}. */
  addEventHandler(handler: EventHandler<T>, options?: ListenerOptions): HandlerRegistration;
  /**
   * Adds indexes, indexing the cached objects at once.
   * @throws InvalidConfigError when a name is already taken
   */
  addIndexers(indexers: Indexers<T>): void;
  /** Keeps the informer running until the returned subscription is unsubscribed (what a factory's `start` does). */
  start(): Subscription;
}

interface Run<T extends KubeObject> {
  fifo: FifoQueue<T>;
  source: Subscription | undefined;
  resync: Subscription | undefined;
  ended: boolean;
}

let informerCount = 0;

/**
 * A shared informer for one resource: ONE list-watch (or any observable of reflector events) feeds a
 * FIFO (client-go's RealFIFO by default, DeltaFIFO on request), whose items are applied to an indexed
 * store by client-go's processDeltas rules and handed to every handler through the handler's own
 * buffer. Each buffer coalesces per key (at most a delete and an add/update per key, see
 * `NotificationBuffer`), so a slow handler costs memory per key and never delays another handler or the
 * store. A handler may return a Promise or ObservableInput; it gets its next notification once that settles.
 *
 * ```
 * source:  -r-a--u-d|        r = Replace[x1]   a = Added y1   u = Updated x2   d = Deleted y1
 * events(): -X-Y--U-D|        X = add x1 (initial)   Y = add y1   U = update x1→x2   D = delete y1
 * ```
 *
 * Lifecycle: the list-watch starts with the first handler, `events()`/`handle()`/`store$` subscriber or
 * `start()` hold, and stops when the last one leaves; starting again lists afresh into an empty store (and
 * the new handlers get the list as adds). A source that completes completes `events()` subscribers after
 * their buffers drain; a source that errors (only a giving-up backoff does) errors them and removes handlers.
 *
 * Resync: client-go's rules. Each handler has a resync period (minimum 1 s; raised to the informer's check
 * period once it runs, lowering it before); every check period the handlers that are due are marked
 * syncing and the FIFO re-queues every cached object not already queued as a `Sync`; the resulting updates
 * (`isSync`: same resourceVersion) reach only the syncing handlers, as do unchanged objects of a relist.
 *
 * Cost: the cache is a map written per event; the indexed, immutable snapshot (`getStore()`, `lister()`,
 * `store$`) is built from it only when read. When the FIFO is empty it would hand an event straight back,
 * so the informer applies it directly (same rules, same notifications).
 *
 * Teardown: when the last user leaves, the list-watch is unsubscribed (aborting its request), the resync
 * timer cancelled and the FIFO, store and buffers dropped.
 *
 * @example
 * const pods = sharedInformer({ source: listerWatcher(api, PODS), transform: dropManagedFields });
 * const reg = pods.addEventHandler({ onAdd: (p) => queue.add(objectKey(p)) });
 * await waitForCacheSync(signal, reg);
 * pods.events().pipe(filter((n) => n.type === 'delete')).subscribe(...);
 * @param config the source, FIFO mode, transform, indexers, default resync, clock and logger
 * @returns the informer
 * @throws InvalidConfigError for a bad `fifo`, `defaultResyncMs` or source
 */
export function sharedInformer<T extends KubeObject = KubeObject>(
  config: SharedInformerConfig<T>,
): SharedInformer<T> {
  return new SharedIndexInformer(config);
}

class SharedIndexInformer<T extends KubeObject> implements SharedInformer<T> {
  readonly name: string;
  readonly #config: SharedInformerConfig<T>;
  readonly #scheduler: SchedulerLike;
  readonly #logger: Logger;
  readonly #defaultResyncMs: number;
  readonly #mode: FifoMode;
  readonly #listeners = new Set<InformerListener<T>>();
  readonly #storeSinks = new Set<Subscriber<IndexedStore<T>>>();
  readonly #synced$ = new BehaviorSubject(false);
  readonly #health$: BehaviorSubject<ReflectorHealth>;
  readonly #live: LiveStore<T>;
  #published: IndexedStore<T> | undefined;
  #run: Run<T> | undefined;
  #users = 0;
  readonly #explicit: boolean;
  readonly #stopped$ = new BehaviorSubject(false);
  #resyncCheckMs: number;
  #lastRV = '';
  #processing = false;
  readonly #queue: ReflectorEvent<T>[] = [];
  #listenerIds = 0;

  constructor(config: SharedInformerConfig<T>) {
    const source = config.source as unknown;
    if (
      !isObservable(source) &&
      !(
        typeof source === 'object' &&
        source !== null &&
        typeof (source as ListerWatcher).list === 'function' &&
        typeof (source as ListerWatcher).watch === 'function'
      )
    ) {
      throw new InvalidConfigError('source', 'must be a ListerWatcher or an Observable of reflector events');
    }
    const mode = config.fifo ?? 'real';
    if (mode !== 'real' && mode !== 'delta') {
      throw new InvalidConfigError('fifo', `must be 'real' or 'delta', got ${String(mode)}`);
    }
    const resync = config.defaultResyncMs ?? 0;
    if (!Number.isFinite(resync) || resync < 0) {
      throw new InvalidConfigError('defaultResyncMs', `must be a number >= 0, got ${resync}`);
    }
    this.#config = config;
    this.name = config.name ?? `informer-${++informerCount}`;
    this.#scheduler = config.scheduler ?? asyncScheduler;
    this.#logger = (config.logger ?? silentLogger).child({
      component: 'sharedInformer',
      informer: this.name,
    });
    const lifecycle = config.lifecycle ?? 'refCount';
    if (lifecycle !== 'refCount' && lifecycle !== 'explicit') {
      throw new InvalidConfigError('lifecycle', `must be 'refCount' or 'explicit', got ${String(lifecycle)}`);
    }
    this.#explicit = lifecycle === 'explicit';
    this.#defaultResyncMs = resync;
    this.#resyncCheckMs = resync;
    this.#mode = mode;
    const storeConfig: Parameters<typeof createIndexedStore<T>>[0] = {};
    if (config.indexers) storeConfig.indexers = config.indexers;
    if (config.keyFunc) storeConfig.keyFunc = config.keyFunc;
    if (config.freeze) storeConfig.freeze = config.freeze;
    this.#live = new LiveStore(createIndexedStore<T>(storeConfig), this.#logger, config.freeze ?? 'shallow');
    this.#health$ = new BehaviorSubject<ReflectorHealth>({ state: 'stopped', synced: false });
  }

  get store$(): Observable<IndexedStore<T>> {
    return new Observable<IndexedStore<T>>((subscriber: Subscriber<IndexedStore<T>>) => {
      subscriber.next(this.getStore());
      this.#storeSinks.add(subscriber);
      if (!this.#explicit) this.#acquire();
      return () => {
        if (this.#storeSinks.delete(subscriber) && !this.#explicit) this.#release();
      };
    });
  }

  get hasSynced$(): Observable<boolean> {
    return this.#synced$.asObservable();
  }

  get health$(): Observable<ReflectorHealth> {
    return this.#health$.asObservable();
  }

  get isStopped$(): Observable<boolean> {
    return this.#stopped$.asObservable();
  }

  isStopped(): boolean {
    return this.#stopped$.value;
  }

  get running(): boolean {
    return this.#run !== undefined;
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  hasSynced(): boolean {
    return this.#synced$.value;
  }

  getStore(): IndexedStore<T> {
    return this.#live.snapshot(this.#lastRV);
  }

  lister(): Lister<T> {
    return lister(this.getStore());
  }

  lastSyncResourceVersion(): string {
    return this.#lastRV;
  }

  events(options: ListenerOptions = {}): Observable<InformerNotification<T>> {
    return this.#observe<InformerNotification<T>>(options, (subscriber) => (n) => {
      subscriber.next(n);
    });
  }

  handle<R>(
    fn: (n: InformerNotification<T>) => ObservableInput<R>,
    options: ListenerOptions = {},
  ): Observable<R> {
    return this.#observe<R>(options, (subscriber) => (n) => from(fn(n)).pipe(map((r) => subscriber.next(r))));
  }

  addEventHandler(handler: EventHandler<T>, options: ListenerOptions = {}): HandlerRegistration {
    const listener = this.#addListener(deliverTo(handler), options, {
      error: () => {
        this.#removeListener(listener);
      },
    });
    this.#pumpOne(listener);
    return {
      hasSynced: () => listener.hasSynced(),
      hasSynced$: listener.hasSynced$,
      get pending() {
        return listener.pending;
      },
      remove: () => this.#removeListener(listener),
    };
  }

  addIndexers(indexers: Indexers<T>): void {
    this.#live.addIndexers(indexers);
    this.#publishStore();
  }

  start(): Subscription {
    if (this.#stopped$.value) {
      this.#logger.warn('the informer has stopped; running it more than once is not allowed');
      return Subscription.EMPTY;
    }
    const hold = new Observable<never>(() => {
      this.#acquire();
      return () => this.#release();
    });
    return hold.subscribe();
  }

  #observe<R>(
    options: ListenerOptions,
    deliver: (subscriber: Subscriber<R>) => (n: InformerNotification<T>) => HandlerResult,
  ): Observable<R> {
    return new Observable<R>((subscriber: Subscriber<R>) => {
      const listener = this.#addListener(deliver(subscriber), options, {
        complete: () => subscriber.complete(),
        error: (error) => subscriber.error(error),
      });
      this.#pumpOne(listener);
      return () => this.#removeListener(listener);
    });
  }

  #addListener(
    deliver: (n: InformerNotification<T>) => HandlerResult,
    options: ListenerOptions,
    sink: ListenerSink,
  ): InformerListener<T> {
    if (this.#stopped$.value) throw new InformerStoppedError(options.name ?? `${this.name}/handler`);
    const started = this.#run !== undefined;
    const resync = registerResync(
      options.resyncPeriodMs ?? this.#defaultResyncMs,
      this.#resyncCheckMs,
      started,
    );
    const name = options.name ?? `${this.name}/handler-${++this.#listenerIds}`;
    if (resync.adjusted) this.#logger.warn({ handler: name }, resync.adjusted);
    if (resync.lowered) {
      this.#resyncCheckMs = resync.resyncCheckMs;
      for (const l of this.#listeners) {
        l.effectiveResyncMs =
          l.requestedResyncMs === 0 ? 0 : Math.max(l.requestedResyncMs, this.#resyncCheckMs);
      }
    }
    const listener = new InformerListener<T>({
      name,
      deliver,
      logger: this.#logger,
      sink,
      requestedResyncMs: resync.requestedMs,
      effectiveResyncMs: resync.effectiveMs,
      now: this.#scheduler.now(),
    });
    this.#listeners.add(listener);
    if (started) {
      // a late handler first gets what is cached, as adds of the initial list
      for (const [key, object] of this.#live.entries()) {
        listener.enqueue({ type: 'add', key, object, isInInitialList: true });
      }
    }
    listener.setInformerSynced(this.#synced$.value);
    if (!this.#explicit) this.#acquire();
    return listener;
  }

  #removeListener(listener: InformerListener<T>): void {
    if (!this.#listeners.delete(listener)) return;
    listener.close();
    if (!this.#explicit) this.#release();
  }

  #pumpOne(listener: InformerListener<T>): void {
    if (!this.#listeners.has(listener)) return;
    listener.pump();
    // joined after the source completed: it has had the cache, and that is all there will be
    if (this.#run?.ended) listener.finish();
  }

  #acquire(): void {
    if (++this.#users === 1) this.#start();
  }

  #release(): void {
    if (--this.#users === 0) this.#stop();
  }

  #start(): void {
    const run: Run<T> = {
      fifo: new FifoQueue<T>({
        mode: this.#mode,
        knownObjects: this.#live,
        emitDeltaTypeReplaced: true,
        ...(this.#config.transform ? { transform: this.#config.transform } : {}),
        ...(this.#config.keyFunc ? { keyFunc: this.#config.keyFunc } : {}),
        logger: this.#logger,
      }),
      source: undefined,
      resync: undefined,
      ended: false,
    };
    this.#run = run;
    this.#logger.debug({ fifo: this.#mode, resyncCheckMs: this.#resyncCheckMs }, 'starting');
    const source = this.#config.source;
    let events$: Observable<ReflectorEvent<T>>;
    if (isObservable(source)) {
      events$ = source;
      this.#health$.next({ state: 'watching', synced: false });
    } else {
      events$ = listWatch(source, {
        ...this.#config.listWatch,
        name: this.name,
        scheduler: this.#scheduler,
        logger: this.#config.logger ?? silentLogger,
        health: {
          next: (h) => {
            if (this.#run === run) this.#health$.next(h);
          },
        },
      });
    }
    this.#startResyncTimer(run);
    const sub = events$.subscribe({
      next: (event) => this.#onEvent(run, event),
      error: (error: unknown) => this.#onSourceError(run, error),
      complete: () => this.#onSourceComplete(run),
    });
    if (this.#run === run && !run.ended) run.source = sub;
    else sub.unsubscribe();
  }

  /**
   * (Re)starts the resync check timer, one check period from now. Called at start and after every relist,
   * as client-go's reflector starts a fresh resync timer with each ListAndWatch: no resync falls in the
   * window right after a relist, which has just handed every object out anyway.
   */
  #startResyncTimer(run: Run<T>): void {
    run.resync?.unsubscribe();
    run.resync = undefined;
    const period = this.#resyncCheckMs;
    if (period <= 0) return;
    const self = this;
    run.resync = this.#scheduler.schedule(function tick(this: SchedulerAction<undefined>) {
      self.#resyncTick(run);
      if (self.#run === run && !run.ended) this.schedule(undefined, period);
    }, period);
  }

  #stop(): void {
    const run = this.#run;
    if (!run) return;
    this.#run = undefined;
    if (this.#explicit) this.#stopped$.next(true);
    run.ended = true;
    run.source?.unsubscribe();
    run.resync?.unsubscribe();
    run.fifo.clear();
    for (const l of this.#listeners) l.close();
    this.#listeners.clear();
    this.#queue.length = 0;
    this.#live.clear();
    this.#published = undefined;
    this.#lastRV = '';
    this.#resyncCheckMs = this.#defaultResyncMs;
    if (this.#synced$.value) this.#synced$.next(false);
    const health = this.#health$.value;
    if (health.state !== 'stopped' || health.synced) {
      this.#health$.next({ ...health, state: 'stopped', synced: false });
    }
    this.#logger.debug('stopped');
  }

  #onEvent(run: Run<T>, event: ReflectorEvent<T>): void {
    if (this.#run !== run || run.ended) return;
    if (this.#processing) {
      this.#queue.push(event);
      return;
    }
    this.#processing = true;
    try {
      this.#apply(run, event);
      while (this.#queue.length > 0 && this.#run === run) this.#apply(run, this.#queue.shift()!);
    } finally {
      this.#processing = false;
    }
    this.#afterProcessing(run);
  }

  #apply(run: Run<T>, event: ReflectorEvent<T>): void {
    const fifo = run.fifo;
    switch (event?.type) {
      case 'Replace':
        if (!Array.isArray(event.items)) {
          this.#logger.error({ event: describe(event) }, 'skipping a Replace without an items array');
          return;
        }
        if (event.resourceVersion) this.#lastRV = event.resourceVersion;
        this.#startResyncTimer(run);
        if (this.#live.size === 0 && fifo.length === 0) {
          // nothing cached or queued: the FIFO would only hand every item straight back as an add
          const initial = !fifo.hasSynced;
          if (initial) fifo.replace([]);
          for (const item of event.items) this.#applyDirectly('Replaced', item, initial);
          return;
        }
        fifo.replace(event.items);
        break;
      case 'Added':
      case 'Updated':
      case 'Deleted': {
        const obj = event.object;
        if (obj === null || typeof obj !== 'object' || typeof obj.metadata !== 'object' || !obj.metadata) {
          this.#logger.error({ event: describe(event) }, 'skipping an event whose object has no metadata');
          return;
        }
        const rv = obj.metadata.resourceVersion;
        if (rv) this.#lastRV = rv;
        if (this.#mode === 'real' && fifo.length === 0 && fifo.hasSynced) {
          // the in-order FIFO is empty and synced: it would hand this one event straight back, so skip it
          this.#applyDirectly(event.type, obj);
          return;
        }
        if (event.type === 'Added') fifo.add(obj);
        else if (event.type === 'Updated') fifo.update(obj);
        else fifo.delete(obj);
        break;
      }
      case 'Bookmark':
        if (event.resourceVersion) this.#lastRV = event.resourceVersion;
        return;
      default:
        this.#logger.error({ event: describe(event) }, 'skipping an event of unknown type');
        return;
    }
    this.#drain(fifo);
  }

  /** What the RealFIFO would do with one event when nothing else is queued: transform, then processDeltas. */
  #applyDirectly(type: 'Added' | 'Updated' | 'Deleted' | 'Replaced', obj: T, isInInitialList = false): void {
    let key: string;
    try {
      if (obj === null || typeof obj !== 'object') throw new TypeError(`not an object: ${describe(obj)}`);
      key = this.#live.keyOf(obj);
    } catch (error) {
      this.#logger.warn({ err: error, object: obj?.metadata }, 'skipping an object without a key');
      return;
    }
    let object = obj;
    const transform = this.#config.transform;
    if (transform) {
      try {
        object = transform(obj);
      } catch (error) {
        this.#logger.error({ err: error, key }, 'transform threw; keeping the object untransformed');
      }
    }
    processDelta(this.#live, type, object, isInInitialList, this.#distribute, this.#storeError);
  }

  #drain(fifo: FifoQueue<T>): void {
    for (let popped = fifo.pop(); popped !== undefined; popped = fifo.pop()) {
      processDeltas(
        this.#live,
        popped.item.deltas,
        popped.isInInitialList,
        this.#distribute,
        this.#storeError,
      );
      fifo.done(popped.item.key);
    }
  }

  readonly #distribute = (n: InformerNotification<T>): void => {
    const sync = n.type === 'update' && n.isSync;
    for (const l of this.#listeners) if (!sync || l.syncing) l.enqueue(n);
  };

  readonly #storeError = (error: unknown, delta: Delta<T>): void => {
    this.#logger.error({ err: error, delta: delta.type }, 'the store rejected an object; skipping it');
  };

  #afterProcessing(run: Run<T>): void {
    if (this.#run !== run) return;
    const synced = run.fifo.hasSynced;
    if (synced !== this.#synced$.value) {
      this.#synced$.next(synced);
      for (const l of this.#listeners) l.setInformerSynced(synced);
    }
    this.#publishStore();
    for (const l of this.#listeners) l.pump();
  }

  #publishStore(): void {
    if (this.#storeSinks.size === 0) return;
    const snapshot = this.getStore();
    if (this.#published === snapshot) return;
    this.#published = snapshot;
    for (const sink of this.#storeSinks) sink.next(snapshot);
  }

  #resyncTick(run: Run<T>): void {
    if (this.#run !== run || run.ended) return;
    const now = this.#scheduler.now();
    let any = false;
    for (const l of this.#listeners) {
      l.syncing = l.effectiveResyncMs !== 0 && now >= l.nextResyncAt;
      if (l.syncing) {
        l.nextResyncAt = now + l.effectiveResyncMs;
        any = true;
      }
    }
    if (!any) return;
    this.#processing = true;
    try {
      run.fifo.resync();
      this.#drain(run.fifo);
    } finally {
      this.#processing = false;
    }
    this.#afterProcessing(run);
  }

  #onSourceError(run: Run<T>, error: unknown): void {
    if (this.#run !== run) return;
    run.ended = true;
    run.resync?.unsubscribe();
    this.#logger.error({ err: error }, 'the source failed; the informer stops');
    const health = this.#health$.value;
    this.#health$.next({
      ...health,
      state: 'stopped',
      lastError: {
        message: error instanceof Error ? error.message : String(error),
        at: this.#scheduler.now(),
      },
    });
    for (const l of [...this.#listeners]) l.fail(error);
    for (const sink of [...this.#storeSinks]) sink.error(error);
  }

  #onSourceComplete(run: Run<T>): void {
    if (this.#run !== run) return;
    run.ended = true;
    run.resync?.unsubscribe();
    this.#logger.debug('the source completed');
    const health = this.#health$.value;
    if (health.state !== 'stopped') this.#health$.next({ ...health, state: 'stopped' });
    for (const l of [...this.#listeners]) l.finish();
    for (const sink of [...this.#storeSinks]) sink.complete();
  }
}

function describe(event: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(event) ?? String(event);
  } catch {
    text = String(event);
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
