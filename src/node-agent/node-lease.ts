// The kubelet's node heartbeat: a Lease in kube-node-lease named after the node, renewed on a timer.
import {
  asyncScheduler,
  catchError,
  defer,
  EMPTY,
  expand,
  map,
  type Observable,
  of,
  type SchedulerLike,
  switchMap,
  timer,
} from 'rxjs';
import { type Backoff, exponentialBackoff } from '../../operators/backoff.ts';
import { ApiError } from '../../operators/errors.ts';
import { type Lease, microTime } from '../../operators/leader-election-record.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import type { LeaseClient } from '../../streams/lease-client.ts';

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
 * Keeps the node's Lease fresh: creates it when missing, then renews `spec.renewTime` every renew
 * interval; a failed renew is logged and retried with backoff, never ending the stream.
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

  const renewOnce = (): Observable<Lease> =>
    config.client
      .get(NODE_LEASE_NAMESPACE, config.nodeName)
      .pipe(
        switchMap((current) =>
          current ? config.client.update(desired(current)) : config.client.create(desired(undefined)),
        ),
      );

  return defer(() => {
    const backoff = config.backoff?.() ?? exponentialBackoff({ initialMs: 200, maxMs: 7000, scheduler });
    type Step = { lease?: Lease; waitMs: number };
    const attempt = (): Observable<Step> =>
      renewOnce().pipe(
        map((lease): Step => {
          backoff.reset();
          return { lease, waitMs: interval };
        }),
        catchError((error: unknown) => {
          const waitMs = backoff.next() ?? interval;
          const conflict = error instanceof ApiError && error.statusCode === 409;
          log[conflict ? 'debug' : 'warn'](
            { err: error instanceof Error ? error.message : String(error), retryInMs: waitMs },
            'failed to renew the node lease; retrying',
          );
          return of({ waitMs });
        }),
      );
    return attempt().pipe(
      expand((step) => timer(step.waitMs, scheduler).pipe(switchMap(attempt))),
      switchMap((step) => (step.lease ? of(step.lease) : EMPTY)),
    );
  });
}
