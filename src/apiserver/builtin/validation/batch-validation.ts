// BATCH_VALIDATORS: Jobs and CronJobs as upstream's batch validation checks them, on create and on update.
import { cronScheduleProblem } from '../../../../operators/controller/cronjob/cron-schedule.ts';
import type { StatusCause } from '../../api-status.ts';
import type { KindValidator } from '../builtin-validation.ts';
import { fieldError } from './field-error.ts';
import { validateJobSpec } from './job-spec-validation.ts';
import { type Obj, shape } from './json-shape.ts';
import { knownTimeZone } from './known-time-zone.ts';
import { selectorCauses } from './selector-match.ts';

const TIME_ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;
/** A CronJob's name leaves room for the 11 characters its Jobs' names add. */
const MAX_CRON_JOB_NAME = 52;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const immutable = (field: string, value: unknown): StatusCause =>
  fieldError.invalid(field, value, 'field is immutable');

/** Template fields a suspended Job that has not started may still change (its scheduling directives). */
function templateSansSchedulingDirectives(template: unknown): string {
  const t = shape.obj(template);
  const { labels: _l, annotations: _a, ...meta } = shape.obj(t.metadata);
  const { nodeSelector: _n, tolerations: _t, affinity: _f, schedulingGates: _g, ...spec } = shape.obj(t.spec);
  return JSON.stringify({ ...t, metadata: meta, spec });
}

function jobUpdateCauses(spec: Obj, oldJob: Obj): StatusCause[] {
  const out: StatusCause[] = [];
  const old = shape.obj(oldJob.spec);
  const indexed = spec.completionMode === 'Indexed' && old.completionMode === 'Indexed';
  if (!same(spec.completions, old.completions)) {
    if (!indexed) out.push(immutable('spec.completions', spec.completions ?? null));
    else if (spec.completions !== spec.parallelism)
      out.push(
        fieldError.invalid(
          'spec.completions',
          spec.completions,
          'can only be modified in tandem with spec.parallelism',
        ),
      );
  }
  for (const field of [
    'completionMode',
    'podFailurePolicy',
    'backoffLimitPerIndex',
    'managedBy',
    'successPolicy',
  ])
    if (!same(spec[field], old[field])) out.push(immutable(`spec.${field}`, spec[field] ?? null));
  const notStarted = old.suspend === true && shape.obj(oldJob.status).startTime === undefined;
  const changed = notStarted
    ? templateSansSchedulingDirectives(spec.template) !== templateSansSchedulingDirectives(old.template)
    : !same(spec.template, old.template);
  if (changed) out.push(immutable('spec.template', spec.template));
  return out;
}

const job: KindValidator = (o, old) => {
  const spec = shape.obj((o as Obj).spec);
  const out = [...validateJobSpec(spec, 'spec', false), ...selectorCauses(spec, 'spec', undefined, false)];
  if (old) out.push(...jobUpdateCauses(spec, old as Obj));
  return out;
};

function timeZoneCauses(zone: unknown): StatusCause[] {
  if (zone === undefined || zone === null) return [];
  const text = shape.text(zone);
  const at = 'spec.timeZone';
  if (text === '') return [fieldError.invalid(at, text, 'timeZone must be nil or non-empty string')];
  for (const part of text.split('/'))
    if (part === '.' || part === '..' || part.startsWith('-') || !TIME_ZONE_PART.test(part))
      return [fieldError.invalid(at, text, `unknown time zone ${text}`)];
  const out: StatusCause[] = [];
  if (text.toLowerCase() === 'local')
    out.push(
      fieldError.invalid(
        at,
        text,
        'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      ),
    );
  if (!knownTimeZone(text) && text !== 'Local')
    out.push(fieldError.invalid(at, text, `unknown time zone ${text}`));
  return out;
}

function scheduleCauses(spec: Obj, oldSpec: Obj | undefined): StatusCause[] {
  const schedule = shape.str(spec.schedule) ?? '';
  if (schedule === '') return [];
  const out: StatusCause[] = [];
  const problem = cronScheduleProblem(schedule);
  if (problem) out.push(fieldError.invalid('spec.schedule', schedule, problem));
  const allowTz = oldSpec !== undefined && shape.text(oldSpec.schedule ?? '').includes('TZ');
  if (allowTz && schedule.includes('TZ') && spec.timeZone !== undefined && spec.timeZone !== null)
    out.push(
      fieldError.invalid(
        'spec.schedule',
        schedule,
        'cannot use both timeZone field and TZ or CRON_TZ in schedule',
      ),
    );
  else if (!allowTz && schedule.includes('TZ'))
    out.push(
      fieldError.invalid(
        'spec.schedule',
        schedule,
        'cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
      ),
    );
  return out;
}

const cronJob: KindValidator = (o, old) => {
  const object = o as Obj;
  const spec = shape.obj(object.spec);
  const oldSpec = old ? shape.obj((old as Obj).spec) : undefined;
  const out = scheduleCauses(spec, oldSpec);
  out.push(...fieldError.nonNegative('spec.startingDeadlineSeconds', spec.startingDeadlineSeconds));
  if (!oldSpec || !same(oldSpec.timeZone, spec.timeZone)) out.push(...timeZoneCauses(spec.timeZone));
  const template = shape.obj(shape.obj(spec.jobTemplate).spec);
  if (spec.jobTemplate !== undefined && spec.jobTemplate !== null) {
    out.push(...validateJobSpec(template, 'spec.jobTemplate.spec', true));
    if (template.selector !== undefined && template.selector !== null)
      out.push(
        fieldError.invalid(
          'spec.jobTemplate.spec.selector',
          template.selector,
          '`selector` will be auto-generated',
        ),
      );
    if (template.manualSelector === true)
      out.push(fieldError.notSupported('spec.jobTemplate.spec.manualSelector', true, ['nil', 'false']));
  }
  const name = shape.text(shape.obj(object.metadata).name ?? '');
  if (!old && name.length > MAX_CRON_JOB_NAME)
    out.push(
      fieldError.invalid('metadata.name', name, `must be no more than ${MAX_CRON_JOB_NAME} characters`),
    );
  out.push(
    ...fieldError.nonNegative('spec.successfulJobsHistoryLimit', spec.successfulJobsHistoryLimit),
    ...fieldError.nonNegative('spec.failedJobsHistoryLimit', spec.failedJobsHistoryLimit),
  );
  return out;
};

/** The batch/v1 rules, by resource id. */
export const BATCH_VALIDATORS: Readonly<Record<string, KindValidator>> = {
  'batch/jobs': job,
  'batch/cronjobs': cronJob,
};
