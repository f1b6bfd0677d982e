// Rate limiters for work-queue retries: per-item exponential, fast/slow, token bucket, max-of, capped, default.
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { InvalidConfigError } from './errors.ts';

/**
 * Decides how long an item waits before it is retried.
 *
 * Invariants: `when(item)` records one more failure (or spends one token) and returns a delay in
 * milliseconds, never negative; `numRequeues(item)` counts the `when` calls since the item was last
 * forgotten (0 for limiters that do not track items); `forget(item)` resets that count and never
 * removes the item from any queue.
 */
export interface RateLimiter<T = string> {
  /** Records a retry of `item` and returns how many milliseconds it should wait. */
  when(item: T): number;
  /** Stops tracking `item`: its next retry starts from the smallest delay again. */
  forget(item: T): void;
  /** How many times `item` was retried since it was last forgotten. */
  numRequeues(item: T): number;
}

function positive(field: string, value: number, allowZero = false): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0 || (!allowZero && value === 0)) {
    throw new InvalidConfigError(
      field,
      `must be a ${allowZero ? 'non-negative' : 'positive'} number, got ${value}`,
    );
  }
  return value;
}

/**
 * Per-item exponential backoff: the n-th retry of an item (counting from 0) waits `baseMs * 2^n`,
 * capped at `maxMs`. Counts are per item and reset by `forget`.
 *
 * @example
 * const limiter = itemExponentialRateLimiter(5, 1000_000);
 * limiter.when('a'); // 5
 * limiter.when('a'); // 10
 * @param baseMs delay of the first retry (client-go's controller default: 5 ms)
 * @param maxMs the cap (client-go's default: 1000 s)
 * @returns a rate limiter tracking failures per item
 */
export function itemExponentialRateLimiter<T = string>(baseMs = 5, maxMs = 1_000_000): RateLimiter<T> {
  positive('itemExponentialRateLimiter.baseMs', baseMs, true);
  positive('itemExponentialRateLimiter.maxMs', maxMs, true);
  const failures = new Map<T, number>();
  return {
    when(item) {
      const n = failures.get(item) ?? 0;
      failures.set(item, n + 1);
      // 2^n overflows to Infinity for large n; the cap still applies.
      const backoff = baseMs * 2 ** n;
      return Number.isFinite(backoff) && backoff <= maxMs ? backoff : maxMs;
    },
    forget(item) {
      failures.delete(item);
    },
    numRequeues(item) {
      return failures.get(item) ?? 0;
    },
  };
}

/**
 * Retries an item quickly for its first `maxFastAttempts` retries, then slowly.
 *
 * @param fastMs delay of the first `maxFastAttempts` retries
 * @param slowMs delay of every later retry
 * @param maxFastAttempts how many fast retries an item gets before `forget`
 * @returns a rate limiter tracking failures per item
 */
export function itemFastSlowRateLimiter<T = string>(
  fastMs: number,
  slowMs: number,
  maxFastAttempts: number,
): RateLimiter<T> {
  positive('itemFastSlowRateLimiter.fastMs', fastMs, true);
  positive('itemFastSlowRateLimiter.slowMs', slowMs, true);
  positive('itemFastSlowRateLimiter.maxFastAttempts', maxFastAttempts, true);
  const failures = new Map<T, number>();
  return {
    when(item) {
      const n = (failures.get(item) ?? 0) + 1;
      failures.set(item, n);
      return n <= maxFastAttempts ? fastMs : slowMs;
    },
    forget(item) {
      failures.delete(item);
    },
    numRequeues(item) {
      return failures.get(item) ?? 0;
    },
  };
}

export interface BucketRateLimiterConfig {
  /** Tokens added per second (client-go's controller default: 10). */
  qps?: number;
  /** Bucket size, and its content at start (client-go's controller default: 100). */
  burst?: number;
  /** The clock: `scheduler.now()` in milliseconds. Default `asyncScheduler`. */
  scheduler?: SchedulerLike;
}

/**
 * An overall token bucket, shared by all items (golang.org/x/time/rate semantics): the bucket starts
 * full with `burst` tokens and refills at `qps` tokens per second; every `when` reserves one token
 * and returns how long until that token exists, so a burst beyond the bucket gets delays spaced
 * `1000 / qps` ms apart. `forget` does nothing and `numRequeues` is always 0.
 *
 * @param config qps, burst and the clock
 * @returns a rate limiter that ignores which item it is asked about
 */
export function bucketRateLimiter<T = string>(config: BucketRateLimiterConfig = {}): RateLimiter<T> {
  const qps = positive('bucketRateLimiter.qps', config.qps ?? 10);
  const burst = positive('bucketRateLimiter.burst', config.burst ?? 100);
  if (!Number.isFinite(qps)) throw new InvalidConfigError('bucketRateLimiter.qps', 'must be finite');
  const scheduler = config.scheduler ?? asyncScheduler;
  let tokens = burst;
  let last = scheduler.now();
  return {
    when() {
      const now = scheduler.now();
      // A clock that went backwards adds nothing, as in x/time/rate.
      const elapsed = Math.max(0, now - last);
      tokens = Math.min(burst, tokens + (elapsed * qps) / 1000);
      last = now;
      tokens -= 1;
      return tokens < 0 ? (-tokens * 1000) / qps : 0;
    },
    forget() {},
    numRequeues() {
      return 0;
    },
  };
}

/**
 * Asks every limiter (so each records the retry) and returns the longest delay; `numRequeues` is the
 * largest count, and `forget` reaches all of them.
 *
 * @param limiters the limiters to combine
 * @returns the worst case of them
 */
export function maxOfRateLimiter<T = string>(...limiters: RateLimiter<T>[]): RateLimiter<T> {
  return {
    when(item) {
      let delay = 0;
      for (const limiter of limiters) delay = Math.max(delay, limiter.when(item));
      return delay;
    },
    forget(item) {
      for (const limiter of limiters) limiter.forget(item);
    },
    numRequeues(item) {
      let n = 0;
      for (const limiter of limiters) n = Math.max(n, limiter.numRequeues(item));
      return n;
    },
  };
}

/**
 * Caps another limiter's delays at `maxMs`; counting and forgetting pass through.
 *
 * @param limiter the limiter to cap
 * @param maxMs the longest delay ever returned
 * @returns the capped limiter
 */
export function withMaxWaitRateLimiter<T = string>(limiter: RateLimiter<T>, maxMs: number): RateLimiter<T> {
  positive('withMaxWaitRateLimiter.maxMs', maxMs, true);
  return {
    when: (item) => Math.min(limiter.when(item), maxMs),
    forget: (item) => limiter.forget(item),
    numRequeues: (item) => limiter.numRequeues(item),
  };
}

/**
 * client-go's default controller rate limiter: the larger of a per-item exponential backoff
 * (5 ms doubling to 1000 s) and an overall token bucket (10 qps, burst 100).
 *
 * @example
 * const queue = workQueue({ rateLimiter: defaultControllerRateLimiter() });
 * @param config the clock of the token bucket
 * @returns a fresh limiter (limiters hold state; never share one between queues by accident)
 */
export function defaultControllerRateLimiter<T = string>(
  config: { scheduler?: SchedulerLike } = {},
): RateLimiter<T> {
  return maxOfRateLimiter<T>(
    itemExponentialRateLimiter<T>(5, 1_000_000),
    bucketRateLimiter<T>({
      qps: 10,
      burst: 100,
      ...(config.scheduler ? { scheduler: config.scheduler } : {}),
    }),
  );
}
