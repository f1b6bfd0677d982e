// The work queue: client-go's rate-limited, delaying work queue as a single-threaded class with a pull API.
import { AsyncSubject, asyncScheduler, Observable, type SchedulerLike } from 'rxjs';
import { DelayingQueue } from './delaying-queue.ts';
import { InvalidConfigError } from './errors.ts';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiter.ts';
import {
  noopWorkQueueMetrics,
  WorkQueueMetrics,
  type WorkQueueMetricsProvider,
} from './work-queue-metrics.ts';

export interface WorkQueueConfig<T = string> {
  /** Names the queue in metrics (label `name`); an unnamed queue records no metrics, as in client-go. */
  name?: string;
  /** Retry policy of `addRateLimited`. Default: `defaultControllerRateLimiter` on `scheduler`. */
  rateLimiter?: RateLimiter<T>;
  /** Where metrics go. Default: nowhere. */
  metrics?: WorkQueueMetricsProvider;
  /** Clock and timers for delayed adds and metrics. Default `asyncScheduler`. */
  scheduler?: SchedulerLike;
  /** How often the unfinished-work gauges are refreshed while items are processed. Default 500 ms. */
  unfinishedWorkUpdatePeriodMs?: number;
}

/** What `poll()` found: an item to process, nothing yet, or nothing ever again. */
export type PollResult<T> = { item: T } | 'empty' | 'shutdown';

interface Waiter<T> {
  next: (item: T) => void;
  end: () => void;
}

/**
 * A work queue with client-go's guarantees. Items are compared with `SameValueZero` (use strings
 * such as object keys).
 *
 * Invariants (client-go util/workqueue):
 * - Fair: items are handed out in the order they were first added (FIFO among distinct items).
 * - Stingy: an item is queued at most once however often it is added before it is handed out
 *   (the dirty set), and is never handed out while it is being processed (the processing set).
 * - An item added while it is processed is handed out again after `done`, at the back of the queue.
 * - Every queued item is dirty and not processing; `len()` counts queued items only.
 * - Delayed adds (`addAfter`) wait in a {@link DelayingQueue}: an item waits once, at its earliest
 *   requested time; rate-limited adds ask the {@link RateLimiter} for the delay.
 * - After `shutDown`/`shutDownWithDrain` adds are ignored and waiting items dropped, but items
 *   already queued are still handed out; `get()` completes empty once none are left.
 *
 * Pull, RxJS-style: `get()` is a cold observable that takes the next item when one is there and
 * completes; subscribe again when the worker is free (`reconcileWith` does this for you).
 *
 * @example
 * const queue = workQueue({ name: 'pods' });
 * queue.add('default/web-0');
 * queue.get().subscribe((key) => { sync(key); queue.done(key); });
 *
 * Teardown: `shutDown()` releases the delay timer, the metrics timer and every pending `get()`.
 */
export class WorkQueue<T = string> {
  private readonly queue: T[] = [];
  private head = 0;
  private readonly dirty = new Set<T>();
  private readonly processing = new Set<T>();
  private readonly waiters: Waiter<T>[] = [];
  private readonly delaying: DelayingQueue<T>;
  private readonly rateLimiter: RateLimiter<T>;
  private readonly metrics: WorkQueueMetrics<T> | undefined;
  private shuttingDown = false;
  private draining: AsyncSubject<void> | undefined;

  constructor(config: WorkQueueConfig<T> = {}) {
    const scheduler = config.scheduler ?? asyncScheduler;
    this.rateLimiter = config.rateLimiter ?? defaultControllerRateLimiter<T>({ scheduler });
    this.delaying = new DelayingQueue<T>({ scheduler, ready: (item) => this.add(item) });
    const provider = config.metrics ?? noopWorkQueueMetrics;
    const period = config.unfinishedWorkUpdatePeriodMs ?? 500;
    if (!(period > 0) || !Number.isFinite(period)) {
      throw new InvalidConfigError(
        'workQueue.unfinishedWorkUpdatePeriodMs',
        `must be a positive number, got ${period}`,
      );
    }
    if (config.name && provider !== noopWorkQueueMetrics) {
      this.metrics = new WorkQueueMetrics<T>(provider, config.name, scheduler, period);
    }
  }

  /** Marks `item` as needing processing; ignored after shutdown and while it is already pending. */
  add(item: T): void {
    if (this.shuttingDown || this.dirty.has(item)) return;
    this.metrics?.add(item);
    this.dirty.add(item);
    if (this.processing.has(item)) return;
    this.push(item);
  }

  /** Adds `item` after `delayMs` (at once when ≤ 0); a second delayed add keeps the earlier time. */
  addAfter(item: T, delayMs: number): void {
    if (this.shuttingDown) return;
    this.metrics?.retry();
    this.delaying.addAfter(item, delayMs);
  }

