// ttlAfterFinishedController: kube-controller-manager's ttl-after-finished controller — deletes finished Jobs once their ttlSecondsAfterFinished has passed.
import { asyncScheduler, firstValueFrom, NEVER, Observable, type SchedulerLike, switchMap } from 'rxjs';
import { jobTTLState } from '../../../operators/controller/job/job-ttl.ts';
import type { Job } from '../../../operators/controller/job/job-types.ts';
import { ApiError } from '../../../operators/errors.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type ReconcileOutcome, type ReconcileResult, reconcileWith } from '../../../operators/reconcile.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { JOBS } from '../../../streams/resources.ts';
import { cachesSynced } from '../../informers/caches-synced.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';

/** The controller's name in `--controllers`. */
export const TTL_AFTER_FINISHED_CONTROLLER_NAME = 'ttl-after-finished-controller';

/** Settings of {@link ttlAfterFinishedController}. */
export interface TTLAfterFinishedControllerConfig {
  client: ApiClient;
  /** The shared informer factory; the caller starts it. */
  informerFactory: InformerFactory;
  /** `--concurrent-ttl-after-finished-syncs`; default 5. */
  workers?: number;
  metrics?: WorkQueueMetricsProvider;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

const keyOf = (j: Job) => `${j.metadata.namespace ?? ''}/${j.metadata.name ?? ''}`;
const isNotFound = (e: unknown) => e instanceof ApiError && e.statusCode === 404;

/**
 * Runs the ttl-after-finished controller while subscribed. Finished jobs with a TTL are queued (added
 * and updated ones); a sync waits out the time left ({@link jobTTLState}), re-reads the job from the
 * API server (the cache may be stale: the TTL may have been changed), and deletes it with foreground
 * propagation and a uid precondition, so its pods go first and a new job of the same name is safe.
 *
 * ```
 * job:    --J(Complete at t, ttl 10 s)------------------
 * delete: -----------------------D(t+10 s, Foreground)--
 * ```
 *
 * @example
 * ttlAfterFinishedController({ client, informerFactory: factory }).subscribe(); factory.start();
 *
 * Teardown: unsubscribing stops the queue (its delayed adds too) and in-flight syncs.
 *
 * @param config the client, the shared informer factory and workers
 * @returns the sync outcomes, one per job key synced
 */
export function ttlAfterFinishedController(
  config: TTLAfterFinishedControllerConfig,
): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = (config.logger ?? silentLogger).child({ component: TTL_AFTER_FINISHED_CONTROLLER_NAME });
  const { client } = config;
  return new Observable<ReconcileOutcome<string>>((subscriber) => {
    logger.info('Starting TTL after finished controller');
    const jobs = config.informerFactory.forResource<Job>(JOBS);
    const queue = workQueue<string>({
      name: 'ttl_jobs_to_delete',
      scheduler,
      ...(config.metrics ? { metrics: config.metrics } : {}),
    });
    const enqueue = (job: Job) => {
      if (jobTTLState(job, scheduler.now()).type !== 'keep') queue.add(keyOf(job));
    };
    jobs.addEventHandler({ onAdd: enqueue, onUpdate: (_old, job) => enqueue(job) });

    const sync = async (key: string): Promise<ReconcileResult> => {
      const cached = jobs.getStore().getByKey(key);
      if (!cached) return {};
      const state = jobTTLState(cached, scheduler.now());
      if (state.type === 'wait') return { requeueAfter: state.ms };
      if (state.type === 'invalid') {
        logger.warn({ job: key, field: state.field }, state.message);
        return {};
      }
      if (state.type !== 'expired') return {};
      // the cached TTL may be stale: check the live job before deleting it
      const namespace = cached.metadata.namespace ?? '';
      const name = cached.metadata.name ?? '';
      const live = await firstValueFrom(client.get<Job>(JOBS, name, { namespace })).catch((e: unknown) =>
        isNotFound(e) ? undefined : Promise.reject(e),
      );
      if (!live) return {};
      const fresh = jobTTLState(live, scheduler.now());
      if (fresh.type === 'wait') return { requeueAfter: fresh.ms };
      if (fresh.type !== 'expired') return {};
      logger.info({ job: key }, 'Cleaning up Job');
      await firstValueFrom(
        client.delete(JOBS, name, {
          namespace,
          propagationPolicy: 'Foreground',
          preconditions: { uid: live.metadata.uid ?? '' },
        }),
      ).catch((e: unknown) =>
        isNotFound(e) || (e instanceof ApiError && e.statusCode === 409) ? undefined : Promise.reject(e),
      );
      return {};
    };

    // workers start once the job cache has synced (upstream's WaitForNamedCacheSync)
    const sub = cachesSynced(jobs)
      .pipe(
        switchMap(() =>
          NEVER.pipe(reconcileWith<string>(sync, { queue, workers: config.workers ?? 5, scheduler, logger })),
        ),
      )
      .subscribe(subscriber);
    return () => {
      sub.unsubscribe();
      logger.info('Shutting down TTL after finished controller');
    };
  });
}
