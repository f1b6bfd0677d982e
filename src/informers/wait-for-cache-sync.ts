// waitForCacheSync: resolves true once every informer or handler registration has synced, false if aborted first.
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { cachesSynced, type HasSyncedSource } from './caches-synced.ts';

export type { HasSyncedSource };

/** Options of {@link waitForCacheSync} beyond the signal. */
export interface WaitForCacheSyncOptions {
  signal?: AbortSignal;
  /** Clock for polling functions (every 100 ms, as client-go); default `asyncScheduler`. */
  scheduler?: SchedulerLike;
}

/**
 * client-go's WaitForCacheSync: waits until every source reports synced. Observable sources are watched;
 * functions are polled at once and then every 100 ms. Already-synced sources resolve true even when the
 * signal is already aborted (the condition is checked first, as upstream).
 *
 * @example
 * const reg = pods.addEventHandler(handler);
 * if (!(await waitForCacheSync(AbortSignal.timeout(30_000), pods, reg))) throw new Error('caches did not sync');
 * @param signal an AbortSignal (or options with a signal and a scheduler); aborting resolves false
 * @param sources informers, handler registrations or `() => boolean` functions
 * @returns true once all have synced, false if aborted first
 */
export function waitForCacheSync(
  signal: AbortSignal | WaitForCacheSyncOptions | undefined,
  ...sources: HasSyncedSource[]
): Promise<boolean> {
  const options: WaitForCacheSyncOptions =
    signal === undefined ? {} : isAbortSignal(signal) ? { signal } : signal;
  const scheduler = options.scheduler ?? asyncScheduler;
  const abort = options.signal;
  return new Promise<boolean>((resolve) => {
    let done = false;
    let sub: { unsubscribe(): void } | undefined;
    const finish = (value: boolean) => {
      if (done) return;
      done = true;
      abort?.removeEventListener('abort', onAbort);
      sub?.unsubscribe();
      resolve(value);
    };
    const onAbort = () => finish(false);
    if (sources.length === 0) {
      finish(true);
      return;
    }
    const all$ = cachesSynced({ scheduler }, ...sources);
    sub = all$.subscribe({ next: () => finish(true) });
    if (done) {
      sub.unsubscribe();
      return;
    }
    if (abort?.aborted) {
      finish(false);
      return;
    }
    abort?.addEventListener('abort', onAbort, { once: true });
  });
}

function isAbortSignal(value: unknown): value is AbortSignal {
  return typeof AbortSignal !== 'undefined' && value instanceof AbortSignal;
}
