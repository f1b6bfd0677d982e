// CronJobControl: the reads, writes and Events a CronJob sync needs, injected so the sync stays free of I/O.
import { ApiError, hasStatusCause } from '../../errors.ts';
import type { Job } from '../job/job-types.ts';
import type { CronJob } from './cron-job-types.ts';

/**
 * What {@link syncCronJob} and {@link cleanupFinishedJobs} may do to the world. Reads go to the API
 * server, not a cache (upstream re-reads to beat a slow watch). Failures reject with the client's
 * `ApiError` (404 NotFound, 409 AlreadyExists, a NamespaceTerminating cause, ...).
 */
export interface CronJobControl {
  /** A live GET of the CronJob. */
  getCronJob(namespace: string, name: string): Promise<CronJob>;
  /** A live GET of a Job. */
  getJob(namespace: string, name: string): Promise<Job>;
  /** Creates a Job; resolves to what the server stored. */
  createJob(namespace: string, job: Job): Promise<Job>;
  /** Deletes a Job with background propagation. */
  deleteJob(namespace: string, name: string): Promise<void>;
  /** Records an Event about the CronJob; never throws. */
  record(type: 'Normal' | 'Warning', reason: string, message: string): void;
}

/** The error is an API 404. */
export const isNotFound = (e: unknown): boolean => e instanceof ApiError && e.statusCode === 404;
/** The error is an API 409 AlreadyExists. */
export const isAlreadyExists = (e: unknown): boolean =>
  e instanceof ApiError && e.statusCode === 409 && e.reason === 'AlreadyExists';
/** The create was refused because the namespace is being terminated. */
export const isNamespaceTerminating = (e: unknown): boolean => hasStatusCause(e, 'NamespaceTerminating');
/** An error's text as Go's `%v` shows it. */
export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Deletes a Job and its entry in the CronJob's active list (upstream's deleteJob): Warning FailedDelete
 * and false when the delete fails, Normal SuccessfulDelete and true when it succeeds.
 *
 * @param cronJob the copy being synced (its status.active is edited in place)
 */
export async function reapJob(control: CronJobControl, cronJob: CronJob, job: Job): Promise<boolean> {
  try {
    await control.deleteJob(job.metadata.namespace ?? '', job.metadata.name ?? '');
  } catch (e) {
    control.record('Warning', 'FailedDelete', `Deleted job: ${messageOf(e)}`);
    return false;
  }
  if (cronJob.status?.active) {
    cronJob.status.active = cronJob.status.active.filter((r) => r.uid !== job.metadata.uid);
  }
  control.record('Normal', 'SuccessfulDelete', `Deleted job ${job.metadata.name ?? ''}`);
  return true;
}
