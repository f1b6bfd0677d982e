// The kubelet's node heartbeat: a Lease in kube-node-lease named after the node, renewed on a timer.
import {
  asyncScheduler,
  catchError,
  defer,
  EMPTY,
  map,
  type Observable,
  of,
  repeat,
  retry,
  type SchedulerLike,
  switchMap,
  throwError,
  timer,
} from 'rxjs';
import { type Backoff, exponentialBackoff } from '../../operators/backoff.ts';
import { ApiError } from '../../operators/errors.ts';
import { type Lease, microTime } from '../../operators/leader-election-record.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import type { LeaseClient } from '../../streams/lease-client.ts';

/** Updates tried per renewal before giving up until the next one (maxUpdateRetries). */
const MAX_UPDATE_RETRIES = 5;

/** The namespace the kubelet keeps node leases in. */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

export interface NodeLeaseConfig {
  client: LeaseClient;
  nodeName: string;
  /** The node's uid, for the lease's owner reference (the lease goes when the node does). */
  nodeUid?: string;
  /** `leaseDurationSeconds` of the lease; default 40 (the kubelet's `nodeLeaseDurationSeconds`). */
  leaseDurationSeconds?: number;
  /** How often the lease is renewed; default a quarter of the duration (10 s), as the kubelet does. */
  renewIntervalMs?: number;
  /** Retry policy after a failed renew; default 200 ms doubling to 7 s, as the kubelet's lease controller. */
  backoff?: () => Backoff;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/**
 * Keeps the node's Lease fresh as the kubelet's lease controller does: the first sync GETs the lease
 * (creating it when missing, retried with backoff); later syncs update the lease last written without
 * a GET, falling back to GET on failure; an update is tried up to 5 times, a conflict re-reads first.
 * Each sync starts a renew interval after the previous one ended. Never ends on errors.
 *
 * ```
 * renewals: r---------r---------r--   (r = one successful create or update, every renewIntervalMs)
 * ```
 *
 * Teardown: unsubscribing cancels the timer and aborts a request in flight; the lease is left to
 * expire, as the kubelet leaves it.
 *
 * @param config the lease client, node name and timings
 * @returns the lease after each successful renewal
 */
export function nodeLease(config: NodeLeaseConfig): Observable<Lease> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const duration = config.leaseDurationSeconds ?? 40;
  const interval = config.renewIntervalMs ?? (duration * 1000) / 4;
  const log = (config.logger ?? silentLogger).child({ component: 'nodeLease', node: config.nodeName });

  const desired = (current: Lease | undefined): Lease => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    ...current,
    metadata: {
      ...current?.metadata,
      name: config.nodeName,
      namespace: NODE_LEASE_NAMESPACE,
      ...(config.nodeUid && !current?.metadata?.ownerReferences
        ? {
            ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: config.nodeName, uid: config.nodeUid }],
          }
        : {}),
    },
    spec: {
      ...current?.spec,
      holderIdentity: config.nodeName,
      leaseDurationSeconds: duration,
      renewTime: microTime(scheduler.now()),
    },
  });

  /** GET the lease, creating it when missing (component-helpers' ensureLease). */
  const ensure = (): Observable<{ lease: Lease; created: boolean }> =>
    config.client
      .get(NODE_LEASE_NAMESPACE, config.nodeName)
      .pipe(
        switchMap((current) =>
          current
            ? of({ lease: current, created: false })
            : config.client.create(desired(undefined)).pipe(map((lease) => ({ lease, created: true }))),
        ),
      );

  return defer(() => {
    const backoff = config.backoff?.() ?? exponentialBackoff({ initialMs: 200, maxMs: 7000, scheduler });
    let latest: Lease | undefined;
    const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

    /** ensure, retried with backoff until it works (backoffEnsureLease). */
    const backoffEnsure = (): Observable<{ lease: Lease; created: boolean }> =>
      defer(ensure).pipe(
        retry({
          delay: (error: unknown) => {
            const waitMs = backoff.next() ?? interval;
            log.warn(
              { err: describe(error), retryInMs: waitMs },
              'failed to ensure the node lease exists; retrying',
            );
            return timer(waitMs, scheduler);
          },
        }),
        map((found) => {
          backoff.reset();
          return found;
        }),
      );

    /** Up to 5 updates; a conflict re-reads the lease first (retryUpdateLease). */
    const retryUpdate = (base: Lease, attempt = 0): Observable<Lease> =>
      config.client.update(desired(base)).pipe(
        map((lease) => {
          latest = lease;
          return lease;
        }),
        catchError((error: unknown) => {
          const conflict = error instanceof ApiError && error.statusCode === 409;
          log[conflict ? 'debug' : 'warn'](
            { err: describe(error), attempt: attempt + 1 },
            'failed to update the node lease',
          );
          if (attempt + 1 >= MAX_UPDATE_RETRIES) {
            return throwError(
              () => new Error(`failed ${MAX_UPDATE_RETRIES} attempts to update lease`, { cause: error }),
            );
          }
          return conflict
            ? backoffEnsure().pipe(switchMap(({ lease }) => retryUpdate(lease, attempt + 1)))
            : retryUpdate(base, attempt + 1);
        }),
      );

    /** Ensure the lease, then renew it unless it was just created. */
    const viaEnsure = (): Observable<Lease> =>
      backoffEnsure().pipe(
        switchMap(({ lease, created }) => {
          latest = lease;
          if (created) return of(lease);
          return retryUpdate(lease).pipe(
            catchError((error: unknown) => {
              log.warn({ err: describe(error), retryInMs: interval }, 'will retry updating the node lease');
              return EMPTY;
            }),
          );
        }),
      );

    /** One sync: an optimistic update of the lease last written (no GET), else through ensure. */
    const sync = (): Observable<Lease> =>
      defer(() =>
        latest
          ? retryUpdate(latest).pipe(
              catchError((error: unknown) => {
                log.info(
                  { err: describe(error) },
                  'failed to update lease using latest lease, fallback to ensure lease',
                );
                return viaEnsure();
              }),
            )
          : viaEnsure(),
      );

    return sync().pipe(repeat({ delay: () => timer(interval, scheduler) }));
  });
}
