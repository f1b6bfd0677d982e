// endpointSliceController: kube-controller-manager's endpointslice controller — Service, pod, node and EndpointSlice informers, a work queue, and per Service the slices endpointSlicePlan decides.
import { asyncScheduler, firstValueFrom, NEVER, Observable, type SchedulerLike, switchMap } from 'rxjs';
import type { Node, Pod } from '../../../operators/api/core-v1.ts';
import { endpointSlicePlan } from '../../../operators/controller/endpointslice/endpoint-slice-plan.ts';
import { EndpointSliceTracker } from '../../../operators/controller/endpointslice/endpoint-slice-tracker.ts';
import {
  DEFAULT_MAX_ENDPOINTS_PER_SLICE,
  ENDPOINT_SLICE_CONTROLLER_NAME,
  type EndpointSlice,
  LABEL_MANAGED_BY,
  LABEL_SERVICE_NAME,
  type Service,
} from '../../../operators/controller/endpointslice/endpoint-slice-types.ts';
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
import { ENDPOINT_SLICES, NODES, PODS, SERVICES } from '../../../streams/resources.ts';
import { cachesSynced } from '../../informers/caches-synced.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';
import { controllerEventRecorder } from '../controller-event-recorder.ts';
import { queueServicesOnChange } from './queue-services-on-change.ts';

/** Settings of {@link endpointSliceController}. */
export interface EndpointSliceControllerConfig {
  client: ApiClient;
  /** The shared informer factory; the caller starts it (the controller manager does, after every init). */
  informerFactory: InformerFactory;
  /** `--concurrent-service-endpoint-syncs`; default 5. */
  workers?: number;
  /** `--max-endpoints-per-slice`; default 100. */
  maxEndpointsPerSlice?: number;
  metrics?: WorkQueueMetricsProvider;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

const isNotFound = (e: unknown) => e instanceof ApiError && e.statusCode === 404;
const unwrap = <T>(o: T | DeletedFinalStateUnknown): T | undefined =>
  o instanceof DeletedFinalStateUnknown ? (o.obj as T) : o;

/** The sync failed because the slice cache has not yet seen this controller's last writes. */
export class StaleInformerCacheError extends Error {
  readonly code = 'StaleInformerCache';
  constructor() {
    super('EndpointSlice informer cache is out of date');
    this.name = 'StaleInformerCacheError';
  }
}

/**
 * Runs the endpointslice controller while subscribed. Every Service with a selector (not ExternalName)
 * gets discovery.k8s.io/v1 EndpointSlices labelled `kubernetes.io/service-name` and
 * `endpointslice.kubernetes.io/managed-by: endpointslice-controller.k8s.io`, owned by the Service, holding
 * one endpoint per selected pod with an IP (ready/serving/terminating conditions, node name and zone,
 * ports with named targetPorts resolved per pod), at most `maxEndpointsPerSlice` per slice
 * ({@link endpointSlicePlan}). Service, pod and foreign slice changes queue the Service; a sync on a
 * slice cache behind this controller's own writes fails and is retried. A deleted Service's slices are
 * left to the garbage collector (their owner reference), as upstream.
 *
 * ```
 * svc:    --S(app=web)-------------------------------
 * pods:   -----p1 ready----p2 ready-----p1 deleted---
 * slices: --[]-[p1]--------[p1,p2]------[p2]---------
 * ```
 *
 * @example
 * endpointSliceController({ client, informerFactory: factory }).subscribe(); factory.start();
 *
 * Teardown: unsubscribing stops the queue, the workers and in-flight syncs (the informers belong to the factory).
 *
 * @param config the client, the shared informer factory, workers, maxEndpointsPerSlice
 * @returns the sync outcomes, one per Service key synced
 */
export function endpointSliceController(
  config: EndpointSliceControllerConfig,
): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = (config.logger ?? silentLogger).child({ component: 'endpointslice-controller' });
  const { client } = config;
  const max = config.maxEndpointsPerSlice ?? DEFAULT_MAX_ENDPOINTS_PER_SLICE;
  const controllerName = ENDPOINT_SLICE_CONTROLLER_NAME;

