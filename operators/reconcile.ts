// The reconcile runner: keys that changed go through a work queue to N workers running a reconcile function.
import {
  asyncScheduler,
  from,
  Observable,
  type ObservableInput,
  type OperatorFunction,
  type Subscription,
} from 'rxjs';
import { InvalidConfigError, InvalidInputError } from './errors.ts';
import { type Logger, silentLogger } from './logger.ts';
import { reentryGuard } from './reentry-guard.ts';
import { WorkQueue, type WorkQueueConfig } from './work-queue.ts';

/**
 * What a reconcile asks for next (controller-runtime's `Result`): `{}` means done (the key's retry
 * count is forgotten); `{ requeue: true }` means look again after the rate limiter's delay;
 * `{ requeueAfter: ms }` (ms > 0) means forget the retry count and look again after `ms`.
 * `requeueAfter` wins over `requeue`.
 */
export interface ReconcileResult {
  requeue?: boolean;
  requeueAfter?: number;
}

/**
 * Reconciles one key. It may return a result directly, a Promise, or any ObservableInput (its last
 * value is the result; none means done). A throw, rejection or error is a failure: logged, and the
 * key is retried after the rate limiter's delay. `signal` aborts when the runner is torn down.
 */
export type Reconciler<T = string> = (
  key: T,
  signal: AbortSignal,
  // biome-ignore lint/suspicious/noConfusingVoidType: lets `async (key) => {...}` (Promise<void>) reconcile
) => ObservableInput<ReconcileResult | undefined | void> | ReconcileResult | undefined | void;

/** How one reconcile of one key ended. */
export type ReconcileOutcomeType = 'done' | 'requeue' | 'requeueAfter' | 'error';

/** One finished reconcile, emitted by {@link reconcileWith}. */
export interface ReconcileOutcome<T = string> {
  key: T;
  outcome: ReconcileOutcomeType;
  /** Scheduler time the reconcile took, in milliseconds. */
  durationMs: number;
  /** The delay asked for, when `outcome` is `requeueAfter`. */
  requeueAfterMs?: number;
  /** The failure, when `outcome` is `error`. */
  error?: unknown;
  /** The key's rate-limited retries so far (0 after `done` or `requeueAfter`). */
  requeues: number;
}

export interface ReconcileConfig<T = string> extends WorkQueueConfig<T> {
  /** How many keys are reconciled at once (never the same key twice). Default 1. */
  workers?: number;
  /**
   * When the key source completes: `true` (default) stops taking keys and retries, finishes the
   * queued and in-flight keys, then completes; `false` aborts in-flight reconciles and completes.
   */
  drain?: boolean;
  /** Logger; a child with `component: 'reconcile'` is used. Default silent. */
  logger?: Logger;
  /**
   * A queue to work from instead of a new one, for code that adds keys to it directly (as client-go
   * controllers do from event handlers). The runner takes ownership: it shuts the queue down on
   * teardown, and a `shutDown`/`shutDownWithDrain` of the queue ends the runner like a completed
   * source does. The queue's own rate limiter and metrics apply (`rateLimiter`, `metrics` and `name`
   * are then ignored).
   */
  queue?: WorkQueue<T>;
}

function isObservableInput(value: unknown): value is ObservableInput<unknown> {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<PropertyKey, unknown>;
  return (
    typeof v.then === 'function' ||
    typeof v.subscribe === 'function' ||
    typeof v[Symbol.iterator] === 'function' ||
    typeof v[Symbol.asyncIterator] === 'function' ||
    (typeof Symbol.observable === 'symbol' && typeof v[Symbol.observable] === 'function') ||
    typeof v['@@observable'] === 'function'
  );
}

type Decision = { type: 'done' } | { type: 'requeue' } | { type: 'requeueAfter'; ms: number };

function decide(value: unknown): Decision {
  if (value === undefined || value === null) return { type: 'done' };
  if (typeof value !== 'object') {
    throw new InvalidInputError('reconcile result', undefined, `expected an object, got ${typeof value}`);
  }
  const { requeue, requeueAfter } = value as ReconcileResult;
  if (requeueAfter !== undefined && (typeof requeueAfter !== 'number' || !Number.isFinite(requeueAfter))) {
    throw new InvalidInputError(
      'reconcile result',
      'requeueAfter',
      `expected milliseconds, got ${String(requeueAfter)}`,
    );
  }
  if (requeue !== undefined && typeof requeue !== 'boolean') {
    throw new InvalidInputError('reconcile result', 'requeue', `expected a boolean, got ${String(requeue)}`);
  }
  if (requeueAfter !== undefined && requeueAfter > 0) return { type: 'requeueAfter', ms: requeueAfter };
  if (requeue) return { type: 'requeue' };
  return { type: 'done' };
}

interface InFlight {
  abort: AbortController;
  started: number;
  sub: Subscription | undefined;
}

/**
 * Runs `reconcile` for every key the source says changed, through a rate-limited {@link WorkQueue}
 * with `workers` workers, and emits how each run ended. A key is reconciled by at most one worker at a
 * time; keys that change while queued are reconciled once; a key that changes while it is reconciled
 * is reconciled again afterwards.
 *
 * ```
 * keys:     --a--b--a--|
 * reconcile: each run takes 3 frames and returns {}      (workers: 1)
 * output:   -----a--b--(a|)      (a, b, a: each `done`; completes after draining)
 * ```
 *
 * @example
 * podKeys$.pipe(
 *   reconcileWith(async (key, signal) => {
 *     const ok = await syncPod(key, signal);
 *     return ok ? {} : { requeueAfter: 30_000 };
 *   }, { workers: 4, name: 'pods', metrics }),
 * ).subscribe();
 *
 * Recovery: a failed reconcile is logged and its key retried after the rate limiter's delay
 * (default 5 ms doubling to 1000 s per key, 10 qps overall); it never ends the stream. An invalid
 * result (e.g. `requeueAfter: 'soon'`) counts as a failure naming the field.
 *
 * Teardown: unsubscribing aborts every in-flight reconcile's signal, drops the queue and its timers
 * ("stop now"). Completing the key source drains ("drain then stop", see `drain`). A source error is
 * forwarded after the same teardown.
 *
 * @param reconcile the function that makes the world match the key's desired state
 * @param config workers, drain, rate limiter, metrics name/provider, scheduler, logger
 * @returns an operator from keys to reconcile outcomes
 */
