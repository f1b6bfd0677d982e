// jobsToBeReconciled: upstream's TestControllerV2GetJobsToBeReconciled in our own words.
import { describe, expect, it } from 'vitest';
import type { CronJob } from '../../../../operators/controller/cronjob/cron-job-types.ts';
import { jobsToBeReconciled } from '../../../../operators/controller/cronjob/jobs-to-be-reconciled.ts';
import type { Job } from '../../../../operators/controller/job/job-types.ts';

const cronJob = (labels?: Record<string, string>): CronJob => ({
  metadata: { namespace: 'foo-ns', name: 'fooer' },
  spec: {
    schedule: '* * * * *',
    jobTemplate: {
      ...(labels ? { metadata: { labels } } : {}),
      spec: { template: { spec: { containers: [] } } },
    },
  },
});
const job = (name: string, namespace: string, owner?: string, labels?: Record<string, string>): Job => ({
  metadata: {
    name,
    namespace,
    ...(labels ? { labels } : {}),
    ...(owner
      ? {
          ownerReferences: [
            { apiVersion: 'batch/v1', kind: 'CronJob', name: owner, uid: 'u', controller: true },
          ],
        }
      : {}),
  },
  spec: { template: { spec: { containers: [] } } },
});

describe('jobsToBeReconciled', () => {
  it.each([
    [
      'jobs in its namespace without a controller reference',
      cronJob(),
      [job('foo', 'foo-ns'), job('foo1', 'foo-ns'), job('foo2', 'foo-ns')],
      [],
    ],
    [
      'one with a controller reference to it',
      cronJob(),
      [job('foo', 'foo-ns'), job('foo1', 'foo-ns', 'fooer'), job('foo2', 'foo-ns')],
      ['foo1'],
    ],
    [
      'jobs in other namespaces',
      cronJob(),
      [job('foo', 'bar-ns', 'fooer'), job('foo1', 'bar-ns'), job('foo2', 'bar-ns')],
      [],
    ],
    [
      'labels that no longer match the template do not matter',
      cronJob({ key: 'value' }),
      [
        job('foo-fooer-owner-ref', 'foo-ns', 'fooer', { key: 'different-value' }),
        job('foo-other-owner-ref', 'foo-ns', 'another-cronjob', { key: 'different-value' }),
      ],
      ['foo-fooer-owner-ref'],
    ],
  ])('%s', (_n, cj, jobs, want) => {
    expect(jobsToBeReconciled(cj, jobs).map((j) => j.metadata.name)).toEqual(want);
  });
});
