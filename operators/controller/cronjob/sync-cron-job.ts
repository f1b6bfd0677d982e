// syncCronJob: one CronJob's reconcile (upstream's syncCronJob): active list, schedule, concurrency policy, the Job, status.
import { getControllerOf } from '../controller-ref.ts';
import { isJobFinished, type Job } from '../job/job-types.ts';
import {
  type CronJobControl,
  isAlreadyExists,
  isNamespaceTerminating,
  isNotFound,
  messageOf,
  reapJob,
} from './cron-job-control.ts';
import { cronJobSchedule } from './cron-job-schedule.ts';
import { type CronJob, type ObjectReference, stampOf, timeOf } from './cron-job-types.ts';
import { isKnownTimeZone } from './cron-schedule.ts';
import { isJobSucceeded } from './finished-jobs-to-delete.ts';
import { cronJobJobName, jobFromTemplate } from './job-from-template.ts';
import { nextScheduleTime, nextScheduleTimeDuration } from './next-schedule-time.ts';

/** What one sync starts from. */
export interface CronJobSyncInput {
  /** The CronJob as the cache has it; the sync works on a copy. */
  cronJob: CronJob;
  /** The Jobs whose controllerRef names it (labels do not matter). */
  jobs: readonly Job[];
  /** The clock, epoch ms. */
  now: number;
  /** The zone schedules without spec.timeZone are read in; undefined: the host's local zone. */
  localTimeZone?: string;
}

/** How one sync ended. */
export interface CronJobSyncResult {
  /** The copy with the sync's status edits (replaced by a fresh read when the cache was stale). */
  cronJob: CronJob;
  /** The status changed and needs writing. */
  updateStatus: boolean;
  /** Look again after this many ms (the next start time + 100 ms); undefined: only on a change. */
  requeueAfterMs?: number;
  /** A failure worth a rate-limited retry. */
  error?: unknown;
  /** The Job this sync created (not one found already there) and its scheduled time. */
  created?: { job: Job; scheduledTime: number };
}

const inActive = (cj: CronJob, uid: string | undefined) =>
  cj.status?.active?.some((r) => r.uid === uid) ?? false;
const dropActive = (cj: CronJob, uid: string | undefined) => {
  if (cj.status?.active) cj.status.active = cj.status.active.filter((r) => r.uid !== uid);
};
const refOf = (job: Job): ObjectReference => ({
  kind: 'Job',
  namespace: job.metadata.namespace ?? '',
  name: job.metadata.name ?? '',
  uid: job.metadata.uid ?? '',
  apiVersion: 'batch/v1',
  ...(job.metadata.resourceVersion ? { resourceVersion: job.metadata.resourceVersion } : {}),
});
/** Go's RFC1123Z in UTC: `Thu, 19 May 2016 10:00:00 +0000`. */
const rfc1123z = (ms: number) => new Date(ms).toUTCString().replace('GMT', '+0000');

/**
 * Reconciles one CronJob with its Jobs, as upstream's syncCronJob:
 * 1. status.active: an unfinished Job missing from it is adopted only if a fresh read of the CronJob
 *    lists it (else Warning UnexpectedJob); finished Jobs leave it (SawCompletedJob) and a Complete one
 *    moves lastSuccessfulTime forward; a listed Job neither cached nor found by a live GET leaves it (MissingJob).
 * 2. Nothing more when the CronJob is being deleted, its time zone is unknown (UnknownTimeZone), it is
 *    suspended, or its schedule does not parse (UnparseableSchedule) or never fires (InvalidSchedule).
 * 3. The most recent unmet start time: none → requeue at the next one; older than startingDeadlineSeconds →
 *    MissSchedule; already created → requeue; Forbid with active Jobs → JobAlreadyActive; Replace → every
 *    active Job deleted first. More than 100 missed → TooManyMissedTimes, the latest still runs.
 * 4. The Job from the template (SuccessfulCreate; AlreadyExists counts as created when this CronJob owns
 *    it), added to status.active with lastScheduleTime = its scheduled time; requeue at the next time.
 *
 * ```
 * "0 * * * *", now 10:01, lastScheduleTime 09:00, no active Job
 *   → create mycronjob-24394200, active [it], lastScheduleTime 10:00, requeue in 59 min 100 ms
 * ```
 *
 * @param input the CronJob, its Jobs, the clock
 * @param control the reads, writes and Events (errors are `ApiError`s)
 * @returns the edited copy, whether to write its status, when to look again, an error to retry on
 */
