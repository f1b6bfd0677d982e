// rootCACertPublisher: kube-controller-manager's root-ca-cert-publisher — a kube-root-ca.crt ConfigMap with the cluster CA in every namespace.
import { asyncScheduler, first, firstValueFrom, NEVER, Observable, type SchedulerLike } from 'rxjs';
import { ApiError, hasStatusCause } from '../../../operators/errors.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type ReconcileOutcome, type ReconcileResult, reconcileWith } from '../../../operators/reconcile.ts';
import { DeletedFinalStateUnknown, type KubeObject } from '../../../operators/types.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { CONFIG_MAPS, NAMESPACES } from '../../../streams/resources.ts';
import { informerFactory } from '../../informers/informer-factory.ts';
import { type ConfigMap, ROOT_CA_CONFIG_MAP_NAME, rootCAConfigMapAction } from './root-ca-config-map.ts';

/** The controller's name in kube-controller-manager's `--controllers`. */
export const ROOT_CA_CERT_PUBLISHER_CONTROLLER_NAME = 'root-ca-certificate-publisher-controller';
/** The work queue's name, as upstream's metrics label it. */
const QUEUE_NAME = 'root_ca_cert_publisher';

/** Settings of {@link rootCACertPublisher}. */
export interface RootCACertPublisherConfig {
  client: ApiClient;
  /** The CA bundle (PEM) that verifies the API server: `--root-ca-file`'s contents. */
  rootCA: string;
  /** Concurrent syncs (upstream starts one worker); default 1. */
  workers?: number;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/** NamespaceTerminatingCause: the API server refuses creates in a namespace being deleted. */
const namespaceTerminating = (error: unknown): boolean => hasStatusCause(error, 'NamespaceTerminating');

/**
 * Runs the root CA certificate publisher while subscribed. Namespaces added or updated (while
 * Active), and `kube-root-ca.crt` ConfigMaps updated or deleted, queue their namespace; the sync
 * ({@link rootCAConfigMapAction}) creates the ConfigMap or puts back `ca.crt` and the description.
 * A create into a namespace that is gone or terminating is not retried; other failures are retried
 * with the work queue's rate limiter.
 *
 * ```
 * namespaces:  --a------b----
 * configmaps:  -----(a deleted)--
 * writes:      --C(a)-C(a)-C(b)--      (C: create kube-root-ca.crt)
 * ```
 *
 * @example
 * rootCACertPublisher({ client, rootCA: readFileSync('ca.crt', 'utf8') }).subscribe();
 *
 * Teardown: unsubscribing stops both informers (ConfigMaps named kube-root-ca.crt, Namespaces), the
 * queue and in-flight syncs.
 *
 * @param config the client, the CA bundle and the worker count
 * @returns the sync outcomes, one per namespace synced
 */
export function rootCACertPublisher(config: RootCACertPublisherConfig): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = (config.logger ?? silentLogger).child({ component: ROOT_CA_CERT_PUBLISHER_CONTROLLER_NAME });
  const { client, rootCA } = config;

  return new Observable<ReconcileOutcome<string>>((subscriber) => {
    logger.info('Starting root CA cert publisher controller');
    // only the one name matters, so only that name is listed and watched
    const cmFactory = informerFactory({
      client,
      scheduler,
      logger,
      tweakListOptions: (o) => {
        o.fieldSelector = `metadata.name=${ROOT_CA_CONFIG_MAP_NAME}`;
      },
    });
    const nsFactory = informerFactory({ client, scheduler, logger });
    const configMaps = cmFactory.forResource<ConfigMap>(CONFIG_MAPS);
    const namespaces = nsFactory.forResource<KubeObject & { status?: { phase?: string } }>(NAMESPACES);
    const queue = workQueue<string>({ name: QUEUE_NAME, scheduler });

    const enqueueConfigMap = (cm: ConfigMap | DeletedFinalStateUnknown<ConfigMap>) => {
      const object = cm instanceof DeletedFinalStateUnknown ? cm.obj : cm;
      if (object?.metadata?.name !== ROOT_CA_CONFIG_MAP_NAME || !object.metadata.namespace) return;
      queue.add(object.metadata.namespace);
    };
    configMaps.addEventHandler({
      onUpdate: (_old, cm) => enqueueConfigMap(cm),
      onDelete: enqueueConfigMap,
    });
    namespaces.addEventHandler({
      onAdd: (ns) => queue.add(ns.metadata?.name ?? ''),
      onUpdate: (_old, ns) => {
        // upstream: only an Active namespace is synced again on update
        if (ns.status?.phase !== undefined && ns.status.phase !== 'Active') return;
        queue.add(ns.metadata?.name ?? '');
      },
    });

    const syncNamespace = async (namespace: string): Promise<ReconcileResult> => {
      if (!namespace) return {};
      const current = configMaps.getStore().getByKey(`${namespace}/${ROOT_CA_CONFIG_MAP_NAME}`);
      const action = rootCAConfigMapAction(namespace, current, rootCA);
      if (action.type === 'create') {
        try {
          await firstValueFrom(client.create(CONFIG_MAPS, action.configMap, { namespace }));
        } catch (error) {
          // don't retry a create if the namespace doesn't exist or is terminating
          if (error instanceof ApiError && (error.statusCode === 404 || namespaceTerminating(error)))
            return {};
          // the informer had not seen it yet: look again once it has
          if (error instanceof ApiError && error.statusCode === 409) return { requeue: true };
          throw error;
        }
      } else if (action.type === 'update') {
        await firstValueFrom(client.update(CONFIG_MAPS, action.configMap, { namespace }));
      }
      return {};
    };

    const sub = NEVER.pipe(
      reconcileWith<string>(syncNamespace, { queue, workers: config.workers ?? 1, scheduler, logger }),
    ).subscribe(subscriber);
    cmFactory.start();
    // as upstream waits for the ConfigMap cache, namespaces are only queued once it has synced
    const started = configMaps.hasSynced$.pipe(first((synced) => synced)).subscribe(() => nsFactory.start());
    return () => {
      started.unsubscribe();
      sub.unsubscribe();
      cmFactory.shutdown();
      nsFactory.shutdown();
      logger.info('Shutting down root CA cert publisher controller');
    };
  });
}
