// finishedJobsToDelete and compareByJobStartTime: upstream's TestByJobStartTime and the history-limit cleanup in our own words.
import { describe, expect, it } from 'vitest';
import type { CronJob } from '../../../../operators/controller/cronjob/cron-job-types.ts';
import {
  compareByJobStartTime,
  finishedJobsToDelete,
} from '../../../../operators/controller/cronjob/finished-jobs-to-delete.ts';
import type { Job } from '../../../../operators/controller/job/job-types.ts';

const job = (name: string, startTime?: string, finished?: 'Complete' | 'Failed'): Job => ({
  metadata: { name, namespace: 'default', uid: `uid-${name}` },
  spec: { template: { spec: { containers: [] } } },
  status: {
    ...(startTime ? { startTime } : {}),
    ...(finished ? { conditions: [{ type: finished, status: 'True' }] } : {}),
  },
});
const NOW = '2018-01-01T02:03:04Z';
const LATER = '2019-01-01T02:03:04Z';
const names = (jobs: Job[]) => jobs.map((j) => `${j.metadata.name}@${j.status?.startTime ?? 'nil'}`);

describe('compareByJobStartTime', () => {
  it.each([
    ['both without a start time: by name', [job('b'), job('a')], ['a@nil', 'b@nil']],
    ['only the first without: it goes last', [job('a'), job('b', NOW)], [`b@${NOW}`, 'a@nil']],
    ['only the second without', [job('a', NOW), job('b')], [`a@${NOW}`, 'b@nil']],
    ['equal start times: by name', [job('b', NOW), job('a', NOW)], [`a@${NOW}`, `b@${NOW}`]],
    ['different start times: earliest first', [job('a', LATER), job('b', NOW)], [`b@${NOW}`, `a@${LATER}`]],
  ])('%s', (_n, input, want) => {
    expect(names([...input].sort(compareByJobStartTime))).toEqual(want);
  });
});

const cj = (successful?: number, failed?: number): CronJob => ({
  metadata: { name: 'cj', namespace: 'default', uid: 'cj-uid' },
  spec: {
    schedule: '* * * * *',
    jobTemplate: { spec: { template: { spec: { containers: [] } } } },
    ...(successful !== undefined ? { successfulJobsHistoryLimit: successful } : {}),
    ...(failed !== undefined ? { failedJobsHistoryLimit: failed } : {}),
  },
});
const h = (hour: number) => `2024-01-01T${String(hour).padStart(2, '0')}:00:00Z`;

describe('finishedJobsToDelete', () => {
  const mixed = [
    job('s1', h(1), 'Complete'),
    job('s3', h(3), 'Complete'),
    job('s2', h(2), 'Complete'),
    job('s0', undefined, 'Complete'),
    job('f1', h(1), 'Failed'),
    job('f2', h(2), 'Failed'),
    job('running', h(0)),
  ];
  it.each([
    ['no limits: nothing', undefined, undefined, []],
    ['the defaults (3, 1): four successful and two failed lose one each', 3, 1, ['s1', 'f1']],
    ['successful 1, failed 1: oldest successful first, never-started last', 1, 1, ['s1', 's2', 's3', 'f1']],
    ['limits 0: every finished job, never the running one', 0, 0, ['s1', 's2', 's3', 's0', 'f1', 'f2']],
    ['only a failed limit', undefined, 0, ['f1', 'f2']],
    ['limits above the counts: nothing', 10, 10, []],
  ])('%s', (_n, successful, failed, want) => {
    expect(finishedJobsToDelete(cj(successful, failed), mixed).map((j) => j.metadata.name)).toEqual(want);
  });
});
