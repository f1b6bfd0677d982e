// cronJobController: kube-controller-manager's cronjob controller (v2) — CronJob and Job informers, a work queue, syncCronJob, status writes, requeues at the next start time.
import { asyncScheduler, firstValueFrom, NEVER, Observable, type SchedulerLike, switchMap } from 'rxjs';
import { getControllerOf } from '../../../operators/controller/controller-ref.ts';
import { cleanupFinishedJobs } from '../../../operators/controller/cronjob/cleanup-finished-jobs.ts';
import type { CronJobControl } from '../../../operators/controller/cronjob/cron-job-control.ts';
import { cronJobSchedule } from '../../../operators/controller/cronjob/cron-job-schedule.ts';
import { CRON_JOB_GVK, type CronJob, timeOf } from '../../../operators/controller/cronjob/cron-job-types.ts';
import { jobsToBeReconciled } from '../../../operators/controller/cronjob/jobs-to-be-reconciled.ts';
import { nextScheduleTimeDuration } from '../../../operators/controller/cronjob/next-schedule-time.ts';
import { syncCronJob } from '../../../operators/controller/cronjob/sync-cron-job.ts';
import type { Job } from '../../../operators/controller/job/job-types.ts';
import { NAMESPACE_INDEX } from '../../../operators/indexed-store.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type ReconcileOutcome, type ReconcileResult, reconcileWith } from '../../../operators/reconcile.ts';
import { DeletedFinalStateUnknown, type OwnerReference } from '../../../operators/types.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { CRON_JOBS, JOBS } from '../../../streams/resources.ts';
import { cachesSynced } from '../../informers/caches-synced.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';
import { controllerEventRecorder } from '../controller-event-recorder.ts';
import { cronJobMetrics } from './cron-job-metrics.ts';

/** The controller's name in `--controllers`, and its Events' source. */
export const CRON_JOB_CONTROLLER_NAME = 'cronjob-controller';

