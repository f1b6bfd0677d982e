// Jobs and CronJobs, with cases from upstream's TestValidateJob, TestValidateJobUpdate and TestValidateCronJob tables.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../operators/types.ts';
import { BATCH_VALIDATORS } from '../../../../../src/apiserver/builtin/validation/batch-validation.ts';
import { causeLines } from './cause-lines.ts';

const podSpec = { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] };
const template = { metadata: { labels: { 'job-name': 'j' } }, spec: podSpec };
const job = (spec: object, status?: object) =>
  ({
    metadata: { name: 'j' },
    spec: {
      selector: { matchLabels: { 'job-name': 'j' } },
      template,
      parallelism: 1,
      completions: 1,
      ...spec,
    },
    ...(status ? { status } : {}),
  }) as KubeObject;
const validateJob = (spec: object, old?: KubeObject) =>
  causeLines(BATCH_VALIDATORS['batch/jobs']!(job(spec), old));
const indexed = { completionMode: 'Indexed', completions: 4 };
const policy = (rules: object[]) => ({ podFailurePolicy: { rules } });
const rule0 = 'spec.podFailurePolicy.rules[0]';

describe('Job validation', () => {
  it.each([
    ['a plain job', {}, []],
    ['OnFailure', { template: { ...template, spec: { ...podSpec, restartPolicy: 'OnFailure' } } }, []],
    ['indexed with a per-index limit', { ...indexed, backoffLimitPerIndex: 1, maxFailedIndexes: 2 }, []],
    [
      'a failure policy',
      policy([{ action: 'FailJob', onExitCodes: { operator: 'In', values: [1, 42] } }]),
      [],
    ],
    [
      'a failure policy on a condition',
      policy([{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }]),
      [],
    ],
    [
      'a success policy',
      { ...indexed, successPolicy: { rules: [{ succeededIndexes: '0,2-3', succeededCount: 2 }] } },
      [],
    ],
    ['parallelism 0', { parallelism: 0 }, []],
    [
      'negative counts',
      {
        parallelism: -1,
        completions: -1,
        backoffLimit: -1,
        activeDeadlineSeconds: -1,
        ttlSecondsAfterFinished: -1,
      },
      [
        'spec.parallelism: Invalid value: -1: must be greater than or equal to 0',
        'spec.completions: Invalid value: -1: must be greater than or equal to 0',
        'spec.activeDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0',
        'spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0',
        'spec.ttlSecondsAfterFinished: Invalid value: -1: must be greater than or equal to 0',
      ],
    ],
    [
      'a template that always restarts',
      { template: { ...template, spec: { ...podSpec, restartPolicy: 'Always' } } },
      ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'],
    ],
    [
      'a template with no restart policy',
      { template: { ...template, spec: { containers: podSpec.containers } } },
      ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'],
    ],
    [
      'indexed without completions',
      { completionMode: 'Indexed', completions: undefined },
      ['spec.completions: Required value: when completion mode is Indexed'],
    ],
    [
      'indexed parallelism over 100000',
      { ...indexed, parallelism: 100001 },
      [
        'spec.parallelism: Invalid value: 100001: must be less than or equal to 100000 when completion mode is Indexed',
      ],
    ],
    [
      'a per-index limit outside Indexed mode',
      { backoffLimitPerIndex: 1 },
      ['spec.backoffLimitPerIndex: Forbidden: requires indexed completion mode'],
    ],
    [
      'maxFailedIndexes without a per-index limit',
      { ...indexed, maxFailedIndexes: 1 },
      ['spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified'],
    ],
    [
      'more failed indexes than completions',
      { ...indexed, backoffLimitPerIndex: 1, maxFailedIndexes: 5 },
      ['spec.maxFailedIndexes: Invalid value: 5: must be less than or equal to completions'],
    ],
    [
      'a rule with no action',
      policy([{ onExitCodes: { operator: 'In', values: [1] } }]),
      [`${rule0}.action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"]`],
    ],
    [
      'an unknown action',
      policy([{ action: 'Retry', onExitCodes: { operator: 'In', values: [1] } }]),
      [
        `${rule0}.action: Unsupported value: "Retry": supported values: "Count", "FailIndex", "FailJob", "Ignore"`,
      ],
    ],
    [
      'FailIndex without a per-index limit',
      policy([{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [1] } }]),
      [`${rule0}.action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set`],
    ],
    [
      'exit code 0 under In, a repeat and disorder',
      policy([{ action: 'FailJob', onExitCodes: { operator: 'In', values: [0, 5, 3, 3] } }]),
      [
        `${rule0}.onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator`,
        `${rule0}.onExitCodes.values[3]: Duplicate value: 3`,
        `${rule0}.onExitCodes.values: Invalid value: [0,5,3,3]: must be ordered`,
      ],
    ],
    [
      'no exit codes',
      policy([{ action: 'FailJob', onExitCodes: { operator: 'NotIn', values: [] } }]),
      [`${rule0}.onExitCodes.values: Invalid value: []: at least one value is required`],
    ],
    [
      'an unknown container',
      policy([{ action: 'Count', onExitCodes: { containerName: 'other', operator: 'In', values: [1] } }]),
      [
        `${rule0}.onExitCodes.containerName: Invalid value: "other": must be one of the container or initContainer names in the pod template`,
      ],
    ],
    [
      'both exit codes and conditions',
      policy([
        {
          action: 'Count',
          onExitCodes: { operator: 'In', values: [1] },
          onPodConditions: [{ type: 'Ready', status: 'False' }],
        },
      ]),
      [`${rule0}: Invalid value: specifying both OnExitCodes and OnPodConditions is not supported`],
    ],
    [
      'neither',
      policy([{ action: 'Count' }]),
      [`${rule0}: Invalid value: specifying one of OnExitCodes and OnPodConditions is required`],
    ],
    [
      'a condition without a status',
      policy([{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }]),
      [`${rule0}.onPodConditions[0].status: Required value: valid values: ["False" "True" "Unknown"]`],
    ],
    [
      'a failure policy with OnFailure',
      {
        ...policy([{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }]),
        template: { ...template, spec: { ...podSpec, restartPolicy: 'OnFailure' } },
      },
      [
        'spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
      ],
    ],
    [
      'a replacement policy other than Failed under a failure policy',
      {
        ...policy([{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }]),
        podReplacementPolicy: 'TerminatingOrFailed',
      },
      ['spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"'],
    ],
    [
      'a success policy outside Indexed mode',
      { successPolicy: { rules: [{ succeededCount: 1 }] } },
      [
        'spec.successPolicy: Invalid value: {"rules":[{"succeededCount":1}]}: requires indexed completion mode',
      ],
    ],
    [
      'a success policy with no rules',
      { ...indexed, successPolicy: { rules: [] } },
      [
        'spec.successPolicy.rules: Required value: at least one rules must be specified when the successPolicy is specified',
      ],
    ],
    [
      'a success rule with neither field',
      { ...indexed, successPolicy: { rules: [{}] } },
      [
        'spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be specified',
      ],
    ],
    [
      'indexes out of range and out of order',
      {
        ...indexed,
        successPolicy: {
          rules: [{ succeededIndexes: '0-4' }, { succeededIndexes: '2,1' }, { succeededIndexes: '1-2-3' }],
        },
      },
      [
        'spec.successPolicy.rules[0].succeededIndexes: Invalid value: "0-4": error parsing succeededIndexes: too large index: "4"',
        'spec.successPolicy.rules[1].succeededIndexes: Invalid value: "2,1": error parsing succeededIndexes: non-increasing order, previous: 2, current: 1',
        `spec.successPolicy.rules[2].succeededIndexes: Invalid value: "1-2-3": error parsing succeededIndexes: the fragment "1-2-3" violates the requirement that an index interval can have at most two parts separated by '-'`,
      ],
    ],
    [
      'a count over the completions and over the indexes',
      {
        ...indexed,
        successPolicy: { rules: [{ succeededCount: 5 }, { succeededIndexes: '1', succeededCount: 2 }] },
      },
      [
        'spec.successPolicy.rules[0].succeededCount: Invalid value: 5: must be less than or equal to 4 (the number of specified completions)',
        'spec.successPolicy.rules[1].succeededCount: Invalid value: 2: must be less than or equal to 1 (the number of indexes in the specified succeededIndexes field)',
      ],
    ],
    [
      'a manual selector the template does not match',
      { manualSelector: true, selector: { matchLabels: { run: 'x' } } },
      [
        'spec.template.metadata.labels: Invalid value: {"job-name":"j"}: `selector` does not match template `labels`',
      ],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(validateJob(spec)).toEqual(expected);
  });

  it.each([
    ['a suspended job resumed', { suspend: false }, { suspend: true }, undefined, []],
    ['parallelism changed', { parallelism: 3 }, {}, undefined, []],
    [
      'completions changed',
      { completions: 2 },
      {},
      undefined,
      ['spec.completions: Invalid value: 2: field is immutable'],
    ],
    ['an elastic indexed job', { ...indexed, completions: 6, parallelism: 6 }, indexed, undefined, []],
    [
      'indexed completions changed alone',
      { ...indexed, completions: 6 },
      indexed,
      undefined,
      ['spec.completions: Invalid value: 6: can only be modified in tandem with spec.parallelism'],
    ],
    [
      'the completion mode changed',
      { completionMode: 'NonIndexed' },
      { completionMode: 'Indexed' },
      undefined,
      ['spec.completionMode: Invalid value: "NonIndexed": field is immutable'],
    ],
    [
      'the node selector of a suspended job that never started',
      { suspend: true, template: { ...template, spec: { ...podSpec, nodeSelector: { zone: 'a' } } } },
      { suspend: true },
      undefined,
      [],
    ],
    [
      'the node selector of a started job',
      { template: { ...template, spec: { ...podSpec, nodeSelector: { zone: 'a' } } } },
      { suspend: true },
      { startTime: '2026-01-01T00:00:00Z' },
      [
        'spec.template: Invalid value: {"metadata":{"labels":{"job-name":"j"}},"spec":{"restartPolicy":"Never","containers":[{"name":"main","image":"busybox"}],"nodeSelector":{"zone":"a"}}}: field is immutable',
      ],
    ],
  ])('update: %s', (_name, spec, oldSpec, oldStatus, expected) => {
    expect(validateJob(spec, job(oldSpec, oldStatus))).toEqual(expected);
  });
});

