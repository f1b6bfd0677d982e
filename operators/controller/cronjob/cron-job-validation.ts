// cronJobValidationCauses: what kube-apiserver's CronJob validation refuses (schedule, timeZone, limits, name), as Status causes.

import type { CronJob } from './cron-job-types.ts';
import { isKnownTimeZone, parseCronSchedule } from './cron-schedule.ts';

/** One refused field, shaped as a Status `details.causes` entry. */
export interface CronJobValidationCause {
  type: 'FieldValueRequired' | 'FieldValueInvalid' | 'FieldValueNotSupported';
  message: string;
  field: string;
}

/** Each part of an IANA name: letters, digits, `.`, `-`, `_`, `+`, at most 14 characters. */
const ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

const invalid = (field: string, value: unknown, detail: string): CronJobValidationCause => ({
  type: 'FieldValueInvalid',
  message: `Invalid value: ${JSON.stringify(value)}: ${detail}`,
  field,
});

function timeZoneCauses(tz: string): CronJobValidationCause[] {
  if (tz === '') return [invalid('spec.timeZone', tz, 'timeZone must be nil or non-empty string')];
  const bad = tz.split('/').some((p) => p === '.' || p === '..' || p.startsWith('-') || !ZONE_PART.test(p));
  if (bad) return [invalid('spec.timeZone', tz, `unknown time zone ${tz}`)];
  const out: CronJobValidationCause[] = [];
  if (tz.toLowerCase() === 'local') {
    out.push(
      invalid(
        'spec.timeZone',
        tz,
        'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      ),
    );
  }
  if (!isKnownTimeZone(tz)) out.push(invalid('spec.timeZone', tz, `unknown time zone ${tz}`));
  return out;
}

/**
 * The causes kube-apiserver's ValidateCronJobCreate / ValidateCronJobUpdate give for a CronJob's own
 * fields (the job template is validated as a Job's): a name over 52 characters; a missing or unparseable
 * schedule (robfig's words); `TZ`/`CRON_TZ` in the schedule ("use timeZone field instead"; an update may
 * keep one that was already there, but not add spec.timeZone beside it); an unknown or `Local` timeZone
 * (checked on create and when it changes); negative startingDeadlineSeconds or history limits; a
 * concurrencyPolicy other than Allow, Forbid, Replace. Empty: valid.
 *
 * @example
 * cronJobValidationCauses(cj)[0]?.message; // 'Invalid value: "61 * * * *": end of range (61) above maximum (59): 61'
 *
 * @param cronJob the object written
 * @param old the stored object, on update
 */
export function cronJobValidationCauses(cronJob: CronJob, old?: CronJob): CronJobValidationCause[] {
  const causes: CronJobValidationCause[] = [];
  const name = cronJob.metadata?.name ?? '';
  if (!old && name.length > 52)
    causes.push(invalid('metadata.name', name, 'must be no more than 52 characters'));
  const spec = cronJob.spec ?? ({} as CronJob['spec']);
  const schedule = spec.schedule ?? '';
  const tz = spec.timeZone ?? undefined;
  if (schedule === '') {
    causes.push({ type: 'FieldValueRequired', message: 'Required value', field: 'spec.schedule' });
  } else {
    const parsed = parseCronSchedule(schedule, 'UTC');
    if (!parsed.ok) causes.push(invalid('spec.schedule', schedule, parsed.error));
    const allowTZ = old?.spec?.schedule?.includes('TZ') ?? false;
    if (allowTZ && schedule.includes('TZ') && tz !== undefined) {
      causes.push(
        invalid('spec.schedule', schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'),
      );
    } else if (!allowTZ && schedule.includes('TZ')) {
      causes.push(
        invalid(
          'spec.schedule',
          schedule,
          'cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
        ),
      );
    }
  }
  const nonNegative = (field: string, v: number | null | undefined) => {
    if (v !== undefined && v !== null && v < 0)
      causes.push(invalid(field, v, 'must be greater than or equal to 0'));
  };
  nonNegative('spec.startingDeadlineSeconds', spec.startingDeadlineSeconds);
  if (tz !== undefined && (!old || (old.spec?.timeZone ?? undefined) !== tz))
    causes.push(...timeZoneCauses(tz));
  const policy = spec.concurrencyPolicy ?? '';
  if (policy === '') {
    causes.push({ type: 'FieldValueRequired', message: 'Required value', field: 'spec.concurrencyPolicy' });
  } else if (!['Allow', 'Forbid', 'Replace'].includes(policy)) {
    causes.push({
      type: 'FieldValueNotSupported',
      message: `Unsupported value: ${JSON.stringify(policy)}: supported values: "Allow", "Forbid", "Replace"`,
      field: 'spec.concurrencyPolicy',
    });
  }
  nonNegative('spec.successfulJobsHistoryLimit', spec.successfulJobsHistoryLimit);
  nonNegative('spec.failedJobsHistoryLimit', spec.failedJobsHistoryLimit);
  return causes;
}
