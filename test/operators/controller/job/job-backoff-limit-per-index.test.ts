// backoffLimitPerIndex and maxFailedIndexes (JobBackoffLimitPerIndex on): upstream's per-index cases in our own words.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import {
  JOB_INDEX_FAILURE_COUNT_ANNOTATION,
  type Job,
} from '../../../../operators/controller/job/job-types.ts';
import { jobPod, NOW, newJob, syncOnce } from './job-fixtures.ts';

const perIndexJob = (completions: number, backoffLimitPerIndex: number, maxFailedIndexes?: number): Job => {
  const job = newJob(completions, completions, 6, 'Indexed');
  delete job.spec.backoffLimit;
  job.spec.backoffLimitPerIndex = backoffLimitPerIndex;
  if (maxFailedIndexes !== undefined) job.spec.maxFailedIndexes = maxFailedIndexes;
  return job;
};
const failedAt = (job: Job, index: number, failures: number): Pod => {
  const p = jobPod(job, 'Failed', index, { finishedAt: NOW - 1000 });
  p.metadata.annotations = {
    ...p.metadata.annotations,
    [JOB_INDEX_FAILURE_COUNT_ANNOTATION]: String(failures),
  };
  return p;
};

describe('backoffLimitPerIndex', () => {
  it('keeps the failed pod (finalizer on) until its replacement, created after the index back-off with the next failure count', () => {
    const job = perIndexJob(2, 1);
    const failed = failedAt(job, 0, 0);
    const running = jobPod(job, 'Running', 1);
    const early = syncOnce(job, [failed, running]);
    expect(early.plan.createPods).toHaveLength(0);
    expect(early.plan.requeueAfter).toBe(9000);
    expect(early.tracking.removeFinalizers).toEqual([]);
    expect(early.status.failedIndexes).toBe('');
    const later = syncOnce(job, [failed, running], { now: NOW + 9000 });
    expect(later.plan.createPods).toHaveLength(1);
    expect(later.plan.createPods[0]?.metadata.annotations?.[JOB_INDEX_FAILURE_COUNT_ANNOTATION]).toBe('1');
    // once the replacement is active, the failed pod is counted and released
    const replacement = jobPod(job, 'Running', 0);
    const after = syncOnce(job, [failed, running, replacement], { now: NOW + 9000 });
    expect(after.tracking.removeFinalizers.map((p) => p.metadata.uid)).toEqual([failed.metadata.uid]);
    expect(after.status.failed).toBe(1);
  });

  it('fails an index whose failures reached the limit and the job once every index is done (FailedIndexes)', () => {
    const job = perIndexJob(2, 1);
    const r = syncOnce(job, [failedAt(job, 0, 1), jobPod(job, 'Succeeded', 1)]);
    expect(r.status.failedIndexes).toBe('0');
    expect(r.status.completedIndexes).toBe('1');
    expect(r.status.conditions?.map((c) => [c.type, c.reason])).toEqual([
      ['FailureTarget', 'FailedIndexes'],
      ['Failed', 'FailedIndexes'],
    ]);
  });

  it('does not recreate a failed index while the others run', () => {
    const job = perIndexJob(3, 0);
    const r = syncOnce(job, [failedAt(job, 1, 0), jobPod(job, 'Running', 0)]);
    expect(r.status.failedIndexes).toBe('1');
    expect(
      r.plan.createPods.map((p) => p.metadata.annotations?.['batch.kubernetes.io/job-completion-index']),
    ).toEqual(['2']);
    expect(r.status.conditions ?? []).toEqual([]);
  });

  it('fails the job at once past maxFailedIndexes (MaxFailedIndexesExceeded), deleting the running pods', () => {
    const job = perIndexJob(3, 0, 0);
    const r = syncOnce(job, [failedAt(job, 0, 0), jobPod(job, 'Running', 1)]);
    expect(r.deleted).toBe(1);
    expect(r.status.conditions?.[0]).toMatchObject({
      type: 'FailureTarget',
      reason: 'MaxFailedIndexesExceeded',
      message: 'Job has exceeded the specified maximal number of failed indexes',
    });
  });

  it('fails an index on a FailIndex rule regardless of its count', () => {
    const job = perIndexJob(2, 5);
    job.spec.podFailurePolicy = {
      rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [1] } }],
    };
    const r = syncOnce(job, [failedAt(job, 0, 0), jobPod(job, 'Running', 1)]);
    expect(r.status.failedIndexes).toBe('0');
    expect(r.plan.createPods).toHaveLength(0);
  });

  it('leaves failedIndexes unset with the gate off', () => {
    const job = perIndexJob(2, 1);
    const r = syncOnce(job, [failedAt(job, 0, 1)], { features: { JobBackoffLimitPerIndex: false } });
    expect(r.status.failedIndexes).toBeUndefined();
  });
});
