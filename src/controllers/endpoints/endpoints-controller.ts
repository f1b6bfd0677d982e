// endpointsController: kube-controller-manager's endpoints controller — Service, pod and Endpoints informers, a work queue, and per Service the core/v1 Endpoints of its pods.
import { asyncScheduler, firstValueFrom, NEVER, Observable, type SchedulerLike, switchMap, tap } from 'rxjs';
import type { Pod } from '../../../operators/api/core-v1.ts';
import { desiredEndpoints } from '../../../operators/controller/endpoints/desired-endpoints.ts';
import { endpointsSubsets } from '../../../operators/controller/endpoints/endpoints-subsets.ts';
import {
  type Endpoints,
  LEADER_ANNOTATION,
} from '../../../operators/controller/endpoints/endpoints-types.ts';
import type { Service } from '../../../operators/controller/endpointslice/endpoint-slice-types.ts';
import { serviceSelects } from '../../../operators/controller/endpointslice/service-selects.ts';
import { TriggerTimeTracker } from '../../../operators/controller/endpointslice/trigger-time-tracker.ts';
import { ApiError, hasStatusCause } from '../../../operators/errors.ts';
import { NAMESPACE_INDEX } from '../../../operators/indexed-store.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type ReconcileOutcome, type ReconcileResult, reconcileWith } from '../../../operators/reconcile.ts';
import { DeletedFinalStateUnknown } from '../../../operators/types.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { ENDPOINTS, PODS, SERVICES } from '../../../streams/resources.ts';
import { cachesSynced } from '../../informers/caches-synced.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';
import { controllerEventRecorder } from '../controller-event-recorder.ts';
import { queueServicesOnChange } from '../endpointslice/queue-services-on-change.ts';

/** Settings of {@link endpointsController}. */
export interface EndpointsControllerConfig {
  client: ApiClient;
  /** The shared informer factory; the caller starts it (the controller manager does, after every init). */
  informerFactory: InformerFactory;
  /** `--concurrent-endpoint-syncs`; default 5. */
  workers?: number;
  metrics?: WorkQueueMetricsProvider;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) =>
  `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
const isNotFound = (e: unknown) => e instanceof ApiError && e.statusCode === 404;
const unwrap = <T>(o: T | DeletedFinalStateUnknown): T | undefined =>
  o instanceof DeletedFinalStateUnknown ? (o.obj as T) : o;

/**
 * Runs the endpoints controller while subscribed. Every Service with a selector gets a core/v1 Endpoints
 * of its name: subsets of ready and not-ready pod addresses with the ports each pod resolves
 * ({@link endpointsSubsets}), the Service's labels, `endpoints.kubernetes.io/last-change-trigger-time`,
 * and past 1000 addresses a truncation with `endpoints.kubernetes.io/over-capacity: truncated`
 * ({@link desiredEndpoints}). A deleted Service's Endpoints are deleted; Endpoints left without a
 * Service (found at start, or deleted by someone) are looked at again. Records FailedToCreateEndpoint /
 * FailedToUpdateEndpoint Events.
 *
 * ```
 * svc:   --S(app=web)----------------------------x--
 * pods:  ----p1 not ready----p1 ready---------------
 * ep:    --{}-{notReady p1}--{ready p1}----------x--
 * ```
 *
 * @example
 * endpointsController({ client, informerFactory: factory }).subscribe(); factory.start();
 *
 * Teardown: unsubscribing stops the queue, the workers and in-flight syncs (the informers belong to the factory).
 *
 * @param config the client, the shared informer factory, workers, metrics
 * @returns the sync outcomes, one per Service key synced
 */
export function endpointsController(config: EndpointsControllerConfig): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = (config.logger ?? silentLogger).child({ component: 'endpoints-controller' });
  const { client } = config;

  return new Observable<ReconcileOutcome<string>>((subscriber) => {
    logger.info('Starting endpoint controller');
    const services = config.informerFactory.forResource<Service>(SERVICES);
    const pods = config.informerFactory.forResource<Pod>(PODS);
    const endpoints = config.informerFactory.forResource<Endpoints>(ENDPOINTS);
    const queue = workQueue<string>({
      name: 'endpoint',
      scheduler,
      ...(config.metrics ? { metrics: config.metrics } : {}),
    });
    const triggerTimes = new TriggerTimeTracker();
    const record = controllerEventRecorder(client, 'endpoint-controller', logger, () => Date.now());

    queueServicesOnChange(services, pods, queue);
    endpoints.addEventHandler({
      // someone deleted a Service's Endpoints: the sync writes them again
      onDelete: (o) => {
        const ep = unwrap(o);
        if (ep?.metadata) queue.add(keyOf(ep));
      },
    });

    const sync = async (key: string): Promise<ReconcileResult> => {
      const [namespace, name] = key.split('/') as [string, string];
      const service = services.getStore().getByKey(key);
      if (!service) {
        // the Service is gone: so are its Endpoints
        await firstValueFrom(client.delete(ENDPOINTS, name, { namespace })).catch((e: unknown) =>
          isNotFound(e) ? undefined : Promise.reject(e),
        );
        triggerTimes.deleteService(key);
        return {};
      }
      // a Service without a selector has Endpoints someone else manages
      if (!service.spec.selector) return {};
      const selected = pods
        .getStore()
        .byIndex(NAMESPACE_INDEX, namespace)
        .filter((p) => serviceSelects(service, p.metadata.labels));
      const triggerTime = triggerTimes.compute(key, service, selected);
      const { subsets } = endpointsSubsets(service, selected);
      const current = endpoints.getStore().getByKey(key);
      const write = desiredEndpoints(service, current, subsets, triggerTime);
      if (write.action === 'none') return {};
      try {
        if (write.action === 'create') {
          await firstValueFrom(client.create(ENDPOINTS, write.endpoints, { namespace }));
        } else await firstValueFrom(client.update(ENDPOINTS, write.endpoints, { namespace }));
      } catch (e) {
        // the namespace is going away: creates keep failing, drop the Service
        if (write.action === 'create' && hasStatusCause(e, 'NamespaceTerminating')) return {};
        const message = e instanceof Error ? e.message : String(e);
        record(
          { ...write.endpoints, apiVersion: 'v1', kind: 'Endpoints' },
          'Warning',
          write.action === 'create' ? 'FailedToCreateEndpoint' : 'FailedToUpdateEndpoint',
          write.action === 'create'
            ? `Failed to create endpoint for service ${key}: ${message}`
            : `Failed to update endpoint ${key}: ${message}`,
        );
        throw e;
      }
      return {};
    };

    /** Endpoints whose Service may be gone (upstream's checkLeftoverEndpoints), leader-election records aside. */
    const queueLeftovers = () => {
      for (const ep of endpoints.getStore().list()) {
        if (ep.metadata.annotations?.[LEADER_ANNOTATION] !== undefined) continue;
        queue.add(keyOf(ep));
      }
    };

    const sub = cachesSynced(services, pods, endpoints)
      .pipe(
        tap(queueLeftovers),
        switchMap(() =>
          NEVER.pipe(reconcileWith<string>(sync, { queue, workers: config.workers ?? 5, scheduler, logger })),
        ),
      )
      .subscribe(subscriber);
    return () => {
      sub.unsubscribe();
      logger.info('Shutting down endpoint controller');
    };
  });
}
