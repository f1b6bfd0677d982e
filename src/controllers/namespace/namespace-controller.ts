// namespaceController: kube-controller-manager's namespace controller — a deleted namespace loses its content, then its `kubernetes` finalizer.
import { asyncScheduler, first, NEVER, type Observable, type SchedulerLike, switchMap } from 'rxjs';
import type { Namespace } from '../../../operators/controller/namespace/namespace-types.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import {
  bucketRateLimiter,
  itemExponentialRateLimiter,
  maxOfRateLimiter,
} from '../../../operators/rate-limiter.ts';
import { type ReconcileOutcome, type ReconcileResult, reconcileWith } from '../../../operators/reconcile.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { NAMESPACES } from '../../../streams/resources.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';
import { namespacedResourcesDeleter } from './namespaced-resources-deleter.ts';

/** The controller's name in `--controllers`. */
export const NAMESPACE_CONTROLLER_NAME = 'namespace-controller';
/** `--concurrent-namespace-syncs`' default. */
export const DEFAULT_CONCURRENT_NAMESPACE_SYNCS = 10;
/** `--namespace-sync-period`'s default: 5 minutes. */
export const DEFAULT_NAMESPACE_SYNC_PERIOD_MS = 5 * 60_000;
/**
 * How long a namespace event waits before it is processed (upstream's namespaceDeletionGracePeriod), so
 * every API server has seen the deletion and refuses new content before the controller empties it.
 */
export const NAMESPACE_DELETION_GRACE_PERIOD_MS = 5_000;

/** Settings of {@link namespaceController}. */
export interface NamespaceControllerConfig {
  client: ApiClient;
  /** The shared factory; the controller manager starts it. */
  informerFactory: InformerFactory;
  /** Concurrent syncs; default 10. */
  workers?: number;
  /** Resync of the namespace handler (`--namespace-sync-period`); default 5 minutes. */
  resyncPeriodMs?: number;
  /** Delay before a namespace event is processed; default 5 s (tests shorten it). */
  deletionGracePeriodMs?: number;
  metrics?: WorkQueueMetricsProvider;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/**
 * Runs the namespace controller while subscribed. Every namespace added, updated or resynced with a
 * deletionTimestamp is queued after {@link NAMESPACE_DELETION_GRACE_PERIOD_MS}; a worker runs one pass of
 * {@link namespacedResourcesDeleter}: content still going is looked at again after half its estimate
 * plus a second, a failure after the queue's backoff (5 ms doubling to 60 s, and 10 qps overall).
 *
 * ```
 * namespaces:  --a(deleted)-----------------------
 * syncs:       ------(5 s)--pass: remaining 30 s--(16 s)--pass: finalize--
 * ```
 *
 * Teardown: unsubscribing stops the queue and the passes in flight; the factory is the manager's.
 * @param config the client, the shared factory, workers and periods
 * @returns one outcome per namespace pass
 */
export function namespaceController(config: NamespaceControllerConfig): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = config.logger ?? silentLogger;
  const graceMs = config.deletionGracePeriodMs ?? NAMESPACE_DELETION_GRACE_PERIOD_MS;
  const namespaces = config.informerFactory.forResource<Namespace>(NAMESPACES);
  const queue = workQueue<string>({
    name: 'namespace',
    scheduler,
    // retried at least every minute; the bucket only bounds the overall retry rate
    rateLimiter: maxOfRateLimiter(
      itemExponentialRateLimiter<string>(5, 60_000),
      bucketRateLimiter<string>({ qps: 10, burst: 100, scheduler }),
    ),
    ...(config.metrics ? { metrics: config.metrics } : {}),
  });
  const enqueue = (ns: Namespace) => {
    if (!ns.metadata?.deletionTimestamp || !ns.metadata.name) return;
    queue.addAfter(ns.metadata.name, graceMs);
  };
  namespaces.addEventHandler(
    { onAdd: enqueue, onUpdate: (_old, ns) => enqueue(ns) },
    { resyncPeriodMs: config.resyncPeriodMs ?? DEFAULT_NAMESPACE_SYNC_PERIOD_MS },
  );
  const deleter = namespacedResourcesDeleter({
    client: config.client,
    now: () => scheduler.now(),
    logger,
  });

  const sync = async (key: string): Promise<ReconcileResult> => {
    if (!namespaces.getStore().getByKey(key)) {
      logger.info({ namespace: key }, 'Namespace has been deleted');
      return {};
    }
    const outcome = await deleter(key);
    if (outcome.type !== 'remaining') return {};
    const waitSeconds = Math.floor(outcome.estimateSeconds / 2) + 1;
    logger.debug({ namespace: key, waitSeconds }, 'Content remaining in namespace');
    return { requeueAfter: waitSeconds * 1000 };
  };

  logger.info({ controller: NAMESPACE_CONTROLLER_NAME }, 'Starting controller');
  return namespaces.hasSynced$.pipe(
    first((synced) => synced),
    switchMap(() =>
      NEVER.pipe(
        reconcileWith<string>(sync, {
          queue,
          workers: config.workers ?? DEFAULT_CONCURRENT_NAMESPACE_SYNCS,
          scheduler,
          logger,
        }),
      ),
    ),
  );
}
