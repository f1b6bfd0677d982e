// controllerManager: kube-controller-manager's run — leader election on its Lease, then the controllers and the shared informers.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Registry } from 'prom-client';
import {
  asyncScheduler,
  concat,
  defer,
  EMPTY,
  Observable,
  of,
  type SchedulerLike,
  switchMap,
  throwError,
} from 'rxjs';
import { KubeRxError } from '../../operators/errors.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import type { WorkQueueMetricsProvider } from '../../operators/work-queue-metrics.ts';
import type { ApiClient } from '../../streams/api-client.ts';
import { leaseClient } from '../../streams/lease-client.ts';
import type { ReflectorMetricsSink } from '../../streams/list-watch.ts';
import { dropManagedFields } from '../informers/drop-managed-fields.ts';
import { informerFactory } from '../informers/informer-factory.ts';
import type { HealthzAdaptor } from '../leader-election/healthz-adaptor.ts';
import { leaderElection } from '../leader-election/leader-election.ts';
import type { ControllerDescriptor, ControllerOptions } from './controller-context.ts';
import { type ControllerManagerEvent, startControllers } from './start-controllers.ts';

/** kube-controller-manager's Lease and timings (`--leader-elect-*`). */
export interface ControllerManagerLeaderElection {
  namespace: string;
  name: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  /** Default `hostname_uuid`, as upstream. */
  identity?: string;
  healthz?: HealthzAdaptor;
}

/** Settings of {@link controllerManager}. */
export interface ControllerManagerConfig {
  client: ApiClient;
  descriptors: ReadonlyMap<string, ControllerDescriptor>;
  /** `--controllers`, resolved; default `['*']`. */
  controllers?: readonly string[];
  /** `--controller-start-interval` in ms; default 0. */
  startIntervalMs?: number;
  options: ControllerOptions;
  /** Campaign for the Lease first (`--leader-elect`, default on upstream); absent: run at once. */
  leaderElection?: ControllerManagerLeaderElection;
  /** `--min-resync-period` in ms: informers resync every period × [1, 2); default 12 h. */
  minResyncPeriodMs?: number;
  workQueueMetrics: WorkQueueMetricsProvider;
  /** Where controllers register metrics of their own. */
  metricsRegistry?: Registry;
  /** Reflector metrics of every shared informer (`kube_rx_reflector_*`). */
  reflectorMetrics?: { sink(resource: string): ReflectorMetricsSink };
  scheduler?: SchedulerLike;
  random?: () => number;
  logger?: Logger;
}

/** What the controller manager did: the start-up events, and leadership changes. */
export type ControllerManagerRunEvent = ControllerManagerEvent | { type: 'Leading'; identity: string };

/**
 * Runs kube-controller-manager while subscribed. With leader election, it campaigns for the Lease
 * (kube-system/kube-controller-manager by default) and only the leader starts controllers; losing the
 * lease after leading ends the observable with "leaderelection lost" (upstream exits), so two processes
 * never run the same controllers. Each term gets its own shared informer factory (resync period ×
 * [1, 2), managedFields dropped, as upstream), handed to every init function and started after the last.
 *
 * Teardown: unsubscribing stops the controllers and informers and releases the lease.
 * @param config the client, the descriptors, the flags and the metrics
 * @returns the start-up events and leadership
 */
export function controllerManager(config: ControllerManagerConfig): Observable<ControllerManagerRunEvent> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const random = config.random ?? Math.random;
  const logger = (config.logger ?? silentLogger).child({ component: 'kube-controller-manager' });
  const term = () =>
    defer(() => {
      const resync = Math.round((config.minResyncPeriodMs ?? 12 * 3600_000) * (1 + random()));
      const factory = informerFactory({
        client: config.client,
        defaultResyncMs: resync,
        transform: dropManagedFields,
        scheduler,
        logger,
        ...(config.reflectorMetrics ? { metrics: config.reflectorMetrics } : {}),
      });
      return startControllers({
        context: {
          client: config.client,
          informerFactory: factory,
          options: config.options,
          workQueueMetrics: config.workQueueMetrics,
          ...(config.metricsRegistry ? { metricsRegistry: config.metricsRegistry } : {}),
          scheduler,
          logger,
        },
        descriptors: config.descriptors,
        ...(config.controllers ? { controllers: config.controllers } : {}),
        ...(config.startIntervalMs ? { startIntervalMs: config.startIntervalMs } : {}),
        random,
        scheduler,
      });
    });
  const le = config.leaderElection;
  if (!le) return term();
  const identity = le.identity ?? `${hostname()}_${randomUUID()}`;
  return new Observable<ControllerManagerRunEvent>((subscriber) => {
    let led = false;
    const sub = leaderElection({
      client: leaseClient(config.client),
      namespace: le.namespace,
      name: le.name,
      identity,
      leaseDuration: le.leaseDurationMs,
      renewDeadline: le.renewDeadlineMs,
      retryPeriod: le.retryPeriodMs,
      scheduler,
      random,
      logger,
      ...(le.healthz ? { healthz: le.healthz } : {}),
    })
      .pipe(
        switchMap((leading): Observable<ControllerManagerRunEvent> => {
          if (leading) {
            led = true;
            logger.info({ identity }, 'successfully acquired lease');
            return concat(of({ type: 'Leading' as const, identity }), term());
          }
          if (!led) return EMPTY;
          return throwError(() => new KubeRxError('KUBE_RX_LEADER_ELECTION', 'leaderelection lost'));
        }),
      )
      .subscribe(subscriber);
    return () => sub.unsubscribe();
  });
}
