// A token-bucket rate limiter (client-go's flowcontrol, qps and burst) whose permits are cold observables.
import { asyncScheduler, Observable, type SchedulerLike } from 'rxjs';
import { InvalidConfigError } from '../../operators/errors.ts';

export interface TokenBucketConfig {
  /** Sustained permits per second; `Infinity` disables limiting. */
  qps: number;
  /** Permits available at once (and at start). */
  burst: number;
  scheduler?: SchedulerLike;
}

/** Hands out permits at `qps` with bursts up to `burst`. */
export interface TokenBucket {
  /**
   * Emits once (then completes) when a permit is granted; permits are granted in request order.
   * Unsubscribing before the grant returns the reservation.
   */
  take(): Observable<void>;
}

/**
 * A token bucket: starts full with `burst` permits and refills at `qps` per second.
 *
 * ```
 * qps 1, burst 2, three takes at 0:   (ab) 998ms c      (a, b at once; c after a second)
 * ```
 *
 * @example
 * const writes = tokenBucket({ qps: 5, burst: 10 });
 * writes.take().pipe(switchMap(() => send(request)))
 * @param config qps, burst and clock
 * @returns the limiter
 * @throws InvalidConfigError when qps or burst is not positive
 */
export function tokenBucket(config: TokenBucketConfig): TokenBucket {
  const { qps, burst } = config;
  const scheduler = config.scheduler ?? asyncScheduler;
  if (!(qps > 0)) throw new InvalidConfigError('qps', `must be > 0 (Infinity for no limit), got ${qps}`);
  if (!(burst >= 1) || !Number.isFinite(burst)) {
    throw new InvalidConfigError('burst', `must be a finite number >= 1, got ${burst}`);
  }
  let tokens = burst;
  let last = scheduler.now();
  const refill = () => {
    const now = scheduler.now();
    tokens = Math.min(burst, tokens + ((now - last) * qps) / 1000);
    last = now;
  };
  return {
    take: () =>
      new Observable<void>((subscriber) => {
        if (qps === Number.POSITIVE_INFINITY) {
          subscriber.next();
          subscriber.complete();
          return;
        }
        refill();
        tokens -= 1;
        if (tokens >= 0) {
          subscriber.next();
          subscriber.complete();
          return;
        }
        let granted = false;
        const action = scheduler.schedule(
          () => {
            granted = true;
            subscriber.next();
            subscriber.complete();
          },
          (-tokens * 1000) / qps,
        );
        return () => {
          action.unsubscribe();
          if (!granted) {
            refill();
            tokens = Math.min(burst, tokens + 1);
          }
        };
      }),
  };
}
