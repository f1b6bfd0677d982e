// The standard 5-field cron parser's verdicts, with cases from robfig/cron's parser tests as kube-apiserver uses it.
import { describe, expect, it } from 'vitest';
import { cronScheduleProblem } from '../../../../operators/controller/cronjob/cron-schedule.ts';

describe('cronScheduleProblem', () => {
  it.each([
    '* * * * *',
    '*/15 * * * *',
    '0 0 1 1 *',
    '5,10,15 1-5 ? * 0-6',
    '0 0 * * sun',
    '0 0 * dec *',
    '30 2 * * 1/2',
    '@yearly',
    '@annually',
    '@midnight',
    '@every 1h30m',
    'CRON_TZ=Europe/Paris 0 8 * * *',
  ])('%s parses', (schedule) => {
    expect(cronScheduleProblem(schedule)).toBeUndefined();
  });

  it.each([
    ['', 'empty spec string'],
    ['foo', 'expected exactly 5 fields, found 1: [foo]'],
    ['* * * * * *', 'expected exactly 5 fields, found 6: [* * * * * *]'],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['* 24 * * *', 'end of range (24) above maximum (23): 24'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['* * * 13 *', 'end of range (13) above maximum (12): 13'],
    ['* * * * 7', 'end of range (7) above maximum (6): 7'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['*/2/3 * * * *', 'too many slashes: */2/3'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['-1 * * * *', 'failed to parse int from : strconv.Atoi: parsing "": invalid syntax'],
    ['@weekdays', 'unrecognized descriptor: @weekdays'],
    ['@every forever', 'failed to parse duration @every forever: time: invalid duration "forever"'],
    ['TZ=Nowhere/Town * * * * *', 'provided bad location Nowhere/Town: unknown time zone Nowhere/Town'],
  ])('%j: %s', (schedule, problem) => {
    expect(cronScheduleProblem(schedule)).toBe(problem);
  });
});
