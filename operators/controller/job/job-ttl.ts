// jobTTLState: when a finished Job's ttlSecondsAfterFinished runs out (the ttl-after-finished controller's decision).
import type { Job } from './job-types.ts';

/** What the ttl-after-finished controller does with a job now. */
export type JobTTLState =
  | { type: 'keep' }
  | { type: 'wait'; ms: number }
  | { type: 'expired' }
  | { type: 'invalid'; field: string; message: string };

/**
 * A job is cleaned up once it has finished (Complete or Failed True) and `ttlSecondsAfterFinished` has
 * passed since that condition's lastTransitionTime, as upstream's processTTL: no TTL or not finished →
 * keep; before expiry → wait the time left; at or after → expired. A finished condition without a time
 * is bad input, named by its field.
 *
 * @param job the job
 * @param now the clock in ms
 */
export function jobTTLState(job: Job, now: number): JobTTLState {
  const ttl = job.spec.ttlSecondsAfterFinished;
  if (ttl === undefined || ttl === null || job.metadata.deletionTimestamp) return { type: 'keep' };
  const finished = job.status?.conditions?.find(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
  if (!finished) return { type: 'keep' };
  const at = finished.lastTransitionTime ? Date.parse(finished.lastTransitionTime) : Number.NaN;
  if (Number.isNaN(at))
    return {
      type: 'invalid',
      field: 'status.conditions.lastTransitionTime',
      message: `unable to find the time when the Job ${job.metadata.namespace}/${job.metadata.name} finished`,
    };
  const left = at + ttl * 1000 - now;
  return left <= 0 ? { type: 'expired' } : { type: 'wait', ms: left };
}
