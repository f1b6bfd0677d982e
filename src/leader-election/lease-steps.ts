// One attempt to acquire or renew a Lease, and its release: client-go's tryAcquireOrRenew/release over a LeaseClient.
import {
  catchError,
  defaultIfEmpty,
  defer,
  map,
  type Observable,
  of,
  type SchedulerLike,
  switchMap,
  take,
} from 'rxjs';
import { ApiError } from '../../operators/errors.ts';
import {
  afterWrite,
  type ElectorState,
  observeLease,
  planAfterRead,
  planCoordinatedRenew,
  planFastRenew,
  planRelease,
} from '../../operators/leader-election-state.ts';
import type { Logger } from '../../operators/logger.ts';
import type { LeaseClient } from '../../streams/lease-client.ts';

/**
 * The mutable cell an elector's steps read and write. Only one step runs at a time per elector, so the
 * single writer rule holds.
 */
export interface ElectorRuntime {
  state: ElectorState;
  readonly client: LeaseClient;
  readonly scheduler: SchedulerLike;
  readonly logger: Logger;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One attempt: the fast path (a valid leader updates its cached Lease) and, if that is not possible or
 * fails, the slow path (read, then create or update unless another holder's lease is still valid).
 * Failed calls, including 409 Conflicts, are "not this time": the result is `false`, never an error.
 * @param rt the elector's state cell, client, clock and logger
 * @returns emits `true` (this candidate holds the lease now) or `false`, then completes
 */
export function tryAcquireOrRenew(rt: ElectorRuntime): Observable<boolean> {
  return defer(() => {
    const now = rt.scheduler.now();
    const { namespace, name } = rt.state;
    const slow$ = defer(() =>
      rt.client.get(namespace, name).pipe(
        take(1),
        switchMap((fetched) => {
          const { state, plan } = planAfterRead(rt.state, fetched, now, rt.scheduler.now());
          rt.state = state;
          if (plan.type === 'blocked') {
            rt.logger.debug(
              { holder: plan.holder },
              'lock is held by another candidate and has not yet expired',
            );
            return of(false);
          }
          const write$ = plan.type === 'create' ? rt.client.create(plan.lease) : rt.client.update(plan.lease);
          return write$.pipe(
            take(1),
            map((server) => {
              rt.state = afterWrite(rt.state, plan.record, server, rt.scheduler.now());
              return true;
            }),
          );
        }),
        catchError((error: unknown) => {
          rt.logger.info({ err: describe(error) }, 'failed to acquire or renew the lease');
          return of(false);
        }),
      ),
    );
    const fast = planFastRenew(rt.state, now);
    if (!fast) return slow$;
    return rt.client.update(fast.lease).pipe(
      take(1),
      map((server) => {
        rt.state = afterWrite(rt.state, fast.record, server, rt.scheduler.now());
        return true;
      }),
      catchError((error: unknown) => {
        rt.logger.debug({ err: describe(error) }, 'fast-path renewal failed, reading the lease');
        return slow$;
      }),
    );
  }).pipe(defaultIfEmpty(false));
}

/**
 * One coordinated attempt (client-go's tryCoordinatedRenew): read the Lease the API server's coordinated
 * leader election controller manages, and renew it only when the controller named this candidate holder
 * and no preferred holder ends its term. Never creates or takes the Lease.
 * @param rt the elector's state cell, client, clock and logger
 * @returns emits `true` when this candidate holds and renewed the lease, else `false`, then completes
 */
export function tryCoordinatedRenew(rt: ElectorRuntime): Observable<boolean> {
  return defer(() => {
    const now = rt.scheduler.now();
    return rt.client.get(rt.state.namespace, rt.state.name).pipe(
      take(1),
      switchMap((fetched) => {
        const { state, plan } = planCoordinatedRenew(rt.state, fetched, now, rt.scheduler.now());
        rt.state = state;
        if (plan.type === 'wait') {
          rt.logger.debug({ reason: plan.reason, holder: plan.holder }, 'not renewing the coordinated lease');
          return of(false);
        }
        return rt.client.update(plan.lease).pipe(
          take(1),
          map((server) => {
            rt.state = afterWrite(rt.state, plan.record, server, rt.scheduler.now());
            return true;
          }),
        );
      }),
      catchError((error: unknown) => {
        rt.logger.info({ err: describe(error) }, 'failed to renew the coordinated lease');
        return of(false);
      }),
    );
  }).pipe(defaultIfEmpty(false));
}

/**
 * Gives the lease up if this candidate is its observed holder: writes an empty holder with a one-second
 * duration. On a 409 Conflict it reads the Lease again and retries while it is still the holder.
 * @param rt the elector's state cell, client, clock and logger
 * @param conflictRetries how many conflicts to retry (default 3)
 * @returns emits `true` when released or nothing to release, `false` when the write failed
 */
export function releaseLease(rt: ElectorRuntime, conflictRetries = 3): Observable<boolean> {
  return defer(() => {
    const plan = planRelease(rt.state, rt.scheduler.now());
    if (!plan) return of(true);
    return rt.client.update(plan.lease).pipe(
      take(1),
      map((server) => {
        rt.state = afterWrite(rt.state, plan.record, server, rt.scheduler.now());
        rt.logger.info('released the lease');
        return true;
      }),
      catchError((error: unknown) => {
        if (error instanceof ApiError && error.statusCode === 409 && conflictRetries > 0) {
          return rt.client.get(rt.state.namespace, rt.state.name).pipe(
            take(1),
            switchMap((fetched) => {
              if (!fetched) return of(true);
              rt.state = observeLease(rt.state, fetched, rt.scheduler.now());
              return releaseLease(rt, conflictRetries - 1);
            }),
            catchError((again: unknown) => {
              rt.logger.error({ err: describe(again) }, 'failed to release the lease');
              return of(false);
            }),
          );
        }
        rt.logger.error({ err: describe(error) }, 'failed to release the lease');
        return of(false);
      }),
    );
  }).pipe(defaultIfEmpty(false));
}
