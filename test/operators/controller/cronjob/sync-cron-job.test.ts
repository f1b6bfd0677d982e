// syncCronJob: upstream's TestControllerV2SyncCronJob table in our own words (every case: creates, deletes, Events, status, requeue).
import { describe, expect, it } from 'vitest';
import type { CronJobControl } from '../../../../operators/controller/cronjob/cron-job-control.ts';
import type { CronJob, ObjectReference } from '../../../../operators/controller/cronjob/cron-job-types.ts';
import { jobFromTemplate } from '../../../../operators/controller/cronjob/job-from-template.ts';
import { syncCronJob } from '../../../../operators/controller/cronjob/sync-cron-job.ts';
import type { Job } from '../../../../operators/controller/job/job-types.ts';
import { ApiError } from '../../../../operators/errors.ts';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const DELTA = 100;
const t = (iso: string) => Date.parse(iso);
const TOP = t('2016-05-19T10:00:00Z');
const JUST_AFTER_PRIOR_HOUR = t('2016-05-19T09:01:00Z');
const JUST_BEFORE_PRIOR_HOUR = t('2016-05-19T08:59:00Z');
const JUST_AFTER_HOUR = t('2016-05-19T10:01:00Z');
const JUST_BEFORE_HOUR = t('2016-05-19T09:59:00Z');
const JUST_BEFORE_NEXT_HOUR = t('2016-05-19T10:59:00Z');
const WEEK_AFTER_HOUR = t('2016-05-26T10:00:00Z');
const stamp = (ms: number) =>
  new Date(ms).toISOString().replace(/\.(\d{3})Z$/, (_m, f) => (f === '000' ? 'Z' : `.${f}Z`));

const SHORT = 10;
const MEDIUM = 2 * 60 * 60;
const LONG = 1_000_000;
const ON_THE_HOUR = '0 * * * ?';
const EVERY_HOUR = '@every 1h';

const alreadyExists = () =>
  new ApiError(409, { reason: 'AlreadyExists', message: 'jobs.batch "x" already exists' });
const badRequest = () => new ApiError(400, { reason: 'BadRequest', message: 'request is invalid' });
const namespaceTerminating = () =>
  new ApiError(403, {
    reason: 'Forbidden',
    message: 'namespace snazzycats is being terminated',
    details: {
      causes: [
        {
          reason: 'NamespaceTerminating',
          message: 'namespace default is being terminated',
          field: 'metadata.namespace',
        },
      ],
    },
  });

interface Case {
  name: string;
  policy: 'Allow' | 'Forbid' | 'Replace';
  suspend?: boolean;
  schedule: string;
  timeZone?: string;
  deadline?: number;
  ranPreviously?: boolean;
  stillActive?: boolean;
  cronJobCreated?: number;
  jobCreated: number;
  lastScheduleTime?: number;
  now: number;
  createError?: () => ApiError;
  getError?: () => ApiError;
  jobNotInLister?: boolean;
  /** false: the Job is only in the CronJob a live GET returns (a slow CronJob cache). */
  jobInActive?: boolean;
  expectCreate?: boolean;
  expectDelete?: boolean;
  expectActive?: number;
  expectWarnings?: number;
  expectErr?: boolean;
  expectRequeueMs?: number;
  expectUpdateStatus?: boolean;
}

const A = 'Allow' as const;
const F = 'Forbid' as const;
const R = 'Replace' as const;
const each = <T extends Partial<Case>>(base: T, policies = [A, F, R]) =>
  policies.map((policy) => ({ ...base, policy, name: `${base.name}, ${policy[0]}` }));

