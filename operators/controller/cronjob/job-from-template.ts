// jobFromTemplate: the Job a CronJob creates for one scheduled time (name, labels, annotations, controllerRef, spec).
import { newControllerRef } from '../controller-ref.ts';
import type { Job } from '../job/job-types.ts';
import { CRON_JOB_GVK, CRON_JOB_SCHEDULED_TIMESTAMP_ANNOTATION, type CronJob } from './cron-job-types.ts';

/**
 * The Job's name for a scheduled time: `<cronjob>-<minutes since the epoch>`, the same for every attempt at
 * that time, so a second create meets AlreadyExists instead of starting a second Job.
 *
 * @param cronJob the owner
 * @param scheduledTime epoch ms
 */
export function cronJobJobName(cronJob: CronJob, scheduledTime: number): string {
  return `${cronJob.metadata.name ?? ''}-${Math.floor(scheduledTime / 60_000)}`;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * An instant as RFC 3339 in a time zone, as Go's `t.In(zone).Format(time.RFC3339)` writes it
 * (`2016-05-19T06:00:00-04:00`; `Z` when the offset is zero).
 *
 * @param ms epoch ms
 * @param timeZone an IANA name; undefined or "" is UTC
 */
export function rfc3339InZone(ms: number, timeZone: string | undefined): string {
  const whole = Math.floor(ms / 1000) * 1000;
  const zone =
    timeZone === undefined || timeZone === '' ? 'UTC' : timeZone === 'Local' ? undefined : timeZone;
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      ...(zone ? { timeZone: zone } : {}),
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(whole))
      .map((p) => [p.type, p.value]),
  ) as Record<string, string>;
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  const offsetMin = Math.round((wall - whole) / 60_000);
  const date = `${pad(Number(parts.year), 4)}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
  if (offsetMin === 0) return `${date}Z`;
  const abs = Math.abs(offsetMin);
  return `${date}${offsetMin < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * The Job to create for a scheduled time: the template's labels and annotations, plus the scheduled
 * timestamp annotation (in the CronJob's time zone), a controllerRef to the CronJob (controller and
 * blockOwnerDeletion true) and a copy of the template's spec.
 *
 * @example
 * jobFromTemplate(cj, Date.parse('2016-05-19T10:00:00Z')).metadata.name; // 'mycronjob-24394200'
 *
 * @param cronJob the owner
 * @param scheduledTime epoch ms
 */
export function jobFromTemplate(cronJob: CronJob, scheduledTime: number): Job {
  const template = cronJob.spec.jobTemplate;
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: cronJobJobName(cronJob, scheduledTime),
      ...(cronJob.metadata.namespace !== undefined ? { namespace: cronJob.metadata.namespace } : {}),
      labels: { ...(template.metadata?.labels ?? {}) },
      annotations: {
        ...(template.metadata?.annotations ?? {}),
        [CRON_JOB_SCHEDULED_TIMESTAMP_ANNOTATION]: rfc3339InZone(
          scheduledTime,
          cronJob.spec.timeZone ?? undefined,
        ),
      },
      ownerReferences: [newControllerRef(cronJob, CRON_JOB_GVK)],
    },
    spec: structuredClone(template.spec),
  };
}
