// mostRecentScheduleTime, nextScheduleTime, nextScheduleTimeDuration: upstream's utils_test.go cases (TestMostRecentScheduleTime, TestNextScheduleTime, TestNextScheduleTimeDuration) in our own words.
import { describe, expect, it } from 'vitest';
import type { CronJob } from '../../../../operators/controller/cronjob/cron-job-types.ts';
import { parseCronSchedule } from '../../../../operators/controller/cronjob/cron-schedule.ts';
import { mostRecentScheduleTime } from '../../../../operators/controller/cronjob/most-recent-schedule-time.ts';
import {
  nextScheduleTime,
  nextScheduleTimeDuration,
} from '../../../../operators/controller/cronjob/next-schedule-time.ts';

/** 2016-05-19T10:00:00Z, a Thursday: upstream's topOfTheHour. */
const TOP = Date.parse('2016-05-19T10:00:00Z');
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const stamp = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

const cronJob = (schedule: string, created: number, last?: number, deadline?: number): CronJob => ({
  metadata: { name: 'mycronjob', namespace: 'default', uid: '1a2b3c', creationTimestamp: stamp(created) },
  spec: {
    schedule,
    ...(deadline !== undefined ? { startingDeadlineSeconds: deadline } : {}),
    jobTemplate: { spec: { template: { spec: { containers: [] } } } },
  },
  status: last !== undefined ? { lastScheduleTime: stamp(last) } : {},
});
const scheduleOf = (spec: string) => {
  const r = parseCronSchedule(spec, 'UTC');
  if (!r.ok) throw new Error(r.error);
  return r.schedule;
};

describe('mostRecentScheduleTime', () => {
  it.each([
    // name, schedule, created, lastScheduleTime, deadline, includeDeadline, now, earliest, mostRecent, missed
    [
      'now before the next time',
      '0 * * * *',
      TOP,
      undefined,
      undefined,
      false,
      TOP + 30 * S,
      TOP,
      undefined,
      'none',
    ],
    [
      'now just after the next time',
      '0 * * * *',
      TOP,
      undefined,
      undefined,
      false,
      TOP + 61 * M,
      TOP,
      TOP + H,
      'none',
    ],
    [
      'five missed',
      '0 * * * *',
      TOP + 10 * S,
      undefined,
      undefined,
      false,
      TOP + 301 * M,
      TOP + 10 * S,
      TOP + 300 * M,
      'few',
    ],
    [
      'an irregular schedule',
      '30 6-16/4 * * 1-5',
      TOP,
      TOP + 30 * M,
      undefined,
      false,
      TOP + 24 * H + 31 * M,
      TOP + 30 * M,
      TOP + 24 * H + 30 * M,
      'few',
    ],
    // the estimate starts past Friday 12:30 and finds nothing before now: upstream's answer too
    [
      'another irregular schedule',
      '30 10,11,12 * * 1-5',
      TOP,
      TOP + 30 * M,
      undefined,
      false,
      TOP + 30 * H + 30 * M,
      TOP + 30 * M,
      undefined,
      'few',
    ],
    [
      'an irregular schedule, a longer gap',
      '30 6-16/4 * * 1-5',
      TOP,
      TOP + 30 * M,
      undefined,
      false,
      TOP + 96 * H + 31 * M,
      TOP + 30 * M,
      TOP + 96 * H + 30 * M,
      'few',
    ],
    [
      'an irregular schedule, never ran',
      '30 6-16/4 * * 1-5',
      TOP,
      undefined,
      undefined,
      false,
      TOP + 24 * H + 31 * M,
      TOP,
      TOP + 24 * H + 30 * M,
      'few',
    ],
    [
      '@every, a week missed',
      '@every 1h',
      TOP - 59 * M,
      TOP + M,
      10,
      false,
      TOP + 7 * 24 * H,
      TOP + M,
      TOP + 6 * 24 * H + 23 * H + M,
      'many',
    ],
    [
      'earliest is the creation and the last time',
      '0 * * * *',
      TOP,
      TOP,
      undefined,
      false,
      TOP + 30 * S,
      TOP,
      undefined,
      'none',
    ],
    [
      'earliest is the last time',
      '*/5 * * * *',
      TOP,
      TOP + 30 * M,
      undefined,
      false,
      TOP + 31 * M,
      TOP + 30 * M,
      undefined,
      'none',
    ],
    [
      'earliest is the last time, within the deadline',
      '*/5 * * * *',
      TOP,
      TOP + 30 * M,
      60,
      false,
      TOP + 31 * M,
      TOP + 30 * M,
      undefined,
      'none',
    ],
    [
      'earliest raised by the deadline',
      '*/5 * * * *',
      TOP,
      TOP + 30 * M,
      60,
      true,
      TOP + 32 * M,
      TOP + 31 * M,
      undefined,
      'none',
    ],
  ] as const)('%s', (_n, spec, created, last, deadline, includeSDS, now, earliest, mostRecent, missed) => {
    const got = mostRecentScheduleTime(
      cronJob(spec, created, last, deadline),
      now,
      scheduleOf(spec),
      includeSDS,
    );
    expect(got).toEqual({ earliest, missed, ...(mostRecent !== undefined ? { mostRecent } : {}) });
  });

  it('a schedule that never fires is an error ("59 23 31 2 *")', () => {
    const got = mostRecentScheduleTime(
      cronJob('59 23 31 2 *', TOP + 10 * S),
      TOP + H,
      scheduleOf('59 23 31 2 *'),
      false,
    );
    expect(got.error).toBe('time difference between two schedules is less than 1 second');
    expect(got.mostRecent).toBeUndefined();
  });
});

