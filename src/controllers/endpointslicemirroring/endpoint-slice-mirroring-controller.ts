// endpointSliceMirroringController: kube-controller-manager's endpointslicemirroring controller — the Endpoints of Services without a selector mirrored to EndpointSlices.
import { asyncScheduler, firstValueFrom, NEVER, Observable, type SchedulerLike, switchMap } from 'rxjs';
import {
  type Endpoints,
  LEADER_ANNOTATION,
} from '../../../operators/controller/endpoints/endpoints-types.ts';
import { EndpointSliceTracker } from '../../../operators/controller/endpointslice/endpoint-slice-tracker.ts';
import {
  type EndpointSlice,
  LABEL_MANAGED_BY,
  LABEL_SERVICE_NAME,
  type Service,
} from '../../../operators/controller/endpointslice/endpoint-slice-types.ts';
import {
  LABEL_SKIP_MIRROR,
  MIRRORING_CONTROLLER_NAME,
  mirroringPlan,
} from '../../../operators/controller/endpointslicemirroring/mirroring-plan.ts';
import { ApiError, hasStatusCause } from '../../../operators/errors.ts';
import { NAMESPACE_INDEX } from '../../../operators/indexed-store.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type ReconcileOutcome, type ReconcileResult, reconcileWith } from '../../../operators/reconcile.ts';
import { DeletedFinalStateUnknown } from '../../../operators/types.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { ENDPOINT_SLICES, ENDPOINTS, SERVICES } from '../../../streams/resources.ts';
import { cachesSynced } from '../../informers/caches-synced.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';
import { controllerEventRecorder } from '../controller-event-recorder.ts';
import { StaleInformerCacheError } from '../endpointslice/endpoint-slice-controller.ts';