const CASES: Case[] = [
  ...each({
    name: 'never ran, not valid schedule',
    schedule: 'obvious error schedule',
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_BEFORE_HOUR,
    expectWarnings: 1,
  }),
  {
    name: 'never ran, not valid time zone',
    policy: A,
    schedule: ON_THE_HOUR,
    timeZone: 'bad timezone',
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_BEFORE_HOUR,
    expectWarnings: 1,
  },
  ...each({
    name: 'never ran, not time',
    schedule: ON_THE_HOUR,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_BEFORE_HOUR,
    expectRequeueMs: M + DELTA,
  }),
  {
    name: 'never ran, not time in zone',
    policy: A,
    schedule: ON_THE_HOUR,
    timeZone: 'America/New_York',
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_BEFORE_HOUR,
    expectRequeueMs: M + DELTA,
  },
  ...each({
    name: 'never ran, is time',
    schedule: ON_THE_HOUR,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_AFTER_HOUR,
    expectCreate: true,
    expectActive: 1,
    expectRequeueMs: H - M + DELTA,
    expectUpdateStatus: true,
  }),
  {
    name: 'never ran, is time in zone',
    policy: A,
    schedule: ON_THE_HOUR,
    timeZone: 'America/New_York',
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_AFTER_HOUR,
    expectCreate: true,
    expectActive: 1,
    expectRequeueMs: H - M + DELTA,
    expectUpdateStatus: true,
  },
  {
    name: 'never ran, is time in zone, but TZ is also set in schedule',
    policy: A,
    schedule: `TZ=UTC ${ON_THE_HOUR}`,
    timeZone: 'America/New_York',
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_AFTER_HOUR,
    expectCreate: true,
    expectWarnings: 1,
    expectActive: 1,
    expectRequeueMs: H - M + DELTA,
    expectUpdateStatus: true,
  },
  {
    name: 'never ran, is time, suspended',
    policy: A,
    suspend: true,
    schedule: ON_THE_HOUR,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_AFTER_HOUR,
  },
  {
    name: 'never ran, is time, past deadline',
    policy: A,
    schedule: ON_THE_HOUR,
    deadline: SHORT,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_AFTER_HOUR + (SHORT + 1) * M,
    expectRequeueMs: H - M - (SHORT + 1) * M + DELTA,
  },
  {
    name: 'never ran, is time, not past deadline',
    policy: A,
    schedule: ON_THE_HOUR,
    deadline: LONG,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_AFTER_HOUR,
    expectCreate: true,
    expectActive: 1,
    expectRequeueMs: H - M + DELTA,
    expectUpdateStatus: true,
  },

  ...each({
    name: 'prev ran but done, not time',
    schedule: ON_THE_HOUR,
    ranPreviously: true,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_BEFORE_HOUR,
    expectRequeueMs: M + DELTA,
    expectUpdateStatus: true,
  }),
  ...each({
    name: 'prev ran but done, is time',
    schedule: ON_THE_HOUR,
    ranPreviously: true,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_AFTER_HOUR,
    expectCreate: true,
    expectActive: 1,
    expectRequeueMs: H - M + DELTA,
    expectUpdateStatus: true,
  }),
  {
    name: 'prev ran but done, is time, create job failed (already exists)',
    policy: A,
    schedule: ON_THE_HOUR,
    ranPreviously: true,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_AFTER_HOUR,
    createError: alreadyExists,
    // the Job it made before (its status write lost) joins the active list again
    expectActive: 1,
    expectRequeueMs: H - M + DELTA,
    expectUpdateStatus: true,
  },
  {
    name: 'prev ran but done, is time, suspended',
    policy: A,
    suspend: true,
    schedule: ON_THE_HOUR,
    ranPreviously: true,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_AFTER_HOUR,
    expectUpdateStatus: true,
  },
  // a 10 s deadline a minute after 10:00: the search starts at 10:00:50, so nothing is due (no Event either)
  {
    name: 'prev ran but done, is time, past deadline',
    policy: A,
    schedule: ON_THE_HOUR,
    deadline: SHORT,
    ranPreviously: true,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_AFTER_HOUR,
    expectRequeueMs: H - M + DELTA,
    expectUpdateStatus: true,
  },
  {
    name: 'prev ran but done, is time, not past deadline',
    policy: A,
    schedule: ON_THE_HOUR,
    deadline: LONG,
    ranPreviously: true,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_AFTER_HOUR,
    expectCreate: true,
    expectActive: 1,
    expectRequeueMs: H - M + DELTA,
    expectUpdateStatus: true,
  },

  ...each({
    name: 'still active, not time',
    schedule: ON_THE_HOUR,
    ranPreviously: true,
    stillActive: true,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_BEFORE_HOUR,
    expectActive: 1,
    expectRequeueMs: M + DELTA,
  }),
  {
    name: 'still active, is time, A',
    policy: A,
    schedule: ON_THE_HOUR,
    ranPreviously: true,
    stillActive: true,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_AFTER_HOUR,
    expectCreate: true,
    expectActive: 2,
    expectRequeueMs: H - M + DELTA,
    expectUpdateStatus: true,
  },
  {
    name: 'still active, is time, F',
    policy: F,
    schedule: ON_THE_HOUR,
    ranPreviously: true,
    stillActive: true,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_AFTER_HOUR,
    expectActive: 1,
    expectRequeueMs: H - M + DELTA,
  },
  {
    name: 'still active, is time, R',
    policy: R,
    schedule: ON_THE_HOUR,
    ranPreviously: true,
    stillActive: true,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_AFTER_HOUR,
    expectCreate: true,
    expectDelete: true,
    expectActive: 1,
    expectRequeueMs: H - M + DELTA,
    expectUpdateStatus: true,
  },
  {
    name: 'still active, is time, get job failed, R',
    policy: R,
    schedule: ON_THE_HOUR,
    ranPreviously: true,
    stillActive: true,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_AFTER_HOUR,
    getError: badRequest,
    expectActive: 1,
    expectWarnings: 1,
    expectErr: true,
  },
  {
    name: 'still active, is time, suspended',
    policy: A,
    suspend: true,
    schedule: ON_THE_HOUR,
    ranPreviously: true,
    stillActive: true,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_AFTER_HOUR,
    expectActive: 1,
  },
  {
    name: 'still active, is time, past deadline',
    policy: A,
    schedule: ON_THE_HOUR,
    deadline: SHORT,
    ranPreviously: true,
    stillActive: true,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_AFTER_HOUR,
    expectActive: 1,
    expectRequeueMs: H - M + DELTA,
  },
  {
    name: 'still active, is time, not past deadline',
    policy: A,
    schedule: ON_THE_HOUR,
    deadline: LONG,
    ranPreviously: true,
    stillActive: true,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_AFTER_HOUR,
    expectCreate: true,
    expectActive: 2,
    expectRequeueMs: H - M + DELTA,
    expectUpdateStatus: true,
  },

  // a week behind: more than 100 missed, with no deadline or a long one → TooManyMissedTimes, the latest still runs
  ...each({
    name: 'prev ran but done, long overdue, not past deadline',
    schedule: ON_THE_HOUR,
    deadline: LONG,
    ranPreviously: true,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: WEEK_AFTER_HOUR,
    expectCreate: true,
    expectActive: 1,
    expectWarnings: 1,
    expectRequeueMs: H + DELTA,
    expectUpdateStatus: true,
  }),
  ...each({
    name: 'prev ran but done, long overdue, no deadline',
    schedule: ON_THE_HOUR,
    ranPreviously: true,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: WEEK_AFTER_HOUR,
    expectCreate: true,
    expectActive: 1,
    expectWarnings: 1,
    expectRequeueMs: H + DELTA,
    expectUpdateStatus: true,
  }),
  ...each({
    name: 'prev ran but done, long overdue, past medium deadline',
    schedule: ON_THE_HOUR,
    deadline: MEDIUM,
    ranPreviously: true,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: WEEK_AFTER_HOUR,
    expectCreate: true,
    expectActive: 1,
    expectRequeueMs: H + DELTA,
    expectUpdateStatus: true,
  }),
  ...each({
    name: 'prev ran but done, long overdue, past short deadline',
    schedule: ON_THE_HOUR,
    deadline: SHORT,
    ranPreviously: true,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: WEEK_AFTER_HOUR,
    expectCreate: true,
    expectActive: 1,
    expectRequeueMs: H + DELTA,
    expectUpdateStatus: true,
  }),

  // the clock went back: the Job exists already, nothing is done
  {
    name: 'this ran but done, time drifted back, F',
    policy: F,
    schedule: ON_THE_HOUR,
    ranPreviously: true,
    jobCreated: JUST_AFTER_HOUR,
    now: JUST_BEFORE_HOUR,
    createError: alreadyExists,
    expectRequeueMs: M + DELTA,
    expectUpdateStatus: true,
  },

  // a slow Job cache: the active Job is only on the server
  ...each({
    name: 'this started but went missing, not past deadline',
    schedule: ON_THE_HOUR,
    deadline: LONG,
    ranPreviously: true,
    stillActive: true,
    jobCreated: TOP + 100,
    now: JUST_AFTER_HOUR + 100,
    jobNotInLister: true,
    expectActive: 1,
    expectRequeueMs: H - M - 100 + DELTA,
  }),
  // a slow CronJob cache: the Job is only in the CronJob a fresh GET returns
  ...each({
    name: 'this started but is not present in cronjob active list, not past deadline',
    schedule: ON_THE_HOUR,
    deadline: LONG,
    ranPreviously: true,
    stillActive: true,
    jobCreated: TOP + 100,
    now: JUST_AFTER_HOUR + 100,
    jobInActive: false,
    expectActive: 1,
    expectRequeueMs: H - M - 100 + DELTA,
  }),

  // @every schedules count from the creation or the last schedule time
  {
    name: 'with @every schedule, never ran, not time',
    policy: A,
    schedule: EVERY_HOUR,
    cronJobCreated: JUST_BEFORE_HOUR,
    jobCreated: JUST_BEFORE_HOUR,
    now: TOP,
    expectRequeueMs: H - M + DELTA,
  },
  {
    name: 'with @every schedule, never ran, is time',
    policy: A,
    schedule: EVERY_HOUR,
    cronJobCreated: JUST_BEFORE_PRIOR_HOUR,
    jobCreated: JUST_BEFORE_PRIOR_HOUR,
    now: JUST_BEFORE_HOUR,
    expectCreate: true,
    expectActive: 1,
    expectRequeueMs: H + DELTA,
    expectUpdateStatus: true,
  },
  {
    name: 'with @every schedule, never ran, is time, past deadline',
    policy: A,
    schedule: EVERY_HOUR,
    deadline: SHORT,
    cronJobCreated: JUST_BEFORE_PRIOR_HOUR,
    jobCreated: JUST_BEFORE_PRIOR_HOUR,
    now: JUST_BEFORE_HOUR + (SHORT + 1) * S,
    expectRequeueMs: H - (SHORT + 1) * S + DELTA,
  },
  {
    name: 'with @every schedule, never ran, is time, not past deadline',
    policy: A,
    schedule: EVERY_HOUR,
    deadline: LONG,
    cronJobCreated: JUST_BEFORE_PRIOR_HOUR,
    jobCreated: JUST_BEFORE_PRIOR_HOUR,
    now: JUST_BEFORE_HOUR + (SHORT - 1) * S,
    expectCreate: true,
    expectActive: 1,
    expectRequeueMs: H - (SHORT - 1) * S + DELTA,
    expectUpdateStatus: true,
  },
  {
    name: 'with @every schedule, prev ran but done, not time',
    policy: A,
    schedule: EVERY_HOUR,
    ranPreviously: true,
    cronJobCreated: JUST_BEFORE_PRIOR_HOUR,
    jobCreated: JUST_BEFORE_PRIOR_HOUR,
    lastScheduleTime: JUST_BEFORE_HOUR,
    now: TOP,
    expectRequeueMs: H - M + DELTA,
    expectUpdateStatus: true,
  },
  {
    name: 'with @every schedule, prev ran but done, is time',
    policy: A,
    schedule: EVERY_HOUR,
    ranPreviously: true,
    cronJobCreated: JUST_BEFORE_PRIOR_HOUR,
    jobCreated: JUST_BEFORE_PRIOR_HOUR,
    lastScheduleTime: JUST_BEFORE_HOUR,
    now: TOP + H,
    expectCreate: true,
    expectActive: 1,
    expectRequeueMs: H - M + DELTA,
    expectUpdateStatus: true,
  },
  {
    name: 'with @every schedule, prev ran but done, is time, past deadline',
    policy: A,
    schedule: EVERY_HOUR,
    deadline: SHORT,
    ranPreviously: true,
    cronJobCreated: JUST_BEFORE_PRIOR_HOUR,
    jobCreated: JUST_BEFORE_PRIOR_HOUR,
    lastScheduleTime: JUST_BEFORE_HOUR,
    now: JUST_BEFORE_NEXT_HOUR + (SHORT + 1) * S,
    expectRequeueMs: H - (SHORT + 1) * S + DELTA,
    expectUpdateStatus: true,
  },
  {
    name: 'with @every schedule, still active, not time',
    policy: A,
    schedule: EVERY_HOUR,
    ranPreviously: true,
    stillActive: true,
    cronJobCreated: JUST_BEFORE_PRIOR_HOUR,
    jobCreated: JUST_BEFORE_HOUR,
    lastScheduleTime: JUST_BEFORE_HOUR,
    now: TOP,
    expectActive: 1,
    expectRequeueMs: H - M + DELTA,
  },
  {
    name: 'with @every schedule, still active, is time',
    policy: A,
    schedule: EVERY_HOUR,
    ranPreviously: true,
    stillActive: true,
    cronJobCreated: JUST_BEFORE_PRIOR_HOUR,
    jobCreated: JUST_BEFORE_PRIOR_HOUR,
    lastScheduleTime: JUST_BEFORE_PRIOR_HOUR,
    now: JUST_AFTER_HOUR,
    expectCreate: true,
    expectActive: 2,
    expectRequeueMs: H - 2 * M + DELTA,
    expectUpdateStatus: true,
  },
  {
    name: 'with @every schedule, still active, is time, past deadline',
    policy: A,
    schedule: EVERY_HOUR,
    deadline: SHORT,
    ranPreviously: true,
    stillActive: true,
    cronJobCreated: JUST_BEFORE_PRIOR_HOUR,
    jobCreated: JUST_BEFORE_HOUR,
    lastScheduleTime: JUST_BEFORE_HOUR,
    now: JUST_BEFORE_NEXT_HOUR + (SHORT + 1) * S,
    expectActive: 1,
    expectRequeueMs: H - (SHORT + 1) * S + DELTA,
  },
  {
    name: 'with @every schedule, still active, is time, not past deadline',
    policy: A,
    schedule: EVERY_HOUR,
    deadline: LONG,
    ranPreviously: true,
    stillActive: true,
    cronJobCreated: JUST_BEFORE_PRIOR_HOUR,
    jobCreated: JUST_BEFORE_HOUR,
    lastScheduleTime: JUST_BEFORE_HOUR,
    now: JUST_BEFORE_NEXT_HOUR + (SHORT - 1) * S,
    expectCreate: true,
    expectActive: 2,
    expectRequeueMs: H - (SHORT - 1) * S + DELTA,
    expectUpdateStatus: true,
  },
  {
    name: 'with @every schedule, prev ran but done, long overdue, no deadline',
    policy: A,
    schedule: EVERY_HOUR,
    ranPreviously: true,
    cronJobCreated: JUST_AFTER_PRIOR_HOUR,
    lastScheduleTime: JUST_AFTER_HOUR,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: WEEK_AFTER_HOUR,
    expectCreate: true,
    expectActive: 1,
    expectWarnings: 1,
    expectRequeueMs: M + DELTA,
    expectUpdateStatus: true,
  },
  {
    name: 'with @every schedule, prev ran but done, long overdue, past deadline',
    policy: A,
    schedule: EVERY_HOUR,
    deadline: SHORT,
    ranPreviously: true,
    cronJobCreated: JUST_AFTER_PRIOR_HOUR,
    lastScheduleTime: JUST_AFTER_HOUR,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: WEEK_AFTER_HOUR + M + (SHORT + 1) * S,
    expectRequeueMs: H - (SHORT + 1) * S + DELTA,
    expectUpdateStatus: true,
  },
  {
    name: 'do nothing if the namespace is terminating',
    policy: A,
    schedule: ON_THE_HOUR,
    ranPreviously: true,
    stillActive: true,
    jobInActive: false,
    jobCreated: JUST_AFTER_PRIOR_HOUR,
    now: JUST_AFTER_HOUR,
    createError: namespaceTerminating,
    expectErr: true,
  },
];

