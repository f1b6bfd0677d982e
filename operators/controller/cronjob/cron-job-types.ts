// CronJob types: the batch/v1 CronJob fields the cronjob controller reads and writes, with upstream's constants.
import type { ObjectMeta } from '../../types.ts';
import type { JobSpec } from '../job/job-types.ts';

/** The annotation on every Job a CronJob creates: its scheduled time, RFC 3339 in the CronJob's time zone. */
export const CRON_JOB_SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';
/** Added to every requeue at the next schedule time, so a clock a little behind still finds the time due. */
export const NEXT_SCHEDULE_DELTA_MS = 100;
/** More missed start times than this since the last one: a TooManyMissedTimes warning. */
export const TOO_MANY_MISSED_SCHEDULES = 100;
/** The owner kind on the Jobs a CronJob creates. */
export const CRON_JOB_GVK = { apiVersion: 'batch/v1', kind: 'CronJob' } as const;
/** The API server's defaults for the history limits (the controller keeps everything when a limit is absent). */
export const DEFAULT_SUCCESSFUL_JOBS_HISTORY_LIMIT = 3;
export const DEFAULT_FAILED_JOBS_HISTORY_LIMIT = 1;

/** A core/v1 ObjectReference, as status.active holds them. */
export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
}

export type ConcurrencyPolicy = 'Allow' | 'Forbid' | 'Replace';

export interface CronJobSpec {
  schedule: string;
  /** An IANA zone name; absent: the controller's local zone. */
  timeZone?: string | null;
  startingDeadlineSeconds?: number | null;
  concurrencyPolicy?: ConcurrencyPolicy | string;
  suspend?: boolean | null;
  jobTemplate: { metadata?: ObjectMeta; spec: JobSpec };
  successfulJobsHistoryLimit?: number | null;
  failedJobsHistoryLimit?: number | null;
}

export interface CronJobStatus {
  active?: ObjectReference[];
  lastScheduleTime?: string | null;
  lastSuccessfulTime?: string | null;
}

/** A batch/v1 CronJob. */
export interface CronJob {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: CronJobSpec;
  status?: CronJobStatus;
  [field: string]: unknown;
}

/** Epoch ms of an RFC 3339 timestamp, or undefined when absent or unreadable. */
export function timeOf(stamp: string | null | undefined): number | undefined {
  if (!stamp) return undefined;
  const ms = Date.parse(stamp);
  return Number.isNaN(ms) ? undefined : ms;
}

/** An RFC 3339 UTC timestamp at second precision, as metav1.Time serialises. */
export function stampOf(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
