// cronScheduleProblem: a CronJob schedule parsed as the standard 5-field cron parser kube-apiserver uses, with its error messages.
import { knownTimeZone } from './known-time-zone.ts';

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: readonly string[];
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const FIELDS: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 6, names: DAYS },
];
const DESCRIPTORS = new Set([
  '@yearly',
  '@annually',
  '@monthly',
  '@weekly',
  '@daily',
  '@midnight',
  '@hourly',
]);
const DURATION = /^([0-9]*(\.[0-9]*)?(ns|us|µs|ms|s|m|h))+$/;

class CronError extends Error {}

/** strconv.Atoi and the parser's checks on it. */
function atoi(text: string): number {
  if (!/^[+-]?\d+$/.test(text))
    throw new CronError(
      `failed to parse int from ${text}: strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`,
    );
  const n = Number(text);
  if (n < 0) throw new CronError(`negative number (${n}) not allowed: ${text}`);
  return n;
}

function parseIntOrName(text: string, bounds: Bounds): number {
  const named = bounds.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + (bounds.names === MONTHS ? 1 : 0);
  return atoi(text);
}

function checkRange(expr: string, bounds: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = bounds.min;
    end = bounds.max;
  } else {
    start = parseIntOrName(lowAndHigh[0]!, bounds);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1]!, bounds);
    else throw new CronError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = atoi(rangeAndStep[1]!);
    if (lowAndHigh.length === 1) end = bounds.max;
  } else if (rangeAndStep.length > 2) throw new CronError(`too many slashes: ${expr}`);
  if (start < bounds.min)
    throw new CronError(`beginning of range (${start}) below minimum (${bounds.min}): ${expr}`);
  if (end > bounds.max) throw new CronError(`end of range (${end}) above maximum (${bounds.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
}

function parse(schedule: string): void {
  let spec = schedule;
  if (spec.length === 0) throw new CronError('empty spec string');
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const space = spec.indexOf(' ');
    const zone = spec.slice(spec.indexOf('=') + 1, space < 0 ? undefined : space);
    if (!knownTimeZone(zone)) throw new CronError(`provided bad location ${zone}: unknown time zone ${zone}`);
    spec = space < 0 ? '' : spec.slice(space).trim();
  }
  if (spec.startsWith('@')) {
    if (DESCRIPTORS.has(spec)) return;
    if (spec.startsWith('@every ')) {
      const duration = spec.slice('@every '.length);
      if (!DURATION.test(duration))
        throw new CronError(
          `failed to parse duration ${spec}: time: invalid duration ${JSON.stringify(duration)}`,
        );
      return;
    }
    throw new CronError(`unrecognized descriptor: ${spec}`);
  }
  const fields = spec.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5)
    throw new CronError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  fields.forEach((field, i) => {
    for (const expr of field.split(',').filter((e) => e !== '')) checkRange(expr, FIELDS[i]!);
  });
}

/**
 * Why a schedule does not parse as a standard cron line (minute hour day-of-month month day-of-week,
 * names for months and days, `*`/`?`, ranges, steps, lists, `@daily`-style descriptors, `@every`),
 * in the parser's words ("expected exactly 5 fields, found 1: [foo]"), or undefined when it parses.
 */
export function cronScheduleProblem(schedule: string): string | undefined {
  try {
    parse(schedule);
    return undefined;
  } catch (error) {
    if (error instanceof CronError) return error.message;
    throw error;
  }
}
