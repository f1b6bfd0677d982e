// Test fixtures for the job controller: jobs and pods in the states upstream's syncJob table builds.
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { JobBackoffRecord } from '../../../../operators/controller/job/job-backoff.ts';
import { planJobSync } from '../../../../operators/controller/job/job-sync.ts';
import {
  JOB_COMPLETION_INDEX_ANNOTATION,
  JOB_TRACKING_FINALIZER,
  type Job,
  type JobFeatures,
} from '../../../../operators/controller/job/job-types.ts';

export const NOW = Date.parse('2026-01-01T00:00:00Z');

/** A job like upstream's newJob(parallelism, completions, backoffLimit, mode): `completions < 0` is a work-queue job. */
export function newJob(
  parallelism: number,
  completions: number,
  backoffLimit = 6,
  mode: 'NonIndexed' | 'Indexed' = 'NonIndexed',
): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'foobar', namespace: 'default', uid: 'job-uid', generation: 1 },
    spec: {
      parallelism,
      ...(completions >= 0 ? { completions } : {}),
      backoffLimit,
      completionMode: mode,
      selector: { matchLabels: { foo: 'bar' } },
      template: {
        metadata: { labels: { foo: 'bar' } },
        spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'foo/bar' }] },
      },
    },
  };
}

export type PodState = 'Pending' | 'Running' | 'Ready' | 'Succeeded' | 'Failed' | 'Terminating';

let serial = 0;

/** A pod of `job` in `state`, with the tracking finalizer and (optionally) a completion index. */
export function jobPod(
  job: Job,
  state: PodState,
  index?: number,
  opts: { finalizer?: boolean; finishedAt?: number } = {},
): Pod {
  const n = serial++;
  const phase = state === 'Ready' || state === 'Terminating' ? 'Running' : state;
  const finishedAt = new Date(opts.finishedAt ?? NOW - 1000).toISOString();
  return {
    metadata: {
      name: `${job.metadata.name}-${n}`,
      namespace: job.metadata.namespace,
      uid: `pod-${n}`,
      labels: { foo: 'bar' },
      creationTimestamp: new Date(NOW - 60_000 + n).toISOString(),
      ...(index !== undefined ? { annotations: { [JOB_COMPLETION_INDEX_ANNOTATION]: String(index) } } : {}),
      ...(opts.finalizer === false ? {} : { finalizers: [JOB_TRACKING_FINALIZER] }),
      ...(state === 'Terminating' ? { deletionTimestamp: new Date(NOW - 500).toISOString() } : {}),
      ownerReferences: [
        {
          apiVersion: 'batch/v1',
          kind: 'Job',
          name: 'foobar',
          uid: job.metadata.uid ?? '',
          controller: true,
        },
      ],
    },
    spec: { containers: [{ name: 'c', image: 'foo/bar' }] },
    status: {
      phase,
      ...(state === 'Ready' ? { conditions: [{ type: 'Ready', status: 'True' }] } : {}),
      ...(state === 'Succeeded' || state === 'Failed'
        ? {
            containerStatuses: [
              {
                name: 'c',
                ready: false,
                restartCount: 0,
                image: 'foo/bar',
                imageID: '',
                state: { terminated: { exitCode: state === 'Failed' ? 1 : 0, finishedAt } },
              },
            ],
          }
        : {}),
    },
  };
}

/** `count` pods of `job` in `state` (no index). */
export function pods(job: Job, state: PodState, count: number): Pod[] {
  return Array.from({ length: count }, () => jobPod(job, state));
}

/** One sync in which every write succeeds: what upstream's fake pod control and status handler record. */
export function syncOnce(
  job: Job,
  jobPods: Pod[],
  opts: {
    satisfied?: boolean;
    backoff?: JobBackoffRecord;
    features?: Partial<JobFeatures>;
    now?: number;
  } = {},
) {
  const plan = planJobSync({
    job,
    pods: jobPods,
    satisfiedExpectations: opts.satisfied ?? true,
    now: opts.now ?? NOW,
    ...(opts.backoff ? { backoff: opts.backoff } : {}),
    ...(opts.features ? { features: opts.features } : {}),
  });
  const deleted = plan.deleteActive.length + plan.deletePods.length;
  const ready = [...plan.deleteActive, ...plan.deletePods].filter((p) =>
    p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
  ).length;
  const tracking = plan.track({ deleted, deletedReady: ready, created: plan.createPods.length });
  const write = tracking.finish(new Set(tracking.removeFinalizers.map((p) => p.metadata.uid ?? '')));
  const status = write.status ?? tracking.interimStatus ?? job.status ?? {};
  // pods stripped on deletion (manageJob) are patched too, as upstream's deleteJobPods does
  const patches = tracking.removeFinalizers.length + plan.deletePods.length;
  return { plan, tracking, write, status, patches, deleted };
}
