// jobController: kube-controller-manager's job controller — Job and Pod informers, a work queue, and the sync of operators/controller/job.
import type { Registry } from 'prom-client';
import { asyncScheduler, firstValueFrom, NEVER, Observable, type SchedulerLike, switchMap } from 'rxjs';
import type { Pod } from '../../../operators/api/core-v1.ts';
import { UIDTrackingControllerExpectations } from '../../../operators/controller/controller-expectations.ts';
import {
  adoptPatch,
  claimAction,
  getControllerOf,
  releasePatch,
} from '../../../operators/controller/controller-ref.ts';
import type { JobBackoffRecord } from '../../../operators/controller/job/job-backoff.ts';
import { JOB_GVK } from '../../../operators/controller/job/job-pod.ts';
import { type JobEvent, planJobSync } from '../../../operators/controller/job/job-sync.ts';
import {
  hasTrackingFinalizer,
  JOB_CONTROLLER_UID_LABEL,
  JOB_TRACKING_FINALIZER,
  type Job,
  type JobFeatures,
  type JobStatus,
} from '../../../operators/controller/job/job-types.ts';
import { isPodReady } from '../../../operators/controller/pod-deletion-order.ts';
import { slowStartBatch } from '../../../operators/controller/slow-start-batch.ts';
import { ApiError } from '../../../operators/errors.ts';
import { NAMESPACE_INDEX } from '../../../operators/indexed-store.ts';
import { labelSelectorFromObject } from '../../../operators/label-selector.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type ReconcileOutcome, type ReconcileResult, reconcileWith } from '../../../operators/reconcile.ts';
import { DeletedFinalStateUnknown } from '../../../operators/types.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { JOBS, PODS } from '../../../streams/resources.ts';
import { cachesSynced } from '../../informers/caches-synced.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';
import { controllerEventRecorder } from '../controller-event-recorder.ts';
import { jobMetrics } from './job-metrics.ts';

/** The controller's name in `--controllers`, and the Events' source component. */
export const JOB_CONTROLLER_NAME = 'job-controller';
/** Pod events and status-only job updates wait this long, so a burst becomes one sync (upstream's syncJobBatchPeriod). */
export const SYNC_JOB_BATCH_PERIOD_MS = 1000;
const ORPHAN_PREFIX = 'orphan-pod:';