const baseCronJob = (c: Case): CronJob => ({
  metadata: {
    name: 'mycronjob',
    namespace: 'snazzycats',
    uid: '1a2b3c',
    creationTimestamp: stamp(JUST_BEFORE_HOUR),
  },
  spec: {
    schedule: c.schedule,
    concurrencyPolicy: c.policy,
    suspend: c.suspend ?? false,
    ...(c.timeZone !== undefined ? { timeZone: c.timeZone } : {}),
    ...(c.deadline !== undefined ? { startingDeadlineSeconds: c.deadline } : {}),
    jobTemplate: {
      metadata: { labels: { a: 'b' }, annotations: { x: 'y' } },
      spec: {
        parallelism: 1,
        completions: 1,
        template: {
          metadata: { labels: { foo: 'bar' } },
          spec: { containers: [{ name: 'c', image: 'foo/bar' }] },
        },
      },
    },
  },
  status: {},
});

/** The world of one case: the CronJob the controller sees, the one a live GET returns, the Jobs, the fakes. */
function setUp(c: Case) {
  const cj = baseCronJob(c);
  const real = structuredClone(cj);
  const jobs: Job[] = [];
  let job: Job | undefined;
  if (c.ranPreviously) {
    cj.metadata.creationTimestamp = stamp(c.cronJobCreated ?? JUST_BEFORE_PRIOR_HOUR);
    cj.status = { lastScheduleTime: stamp(c.lastScheduleTime ?? JUST_AFTER_PRIOR_HOUR) };
    job = jobFromTemplate(cj, c.jobCreated);
    job.metadata = { ...job.metadata, uid: '1234', creationTimestamp: stamp(c.jobCreated) };
    if (c.stillActive) {
      const ref: ObjectReference = {
        kind: 'Job',
        apiVersion: 'batch/v1',
        namespace: 'snazzycats',
        name: job.metadata.name ?? '',
        uid: '1234',
      };
      if (c.jobInActive !== false) cj.status.active = [ref];
      real.status = { active: [ref] };
    } else {
      job.status = {
        completionTime: stamp(c.jobCreated + 10 * S),
        conditions: [{ type: 'Complete', status: 'True' }],
      };
    }
    if (!c.jobNotInLister) jobs.push(job);
  } else {
    cj.metadata.creationTimestamp = stamp(c.cronJobCreated ?? JUST_BEFORE_HOUR);
  }
  const created: Job[] = [];
  const deleted: string[] = [];
  const events: { type: string; reason: string; message: string }[] = [];
  const control: CronJobControl = {
    getCronJob: async () => structuredClone(real),
    getJob: async () => {
      if (c.getError) throw c.getError();
      if (!job) throw new ApiError(404, { reason: 'NotFound', message: 'not found' });
      return structuredClone(job);
    },
    createJob: async (_ns, j) => {
      if (c.createError) throw c.createError();
      created.push(j);
      return { ...j, metadata: { ...j.metadata, uid: 'test-uid' } };
    },
    deleteJob: async (_ns, name) => {
      deleted.push(name);
    },
    record: (type, reason, message) => events.push({ type, reason, message }),
  };
  return { cj, jobs, control, created, deleted, events };
}