const jobTemplate = { spec: { template: { spec: { ...podSpec, restartPolicy: 'OnFailure' } } } };
const cronJob = (spec: object, name = 'cj') =>
  ({ metadata: { name }, spec: { schedule: '*/5 * * * *', jobTemplate, ...spec } }) as KubeObject;
const validateCronJob = (spec: object, old?: object, name?: string) =>
  causeLines(BATCH_VALIDATORS['batch/cronjobs']!(cronJob(spec, name), old ? cronJob(old) : undefined));

describe('CronJob validation', () => {
  it.each([
    ['a plain one', {}, []],
    ['a time zone', { timeZone: 'America/New_York' }, []],
    ['a descriptor', { schedule: '@hourly' }, []],
    ['names and steps', { schedule: '0 9-17/2 * JAN-jun mon-FRI' }, []],
    ['zero history', { successfulJobsHistoryLimit: 0, failedJobsHistoryLimit: 0 }, []],
    [
      'a schedule of four fields',
      { schedule: '* * * *' },
      ['spec.schedule: Invalid value: "* * * *": expected exactly 5 fields, found 4: [* * * *]'],
    ],
    [
      'a minute past 59',
      { schedule: '0-60 * * * *' },
      ['spec.schedule: Invalid value: "0-60 * * * *": end of range (60) above maximum (59): 0-60'],
    ],
    [
      'a word for an hour',
      { schedule: '0 noon * * *' },
      [
        'spec.schedule: Invalid value: "0 noon * * *": failed to parse int from noon: strconv.Atoi: parsing "noon": invalid syntax',
      ],
    ],
    [
      'a TZ prefix',
      { schedule: 'TZ=UTC 0 * * * *' },
      [
        'spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
      ],
    ],
    [
      'an unknown time zone',
      { timeZone: 'Mars/Olympus' },
      ['spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus'],
    ],
    [
      'an empty time zone',
      { timeZone: '' },
      ['spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string'],
    ],
    [
      'the Local time zone',
      { timeZone: 'Local' },
      [
        'spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      ],
    ],
    [
      'a negative deadline and history',
      { startingDeadlineSeconds: -1, successfulJobsHistoryLimit: -1, failedJobsHistoryLimit: -1 },
      [
        'spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0',
        'spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
        'spec.failedJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
      ],
    ],
    [
      'a job template that always restarts',
      { jobTemplate: { spec: { template: { spec: { containers: podSpec.containers } } } } },
      [
        'spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
      ],
    ],
    [
      'a job template with a selector and a manual selector',
      {
        jobTemplate: {
          spec: { ...jobTemplate.spec, selector: { matchLabels: { a: 'b' } }, manualSelector: true },
        },
      },
      [
        'spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated',
        'spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"',
      ],
    ],
    [
      'a job template without containers',
      { jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never' } } } } },
      ['spec.jobTemplate.spec.template.spec.containers: Required value'],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(validateCronJob(spec)).toEqual(expected);
  });

  it('a name longer than 52 characters is refused on create only', () => {
    const name = 'a'.repeat(53);
    expect(validateCronJob({}, undefined, name)).toEqual([
      `metadata.name: Invalid value: "${name}": must be no more than 52 characters`,
    ]);
    expect(validateCronJob({}, {}, name)).toEqual([]);
  });

  it('a schedule that had TZ may keep it, but not beside a timeZone', () => {
    const tz = { schedule: 'TZ=UTC 0 * * * *' };
    expect(validateCronJob(tz, tz)).toEqual([]);
    expect(validateCronJob({ ...tz, timeZone: 'UTC' }, tz)).toEqual([
      'spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use both timeZone field and TZ or CRON_TZ in schedule',
    ]);
  });
});
