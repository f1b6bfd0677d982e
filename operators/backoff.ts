// Backoff policies: client-go's exponential backoff manager as a `{ next, reset }` policy on a scheduler clock.
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { InvalidConfigError } from './errors.ts';
import { jitter } from './jitter.ts';

/**
 * A backoff policy: how long to wait before the next attempt.
 *
 * Invariants: `next()` returns a delay in milliseconds (>= 0), or `undefined` when the policy gives up;
 * `reset()` makes the following `next()` start again from the initial delay.
 */
export interface Backoff {
  next(): number | undefined;
  reset(): void;
}

/** Options of {@link exponentialBackoff}; the defaults are the Reflector's. */
export interface ExponentialBackoffConfig {
  /** First base delay; default 800 ms. */
  initialMs?: number;
  /** Largest base delay; once doubling would pass it, every base is the cap. Default 30 000 ms. */
  maxMs?: number;
  /** Growth of the base per step; default 2. */
  factor?: number;
  /** Each wait is `base * [1, 1 + jitter)`; default 1.0. 0 disables jitter. */
  jitter?: number;
  /** If `next()` was last called longer ago than this, start again from `initialMs`. Default 120 000 ms. 0 disables. */
  resetAfterMs?: number;
  /** Give up (return `undefined`) after this many delays since the last reset; default never. */
  maxRetries?: number;
  /** Clock for the reset rule; default `asyncScheduler`. */
  scheduler?: SchedulerLike;
  /** Numbers in `[0, 1)` for the jitter; default `Math.random`. */
  random?: () => number;
}

function positive(field: string, value: number | undefined, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new InvalidConfigError(
      field,
      `must be a finite number ${allowZero ? '>= 0' : '> 0'}, got ${value}`,
    );
  }
  return value;
}

/**
 * client-go's exponential backoff manager (apimachinery `wait.Backoff` with a reset interval): waits of
 * about [0.8, 1.6) s, [1.6, 3.2) s, [3.2, 6.4) s, ... and from then on [30, 60) s, starting over after two
 * minutes without a call to `next()`.
 *
 * ```
 * next():  0.8·[1,2)  1.6·[1,2)  3.2·[1,2)  6.4·[1,2)  12.8·[1,2)  25.6·[1,2)  30·[1,2)  30·[1,2) ...
 * ```
 *
 * @example
 * const backoff = exponentialBackoff({ scheduler });
 * const waitMs = backoff.next(); // 800..1600
 * @param config initial, cap, factor, jitter, reset interval, retry limit, clock and randomness
 * @returns a fresh policy with its own state
 */
export function exponentialBackoff(config: ExponentialBackoffConfig = {}): Backoff {
  const initialMs = positive('initialMs', config.initialMs, 800);
  const maxMs = positive('maxMs', config.maxMs, 30_000);
  const factor = positive('factor', config.factor, 2);
  const jitterFactor = positive('jitter', config.jitter, 1.0, true);
  const resetAfterMs = positive('resetAfterMs', config.resetAfterMs, 120_000, true);
  const maxRetries =
    config.maxRetries === undefined ? Infinity : positive('maxRetries', config.maxRetries, 0, true);
  const scheduler = config.scheduler ?? asyncScheduler;
  const random = config.random ?? Math.random;

  let base = initialMs;
  let capped = false;
  let steps = 0;
  let lastCall: number | undefined;

  const reset = () => {
    base = initialMs;
    capped = false;
    steps = 0;
  };

  return {
    next() {
      const now = scheduler.now();
      if (resetAfterMs > 0 && lastCall !== undefined && now - lastCall > resetAfterMs) reset();
      lastCall = now;
      if (steps >= maxRetries) return undefined;
      steps++;
      const current = base;
      if (!capped) {
        base = base * factor;
        if (base > maxMs) {
          base = maxMs;
          capped = true;
        }
      }
      return jitter(current, jitterFactor, random);
    },
    reset() {
      reset();
      lastCall = undefined;
    },
  };
}