/** Settings of {@link cronJobController}. */
export interface CronJobControllerConfig {
  client: ApiClient;
  /** The shared informer factory; the caller starts it (the controller manager does, after every init). */
  informerFactory: InformerFactory;
  /** `--concurrent-cron-job-syncs`; default 5. */
  workers?: number;
  metrics?: WorkQueueMetricsProvider;
  /** Where `cronjob_controller_job_creation_skew_duration_seconds` goes, if served. */
  metricsRegistry?: import('prom-client').Registry;
  /** The zone of schedules without spec.timeZone (upstream: the controller manager's); default the host's. */
  localTimeZone?: string;
  /** Time: `now()` is the clock schedules are read against; requeues are timers on it. */
  scheduler?: SchedulerLike;
  logger?: Logger;
}

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) =>
  `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

/**
 * Runs the cronjob controller while subscribed. CronJob adds and deletes queue it now; a change of
 * schedule or time zone queues it at the new next start time, any other change now; Job events queue
 * the CronJob their controllerRef names. A sync deletes finished Jobs beyond the history limits, runs
 * {@link syncCronJob} (the active list, the schedule, the concurrency policy, the Job), writes the status
 * when it changed, and asks to be queued again at the next start time + 100 ms through the scheduler.
 *
 * ```
 * cj:    --C("*\/5 * * * *", created 00:01)----------------------------------
 * jobs:  ----------------------create cj-1(00:05)--------create cj-2(00:10)--
 * queue: --k---------------------k(00:05.1)----------------k(00:10.1)-------
 * ```
 *
 * @example
 * cronJobController({ client, informerFactory: factory }).subscribe(); factory.start();
 *
 * Teardown: unsubscribing stops the queue (its delayed adds too), the workers and in-flight syncs.
 *
 * @param config the client, the shared informer factory, workers, metrics, the scheduler
 * @returns the sync outcomes, one per key synced
 */
export function cronJobController(config: CronJobControllerConfig): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = (config.logger ?? silentLogger).child({ component: CRON_JOB_CONTROLLER_NAME });
  const { client, localTimeZone } = config;
  const now = () => scheduler.now();
  const observeSkew = cronJobMetrics(config.metricsRegistry);

  return new Observable<ReconcileOutcome<string>>((subscriber) => {
    logger.info({ controller: CRON_JOB_CONTROLLER_NAME }, 'Starting controller');
    const cronJobs = config.informerFactory.forResource<CronJob>(CRON_JOBS);
    const jobs = config.informerFactory.forResource<Job>(JOBS);
    const queue = workQueue<string>({
      name: 'cronjob',
      scheduler,
      ...(config.metrics ? { metrics: config.metrics } : {}),
    });
    const record = controllerEventRecorder(client, CRON_JOB_CONTROLLER_NAME, logger, now);
    const recordAbout = (cj: CronJob) => (type: 'Normal' | 'Warning', reason: string, message: string) =>
      record({ ...cj, apiVersion: CRON_JOB_GVK.apiVersion, kind: CRON_JOB_GVK.kind }, type, reason, message);

    /** The cached CronJob a controllerRef names (kind, then name, then uid must match). */
    const ownerKey = (namespace: string | undefined, ref: OwnerReference | undefined): string | undefined => {
      if (!ref || ref.kind !== CRON_JOB_GVK.kind) return undefined;
      const key = `${namespace ?? ''}/${ref.name}`;
      return cronJobs.getStore().getByKey(key)?.metadata.uid === ref.uid ? key : undefined;
    };
    const enqueueOwner = (job: Job) => {
      const key = ownerKey(job.metadata.namespace, getControllerOf(job));
      if (key) queue.add(key);
    };
    const jobOf = (o: Job | DeletedFinalStateUnknown): Job | undefined =>
      o instanceof DeletedFinalStateUnknown ? (o.obj as Job | undefined) : o;

    cronJobs.addEventHandler({
      onAdd: (cj) => queue.add(keyOf(cj)),
      onUpdate: (old, cj) => {
        if (
          old.spec.schedule === cj.spec.schedule &&
          (old.spec.timeZone ?? null) === (cj.spec.timeZone ?? null)
        ) {
          queue.add(keyOf(cj));
          return;
        }
        // a new schedule: look again at its next start time (sooner than the queued one, if it is)
        const parsed = cronJobSchedule(cj, localTimeZone);
        if (!parsed.ok) {
          logger.info(
            { cronjob: keyOf(cj), schedule: cj.spec.schedule, err: parsed.error },
            'Unparseable schedule for cronjob',
          );
          recordAbout(cj)(
            'Warning',
            'UnParseableCronJobSchedule',
            `unparseable schedule for cronjob: ${cj.spec.schedule}`,
          );
          return;
        }
        const ms = nextScheduleTimeDuration(cj, now(), parsed.schedule);
        if (ms !== undefined) queue.addAfter(keyOf(cj), Math.max(0, ms));
      },
      onDelete: (o) => {
        const cj = o instanceof DeletedFinalStateUnknown ? (o.obj as CronJob | undefined) : o;
        if (cj?.metadata) queue.add(keyOf(cj));
      },
    });
    jobs.addEventHandler({
      onAdd: (job) => enqueueOwner(job),
      onUpdate: (old, job) => {
        if (old.metadata.resourceVersion === job.metadata.resourceVersion) return;
        const oldRef = getControllerOf(old);
        const ref = getControllerOf(job);
        if (oldRef && JSON.stringify(oldRef) !== JSON.stringify(ref)) enqueueOwner(old);
        if (ref) enqueueOwner(job);
      },
      onDelete: (o) => {
        const job = jobOf(o);
        if (job?.metadata) enqueueOwner(job);
      },
    });

    const controlFor = (cj: CronJob): CronJobControl => ({
      getCronJob: (namespace, name) => firstValueFrom(client.get<CronJob>(CRON_JOBS, name, { namespace })),
      getJob: (namespace, name) => firstValueFrom(client.get<Job>(JOBS, name, { namespace })),
      createJob: (namespace, job) => firstValueFrom(client.create<Job>(JOBS, job, { namespace })),
      deleteJob: async (namespace, name) => {
        await firstValueFrom(client.delete(JOBS, name, { namespace, propagationPolicy: 'Background' }));
      },
      record: recordAbout(cj),
    });

    const sync = async (key: string): Promise<ReconcileResult> => {
      const cached = cronJobs.getStore().getByKey(key);
      if (!cached) return {};
      const namespace = cached.metadata.namespace ?? '';
      const owned = jobsToBeReconciled(cached, jobs.getStore().byIndex(NAMESPACE_INDEX, namespace));
      const copy = structuredClone(cached);
      const control = controlFor(cached);
      const cleaned = await cleanupFinishedJobs(control, copy, owned);
      const result = await syncCronJob({ cronJob: copy, jobs: owned, now: now(), localTimeZone }, control);
      if (result.error !== undefined) {
        logger.info({ cronjob: key, err: String(result.error) }, 'Error reconciling cronjob');
      }
      if (result.created) {
        const createdAt = timeOf(result.created.job.metadata.creationTimestamp) ?? now();
        observeSkew((createdAt - result.created.scheduledTime) / 1000);
      }
      if (cleaned || result.updateStatus) {
        await firstValueFrom(client.updateStatus<CronJob>(CRON_JOBS, result.cronJob, { namespace }));
      }
      if (result.requeueAfterMs !== undefined) return { requeueAfter: Math.max(1, result.requeueAfterMs) };
      if (result.error !== undefined) throw result.error;
      return {};
    };

    // workers start once both caches have synced (upstream's WaitForNamedCacheSync)
    const sub = cachesSynced(cronJobs, jobs)
      .pipe(
        switchMap(() =>
          NEVER.pipe(reconcileWith<string>(sync, { queue, workers: config.workers ?? 5, scheduler, logger })),
        ),
      )
      .subscribe(subscriber);
    return () => {
      sub.unsubscribe();
      logger.info({ controller: CRON_JOB_CONTROLLER_NAME }, 'Shutting down controller');
    };
  });
}
