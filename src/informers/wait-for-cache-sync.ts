// waitForCacheSync: resolves true once every informer or handler registration has synced, false if aborted first.
import {
  asyncScheduler,
  combineLatest,
  distinctUntilChanged,
  filter,
  interval,
  map,
  type Observable,
  type SchedulerLike,
  startWith,
  take,
} from 'rxjs';

/** Anything whose has-synced state can be awaited: an informer, a handler registration, or a function (polled). */
export type HasSyncedSource = { readonly hasSynced$: Observable<boolean> } | (() => boolean);

/** Options of {@link waitForCacheSync} beyond the signal. */
export interface WaitForCacheSyncOptions {
  signal?: AbortSignal;
  /** Clock for polling functions (every 100 ms, as client-go); default `asyncScheduler`. */
  scheduler?: SchedulerLike;
}

const POLL_MS = 100;

function synced$(source: HasSyncedSource, scheduler: SchedulerLike): Observable<boolean> {
  if (typeof source === 'function') {
    return interval(POLL_MS, scheduler).pipe(
      startWith(0),
      map(() => source()),
      distinctUntilChanged(),
    );
  }
  return source.hasSynced$;
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
    const all$ =
      sources.length === 0
        ? undefined
        : combineLatest(sources.map((s) => synced$(s, scheduler))).pipe(
            map((states) => states.every(Boolean)),
            filter(Boolean),
            take(1),
          );
    if (!all$) {
      finish(true);
      return;
    }
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
