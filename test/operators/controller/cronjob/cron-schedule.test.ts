// parseCronSchedule: robfig/cron's standard grammar (what upstream accepts and rejects, with its words) and next times over croner.
import { describe, expect, it } from 'vitest';
import {
  isKnownTimeZone,
  parseCronSchedule,
} from '../../../../operators/controller/cronjob/cron-schedule.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const nextOf = (spec: string, from: string, tz = 'UTC') => {
  const r = parseCronSchedule(spec, tz);
  if (!r.ok) throw new Error(r.error);
  return iso(r.schedule.next(at(from)));
};

describe('parseCronSchedule', () => {
  it.each([
    // spec, from, next (UTC) — robfig's standard parser and the five-field semantics
    ['* * * * ?', '2016-05-19T10:00:30Z', '2016-05-19T10:01:00.000Z'],
    ['* * * * *', '2016-05-19T10:01:00Z', '2016-05-19T10:02:00.000Z'], // strictly after
    ['* * * * *', '2016-05-19T10:00:59.500Z', '2016-05-19T10:01:00.000Z'],
    ['0 * * * ?', '2016-05-19T09:59:00Z', '2016-05-19T10:00:00.000Z'],
    ['*/5 * * * *', '2016-05-19T10:02:00Z', '2016-05-19T10:05:00.000Z'],
    ['5/15 * * * *', '2016-05-19T10:21:00Z', '2016-05-19T10:35:00.000Z'], // n/step runs n..max
    ['30 6-16/4 * * 1-5', '2016-05-19T14:31:00Z', '2016-05-20T06:30:00.000Z'], // 6,10,14 on weekdays
    ['30 10,11,12 * * 1-5', '2016-05-20T12:31:00Z', '2016-05-23T10:30:00.000Z'], // Friday → Monday
    ['0 0 1 * 1', '2016-05-03T00:00:00Z', '2016-05-09T00:00:00.000Z'], // both restricted: either
    ['0 0 */2 * 1', '2016-05-03T12:00:00Z', '2016-05-05T00:00:00.000Z'], // */2 is not a wildcard in robfig
    ['0 0 * * 1', '2016-05-03T00:00:00Z', '2016-05-09T00:00:00.000Z'], // wildcard day of month: both
    ['0 0 ? * 1', '2016-05-03T00:00:00Z', '2016-05-09T00:00:00.000Z'],
    ['0 0 1-31 * 1', '2016-05-03T00:00:00Z', '2016-05-04T00:00:00.000Z'], // a full range is not a wildcard
    ['0 0 * JAN sun', '2016-05-03T00:00:00Z', '2017-01-01T00:00:00.000Z'],
    ['0 0 * * MON-FRI', '2016-05-21T00:00:00Z', '2016-05-23T00:00:00.000Z'],
    ['@yearly', '2016-05-19T10:00:00Z', '2017-01-01T00:00:00.000Z'],
    ['@annually', '2016-05-19T10:00:00Z', '2017-01-01T00:00:00.000Z'],
    ['@monthly', '2016-05-19T10:00:00Z', '2016-06-01T00:00:00.000Z'],
    ['@weekly', '2016-05-19T10:00:00Z', '2016-05-22T00:00:00.000Z'],
    ['@daily', '2016-05-19T10:00:00Z', '2016-05-20T00:00:00.000Z'],
    ['@midnight', '2016-05-19T10:00:00Z', '2016-05-20T00:00:00.000Z'],
    ['@hourly', '2016-05-19T10:00:00Z', '2016-05-19T11:00:00.000Z'],
    ['@every 1h', '2016-05-19T09:59:00Z', '2016-05-19T10:59:00.000Z'],
    ['@every 1h30m', '2016-05-19T09:59:00.700Z', '2016-05-19T11:29:00.000Z'], // from the whole second
    ['@every 1.5s', '2016-05-19T10:00:00Z', '2016-05-19T10:00:01.000Z'], // whole seconds
    ['@every 10ms', '2016-05-19T10:00:00Z', '2016-05-19T10:00:01.000Z'], // at least a second
    ['TZ=America/New_York 0 6 * * *', '2016-05-19T09:00:00Z', '2016-05-19T10:00:00.000Z'],
    ['CRON_TZ=Asia/Tokyo 0 9 * * *', '2016-05-19T01:00:00Z', '2016-05-20T00:00:00.000Z'],
  ])('%s after %s → %s', (spec, from, want) => {
    expect(nextOf(spec, from)).toBe(want);
  });

  it.each([
    // a schedule's fields read in its time zone (EDT is UTC−4 in May, Rome is UTC+2)
    ['0 6 * * *', 'America/New_York', '2016-05-19T09:00:00Z', '2016-05-19T10:00:00.000Z'],
    ['0 0 * * *', 'Europe/Rome', '2016-05-19T10:00:00Z', '2016-05-19T22:00:00.000Z'],
    ['*/5 * * * *', 'Asia/Kolkata', '2016-05-19T10:02:00Z', '2016-05-19T10:05:00.000Z'],
    ['0 * * * *', 'Asia/Kolkata', '2016-05-19T10:02:00Z', '2016-05-19T10:30:00.000Z'], // UTC+5:30
  ])('%s in %s after %s → %s', (spec, tz, from, want) => {
    expect(nextOf(spec, from, tz)).toBe(want);
  });

  it.each([
    // daylight saving time as robfig counts it: a wall time in the spring-forward gap does not exist (no run
    // that day), a wall time in the fall-back hour exists twice (two runs); America/New_York, 2016
    ['30 2 * * *', '2016-03-12T12:00:00Z', ['2016-03-14T06:30:00.000Z', '2016-03-15T06:30:00.000Z']],
    [
      '30 1 * * *',
      '2016-11-05T12:00:00Z',
      ['2016-11-06T05:30:00.000Z', '2016-11-06T06:30:00.000Z', '2016-11-07T06:30:00.000Z'],
    ],
    [
      '*/30 * * * *',
      '2016-03-13T06:15:00Z',
      ['2016-03-13T06:30:00.000Z', '2016-03-13T07:00:00.000Z', '2016-03-13T07:30:00.000Z'],
    ],
    [
      '0 * * * *',
      '2016-11-06T04:30:00Z',
      ['2016-11-06T05:00:00.000Z', '2016-11-06T06:00:00.000Z', '2016-11-06T07:00:00.000Z'],
    ],
    ['0 0 * * *', '2016-03-12T12:00:00Z', ['2016-03-13T05:00:00.000Z', '2016-03-14T04:00:00.000Z']],
  ])('%s in America/New_York after %s → %j', (spec, from, want) => {
    const r = parseCronSchedule(spec, 'America/New_York');
    if (!r.ok) throw new Error(r.error);
    const got: (string | undefined)[] = [];
    let t = at(from);
    for (const _ of want) {
      const n = r.schedule.next(t);
      got.push(iso(n));
      if (n === undefined) break;
      t = n;
    }
    expect(got).toEqual(want);
  });

  it.each([
    // what robfig's standard parser (and so upstream's validation) rejects, in its words
    ['', 'empty spec string'],
    ['obvious error schedule', 'expected exactly 5 fields, found 3: [obvious error schedule]'],
    ['* * * * * *', 'expected exactly 5 fields, found 6: [* * * * * *]'], // no seconds field
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['0 0 L * *', 'failed to parse int from L: strconv.Atoi: parsing "L": invalid syntax'],
    ['0 0 15W * *', 'failed to parse int from 15W: strconv.Atoi: parsing "15W": invalid syntax'],
    ['0 0 * * 1#2', 'failed to parse int from 1#2: strconv.Atoi: parsing "1#2": invalid syntax'],
    ['0 0 * * 5L', 'failed to parse int from 5L: strconv.Atoi: parsing "5L": invalid syntax'],
    ['0 0 * * 7', 'end of range (7) above maximum (6): 7'],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['0 0 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['0 0 * 13 *', 'end of range (13) above maximum (12): 13'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['*/2/3 * * * *', 'too many slashes: */2/3'],
    ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
    ['@reboot', 'unrecognized descriptor: @reboot'],
    ['@EVERY 1h', 'unrecognized descriptor: @EVERY 1h'],
    ['@every 1d', 'failed to parse duration @every 1d: time: unknown unit "d" in duration "1d"'],
    ['@every 5', 'failed to parse duration @every 5: time: missing unit in duration "5"'],
    ['TZ=Mars/Olympus 0 * * * *', 'provided bad location Mars/Olympus: unknown time zone Mars/Olympus'],
  ])('rejects %j: %s', (spec, error) => {
    expect(parseCronSchedule(spec, 'UTC')).toEqual({ ok: false, error });
  });

  it('a grammatical schedule that never fires has no next time (upstream\'s "59 23 31 2 *")', () => {
    const r = parseCronSchedule('59 23 31 2 *', 'UTC');
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.schedule.next(at('2016-05-19T10:00:00Z'))).toBeUndefined();
  });

  it('knows IANA zones, "" and "Local" as Go does, and nothing else', () => {
    expect(['UTC', 'America/New_York', 'Europe/Rome', '', 'Local'].every(isKnownTimeZone)).toBe(true);
    expect(['bad timezone', 'Mars/Olympus', '+01:00'].some(isKnownTimeZone)).toBe(false);
  });
});