export function reconcileWith<T = string>(
  reconcile: Reconciler<T>,
  config: ReconcileConfig<T> = {},
): OperatorFunction<T, ReconcileOutcome<T>> {
  const workers = config.workers ?? 1;
  if (!Number.isInteger(workers) || workers < 1) {
    throw new InvalidConfigError('reconcileWith.workers', `must be a positive integer, got ${workers}`);
  }
  const drain = config.drain ?? true;
  return (keys$) =>
    new Observable<ReconcileOutcome<T>>((subscriber) => {
      const scheduler = config.scheduler ?? asyncScheduler;
      const logger = (config.logger ?? silentLogger).child({
        component: 'reconcile',
        ...(config.name ? { queue: config.name } : {}),
      });
      const queue = config.queue ?? new WorkQueue<T>({ ...config, scheduler });
      const inFlight = new Map<T, InFlight>();
      let free = workers;
      let sourceDone = false;
      let waiter: Subscription | undefined;

      const stopped = () => subscriber.closed;

      const maybeComplete = () => {
        const ending = sourceDone || queue.isShuttingDown();
        if (!stopped() && ending && queue.len() === 0 && inFlight.size === 0) subscriber.complete();
      };

      const settle = (key: T, run: InFlight, failed: boolean, value: unknown) => {
        if (stopped() || inFlight.get(key) !== run) return;
        inFlight.delete(key);
        run.sub = undefined;
        // The waiting get would grab the key back before this outcome is out; re-arm it after.
        waiter?.unsubscribe();
        waiter = undefined;
        const durationMs = scheduler.now() - run.started;
        let outcome: ReconcileOutcome<T>;
        let error: unknown = failed ? value : undefined;
        let decision: Decision | undefined;
        if (!failed) {
          try {
            decision = decide(value);
          } catch (invalid) {
            error = invalid;
            failed = true;
          }
        }
        if (failed || !decision) {
          logger.error({ key, err: error }, 'reconcile failed; retrying with backoff');
          queue.addRateLimited(key);
          outcome = { key, outcome: 'error', durationMs, error, requeues: queue.numRequeues(key) };
        } else if (decision.type === 'requeueAfter') {
          logger.debug({ key, requeueAfterMs: decision.ms }, 'reconciled; requeue after delay');
          queue.forget(key);
          queue.addAfter(key, decision.ms);
          outcome = { key, outcome: 'requeueAfter', durationMs, requeueAfterMs: decision.ms, requeues: 0 };
        } else if (decision.type === 'requeue') {
          logger.debug({ key }, 'reconciled; requeue with backoff');
          queue.addRateLimited(key);
          outcome = { key, outcome: 'requeue', durationMs, requeues: queue.numRequeues(key) };
        } else {
          logger.debug({ key }, 'reconciled');
          queue.forget(key);
          outcome = { key, outcome: 'done', durationMs, requeues: queue.numRequeues(key) };
        }
        queue.done(key);
        free++;
        subscriber.next(outcome);
        pump();
      };

      const start = (key: T) => {
        const run: InFlight = { abort: new AbortController(), started: scheduler.now(), sub: undefined };
        inFlight.set(key, run);
        let input: unknown;
        try {
          input = reconcile(key, run.abort.signal);
        } catch (thrown) {
          settle(key, run, true, thrown);
          return;
        }
        if (!isObservableInput(input)) {
          settle(key, run, false, input);
          return;
        }
        let last: unknown;
        const sub = from(input).subscribe({
          next: (value) => {
            last = value;
          },
          error: (err: unknown) => settle(key, run, true, err),
          complete: () => settle(key, run, false, last),
        });
        if (inFlight.get(key) === run) run.sub = sub;
      };

      const armWaiter = () => {
        let got = false;
        const sub = queue.get().subscribe({
          next: (key) => {
            got = true;
            waiter = undefined;
            free--;
            start(key);
            pump();
          },
          complete: () => {
            if (got) return;
            waiter = undefined;
            maybeComplete();
          },
        });
        if (!sub.closed) waiter = sub;
      };

      const pumpPasses = reentryGuard(
        () => {
          while (!stopped() && free > 0 && !waiter) {
            const next = queue.poll();
            if (next === 'shutdown') break;
            if (next === 'empty') {
              armWaiter();
              break;
            }
            free--;
            start(next.item);
          }
        },
        () => !stopped(),
      );
      function pump(): void {
        if (pumpPasses()) maybeComplete();
      }

      const source = keys$.subscribe({
        next: (key) => queue.add(key),
        error: (err: unknown) => subscriber.error(err),
        complete: () => {
          sourceDone = true;
          if (!drain) {
            subscriber.complete();
            return;
          }
          queue.shutDown();
          maybeComplete();
        },
      });
      pump();

      return () => {
        source.unsubscribe();
        waiter?.unsubscribe();
        waiter = undefined;
        for (const run of inFlight.values()) {
          run.abort.abort();
          run.sub?.unsubscribe();
        }
        inFlight.clear();
        queue.shutDown();
      };
    });
}
