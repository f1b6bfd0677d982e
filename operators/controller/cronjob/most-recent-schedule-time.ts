// mostRecentScheduleTime: the latest start time a CronJob has missed, and how many it missed (upstream's approximation).

import { type CronJob, TOO_MANY_MISSED_SCHEDULES, timeOf } from './cron-job-types.ts';
import type { CronSchedule } from './cron-schedule.ts';

/** How many start times were missed since the earliest time: none, a few, or more than 100. */
export type MissedSchedules = 'none' | 'few' | 'many';

/** What {@link mostRecentScheduleTime} found. */
export interface MostRecentScheduleTime {
  /** Where the search started: lastScheduleTime, else creationTimestamp (raised to now − deadline when asked). */
  earliest: number;
  /** The most recent start time in (earliest, now], or undefined when none is found. */
  mostRecent?: number;
  missed: MissedSchedules;
  /** Set when the schedule's next two times are less than a second apart or never come ("59 23 31 2 *"). */
  error?: string;
}

/**
 * The most recent time a Job should have been created, as upstream finds it: the two activations t1, t2
 * after the earliest time give the interval; when now is past t2 the number of missed starts is estimated
 * as (now − t1) / interval + 1 and the search for the last one starts that many intervals (less two)
 * after t1, so a long outage costs a bounded walk. The estimate can miss an irregular schedule's last
 * time (then `mostRecent` is undefined with `missed: 'few'`), exactly as upstream's does.
 *
 * @example
 * mostRecentScheduleTime(cj, Date.parse('2016-05-19T11:01:00Z'), schedule, false).mostRecent; // 11:00
 *
 * @param cronJob its creationTimestamp, status.lastScheduleTime and spec.startingDeadlineSeconds
 * @param now the clock, epoch ms
 * @param schedule the parsed schedule
 * @param includeStartingDeadlineSeconds raise the earliest time to now − startingDeadlineSeconds
 */
export function mostRecentScheduleTime(
  cronJob: CronJob,
  now: number,
  schedule: CronSchedule,
  includeStartingDeadlineSeconds: boolean,
): MostRecentScheduleTime {
  let earliest = timeOf(cronJob.status?.lastScheduleTime) ?? timeOf(cronJob.metadata.creationTimestamp) ?? 0;
  const deadline = cronJob.spec.startingDeadlineSeconds;
  if (includeStartingDeadlineSeconds && deadline !== undefined && deadline !== null) {
    earliest = Math.max(earliest, now - deadline * 1000);
  }
  const t1 = schedule.next(earliest);
  const t2 = t1 === undefined ? undefined : schedule.next(t1);
  if (t1 !== undefined && now < t1) return { earliest, missed: 'none' };
  if (t1 !== undefined && t2 !== undefined && now < t2) return { earliest, mostRecent: t1, missed: 'none' };
  const interval = t1 === undefined || t2 === undefined ? 0 : Math.round((t2 - t1) / 1000);
  if (t1 === undefined || interval < 1) {
    return { earliest, missed: 'none', error: 'time difference between two schedules is less than 1 second' };
  }
  const elapsed = Math.trunc((now - t1) / 1000);
  const missedCount = Math.trunc(elapsed / interval) + 1;
  let mostRecent: number | undefined;
  const from = t1 + (missedCount - 2) * interval * 1000;
  for (let t = schedule.next(from); t !== undefined && t <= now; t = schedule.next(t)) mostRecent = t;
  const missed: MissedSchedules = missedCount > TOO_MANY_MISSED_SCHEDULES ? 'many' : 'few';
  return mostRecent === undefined ? { earliest, missed } : { earliest, mostRecent, missed };
}
