// finishedJobsToDelete: which of a CronJob's finished Jobs its history limits remove, oldest first.
import { hasJobCondition, type Job } from '../job/job-types.ts';
import type { CronJob } from './cron-job-types.ts';

/**
 * Upstream's byJobStartTime order: started jobs by status.startTime (earliest first), jobs never
 * started last, ties broken by name.
 */
export function compareByJobStartTime(a: Job, b: Job): number {
  const sa = a.status?.startTime ? Date.parse(a.status.startTime) : undefined;
  const sb = b.status?.startTime ? Date.parse(b.status.startTime) : undefined;
  if (sa === undefined && sb !== undefined) return 1;
  if (sa !== undefined && sb === undefined) return -1;
  if (sa === sb) {
    const na = a.metadata.name ?? '';
    const nb = b.metadata.name ?? '';
    return na < nb ? -1 : na > nb ? 1 : 0;
  }
  return (sa as number) - (sb as number);
}

function oldestBeyond(jobs: Job[], limit: number | null | undefined): Job[] {
  if (limit === undefined || limit === null || jobs.length <= limit) return [];
  return [...jobs].sort(compareByJobStartTime).slice(0, jobs.length - Math.max(0, limit));
}

/**
 * The finished Jobs beyond spec.successfulJobsHistoryLimit (Complete) and spec.failedJobsHistoryLimit
 * (Failed), the oldest by start time first: successful ones, then failed ones. A limit that is absent
 * keeps every Job of its kind (the API server defaults them to 3 and 1). Unfinished Jobs are never chosen.
 *
 * ```
 * limit 1, Complete jobs started 10:00, 11:00, 12:00  →  [10:00, 11:00]
 * ```
 *
 * @param cronJob its history limits
 * @param jobs the Jobs it controls
 */
export function finishedJobsToDelete(cronJob: CronJob, jobs: readonly Job[]): Job[] {
  const successful: Job[] = [];
  const failed: Job[] = [];
  for (const job of jobs) {
    // the first terminal condition decides, as upstream's getFinishedStatus
    const terminal = job.status?.conditions?.find(
      (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
    );
    if (terminal?.type === 'Complete') successful.push(job);
    else if (terminal?.type === 'Failed') failed.push(job);
  }
  return [
    ...oldestBeyond(successful, cronJob.spec.successfulJobsHistoryLimit),
    ...oldestBeyond(failed, cronJob.spec.failedJobsHistoryLimit),
  ];
}

/** The job's Complete condition is True. */
export const isJobSucceeded = (job: Job): boolean => hasJobCondition(job, 'Complete');