export async function syncCronJob(
  input: CronJobSyncInput,
  control: CronJobControl,
): Promise<CronJobSyncResult> {
  const { now, jobs } = input;
  let cj: CronJob = structuredClone(input.cronJob);
  let updateStatus = false;
  const done = (extra: Partial<CronJobSyncResult> = {}): CronJobSyncResult => ({
    cronJob: cj,
    updateStatus,
    ...extra,
  });
  const ns = cj.metadata.namespace ?? '';
  const name = cj.metadata.name ?? '';

  const children = new Set<string | undefined>();
  for (const job of jobs) {
    children.add(job.metadata.uid);
    const found = inActive(cj, job.metadata.uid);
    const finished = isJobFinished(job);
    if (!found && !finished) {
      let live: CronJob;
      try {
        live = await control.getCronJob(ns, name);
      } catch (error) {
        return done({ error });
      }
      if (inActive(live, job.metadata.uid)) {
        cj = structuredClone(live);
        continue;
      }
      control.record(
        'Warning',
        'UnexpectedJob',
        `Saw a job that the controller did not create or forgot: ${job.metadata.name ?? ''}`,
      );
    } else if (finished) {
      if (found) {
        const condition = job.status?.conditions?.find(
          (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
        )?.type;
        dropActive(cj, job.metadata.uid);
        control.record(
          'Normal',
          'SawCompletedJob',
          `Saw completed job: ${job.metadata.name ?? ''}, condition: ${condition}`,
        );
        updateStatus = true;
      }
      if (isJobSucceeded(job)) {
        const completion = job.status?.completionTime;
        const last = timeOf(cj.status?.lastSuccessfulTime);
        const at = timeOf(completion);
        if (last === undefined || (at !== undefined && at > last)) {
          cj.status = { ...cj.status, lastSuccessfulTime: completion ?? null };
          updateStatus = true;
        }
      }
    }
  }

  // an active entry whose Job is neither cached nor on the server: gone, so the CronJob is not stuck
  for (const ref of [...(cj.status?.active ?? [])]) {
    if (children.has(ref.uid)) continue;
    try {
      await control.getJob(ref.namespace ?? ns, ref.name ?? '');
    } catch (error) {
      if (!isNotFound(error)) return done({ error });
      control.record('Normal', 'MissingJob', `Active job went missing: ${ref.name ?? ''}`);
      dropActive(cj, ref.uid);
      updateStatus = true;
    }
  }

  if (cj.metadata.deletionTimestamp) return done();

  const tz = cj.spec.timeZone;
  if (tz !== undefined && tz !== null && !isKnownTimeZone(tz)) {
    control.record(
      'Warning',
      'UnknownTimeZone',
      `invalid timeZone: ${JSON.stringify(tz)}: unknown time zone ${tz}`,
    );
    return done();
  }
  if (cj.spec.suspend === true) return done();

  const parsed = cronJobSchedule(cj, input.localTimeZone);
  if (parsed.tzInSchedule) {
    control.record(
      'Warning',
      'UnsupportedSchedule',
      `CRON_TZ or TZ used in schedule ${JSON.stringify(cj.spec.schedule)} is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`,
    );
  }
  if (!parsed.ok) {
    control.record(
      'Warning',
      'UnparseableSchedule',
      `unparseable schedule: ${JSON.stringify(cj.spec.schedule)} : ${parsed.error}`,
    );
    return done();
  }
  const schedule = parsed.schedule;
  const requeue = () => {
    const ms = nextScheduleTimeDuration(cj, now, schedule);
    return ms === undefined ? {} : { requeueAfterMs: ms };
  };

  const due = nextScheduleTime(cj, now, schedule);
  if (due.tooManyMissed) {
    control.record(
      'Warning',
      'TooManyMissedTimes',
      'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew',
    );
  }
  if (due.error !== undefined) {
    control.record('Warning', 'InvalidSchedule', `invalid schedule: ${cj.spec.schedule} : ${due.error}`);
    return done();
  }
  const scheduledTime = due.scheduledTime;
  if (scheduledTime === undefined) return done(requeue());

  const deadline = cj.spec.startingDeadlineSeconds;
  if (deadline !== undefined && deadline !== null && scheduledTime + deadline * 1000 < now) {
    control.record(
      'Warning',
      'MissSchedule',
      `Missed scheduled time to start a job: ${rfc1123z(scheduledTime)}`,
    );
    return done(requeue());
  }
  const jobName = cronJobJobName(cj, scheduledTime);
  const alreadyActive =
    cj.status?.active?.some((r) => r.name === jobName && (r.namespace ?? ns) === ns) ?? false;
  if (alreadyActive || timeOf(cj.status?.lastScheduleTime) === scheduledTime) return done(requeue());

  const policy = cj.spec.concurrencyPolicy ?? 'Allow';
  if (policy === 'Forbid' && (cj.status?.active?.length ?? 0) > 0) {
    control.record(
      'Normal',
      'JobAlreadyActive',
      'Not starting job because prior execution is running and concurrency policy is Forbid',
    );
    return done(requeue());
  }
  if (policy === 'Replace') {
    for (const ref of [...(cj.status?.active ?? [])]) {
      let job: Job;
      try {
        job = await control.getJob(ref.namespace ?? ns, ref.name ?? '');
      } catch (error) {
        control.record('Warning', 'FailedGet', `Get job: ${messageOf(error)}`);
        return done({ error });
      }
      if (!(await reapJob(control, cj, job))) {
        return done({
          error: new Error(`could not replace job ${job.metadata.namespace}/${job.metadata.name}`),
        });
      }
      updateStatus = true;
    }
  }

  const request = jobFromTemplate(cj, scheduledTime);
  let job: Job;
  let created = true;
  try {
    job = await control.createJob(ns, request);
  } catch (error) {
    if (isNamespaceTerminating(error)) return done({ error });
    if (!isAlreadyExists(error)) {
      control.record('Warning', 'FailedCreate', `Error creating job: ${messageOf(error)}`);
      return done({ error });
    }
    // created before, by this controller (whose status write was lost) or by someone else
    created = false;
    try {
      job = await control.getJob(ns, request.metadata.name ?? '');
    } catch (getError) {
      return done({ error: getError });
    }
    if (getControllerOf(job)?.uid !== cj.metadata.uid) return done();
    if (inActive(cj, job.metadata.uid)) return done();
  }
  if (created) control.record('Normal', 'SuccessfulCreate', `Created job ${job.metadata.name ?? ''}`);

  cj.status = {
    ...cj.status,
    active: [...(cj.status?.active ?? []), refOf(job)],
    lastScheduleTime: stampOf(scheduledTime),
  };
  updateStatus = true;
  return done({ ...requeue(), ...(created ? { created: { job, scheduledTime } } : {}) });
}
