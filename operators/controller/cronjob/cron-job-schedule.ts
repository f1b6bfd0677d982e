// cronJobSchedule: a CronJob's schedule parsed in its time zone, as upstream's formatSchedule + cron.ParseStandard.

import type { CronJob } from './cron-job-types.ts';
import { type CronScheduleParse, isKnownTimeZone, parseCronSchedule } from './cron-schedule.ts';

/** The parse, and whether the schedule carries its own TZ (upstream's UnsupportedSchedule warning). */
export type CronJobScheduleParse = CronScheduleParse & { tzInSchedule: boolean };

/**
 * Parses spec.schedule in spec.timeZone (when the host knows that zone), else in `localTimeZone`. A
 * schedule mentioning `TZ` is taken as written (its `TZ=`/`CRON_TZ=` prefix, if any, decides the zone)
 * and flagged, as upstream does.
 *
 * @param cronJob spec.schedule and spec.timeZone
 * @param localTimeZone the controller's zone; undefined: the host's local zone
 */
export function cronJobSchedule(cronJob: CronJob, localTimeZone?: string): CronJobScheduleParse {
  const schedule = cronJob.spec.schedule ?? '';
  if (schedule.includes('TZ')) return { ...parseCronSchedule(schedule, localTimeZone), tzInSchedule: true };
  const tz = cronJob.spec.timeZone;
  const zone = tz !== undefined && tz !== null && isKnownTimeZone(tz) ? tz : localTimeZone;
  return { ...parseCronSchedule(schedule, zone), tzInSchedule: false };
}