describe('nextScheduleTime (hourly on the hour, T1 = 10:00, T2 = 11:00)', () => {
  const T1 = TOP;
  const T2 = TOP + H;
  it.each([
    ['nothing known, none due yet', T1 - 10 * M, undefined, undefined, T1 - 7 * M, undefined],
    ['nothing known, one due', T1 - 10 * M, undefined, undefined, T1 + 2 * S, T1],
    ['ran at T1, none due', T1 - 10 * M, T1, undefined, T1 + 2 * M, undefined],
    ['ran at T1, T2 due', T1 - 10 * M, T1, undefined, T2 + 5 * M, T2],
    ['ran an hour before T1, T1 and T2 due: the latest', T1 - 2 * H, T1 - H, undefined, T2 + 5 * M, T2],
    [
      'ten days behind, no deadline: still the latest',
      T1 - 2 * H,
      T1 - H,
      undefined,
      T2 + 240 * H,
      T2 + 240 * H,
    ],
    ['ten days behind, a two-hour deadline', T1 - 2 * H, T1 - H, 7200, T2 + 240 * H, T2 + 240 * H],
  ] as const)('%s', (_n, created, last, deadline, now, want) => {
    const got = nextScheduleTime(cronJob('0 * * * ?', created, last, deadline), now, scheduleOf('0 * * * ?'));
    expect(got.scheduledTime).toBe(want);
    expect(got.error).toBeUndefined();
  });

  it('more than 100 missed: the latest, with tooManyMissed', () => {
    const got = nextScheduleTime(
      cronJob('0 * * * ?', T1 - 2 * H, T1 - H),
      T2 + 240 * H,
      scheduleOf('0 * * * ?'),
    );
    expect(got).toEqual({ scheduledTime: T2 + 240 * H, tooManyMissed: true });
  });

  it("the schedule's error comes up (a rogue schedule)", () => {
    const got = nextScheduleTime(cronJob('59 23 31 2 *', T1 + 10 * S), T1 + H, scheduleOf('59 23 31 2 *'));
    expect(got.scheduledTime).toBeUndefined();
    expect(got.error).toBeDefined();
  });
});

describe('nextScheduleTimeDuration', () => {
  it.each([
    [
      'an irregular schedule skipping the weekend',
      '30 6-16/4 * * 1-5',
      TOP + 30 * M,
      TOP + 24 * H + 31 * M,
      3 * H + 59 * M + 100,
    ],
    [
      'another one skipping the weekend',
      '30 10,11,12 * * 1-5',
      TOP + 30 * M,
      TOP + 30 * H + 30 * M,
      66 * H + 100,
    ],
    [
      'weekly, two runs missed',
      '0 12 * * 4',
      TOP + 2 * H,
      TOP + 19 * 24 * H + H + 30 * M,
      48 * H + 30 * M + 100,
    ],
    ['never ran', '0 12 * * 5', undefined, TOP + 6 * H, 20 * H + 100],
    // upstream's TestControllerV2UpdateCronJob: a changed schedule, now 09:59:59, last run 09:59
    ['schedule changed to every minute', '*/1 * * * *', TOP - M, TOP - 1000, 1000 + 100],
    ['@every 1m → @every 3m (less often)', '@every 3m', TOP - M, TOP - 1000, 2 * M + 1000 + 100],
    ['@every 3m → @every 1m (more often)', '@every 1m', TOP - M, TOP - 1000, 1000 + 100],
  ] as const)('%s', (_n, spec, last, now, want) => {
    const got = nextScheduleTimeDuration(cronJob(spec, TOP, last), now, scheduleOf(spec));
    expect(got).toBe(want);
    expect(got).toBeGreaterThan(0);
  });
});
