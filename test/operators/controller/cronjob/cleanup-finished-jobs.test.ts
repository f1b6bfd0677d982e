// cleanupFinishedJobs: deletes beyond the history limits with SuccessfulDelete, keeps going past a failed delete (FailedDelete), and drops deleted Jobs from status.active.
import { describe, expect, it } from 'vitest';
import { cleanupFinishedJobs } from '../../../../operators/controller/cronjob/cleanup-finished-jobs.ts';
import type { CronJobControl } from '../../../../operators/controller/cronjob/cron-job-control.ts';
import type { CronJob } from '../../../../operators/controller/cronjob/cron-job-types.ts';
import type { Job } from '../../../../operators/controller/job/job-types.ts';
import { ApiError } from '../../../../operators/errors.ts';

const job = (name: string, hour: number, type: 'Complete' | 'Failed'): Job => ({
  metadata: { name, namespace: 'default', uid: `uid-${name}` },
  spec: { template: { spec: { containers: [] } } },
  status: { startTime: `2024-01-01T0${hour}:00:00Z`, conditions: [{ type, status: 'True' }] },
});

function world(failOn?: string) {
  const deleted: string[] = [];
  const events: string[] = [];
  const control: CronJobControl = {
    getCronJob: () => Promise.reject(new Error('not used')),
    getJob: () => Promise.reject(new Error('not used')),
    createJob: () => Promise.reject(new Error('not used')),
    deleteJob: async (_ns, name) => {
      if (name === failOn) throw new ApiError(500, { reason: 'InternalError', message: 'etcd is sad' });
      deleted.push(name);
    },
    record: (type, reason, message) => events.push(`${type} ${reason} ${message}`),
  };
  return { control, deleted, events };
}

const cronJob = (): CronJob => ({
  metadata: { name: 'cj', namespace: 'default', uid: 'cj-uid' },
  spec: {
    schedule: '* * * * *',
    successfulJobsHistoryLimit: 1,
    failedJobsHistoryLimit: 0,
    jobTemplate: { spec: { template: { spec: { containers: [] } } } },
  },
  status: {
    active: [
      { kind: 'Job', name: 'ok1', uid: 'uid-ok1' },
      { kind: 'Job', name: 'run', uid: 'uid-run' },
    ],
  },
});
const jobs = [job('ok1', 1, 'Complete'), job('ok2', 2, 'Complete'), job('bad1', 3, 'Failed')];

describe('cleanupFinishedJobs', () => {
  it('deletes the oldest successful and every failed Job beyond the limits, each with SuccessfulDelete', async () => {
    const { control, deleted, events } = world();
    const cj = cronJob();
    expect(await cleanupFinishedJobs(control, cj, jobs)).toBe(true);
    expect(deleted).toEqual(['ok1', 'bad1']);
    expect(events).toEqual([
      'Normal SuccessfulDelete Deleted job ok1',
      'Normal SuccessfulDelete Deleted job bad1',
    ]);
    expect(cj.status?.active?.map((r) => r.name)).toEqual(['run']);
  });

  it('a delete that fails: FailedDelete, the Job stays listed, the others still go', async () => {
    const { control, deleted, events } = world('ok1');
    const cj = cronJob();
    expect(await cleanupFinishedJobs(control, cj, jobs)).toBe(true);
    expect(deleted).toEqual(['bad1']);
    expect(events[0]).toBe('Warning FailedDelete Deleted job: InternalError (500): etcd is sad');
    expect(cj.status?.active?.map((r) => r.name)).toEqual(['ok1', 'run']);
  });

  it('nothing beyond the limits: no write, no status change', async () => {
    const { control, deleted } = world();
    const cj = {
      ...cronJob(),
      spec: { ...cronJob().spec, successfulJobsHistoryLimit: 5, failedJobsHistoryLimit: 5 },
    };
    expect(await cleanupFinishedJobs(control, cj, jobs)).toBe(false);
    expect(deleted).toEqual([]);
  });
});
