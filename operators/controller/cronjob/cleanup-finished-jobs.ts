// cleanupFinishedJobs: deletes a CronJob's finished Jobs beyond its history limits (upstream's cleanupFinishedJobs).
import type { Job } from '../job/job-types.ts';
import { type CronJobControl, reapJob } from './cron-job-control.ts';
import type { CronJob } from './cron-job-types.ts';
import { finishedJobsToDelete } from './finished-jobs-to-delete.ts';

/**
 * Deletes the finished Jobs {@link finishedJobsToDelete} picks, each with a SuccessfulDelete (or
 * FailedDelete) Event, and drops them from status.active.
 *
 * @param cronJob the copy being synced; edited in place
 * @param jobs the Jobs it controls
 * @returns whether the status changed and needs writing
 */
export async function cleanupFinishedJobs(
  control: CronJobControl,
  cronJob: CronJob,
  jobs: readonly Job[],
): Promise<boolean> {
  let updateStatus = false;
  for (const job of finishedJobsToDelete(cronJob, jobs)) {
    if (await reapJob(control, cronJob, job)) updateStatus = true;
  }
  return updateStatus;
}
