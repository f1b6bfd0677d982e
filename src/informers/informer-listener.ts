// One handler of a shared informer: its own coalescing buffer, pulled delivery, resync schedule and has-synced tracking.
import { BehaviorSubject, from, type Observable, type ObservableInput, type Subscription } from 'rxjs';
import type { InformerNotification } from '../../operators/informer-notification.ts';
import type { Logger } from '../../operators/logger.ts';
import { NotificationBuffer } from '../../operators/notification-buffer.ts';
import type { KubeObject } from '../../operators/types.ts';

/**
 * What a handler returns: nothing when it is done at once, or a Promise / ObservableInput whose settling
 * (completion, error or rejection) releases the next notification to it.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: handlers written as block statements return void
export type HandlerResult = undefined | void | PromiseLike<unknown> | ObservableInput<unknown>;

/** How a listener ends when the informer's source ends. */
export interface ListenerSink {
  /** The source completed and this listener's buffer has drained. */
  complete?(): void;
  /** The source failed; the listener is closed. */
  error?(error: unknown): void;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function'
  );
}

/**
 * Delivers an informer's notifications to one handler.
 *
 * Invariants: the handler is called for one notification at a time, in the buffer's order; the next call
 * happens only after the previous result settled; a throw or rejection is logged and delivery goes on;
 * `hasSynced` is true once the informer has synced and every `isInInitialList` add queued to this listener
 * has been handled (client-go's synctrack). After `close()` nothing is delivered.
 *
 * Teardown: `close()` drops the buffer and unsubscribes an in-flight ObservableInput result.
 */
export class InformerListener<T extends KubeObject = KubeObject> {
  readonly name: string;
  /** The resync period the handler asked for, after the minimum/started adjustments. */
  requestedResyncMs: number;
  /** The period it actually resyncs at (0: never). */
  effectiveResyncMs: number;
  /** Scheduler time of its next resync. */
  nextResyncAt: number;
  /** Whether it receives sync updates right now (client-go's per-listener syncing flag). */
  syncing = true;

  readonly #buffer = new NotificationBuffer<T>();
  readonly #deliver: (n: InformerNotification<T>) => HandlerResult;
  readonly #logger: Logger;
  readonly #sink: ListenerSink;
  readonly #synced$ = new BehaviorSubject(false);
  #busy = false;
  #closed = false;
  #finishing = false;
  #inFlight: Subscription | undefined;
  #inFlightInitial = 0;
  #informerSynced = false;

  constructor(config: {
    name: string;
    deliver: (n: InformerNotification<T>) => HandlerResult;
    logger: Logger;
    sink?: ListenerSink;
    requestedResyncMs: number;
    effectiveResyncMs: number;
    now: number;
  }) {
    this.name = config.name;
    this.#deliver = config.deliver;
    this.#logger = config.logger;
    this.#sink = config.sink ?? {};
    this.requestedResyncMs = config.requestedResyncMs;
    this.effectiveResyncMs = config.effectiveResyncMs;
    this.nextResyncAt = config.now + config.effectiveResyncMs;
  }

  /** Notifications waiting for the handler (at most two per key). */
  get pending(): number {
    return this.#buffer.size;
  }

  /** Keys with something waiting. */
  get pendingKeys(): number {
    return this.#buffer.keys;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** See the class invariants. */
  hasSynced(): boolean {
    return this.#synced$.value;
  }

  /** Emits the listener's has-synced state on every change (distinct), starting with the current one. */
  get hasSynced$(): Observable<boolean> {
    return this.#synced$.asObservable();
  }

  /** Queues a notification (merged per key); call {@link pump} to deliver. */
  enqueue(n: InformerNotification<T>): void {
    if (!this.#closed) this.#buffer.push(n);
  }

  /** Tells the listener whether its informer has synced. */
  setInformerSynced(synced: boolean): void {
    this.#informerSynced = synced;
    this.#updateSynced();
  }

  /** Hands pending notifications to the handler until one is asynchronous or none is left. */
  pump(): void {
    if (this.#busy || this.#closed) return;
    this.#busy = true;
    for (;;) {
      const n = this.#buffer.shift();
      if (n === undefined) break;
      const initial = n.type === 'add' && n.isInInitialList;
      if (initial) this.#inFlightInitial++;
      let result: HandlerResult;
      try {
        result = this.#deliver(n);
      } catch (error) {
        this.#logError(error, n);
        result = undefined;
      }
      if (result !== undefined && result !== null && !this.#closed) {
        if (this.#await(result, n, initial)) return; // resumes when the result settles
      } else if (initial) {
        this.#inFlightInitial--;
      }
      if (this.#closed) return;
    }
    this.#busy = false;
    this.#updateSynced();
    if (this.#finishing) this.#finish();
  }

  /** The source completed: complete the sink once everything pending has been handled. */
  finish(): void {
    this.#finishing = true;
    if (!this.#busy) this.#finish();
  }

  /** The source failed: drop everything and tell the sink. */
  fail(error: unknown): void {
    if (this.#closed) return;
    this.close();
    this.#sink.error?.(error);
  }

  /** Drops the buffer and any in-flight result; nothing is delivered afterwards. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#buffer.clear();
    const inFlight = this.#inFlight;
    this.#inFlight = undefined;
    inFlight?.unsubscribe();
    this.#synced$.complete();
  }

  /** Waits for an asynchronous result; returns false when it settled synchronously (keep looping). */
  #await(result: HandlerResult, n: InformerNotification<T>, initial: boolean): boolean {
    let sync = true;
    let settledSync = false;
    const settle = () => {
      if (initial) this.#inFlightInitial--;
      if (sync) {
        settledSync = true;
        return;
      }
      this.#inFlight = undefined;
      if (this.#closed) return;
      this.#busy = false;
      this.pump();
    };
    if (isPromiseLike(result)) {
      result.then(settle, (error: unknown) => {
        this.#logError(error, n);
        settle();
      });
    } else {
      let sub: Subscription | undefined;
      try {
        sub = from(result as ObservableInput<unknown>).subscribe({
          error: (error: unknown) => {
            this.#logError(error, n);
            settle();
          },
          complete: settle,
        });
      } catch (error) {
        this.#logError(error, n);
        settle();
      }
      if (!settledSync) this.#inFlight = sub;
    }
    sync = false;
    return !settledSync;
  }

  #finish(): void {
    if (this.#closed || this.#buffer.size > 0) return;
    this.close();
    this.#sink.complete?.();
  }

  #updateSynced(): void {
    const synced = this.#informerSynced && this.#buffer.initialPending === 0 && this.#inFlightInitial === 0;
    if (synced !== this.#synced$.value && !this.#closed) this.#synced$.next(synced);
  }

  #logError(error: unknown, n: InformerNotification<T>): void {
    this.#logger.error({ err: error, handler: this.name, key: n.key, event: n.type }, 'event handler failed');
  }
}
