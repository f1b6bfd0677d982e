// cachesSynced: an observable of the moment every informer (or handler registration, or polled function) has synced — client-go's WaitForNamedCacheSync for pipelines.
import {
  asyncScheduler,
  combineLatest,
  distinctUntilChanged,
  filter,
  interval,
  map,
  type Observable,
  of,
  type SchedulerLike,
  startWith,
  take,
} from 'rxjs';

/** Anything whose has-synced state can be awaited: an informer, a handler registration, or a function (polled). */
export type HasSyncedSource = { readonly hasSynced$: Observable<boolean> } | (() => boolean);

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
 * Emits once, then completes, when every source reports synced (at once when there are none). Observable
 * sources are watched; functions are polled at once and then every 100 ms, as client-go polls. A controller
 * starts its workers behind it, so no sync runs on a half-filled cache (one would create a second set of
 * pods for every existing owner).
 *
 * @example
 * cachesSynced(jobs, pods).pipe(switchMap(() => NEVER.pipe(reconcileWith(sync, { queue, workers: 5 }))));
 * @param sources informers, handler registrations or `() => boolean` functions
 * @returns one value once all have synced
 */
export function cachesSynced(...sources: HasSyncedSource[]): Observable<void>;
export function cachesSynced(
  options: { scheduler: SchedulerLike },
  ...sources: HasSyncedSource[]
): Observable<void>;
export function cachesSynced(...args: (HasSyncedSource | { scheduler: SchedulerLike })[]): Observable<void> {
  const first = args[0];
  const hasOptions = first !== undefined && typeof first !== 'function' && !('hasSynced$' in first);
  const scheduler = hasOptions ? (first as { scheduler: SchedulerLike }).scheduler : asyncScheduler;
  const sources = (hasOptions ? args.slice(1) : args) as HasSyncedSource[];
  if (sources.length === 0) return of(undefined);
  return combineLatest(sources.map((s) => synced$(s, scheduler))).pipe(
    filter((states) => states.every(Boolean)),
    take(1),
    map(() => undefined),
  );
}