  return new Observable<ReconcileOutcome<string>>((subscriber) => {
    logger.info('Starting endpoint slice controller');
    const services = config.informerFactory.forResource<Service>(SERVICES);
    const pods = config.informerFactory.forResource<Pod>(PODS);
    const nodes = config.informerFactory.forResource<Node>(NODES);
    const slices = config.informerFactory.forResource<EndpointSlice>(ENDPOINT_SLICES);
    const queue = workQueue<string>({
      name: 'endpoint_slice',
      scheduler,
      ...(config.metrics ? { metrics: config.metrics } : {}),
    });
    const tracker = new EndpointSliceTracker();
    const triggerTimes = new TriggerTimeTracker();
    const record = controllerEventRecorder(client, 'endpoint-slice-controller', logger, () => Date.now());

    /** The Service key a slice managed by this controller belongs to. */
    const serviceKeyOf = (slice: EndpointSlice): string | undefined => {
      const labels = slice.metadata.labels ?? {};
      const name = labels[LABEL_SERVICE_NAME];
      if (!name || labels[LABEL_MANAGED_BY] !== controllerName) return undefined;
      return `${slice.metadata.namespace ?? ''}/${name}`;
    };

    queueServicesOnChange(services, pods, queue);
    slices.addEventHandler({
      onAdd: (slice) => {
        const k = serviceKeyOf(slice);
        if (k && tracker.shouldSync(k, slice)) queue.add(k);
      },
      onUpdate: (old, slice) => {
        // a slice taken from (or given to) this controller: its Service looks again
        const before = serviceKeyOf(old);
        const k = serviceKeyOf(slice);
        if (before && before !== k) queue.add(before);
        if (k && (before !== k || tracker.shouldSync(k, slice))) queue.add(k);
      },
      onDelete: (o) => {
        const slice = unwrap(o);
        if (!slice?.metadata) return;
        const k = serviceKeyOf(slice);
        if (k && tracker.handleDeletion(k, slice)) queue.add(k);
      },
    });

    const sync = async (key: string): Promise<ReconcileResult> => {
      const service = services.getStore().getByKey(key);
      if (!service) {
        tracker.deleteService(key);
        triggerTimes.deleteService(key);
        return {};
      }
      // ExternalName Services and Services without a selector get no endpoints from this controller
      if (service.spec.type === 'ExternalName' || !service.spec.selector) return {};
      const ns = service.metadata.namespace ?? '';
      const selected = pods
        .getStore()
        .byIndex(NAMESPACE_INDEX, ns)
        .filter((p) => serviceSelects(service, p.metadata.labels));
      const existing = slices
        .getStore()
        .byIndex(NAMESPACE_INDEX, ns)
        .filter((s) => serviceKeyOf(s) === key);
      if (tracker.staleSlices(key, existing)) throw new StaleInformerCacheError();
      const triggerTime = triggerTimes.compute(key, service, selected);
      const plan = endpointSlicePlan({
        service,
        pods: selected,
        nodeOf: (name) => nodes.getStore().getByKey(name),
        existing,
        maxEndpointsPerSlice: max,
        controllerName,
        ...(triggerTime ? { triggerTime } : {}),
      });
      try {
        for (const slice of plan.create) {
          try {
            tracker.update(
              key,
              await firstValueFrom(client.create(ENDPOINT_SLICES, slice, { namespace: ns })),
            );
          } catch (e) {
            // the namespace is going away: creates keep failing, drop the Service
            if (hasStatusCause(e, 'NamespaceTerminating')) return {};
            throw new Error(
              `failed to create EndpointSlice for Service ${key}: ${e instanceof Error ? e.message : e}`,
            );
          }
        }
        for (const slice of plan.update) {
          try {
            tracker.update(
              key,
              await firstValueFrom(client.update(ENDPOINT_SLICES, slice, { namespace: ns })),
            );
          } catch (e) {
            throw new Error(
              `failed to update ${slice.metadata.name} EndpointSlice for Service ${key}: ${e instanceof Error ? e.message : e}`,
            );
          }
        }
        for (const slice of plan.delete) {
          try {
            await firstValueFrom(
              client.delete(ENDPOINT_SLICES, slice.metadata.name ?? '', { namespace: ns }),
            );
            tracker.expectDeletion(key, slice);
          } catch (e) {
            if (isNotFound(e)) continue;
            throw new Error(
              `failed to delete ${slice.metadata.name} EndpointSlice for Service ${key}: ${e instanceof Error ? e.message : e}`,
            );
          }
        }
        if (plan.skipped.length > 0) throw new Error(plan.skipped.join(', '));
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        record(
          { ...service, apiVersion: 'v1', kind: 'Service' },
          'Warning',
          'FailedToUpdateEndpointSlices',
          `Error updating Endpoint Slices for Service ${key}: ${message}`,
        );
        throw e;
      }
      return {};
    };

    const sub = cachesSynced(services, pods, nodes, slices)
      .pipe(
        switchMap(() =>
          NEVER.pipe(reconcileWith<string>(sync, { queue, workers: config.workers ?? 5, scheduler, logger })),
        ),
      )
      .subscribe(subscriber);
    return () => {
      sub.unsubscribe();
      logger.info('Shutting down endpoint slice controller');
    };
  });
}