/** Settings of {@link endpointSliceMirroringController}. */
export interface EndpointSliceMirroringControllerConfig {
  client: ApiClient;
  /** The shared informer factory; the caller starts it (the controller manager does, after every init). */
  informerFactory: InformerFactory;
  /** `--mirroring-concurrent-service-endpoint-syncs`; default 5. */
  workers?: number;
  /** `--mirroring-max-endpoints-per-subset`; default 1000. */
  maxEndpointsPerSubset?: number;
  metrics?: WorkQueueMetricsProvider;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) =>
  `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
const isNotFound = (e: unknown) => e instanceof ApiError && e.statusCode === 404;
const unwrap = <T>(o: T | DeletedFinalStateUnknown): T | undefined =>
  o instanceof DeletedFinalStateUnknown ? (o.obj as T) : o;
/** Endpoints that may be mirrored: not marked skip-mirror, not a leader-election record. */
const shouldMirror = (ep: Endpoints | undefined): ep is Endpoints =>
  !!ep &&
  ep.metadata.labels?.[LABEL_SKIP_MIRROR] !== 'true' &&
  ep.metadata.annotations?.[LEADER_ANNOTATION] === undefined;

/**
 * Runs the endpointslicemirroring controller while subscribed. The Endpoints of a Service without a
 * selector (and not ExternalName), unless labelled `endpointslice.kubernetes.io/skip-mirror: "true"` or a
 * leader-election record, are mirrored to EndpointSlices managed by
 * `endpointslicemirroring-controller.k8s.io` ({@link mirroringPlan}); otherwise mirrored slices are
 * deleted. Records InvalidIPAddress and TooManyAddressesToMirror Events on the Endpoints.
 *
 * ```
 * svc (no selector): --S-------------------------
 * endpoints:         ----E{10.0.0.1}---E{}-------
 * slices:            ----[10.0.0.1]-----x--------
 * ```
 *
 * @example
 * endpointSliceMirroringController({ client, informerFactory: factory }).subscribe(); factory.start();
 *
 * Teardown: unsubscribing stops the queue, the workers and in-flight syncs (the informers belong to the factory).
 *
 * @param config the client, the shared informer factory, workers, maxEndpointsPerSubset
 * @returns the sync outcomes, one per Endpoints key synced
 */
export function endpointSliceMirroringController(
  config: EndpointSliceMirroringControllerConfig,
): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = (config.logger ?? silentLogger).child({ component: 'endpointslicemirroring-controller' });
  const { client } = config;

  return new Observable<ReconcileOutcome<string>>((subscriber) => {
    logger.info('Starting EndpointSliceMirroring controller');
    const services = config.informerFactory.forResource<Service>(SERVICES);
    const endpoints = config.informerFactory.forResource<Endpoints>(ENDPOINTS);
    const slices = config.informerFactory.forResource<EndpointSlice>(ENDPOINT_SLICES);
    const queue = workQueue<string>({
      name: 'endpoint_slice_mirroring',
      scheduler,
      ...(config.metrics ? { metrics: config.metrics } : {}),
    });
    const tracker = new EndpointSliceTracker();
    const record = controllerEventRecorder(client, 'endpointslicemirroring-controller', logger, () =>
      Date.now(),
    );
    const mirrored = (s: EndpointSlice) =>
      s.metadata.labels?.[LABEL_MANAGED_BY] === MIRRORING_CONTROLLER_NAME;
    const endpointsKeyOf = (s: EndpointSlice) => {
      const name = s.metadata.labels?.[LABEL_SERVICE_NAME];
      return name ? `${s.metadata.namespace ?? ''}/${name}` : undefined;
    };

    services.addEventHandler({
      onAdd: (s) => queue.add(keyOf(s)),
      onUpdate: (_old, s) => queue.add(keyOf(s)),
      onDelete: (o) => {
        const s = unwrap(o);
        if (s?.metadata) queue.add(keyOf(s));
      },
    });
    endpoints.addEventHandler({
      onAdd: (ep) => {
        if (shouldMirror(ep)) queue.add(keyOf(ep));
      },
      onUpdate: (old, ep) => {
        if (shouldMirror(ep) || shouldMirror(old)) queue.add(keyOf(ep));
      },
      onDelete: (o) => {
        const ep = unwrap(o);
        if (ep?.metadata) queue.add(keyOf(ep));
      },
    });
    slices.addEventHandler({
      onAdd: (s) => {
        const k = endpointsKeyOf(s);
        if (k && mirrored(s) && tracker.shouldSync(k, s)) queue.add(k);
      },
      onUpdate: (old, s) => {
        const k = endpointsKeyOf(s);
        if (!k) return;
        if (mirrored(old) !== mirrored(s) || (mirrored(s) && tracker.shouldSync(k, s))) queue.add(k);
      },
      onDelete: (o) => {
        const s = unwrap(o);
        const k = s?.metadata ? endpointsKeyOf(s) : undefined;
        if (k && s && mirrored(s) && tracker.handleDeletion(k, s)) queue.add(k);
      },
    });

    const sync = async (key: string): Promise<ReconcileResult> => {
      const [namespace] = key.split('/') as [string, string];
      const ns = { namespace };
      const existing = slices
        .getStore()
        .byIndex(NAMESPACE_INDEX, namespace)
        .filter((s) => mirrored(s) && endpointsKeyOf(s) === key);
      const ep = endpoints.getStore().getByKey(key);
      const svc = services.getStore().getByKey(key);
      if (!shouldMirror(ep) || !svc || svc.spec.type === 'ExternalName' || svc.spec.selector) {
        // nothing to mirror: mirrored slices go
        for (const s of existing) {
          await firstValueFrom(client.delete(ENDPOINT_SLICES, s.metadata.name ?? '', ns)).catch(
            (e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)),
          );
          tracker.expectDeletion(key, s);
        }
        if (!ep) tracker.deleteService(key);
        return {};
      }
      if (tracker.staleSlices(key, existing)) throw new StaleInformerCacheError();
      const plan = mirroringPlan(ep, existing, config.maxEndpointsPerSubset);
      const about = { ...ep, apiVersion: 'v1', kind: 'Endpoints' };
      if (plan.invalid > 0) {
        record(
          about,
          'Warning',
          'InvalidIPAddress',
          `Skipped ${plan.invalid} invalid IP addresses when mirroring to EndpointSlices`,
        );
      }
      if (plan.skipped > plan.invalid) {
        record(
          about,
          'Warning',
          'TooManyAddressesToMirror',
          `A max of ${config.maxEndpointsPerSubset ?? 1000} addresses can be mirrored to EndpointSlices per Endpoints subset. ${plan.skipped} addresses were skipped`,
        );
      }
      for (const s of plan.create) {
        try {
          tracker.update(key, await firstValueFrom(client.create(ENDPOINT_SLICES, s, ns)));
        } catch (e) {
          if (hasStatusCause(e, 'NamespaceTerminating')) return {};
          throw new Error(
            `failed to create EndpointSlice for Endpoints ${key}: ${e instanceof Error ? e.message : e}`,
          );
        }
      }
      for (const s of plan.update) {
        tracker.update(key, await firstValueFrom(client.update(ENDPOINT_SLICES, s, ns)));
      }
      for (const s of plan.delete) {
        await firstValueFrom(client.delete(ENDPOINT_SLICES, s.metadata.name ?? '', ns)).catch((e: unknown) =>
          isNotFound(e) ? undefined : Promise.reject(e),
        );
        tracker.expectDeletion(key, s);
      }
      return {};
    };

    const sub = cachesSynced(services, endpoints, slices)
      .pipe(
        switchMap(() =>
          NEVER.pipe(reconcileWith<string>(sync, { queue, workers: config.workers ?? 5, scheduler, logger })),
        ),
      )
      .subscribe(subscriber);
    return () => {
      sub.unsubscribe();
      logger.info('Shutting down EndpointSliceMirroring controller');
    };
  });
}
