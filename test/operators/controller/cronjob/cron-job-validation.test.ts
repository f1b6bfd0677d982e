// cronJobValidationCauses: kube-apiserver's CronJob field validation (batch validation_test.go's schedule, timeZone and TZ cases) in our own words.
import { describe, expect, it } from 'vitest';
import type { CronJob } from '../../../../operators/controller/cronjob/cron-job-types.ts';
import { cronJobValidationCauses } from '../../../../operators/controller/cronjob/cron-job-validation.ts';

const cj = (spec: Partial<CronJob['spec']> = {}, name = 'mycronjob'): CronJob => ({
  metadata: { name, namespace: 'default' },
  spec: {
    schedule: '* * * * ?',
    concurrencyPolicy: 'Allow',
    jobTemplate: { spec: { template: { spec: { containers: [] } } } },
    ...spec,
  },
});

describe('cronJobValidationCauses', () => {
  it.each([
    ['a valid CronJob', cj(), []],
    ['a zone', cj({ timeZone: 'America/New_York' }), []],
    ['@every', cj({ schedule: '@every 1h' }), []],
    ['no schedule', cj({ schedule: '' }), [['spec.schedule', 'Required value']]],
    [
      'a bad minute',
      cj({ schedule: '61 * * * *' }),
      [['spec.schedule', 'Invalid value: "61 * * * *": end of range (61) above maximum (59): 61']],
    ],
    [
      'six fields',
      cj({ schedule: '0 * * * * *' }),
      [['spec.schedule', 'Invalid value: "0 * * * * *": expected exactly 5 fields, found 6: [0 * * * * *]']],
    ],
    [
      'TZ in the schedule',
      cj({ schedule: 'TZ=UTC 0 * * * *' }),
      [
        [
          'spec.schedule',
          'Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
        ],
      ],
    ],
    [
      'CRON_TZ in the schedule',
      cj({ schedule: 'CRON_TZ=UTC * * * * *' }),
      [
        [
          'spec.schedule',
          'Invalid value: "CRON_TZ=UTC * * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
        ],
      ],
    ],
    [
      'an unknown zone',
      cj({ timeZone: 'Europe/Pariss' }),
      [['spec.timeZone', 'Invalid value: "Europe/Pariss": unknown time zone Europe/Pariss']],
    ],
    [
      'an empty zone',
      cj({ timeZone: '' }),
      [['spec.timeZone', 'Invalid value: "": timeZone must be nil or non-empty string']],
    ],
    [
      'a zone with a space',
      cj({ timeZone: 'bad timezone' }),
      [['spec.timeZone', 'Invalid value: "bad timezone": unknown time zone bad timezone']],
    ],
    [
      'a zone with ..',
      cj({ timeZone: '../etc/passwd' }),
      [['spec.timeZone', 'Invalid value: "../etc/passwd": unknown time zone ../etc/passwd']],
    ],
    [
      'Local',
      cj({ timeZone: 'Local' }),
      [
        [
          'spec.timeZone',
          'Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
        ],
      ],
    ],
    [
      'a negative deadline',
      cj({ startingDeadlineSeconds: -1 }),
      [['spec.startingDeadlineSeconds', 'Invalid value: -1: must be greater than or equal to 0']],
    ],
    [
      'negative limits',
      cj({ successfulJobsHistoryLimit: -1, failedJobsHistoryLimit: -2 }),
      [
        ['spec.successfulJobsHistoryLimit', 'Invalid value: -1: must be greater than or equal to 0'],
        ['spec.failedJobsHistoryLimit', 'Invalid value: -2: must be greater than or equal to 0'],
      ],
    ],
    [
      'an unknown policy',
      cj({ concurrencyPolicy: 'Sometimes' }),
      [
        [
          'spec.concurrencyPolicy',
          'Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
        ],
      ],
    ],
    [
      'a 53-character name',
      cj({}, 'a'.repeat(53)),
      [['metadata.name', `Invalid value: "${'a'.repeat(53)}": must be no more than 52 characters`]],
    ],
  ] as const)('%s', (_n, object, want) => {
    expect(cronJobValidationCauses(object).map((c) => [c.field, c.message])).toEqual(want);
  });

  it.each([
    // upstream's update cases: a TZ already there may stay, not be added, and not sit beside spec.timeZone
    ['removing TZ', 'TZ=UTC 0 * * * *', { schedule: '0 * * * *' }, []],
    ['keeping TZ', 'TZ=UTC 0 * * * *', { schedule: 'TZ=UTC 0 * * * *' }, []],
    [
      'keeping TZ and adding spec.timeZone',
      'TZ=UTC 0 * * * *',
      { schedule: 'TZ=UTC 0 * * * *', timeZone: 'UTC' },
      ['cannot use both timeZone field and TZ or CRON_TZ in schedule'],
    ],
    [
      'adding TZ',
      '0 * * * *',
      { schedule: 'TZ=UTC 0 * * * *' },
      ['cannot use TZ or CRON_TZ in schedule, use timeZone field instead'],
    ],
  ] as const)('on update, %s', (_n, oldSchedule, spec, want) => {
    const causes = cronJobValidationCauses(cj(spec), cj({ schedule: oldSchedule }));
    expect(causes.map((c) => c.message.replace(/^Invalid value: "[^"]*": /, ''))).toEqual(want);
  });
});