/** Settings of {@link jobController}. */
export interface JobControllerConfig {
  client: ApiClient;
  /** The shared informer factory; the caller starts it (the controller manager does, after every init). */
  informerFactory: InformerFactory;
  /** `--concurrent-job-syncs`; default 5. */
  workers?: number;
  metrics?: WorkQueueMetricsProvider;
  /** Where the job controller's own metrics go (`job_controller_job_syncs_total`, ...), if served. */
  metricsRegistry?: Registry;
  features?: Partial<JobFeatures>;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) =>
  `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

const isNotFound = (e: unknown) => e instanceof ApiError && e.statusCode === 404;

/** The job's selector; a job the API server did not default gets its controller-uid label. */
function selectorOf(job: Job) {
  return labelSelectorFromObject(
    job.spec.selector ?? { matchLabels: { [JOB_CONTROLLER_UID_LABEL]: job.metadata.uid ?? '' } },
  );
}

/** Upstream's finalizer removal patch: the tracking finalizer out of the list, guarded by the pod's uid. */
const removeFinalizerPatch = (pod: Pod) => ({
  metadata: { [`$deleteFromPrimitiveList/finalizers`]: [JOB_TRACKING_FINALIZER], uid: pod.metadata.uid },
});

/**
 * Runs the job controller while subscribed. Job adds, deletes and spec changes queue the job at once;
 * pod events and status-only updates queue it after {@link SYNC_JOB_BATCH_PERIOD_MS}. A sync claims the
 * job's pods (adoption adds the `batch.kubernetes.io/job-tracking` finalizer), asks
 * {@link planJobSync} what to do, then deletes (DELETE, or finalizer removal then DELETE), creates in
 * slow-start batches with a controller reference, writes the status (uncounted pods first), removes the
 * finalizers of counted pods, writes the final status, and records upstream's Events. Pods whose job is
 * gone lose their finalizer (the orphan clean-up).
 *
 * ```
 * job:   --J(completions 2)-------------------------------
 * pods:  ----create p1,p2----p1 Succeeded--p2 Succeeded----
 * job':  --------------------succeeded 1---Complete--------
 * ```
 *
 * @example
 * jobController({ client, informerFactory: factory, workers: 5 }).subscribe(); factory.start();
 *
 * Teardown: unsubscribing stops the queue, the workers and in-flight syncs (the shared informers belong
 * to the factory).
 *
 * @param config the client, the shared informer factory, workers, metrics and feature gates
 * @returns the sync outcomes, one per key synced
 */
export function jobController(config: JobControllerConfig): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = (config.logger ?? silentLogger).child({ component: JOB_CONTROLLER_NAME });
  const { client } = config;
  const now = () => scheduler.now();

  return new Observable<ReconcileOutcome<string>>((subscriber) => {
    logger.info('Starting job controller');
    const jobs = config.informerFactory.forResource<Job>(JOBS);
    const pods = config.informerFactory.forResource<Pod>(PODS);
    const queue = workQueue<string>({
      name: 'job',
      scheduler,
      ...(config.metrics ? { metrics: config.metrics } : {}),
    });
    const expectations = new UIDTrackingControllerExpectations(now);
    const finalizerExpectations = new Map<string, Set<string>>();
    const backoffs = new Map<string, JobBackoffRecord>();
    const metrics = jobMetrics(config.metricsRegistry);
    const record = controllerEventRecorder(client, JOB_CONTROLLER_NAME, logger, () => Date.now());

    const jobOfPod = (pod: Pod): string | undefined => {
      const ref = getControllerOf(pod);
      if (ref?.kind !== 'Job') return undefined;
      const key = `${pod.metadata.namespace}/${ref.name}`;
      const job = jobs.getStore().getByKey(key);
      return job && job.metadata.uid === ref.uid ? key : undefined;
    };
    const observeFinalizerRemoved = (pod: Pod) => {
      for (const [key, uids] of finalizerExpectations)
        if (uids.delete(pod.metadata.uid ?? '') && uids.size === 0) finalizerExpectations.delete(key);
    };
    const enqueuePodChange = (pod: Pod) => {
      const key = jobOfPod(pod);
      if (key) return queue.addAfter(key, SYNC_JOB_BATCH_PERIOD_MS);
      if (getControllerOf(pod)) {
        // its job is gone: the orphan's finalizer comes off
        if (hasTrackingFinalizer(pod)) queue.add(`${ORPHAN_PREFIX}${keyOf(pod)}`);
        return;
      }
      // an orphan: the jobs whose selector matches may adopt it
      for (const job of jobs.getStore().list()) {
        if (job.metadata.namespace === pod.metadata.namespace && selectorOf(job).matches(pod.metadata.labels))
          queue.addAfter(keyOf(job), SYNC_JOB_BATCH_PERIOD_MS);
      }
    };

    jobs.addEventHandler({
      onAdd: (job) => queue.add(keyOf(job)),
      onUpdate: (old, job) => {
        if (old.metadata.generation !== job.metadata.generation) queue.add(keyOf(job));
        else queue.addAfter(keyOf(job), SYNC_JOB_BATCH_PERIOD_MS);
      },
      onDelete: (j) => queue.add(keyOf(j instanceof DeletedFinalStateUnknown ? (j.obj as Job) : j)),
    });
    pods.addEventHandler({
      onAdd: (pod) => {
        const key = jobOfPod(pod);
        if (key) {
          if (pod.metadata.deletionTimestamp) expectations.deletionObservedOf(key, keyOf(pod));
          else expectations.creationObserved(key);
        }
        enqueuePodChange(pod);
      },
      onUpdate: (old, pod) => {
        if (hasTrackingFinalizer(old) && !hasTrackingFinalizer(pod)) observeFinalizerRemoved(pod);
        const key = jobOfPod(pod);
        if (key && pod.metadata.deletionTimestamp) expectations.deletionObservedOf(key, keyOf(pod));
        const oldKey = jobOfPod(old);
        if (oldKey && oldKey !== key) queue.addAfter(oldKey, SYNC_JOB_BATCH_PERIOD_MS);
        enqueuePodChange(pod);
      },
      onDelete: (p) => {
        const pod = p instanceof DeletedFinalStateUnknown ? (p.obj as Pod) : p;
        if (!pod?.metadata) return;
        observeFinalizerRemoved(pod);
        const key = jobOfPod(pod);
        if (key) {
          expectations.deletionObservedOf(key, keyOf(pod));
          queue.addAfter(key, SYNC_JOB_BATCH_PERIOD_MS);
        }
      },
    });

    const cleanOrphan = async (podKey: string): Promise<ReconcileResult> => {
      const pod = pods.getStore().getByKey(podKey);
      if (!pod || !hasTrackingFinalizer(pod) || jobOfPod(pod)) return {};
      const ref = getControllerOf(pod);
      if (ref) {
        // the informer may lag: only a job that is really gone (or replaced) releases its pods
        const live = await firstValueFrom(
          client.get<Job>(JOBS, ref.name, { namespace: pod.metadata.namespace ?? '' }),
        ).catch((e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)));
        if (live && live.metadata.uid === ref.uid) return {};
      }
      await firstValueFrom(
        client.patch(PODS, pod.metadata.name ?? '', removeFinalizerPatch(pod), 'strategic', {
          namespace: pod.metadata.namespace ?? '',
        }),
      ).catch((e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)));
      return {};
    };

    /** The job's pods: kept and adopted ones (adoption adds the tracking finalizer); released ones left out. */
    const claimPods = async (job: Job): Promise<Pod[]> => {
      const selector = selectorOf(job);
      const out: Pod[] = [];
      let confirmed: boolean | undefined;
      for (const pod of pods.getStore().byIndex(NAMESPACE_INDEX, job.metadata.namespace ?? '')) {
        const action = claimAction(job, pod, selector.matches(pod.metadata.labels));
        if (action === 'keep') out.push(pod);
        if (action === 'ignore' || action === 'keep') continue;
        if (confirmed === undefined) {
          const live = await firstValueFrom(
            client.get<Job>(JOBS, job.metadata.name ?? '', { namespace: job.metadata.namespace ?? '' }),
          ).catch(() => undefined);
          confirmed =
            live !== undefined && live.metadata.uid === job.metadata.uid && !live.metadata.deletionTimestamp;
        }
        if (!confirmed) continue;
        const ns = { namespace: pod.metadata.namespace ?? '' };
        try {
          if (action === 'adopt') {
            const finalizers = [...new Set([...(pod.metadata.finalizers ?? []), JOB_TRACKING_FINALIZER])];
            out.push(
              await firstValueFrom(
                client.patch<Pod>(
                  PODS,
                  pod.metadata.name ?? '',
                  adoptPatch(job, JOB_GVK, pod, { finalizers }),
                  'strategic',
                  ns,
                ),
              ),
            );
          } else
            await firstValueFrom(
              client.patch(PODS, pod.metadata.name ?? '', releasePatch(job, pod), 'strategic', ns),
            );
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
      }
      return out;
    };

    const writeStatus = async (job: Job, status: JobStatus): Promise<Job> =>
      firstValueFrom(
        client.updateStatus<Job>(JOBS, { ...job, status }, { namespace: job.metadata.namespace ?? '' }),
      );

    /** What a sync did, for job_controller_job_syncs_total and job_sync_duration_seconds. */
    interface SyncInfo {
      synced: boolean;
      mode: string;
      action: string;
    }

    const syncJob = async (key: string): Promise<ReconcileResult> => {
      if (key.startsWith(ORPHAN_PREFIX)) return cleanOrphan(key.slice(ORPHAN_PREFIX.length));
      const started = scheduler.now();
      const info: SyncInfo = { synced: false, mode: 'NonIndexed', action: 'tracking' };
      const observe = (result: 'success' | 'error') => {
        if (info.synced) metrics.sync(info.mode, result, info.action, (scheduler.now() - started) / 1000);
      };
      try {
        const result = await syncOneJob(key, info);
        observe('success');
        return result;
      } catch (error) {
        observe('error');
        throw error;
      }
    };

    const syncOneJob = async (key: string, info: SyncInfo): Promise<ReconcileResult> => {
      const job = jobs.getStore().getByKey(key);
      if (!job) {
        expectations.deleteExpectations(key);
        finalizerExpectations.delete(key);
        backoffs.delete(key);
        return {};
      }
      const satisfiedExpectations = expectations.satisfiedExpectations(key);
      const jobPods = await claimPods(job);
      const backoff = backoffs.get(key);
      const plan = planJobSync({
        job,
        pods: jobPods,
        satisfiedExpectations,
        expectedRemovedFinalizers: finalizerExpectations.get(key) ?? new Set(),
        now: now(),
        ...(backoff ? { backoff } : {}),
        ...(config.features ? { features: config.features } : {}),
      });
      const emit = (events: readonly JobEvent[]) => {
        for (const e of events) record(job, e.type, e.reason, e.message);
      };
      emit(plan.events);
      if (plan.skip) {
        if (plan.skip === 'finished') backoffs.delete(key);
        return {};
      }
      info.synced = true;
      info.mode = job.spec.completionMode ?? 'NonIndexed';
      info.action = !satisfiedExpectations
        ? 'reconciling'
        : plan.createPods.length > 0
          ? 'pods_created'
          : plan.deletePods.length > 0
            ? 'pods_deleted'
            : 'tracking';
      const ns = { namespace: job.metadata.namespace ?? '' };
      let actionError: unknown;
      let deleted = 0;
      let deletedReady = 0;
      // a finished job's active pods: DELETE, finalizers kept until they are counted
      await Promise.all(
        plan.deleteActive.map(async (pod) => {
          try {
            await firstValueFrom(client.delete(PODS, pod.metadata.name ?? '', ns));
          } catch (e) {
            if (!isNotFound(e)) {
              actionError ??= e;
              return;
            }
          }
          deleted++;
          if (isPodReady(pod)) deletedReady++;
        }),
      );
      if (plan.deletePods.length > 0) {
        expectations.expectDeletionsOf(key, plan.deletePods.map(keyOf));
        await Promise.all(
          plan.deletePods.map(async (pod) => {
            try {
              if (hasTrackingFinalizer(pod))
                await firstValueFrom(
                  client.patch(PODS, pod.metadata.name ?? '', removeFinalizerPatch(pod), 'strategic', ns),
                );
              await firstValueFrom(client.delete(PODS, pod.metadata.name ?? '', ns));
              record(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
            } catch (e) {
              expectations.deletionObservedOf(key, keyOf(pod));
              if (!isNotFound(e)) {
                actionError ??= e;
                record(job, 'Warning', 'FailedDelete', `Error deleting: ${String(e)}`);
                return;
              }
            }
            deleted++;
            if (isPodReady(pod)) deletedReady++;
          }),
        );
      }
      let created = 0;
      if (plan.createPods.length > 0) {
        expectations.expectCreations(key, plan.createPods.length);
        const result = await slowStartBatch(plan.createPods.length, 1, async (i) => {
          const pod = plan.createPods[i] as Pod;
          try {
            const made = await firstValueFrom(client.create<Pod>(PODS, pod, ns));
            record(job, 'Normal', 'SuccessfulCreate', `Created pod: ${made.metadata.name}`);
          } catch (e) {
            record(job, 'Warning', 'FailedCreate', `Error creating: ${String(e)}`);
            throw e;
          }
        });
        created = result.successes;
        // the creations that failed or never started will not be observed
        for (let i = created; i < plan.createPods.length; i++) expectations.creationObserved(key);
        if (result.error) actionError ??= result.error;
      }
      backoffs.set(key, plan.backoff);

      const tracking = plan.track({ deleted, deletedReady, created });
      let current = job;
      if (tracking.interimStatus) current = await writeStatus(current, tracking.interimStatus);
      const removed = new Set<string>();
      if (tracking.removeFinalizers.length > 0) {
        const expected = finalizerExpectations.get(key) ?? new Set<string>();
        for (const p of tracking.removeFinalizers) expected.add(p.metadata.uid ?? '');
        finalizerExpectations.set(key, expected);
        await Promise.all(
          tracking.removeFinalizers.map(async (pod) => {
            try {
              await firstValueFrom(
                client.patch(PODS, pod.metadata.name ?? '', removeFinalizerPatch(pod), 'strategic', ns),
              );
            } catch (e) {
              expected.delete(pod.metadata.uid ?? '');
              if (!isNotFound(e)) {
                actionError ??= e;
                return;
              }
            }
            removed.add(pod.metadata.uid ?? '');
          }),
        );
      }
      const write = tracking.finish(removed);
      if (write.status) {
        await writeStatus(current, write.status);
        const before = job.status ?? {};
        metrics.podsFinished(info.mode, 'succeeded', (write.status.succeeded ?? 0) - (before.succeeded ?? 0));
        metrics.podsFinished(info.mode, 'failed', (write.status.failed ?? 0) - (before.failed ?? 0));
      }
      if (write.finished) {
        const ok = write.finished.type === 'Complete';
        metrics.finished(info.mode, ok ? 'succeeded' : 'failed', ok ? '' : (write.finished.reason ?? ''));
      }
      emit(write.events);
      if (actionError) throw actionError;
      return plan.requeueAfter !== undefined ? { requeueAfter: plan.requeueAfter } : {};
    };

    // workers start once both caches have synced (upstream's WaitForNamedCacheSync): a sync on an empty pod
    // cache would create a second set of pods for every running job
    const sub = cachesSynced(jobs, pods)
      .pipe(
        switchMap(() =>
          NEVER.pipe(
            reconcileWith<string>(syncJob, { queue, workers: config.workers ?? 5, scheduler, logger }),
          ),
        ),
      )
      .subscribe(subscriber);
    return () => {
      sub.unsubscribe();
      logger.info('Shutting down job controller');
    };
  });
}
