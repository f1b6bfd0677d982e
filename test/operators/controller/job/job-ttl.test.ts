// jobTTLState: upstream's ttl-after-finished processTTL cases (no TTL, not finished, before and after expiry, missing time).
import { describe, expect, it } from 'vitest';
import { jobTTLState } from '../../../../operators/controller/job/job-ttl.ts';
import type { Job } from '../../../../operators/controller/job/job-types.ts';
import { NOW, newJob } from './job-fixtures.ts';

const finished = (type: string, ttl: number | undefined, at: string | undefined): Job => {
  const job = newJob(1, 1);
  if (ttl !== undefined) job.spec.ttlSecondsAfterFinished = ttl;
  job.status = { conditions: [{ type, status: 'True', ...(at ? { lastTransitionTime: at } : {}) }] };
  return job;
};
const iso = (ms: number) => new Date(ms).toISOString();

describe('jobTTLState', () => {
  it.each([
    ['no TTL', finished('Complete', undefined, iso(NOW - 1000)), { type: 'keep' }],
    ['not finished', finished('Suspended', 10, iso(NOW - 1000)), { type: 'keep' }],
    ['complete, TTL not yet passed', finished('Complete', 10, iso(NOW - 4000)), { type: 'wait', ms: 6000 }],
    ['failed, TTL not yet passed', finished('Failed', 10, iso(NOW - 1000)), { type: 'wait', ms: 9000 }],
    ['complete, TTL passed', finished('Complete', 10, iso(NOW - 10_000)), { type: 'expired' }],
    ['TTL 0: at once', finished('Failed', 0, iso(NOW)), { type: 'expired' }],
    [
      'finished without a time',
      finished('Complete', 10, undefined),
      { type: 'invalid', field: 'status.conditions.lastTransitionTime' },
    ],
  ])('%s', (_name, job, want) => {
    expect(jobTTLState(job, NOW)).toMatchObject(want);
  });

  it('keeps a job already being deleted', () => {
    const job = finished('Complete', 0, iso(NOW - 1000));
    job.metadata.deletionTimestamp = iso(NOW);
    expect(jobTTLState(job, NOW)).toEqual({ type: 'keep' });
  });
});
