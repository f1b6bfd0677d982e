// jobFromTemplate: the Job a CronJob creates (upstream's TestGetJobFromTemplate2 in our own words), its name and the zoned timestamp.
import { describe, expect, it } from 'vitest';
import type { CronJob } from '../../../../operators/controller/cronjob/cron-job-types.ts';
import {
  cronJobJobName,
  jobFromTemplate,
  rfc3339InZone,
} from '../../../../operators/controller/cronjob/job-from-template.ts';

const TOP = Date.parse('2016-05-19T10:00:00Z');
const cronJob = (timeZone: string | undefined, annotations: Record<string, string>): CronJob => ({
  metadata: { name: 'mycronjob', namespace: 'snazzycats', uid: '1a2b3c' },
  spec: {
    schedule: '* * * * ?',
    concurrencyPolicy: 'Allow',
    ...(timeZone !== undefined ? { timeZone } : {}),
    jobTemplate: {
      metadata: { labels: { a: 'b' }, annotations },
      spec: {
        activeDeadlineSeconds: 1,
        manualSelector: false,
        template: {
          metadata: { labels: { foo: 'bar' } },
          spec: { containers: [{ name: 'c', image: 'foo/bar' }] },
        },
      },
    },
  },
});

describe('jobFromTemplate', () => {
  it.each([
    ['UTC and one annotation', 'UTC', { x: 'y' }, '2016-05-19T10:00:00Z', 2],
    ['no time zone and one annotation', undefined, { x: 'y' }, '2016-05-19T10:00:00Z', 2],
    ['a time zone and two annotations', 'Europe/Rome', { x: 'y', z: 'x' }, '2016-05-19T12:00:00+02:00', 3],
  ] as const)('%s', (_n, tz, annotations, stampWant, count) => {
    const cj = cronJob(tz, annotations);
    const job = jobFromTemplate(cj, TOP);
    expect(job.metadata.name).toBe('mycronjob-24394200');
    expect(job.metadata.namespace).toBe('snazzycats');
    expect(job.metadata.labels).toEqual({ a: 'b' });
    expect(Object.keys(job.metadata.annotations ?? {})).toHaveLength(count);
    expect(job.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe(stampWant);
    expect(job.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        name: 'mycronjob',
        uid: '1a2b3c',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(job.spec).toEqual(cj.spec.jobTemplate.spec);
    expect(job.spec).not.toBe(cj.spec.jobTemplate.spec);
  });

  it('names a Job after the minute of its scheduled time, the same for every second of it', () => {
    const cj = cronJob(undefined, {});
    expect(cronJobJobName(cj, TOP)).toBe(cronJobJobName(cj, TOP + 59_999));
    expect(cronJobJobName(cj, TOP + 60_000)).toBe('mycronjob-24394201');
  });

  it.each([
    [TOP, 'America/New_York', '2016-05-19T06:00:00-04:00'],
    [Date.parse('2016-01-19T10:00:00Z'), 'America/New_York', '2016-01-19T05:00:00-05:00'],
    [TOP, 'Asia/Kolkata', '2016-05-19T15:30:00+05:30'],
    [TOP, 'UTC', '2016-05-19T10:00:00Z'],
    [TOP + 999, '', '2016-05-19T10:00:00Z'],
  ] as const)('rfc3339InZone(%d, %s) = %s', (ms, tz, want) => {
    expect(rfc3339InZone(ms, tz)).toBe(want);
  });
});