  /** Adds `item` when the rate limiter says so: `addAfter(item, rateLimiter.when(item))`. */
  addRateLimited(item: T): void {
    // The limiter counts the retry even when the add is then ignored, as in client-go.
    this.addAfter(item, this.rateLimiter.when(item));
  }

  /** Tells the rate limiter that `item` is done being retried; it stays queued if it is. */
  forget(item: T): void {
    this.rateLimiter.forget(item);
  }

  /** How many times `item` was rate-limited since it was last forgotten. */
  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }

  /** Number of items queued for hand-out (not those being processed, nor those waiting for a delay). */
  len(): number {
    return this.queue.length - this.head;
  }

  /** Number of items handed out and not yet `done`. */
  inFlight(): number {
    return this.processing.size;
  }

  /** Number of items waiting for a delayed add. */
  waiting(): number {
    return this.delaying.size;
  }

  /** True when `item` is queued or re-added while processing. */
  isDirty(item: T): boolean {
    return this.dirty.has(item);
  }

  /** True when `item` has been handed out and `done` was not called yet. */
  isProcessing(item: T): boolean {
    return this.processing.has(item);
  }

  /** The queued items, oldest first (a copy, for inspection). */
  queued(): T[] {
    return this.queue.slice(this.head);
  }

  /** True once `shutDown` or `shutDownWithDrain` was called. */
  isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /**
   * Takes the next item without waiting: the caller must call `done(item)` when finished with it.
   * @returns the item, `'empty'` when nothing is queued yet, `'shutdown'` when nothing ever will be
   */
  poll(): PollResult<T> {
    if (this.len() === 0) return this.shuttingDown ? 'shutdown' : 'empty';
    return { item: this.take() };
  }

  /**
   * The next item, as soon as one is queued: emits it once and completes (a worker then owns the
   * item and must call `done`). Completes without a value when the queue is shut down and empty.
   * Pending gets are served in subscription order; unsubscribing a pending get gives up its turn.
   *
   * @returns a cold observable of at most one item
   */
  get(): Observable<T> {
    return new Observable<T>((subscriber) => {
      const found = this.poll();
      if (found === 'shutdown') {
        subscriber.complete();
        return;
      }
      if (found !== 'empty') {
        subscriber.next(found.item);
        subscriber.complete();
        return;
      }
      const waiter: Waiter<T> = {
        next: (item) => {
          subscriber.next(item);
          subscriber.complete();
        },
        end: () => subscriber.complete(),
      };
      this.waiters.push(waiter);
      return () => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
      };
    });
  }

  /** Marks `item` as processed; if it was added again meanwhile it goes to the back of the queue. */
  done(item: T): void {
    if (!this.processing.delete(item)) return;
    this.metrics?.done(item);
    if (this.dirty.has(item)) {
      this.push(item);
    } else if (this.processing.size === 0 && this.draining) {
      this.finishDrain();
    }
  }

  /**
   * Stops accepting items and drops waiting delayed adds. Queued items are still handed out; pending
   * `get()`s on an empty queue complete. Ends a `shutDownWithDrain` wait at once. Idempotent.
   */
  shutDown(): void {
    this.stop();
    if (this.draining) this.finishDrain();
  }

  /**
   * Like `shutDown`, then waits for the items being processed to be `done`.
   * @returns an observable that emits once and completes when nothing is processing (or `shutDown`
   *   is called); subscribing is not needed for the shutdown itself
   */
  shutDownWithDrain(): Observable<void> {
    if (!this.draining || this.draining.closed) this.draining = new AsyncSubject<void>();
    const drained = this.draining;
    this.stop();
    if (this.processing.size === 0) this.finishDrain();
    return drained.asObservable();
  }

  private stop(): void {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    this.delaying.shutDown();
    this.metrics?.stop();
    if (this.len() === 0) {
      for (const waiter of this.waiters.splice(0)) waiter.end();
    }
  }

  private finishDrain(): void {
    const drained = this.draining;
    if (!drained || drained.closed) return;
    drained.next();
    drained.complete();
  }

  private push(item: T): void {
    this.queue.push(item);
    const waiter = this.waiters.shift();
    if (waiter) waiter.next(this.take());
  }

  private take(): T {
    const item = this.queue[this.head]!;
    this.queue[this.head] = undefined as T;
    this.head++;
    // Compact now and then so the array does not grow without bound.
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    this.metrics?.get(item);
    this.processing.add(item);
    this.dirty.delete(item);
    return item;
  }
}

/**
 * Creates a {@link WorkQueue}.
 * @param config name, rate limiter, metrics and scheduler
 * @returns a fresh queue; call `shutDown()` when done with it
 */
export function workQueue<T = string>(config: WorkQueueConfig<T> = {}): WorkQueue<T> {
  return new WorkQueue<T>(config);
}