describe('syncCronJob (upstream TestControllerV2SyncCronJob)', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const { cj, jobs, control, created, deleted, events } = setUp(c);
    const input = structuredClone(cj);
    const result = await syncCronJob({ cronJob: cj, jobs, now: c.now, localTimeZone: 'UTC' }, control);

    expect(cj).toEqual(input); // the sync works on a copy
    expect(result.error !== undefined).toBe(c.expectErr ?? false);
    expect(result.requeueAfterMs).toBe(c.expectRequeueMs);
    expect(result.updateStatus).toBe(c.expectUpdateStatus ?? false);
    expect(created).toHaveLength(c.expectCreate ? 1 : 0);
    expect(deleted).toHaveLength(c.expectDelete ? 1 : 0);
    for (const j of created) {
      expect(j.metadata.ownerReferences).toEqual([
        {
          apiVersion: 'batch/v1',
          kind: 'CronJob',
          name: 'mycronjob',
          uid: '1a2b3c',
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
    }
    const warnings = events.filter((e) => e.type === 'Warning');
    expect(warnings).toHaveLength(c.expectWarnings ?? 0);
    const normal =
      (c.expectCreate ? 1 : 0) + (c.expectDelete ? 1 : 0) + (c.name === 'still active, is time, F' ? 1 : 0);
    expect(events.length - warnings.length).toBe(normal);
    if (!c.expectErr) expect(result.cronJob.status?.active ?? []).toHaveLength(c.expectActive ?? 0);
    if (c.ranPreviously && !c.stillActive) {
      expect(result.cronJob.status?.lastSuccessfulTime).toBe(stamp(c.jobCreated + 10 * S));
    }
  });

  it('records what happened in upstream words', async () => {
    const c = CASES.find((x) => x.name === 'still active, is time, R') as Case;
    const { cj, jobs, control, events } = setUp(c);
    await syncCronJob({ cronJob: cj, jobs, now: c.now, localTimeZone: 'UTC' }, control);
    expect(events).toEqual([
      { type: 'Normal', reason: 'SuccessfulDelete', message: 'Deleted job mycronjob-24394141' },
      { type: 'Normal', reason: 'SuccessfulCreate', message: 'Created job mycronjob-24394200' },
    ]);
  });

  it.each([
    [
      'an unparseable schedule',
      { schedule: 'obvious error schedule' },
      'UnparseableSchedule',
      'unparseable schedule: "obvious error schedule" : expected exactly 5 fields, found 3: [obvious error schedule]',
    ],
    [
      'an unknown time zone',
      { timeZone: 'bad timezone' },
      'UnknownTimeZone',
      'invalid timeZone: "bad timezone": unknown time zone bad timezone',
    ],
    [
      'a schedule that never fires',
      { schedule: '59 23 31 2 *' },
      'InvalidSchedule',
      'invalid schedule: 59 23 31 2 * : time difference between two schedules is less than 1 second',
    ],
  ] as const)('warns about %s', async (_n, patch, reason, message) => {
    const c: Case = {
      name: 'x',
      policy: A,
      schedule: ON_THE_HOUR,
      jobCreated: JUST_AFTER_PRIOR_HOUR,
      now: JUST_AFTER_HOUR,
      ...patch,
    };
    const { cj, jobs, control, events } = setUp(c);
    await syncCronJob({ cronJob: cj, jobs, now: c.now, localTimeZone: 'UTC' }, control);
    expect(events).toEqual([{ type: 'Warning', reason, message }]);
  });

  it('a finished active Job leaves the list with SawCompletedJob; a vanished one with MissingJob', async () => {
    const c: Case = {
      name: 'x',
      policy: A,
      schedule: ON_THE_HOUR,
      ranPreviously: true,
      stillActive: true,
      jobCreated: JUST_AFTER_PRIOR_HOUR,
      now: JUST_BEFORE_HOUR,
    };
    const { cj, jobs, control, events } = setUp(c);
    (jobs[0] as Job).status = {
      completionTime: stamp(JUST_AFTER_PRIOR_HOUR + 10 * S),
      conditions: [{ type: 'Failed', status: 'True' }],
    };
    const ghost: ObjectReference = { kind: 'Job', namespace: 'snazzycats', name: 'ghost', uid: 'ghost-uid' };
    cj.status = { ...cj.status, active: [...(cj.status?.active ?? []), ghost] };
    const result = await syncCronJob(
      { cronJob: cj, jobs, now: c.now, localTimeZone: 'UTC' },
      { ...control, getJob: async () => Promise.reject(new ApiError(404, { reason: 'NotFound' })) },
    );
    expect(result.cronJob.status?.active).toEqual([]);
    expect(result.cronJob.status?.lastSuccessfulTime).toBeUndefined(); // failed, not successful
    expect(result.updateStatus).toBe(true);
    expect(events.map((e) => [e.reason, e.message])).toEqual([
      ['SawCompletedJob', 'Saw completed job: mycronjob-24394141, condition: Failed'],
      ['MissingJob', 'Active job went missing: ghost'],
    ]);
  });

  it('an unfinished Job it did not create: UnexpectedJob, and it is not adopted', async () => {
    const c: Case = {
      name: 'x',
      policy: F,
      schedule: ON_THE_HOUR,
      ranPreviously: true,
      stillActive: true,
      jobInActive: false,
      jobCreated: JUST_AFTER_PRIOR_HOUR,
      now: JUST_AFTER_HOUR,
    };
    const { cj, jobs, control, events, created } = setUp(c);
    const result = await syncCronJob(
      { cronJob: cj, jobs, now: c.now, localTimeZone: 'UTC' },
      { ...control, getCronJob: async () => structuredClone(cj) },
    );
    expect(events[0]).toEqual({
      type: 'Warning',
      reason: 'UnexpectedJob',
      message: 'Saw a job that the controller did not create or forgot: mycronjob-24394141',
    });
    expect(created).toHaveLength(1); // Forbid sees no active Job: upstream's known gap
    expect(result.cronJob.status?.active).toHaveLength(1);
  });

  it('being deleted: only the status is reconciled', async () => {
    const c: Case = {
      name: 'x',
      policy: A,
      schedule: ON_THE_HOUR,
      ranPreviously: true,
      jobCreated: JUST_AFTER_PRIOR_HOUR,
      now: JUST_AFTER_HOUR,
    };
    const { cj, jobs, control, created } = setUp(c);
    cj.metadata.deletionTimestamp = stamp(JUST_AFTER_HOUR);
    const result = await syncCronJob({ cronJob: cj, jobs, now: c.now, localTimeZone: 'UTC' }, control);
    expect(created).toHaveLength(0);
    expect(result.requeueAfterMs).toBeUndefined();
    expect(result.updateStatus).toBe(true); // lastSuccessfulTime
  });

  it('a create that fails otherwise: FailedCreate and an error to retry', async () => {
    const c: Case = {
      name: 'x',
      policy: A,
      schedule: ON_THE_HOUR,
      jobCreated: JUST_AFTER_PRIOR_HOUR,
      now: JUST_AFTER_HOUR,
      createError: badRequest,
    };
    const { cj, jobs, control, events } = setUp(c);
    const result = await syncCronJob({ cronJob: cj, jobs, now: c.now, localTimeZone: 'UTC' }, control);
    expect(result.error).toBeInstanceOf(ApiError);
    expect(events).toEqual([
      {
        type: 'Warning',
        reason: 'FailedCreate',
        message: 'Error creating job: BadRequest (400): request is invalid',
      },
    ]);
  });

  it('the scheduled-timestamp annotation is in the CronJob zone', async () => {
    const c: Case = {
      name: 'x',
      policy: A,
      schedule: ON_THE_HOUR,
      timeZone: 'America/New_York',
      jobCreated: JUST_AFTER_PRIOR_HOUR,
      now: JUST_AFTER_HOUR,
    };
    const { cj, jobs, control, created } = setUp(c);
    const result = await syncCronJob({ cronJob: cj, jobs, now: c.now, localTimeZone: 'UTC' }, control);
    expect(created[0]?.metadata.annotations).toEqual({
      x: 'y',
      'batch.kubernetes.io/cronjob-scheduled-timestamp': '2016-05-19T06:00:00-04:00',
    });
    expect(result.cronJob.status?.lastScheduleTime).toBe('2016-05-19T10:00:00Z');
    expect(result.created?.scheduledTime).toBe(TOP);
  });
});
