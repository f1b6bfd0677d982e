// nextScheduleTime: the start time a sync acts on now, and nextScheduleTimeDuration: when to look again.

import { type CronJob, NEXT_SCHEDULE_DELTA_MS } from './cron-job-types.ts';
import type { CronSchedule } from './cron-schedule.ts';
import { mostRecentScheduleTime } from './most-recent-schedule-time.ts';

/** The start time due now (if any), whether more than 100 were missed, and the schedule's error. */
export interface NextScheduleTime {
  scheduledTime?: number;
  tooManyMissed: boolean;
  error?: string;
}

/**
 * The most recent unmet start time in (earliest, now], earliest raised to now − startingDeadlineSeconds
 * when a deadline is set; `tooManyMissed` asks the caller for upstream's TooManyMissedTimes warning
 * (the time is still used).
 *
 * @param cronJob the CronJob as the controller sees it
 * @param now the clock, epoch ms
 * @param schedule the parsed schedule
 */
export function nextScheduleTime(cronJob: CronJob, now: number, schedule: CronSchedule): NextScheduleTime {
  const found = mostRecentScheduleTime(cronJob, now, schedule, true);
  const error = found.error !== undefined ? { error: found.error } : {};
  if (found.mostRecent === undefined || found.mostRecent > now) return { tooManyMissed: false, ...error };
  return { scheduledTime: found.mostRecent, tooManyMissed: found.missed === 'many', ...error };
}

/**
 * How long until the next start time, plus {@link NEXT_SCHEDULE_DELTA_MS}: counted from the most recent
 * start time, from the earliest time when none was missed, and from now when the schedule is broken or
 * some were missed without one being found. Undefined when the schedule never fires again.
 *
 * ```
 * "0 * * * *", now 09:59:00, created 09:59:00  →  60 100 ms
 * ```
 *
 * @param cronJob the CronJob as the controller sees it
 * @param now the clock, epoch ms
 * @param schedule the parsed schedule
 */
export function nextScheduleTimeDuration(
  cronJob: CronJob,
  now: number,
  schedule: CronSchedule,
): number | undefined {
  const found = mostRecentScheduleTime(cronJob, now, schedule, false);
  let from: number;
  if (found.error !== undefined) from = now;
  else if (found.mostRecent !== undefined) from = found.mostRecent;
  else from = found.missed === 'none' ? found.earliest : now;
  const next = schedule.next(from);
  return next === undefined ? undefined : next + NEXT_SCHEDULE_DELTA_MS - now;
}
