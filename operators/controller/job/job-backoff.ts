// The job's pod-recreation back-off record: consecutive failures since the last success and when the last one ended.
import type { Pod } from '../../api/core-v1.ts';
import { DEFAULT_JOB_POD_FAILURE_BACKOFF_MS, MAX_JOB_POD_FAILURE_BACKOFF_MS } from './job-types.ts';

/** Upstream's backoffRecord: failures after the last success, and the finish time (ms) of the newest. */
export interface JobBackoffRecord {
  failuresAfterLastSuccess: number;
  lastFailureTime?: number;
}

const parse = (t: string | undefined) => (t ? Date.parse(t) : Number.NaN);

/**
 * When a finished pod ended (ms): the latest container finishedAt, else when Ready turned False, else its
 * deletion time less the grace period, else its creation — as upstream's getFinishedTime.
 */
export function podFinishedTime(pod: Pod): number {
  const finished = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])]
    .map((s) => parse(s.state?.terminated?.finishedAt))
    .filter((t) => !Number.isNaN(t));
  if (finished.length > 0) return Math.max(...finished);
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'False');
  if (ready && !Number.isNaN(parse(ready.lastTransitionTime))) return parse(ready.lastTransitionTime);
  const deleted = parse(pod.metadata.deletionTimestamp);
  if (!Number.isNaN(deleted)) return deleted - (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
  const created = parse(pod.metadata.creationTimestamp);
  return Number.isNaN(created) ? 0 : created;
}

/**
 * The record after this sync's newly finished pods: a success resets the count to the failures that
 * ended after it; with no success the new failures add to the count.
 */
export function nextBackoffRecord(
  previous: JobBackoffRecord,
  newSucceeded: readonly Pod[],
  newFailed: readonly Pod[],
): JobBackoffRecord {
  if (newSucceeded.length === 0) {
    if (newFailed.length === 0) return previous;
    const last = Math.max(...newFailed.map(podFinishedTime), previous.lastFailureTime ?? 0);
    return {
      failuresAfterLastSuccess: previous.failuresAfterLastSuccess + newFailed.length,
      lastFailureTime: last,
    };
  }
  const lastSuccess = Math.max(...newSucceeded.map(podFinishedTime));
  const after = newFailed.map(podFinishedTime).filter((t) => t > lastSuccess);
  if (after.length === 0) return { failuresAfterLastSuccess: 0 };
  return { failuresAfterLastSuccess: after.length, lastFailureTime: Math.max(...after) };
}

/**
 * How long (ms) before the job may create a replacement pod: 10 s × 2^(n−1) for n failures since the last
 * success, capped at 10 minutes, less the time since the last failure; 0 when no failure counts.
 */
export function backoffRemaining(
  record: JobBackoffRecord,
  now: number,
  base = DEFAULT_JOB_POD_FAILURE_BACKOFF_MS,
  cap = MAX_JOB_POD_FAILURE_BACKOFF_MS,
): number {
  if (record.failuresAfterLastSuccess <= 0 || record.lastFailureTime === undefined) return 0;
  const delay = Math.min(base * 2 ** Math.min(record.failuresAfterLastSuccess - 1, 30), cap);
  const elapsed = now - record.lastFailureTime;
  return delay <= elapsed ? 0 : delay - elapsed;
}
