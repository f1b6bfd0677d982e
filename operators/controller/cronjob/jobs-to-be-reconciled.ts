// jobsToBeReconciled: the Jobs a CronJob sync looks at — those whose controllerRef names it, whatever their labels.
import { getControllerOf } from '../controller-ref.ts';
import type { Job } from '../job/job-types.ts';
import type { CronJob } from './cron-job-types.ts';

/**
 * The Jobs in the CronJob's namespace whose controller reference carries its name (upstream compares the
 * name only: labels may have drifted from the template, and orphans are never adopted).
 *
 * @param cronJob the owner
 * @param jobs candidate Jobs (any namespace; others are left out)
 */
export function jobsToBeReconciled(cronJob: CronJob, jobs: readonly Job[]): Job[] {
  const ns = cronJob.metadata.namespace ?? '';
  return jobs.filter(
    (j) => (j.metadata.namespace ?? '') === ns && getControllerOf(j)?.name === cronJob.metadata.name,
  );
}
