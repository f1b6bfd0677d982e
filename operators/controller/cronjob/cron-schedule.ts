// parseCronSchedule: a CronJob schedule read as upstream reads it (robfig/cron's standard parser), with next times from croner.
import { Cron } from 'croner';

/**
 * A parsed schedule. Invariants: `next(t)` is strictly after `t`, on a whole second (a whole minute for
 * five-field schedules), or undefined when the schedule never fires again within five years (upstream's
 * "59 23 31 2 *": grammatical, never due).
 */
export interface CronSchedule {
  /** The first activation strictly after `afterMs` (epoch ms), or undefined if none within five years. */
  next(afterMs: number): number | undefined;
}

/** A schedule, or the reason it does not parse (robfig's words, so Events read as upstream's). */
export type CronScheduleParse = { ok: true; schedule: CronSchedule } | { ok: false; error: string };

interface Bounds {
  min: number;
  max: number;
  names?: Readonly<Record<string, number>>;
}

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const FIELDS: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: Object.fromEntries(MONTH_NAMES.map((n, i) => [n, i + 1])) },
  { min: 0, max: 6, names: Object.fromEntries(DAY_NAMES.map((n, i) => [n, i])) },
];

/** robfig's descriptors, each the five-field schedule it stands for. */
const DESCRIPTORS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** One field's values, and whether it counts as a wildcard for the day-of-month / day-of-week rule. */
interface FieldSet {
  values: number[];
  star: boolean;
}

class FieldError extends Error {}

/** Go's strconv.Atoi as robfig uses it: decimal digits with an optional sign, nothing else. */
function parseUint(expr: string): number {
  if (!/^[+-]?\d+$/.test(expr)) {
    throw new FieldError(`failed to parse int from ${expr}: strconv.Atoi: parsing "${expr}": invalid syntax`);
  }
  const n = Number(expr);
  if (n < 0) throw new FieldError(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, bounds: Bounds): number {
  const named = bounds.names?.[expr.toLowerCase()];
  return named ?? parseUint(expr);
}

/** One comma-separated piece of a field: `*`, `?`, `n`, `a-b`, with an optional `/step` (robfig's getRange). */
function parseRange(expr: string, bounds: Bounds, into: Set<number>): boolean {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = (rangeAndStep[0] ?? '').split('-');
  const single = lowAndHigh.length === 1;
  let start: number;
  let end: number;
  let star = false;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = bounds.min;
    end = bounds.max;
    star = true;
  } else {
    start = parseIntOrName(lowAndHigh[0] ?? '', bounds);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1] ?? '', bounds);
    else throw new FieldError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = parseUint(rangeAndStep[1] ?? '');
    // "n/step" runs from n to the field's maximum
    if (single) end = bounds.max;
    if (step > 1) star = false;
  } else if (rangeAndStep.length > 2) {
    throw new FieldError(`too many slashes: ${expr}`);
  }
  if (start < bounds.min) {
    throw new FieldError(`beginning of range (${start}) below minimum (${bounds.min}): ${expr}`);
  }
  if (end > bounds.max) throw new FieldError(`end of range (${end}) above maximum (${bounds.max}): ${expr}`);
  if (start > end)
    throw new FieldError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new FieldError(`step of range should be a positive number: ${expr}`);
  for (let v = start; v <= end; v += step) into.add(v);
  return star;
}

function parseField(field: string, bounds: Bounds): FieldSet {
  const values = new Set<number>();
  let star = false;
  for (const piece of field.split(',').filter((p) => p !== '')) {
    if (parseRange(piece, bounds, values)) star = true;
  }
  return { values: [...values].sort((a, b) => a - b), star };
}

const DURATION_UNITS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Go's time.ParseDuration, in milliseconds (`1h30m`, `90s`, `1.5h`, `0`). */
function parseGoDuration(text: string): number {
  const invalid = () => new FieldError(`time: invalid duration "${text}"`);
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') throw invalid();
  let total = 0;
  while (rest !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(rest);
    const whole = m?.[1] ?? '';
    const frac = m?.[2];
    if (whole === '' && (frac === undefined || frac === '')) throw invalid();
    rest = rest.slice(m?.[0].length ?? 0);
    const unit = /^[^\d.]*/.exec(rest)?.[0] ?? '';
    if (unit === '') throw new FieldError(`time: missing unit in duration "${text}"`);
    const scale = DURATION_UNITS[unit];
    if (scale === undefined) throw new FieldError(`time: unknown unit "${unit}" in duration "${text}"`);
    rest = rest.slice(unit.length);
    total += Number(`${whole || '0'}.${frac || '0'}`) * scale;
  }
  return sign * total;
}

/** `@every <duration>`: at least one second, whole seconds, counted from the whole second before `after`. */
function everySchedule(durationMs: number): CronSchedule {
  const delay = durationMs < 1000 ? 1000 : durationMs - (durationMs % 1000);
  return { next: (afterMs) => afterMs - (((afterMs % 1000) + 1000) % 1000) + delay };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** More than any zone's offset change at a transition. */
const SHIFT = 3 * HOUR;
const HORIZON = 5 * 366 * DAY;

/**
 * A zone's wall clock: epoch ms → the same wall-clock reading written as if it were UTC. undefined: the
 * host's zone; "" and "UTC": the identity.
 */
function wallClockOf(timeZone: string | undefined): (ms: number) => number {
  const zone = timeZone === 'Local' ? undefined : timeZone;
  if (zone === '' || zone === 'UTC' || zone === 'Etc/UTC') return (ms) => ms;
  const format = new Intl.DateTimeFormat('en-US', {
    ...(zone !== undefined ? { timeZone: zone } : {}),
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  return (ms) => {
    const p: Record<string, number> = {};
    for (const part of format.formatToParts(new Date(ms))) p[part.type] = Number(part.value);
    const whole = Date.UTC(
      p.year ?? 1970,
      (p.month ?? 1) - 1,
      p.day ?? 1,
      p.hour ?? 0,
      p.minute ?? 0,
      p.second ?? 0,
    );
    return whole + (((ms % 1000) + 1000) % 1000);
  };
}

/**
 * The five fields as croner reads them (explicit value lists, so only robfig's grammar decides the sets),
 * matched on the zone's wall clock; wall times map back to instants as robfig's do: a time in a
 * spring-forward gap does not exist (skipped), a time in a fall-back hour exists twice (both run).
 */
function fieldsSchedule(fields: readonly FieldSet[], timeZone: string | undefined): CronSchedule {
  // a field like "," holds no value: grammatical, never due
  if (fields.some((f) => f.values.length === 0)) return { next: () => undefined };
  const pattern = fields.map((f) => f.values.join(',')).join(' ');
  const dom = fields[2];
  const dow = fields[4];
  const cron = new Cron(pattern, {
    paused: true,
    mode: '5-part',
    timezone: 'UTC',
    // robfig: a wildcard day-of-month or day-of-week means both must match, otherwise either may
    domAndDow: (dom?.star ?? false) || (dow?.star ?? false),
  });
  const wallOf = wallClockOf(timeZone);
  const nextWall = (w: number) => cron.nextRun(new Date(w))?.getTime();
  if (wallOf(0) === 0 && wallOf(DAY * 180) === DAY * 180 && timeZone !== undefined) {
    // UTC: wall time is time
    return {
      next: (after) => {
        const n = nextWall(after);
        return n === undefined || n - after > HORIZON ? undefined : n;
      },
    };
  }
  const offsetAt = (ms: number) => wallOf(ms) - ms;
  /** The instants showing wall time `w`: none in a gap, two in a repeated hour. */
  const instantsOf = (w: number): number[] =>
    [...new Set([w - offsetAt(w - DAY), w - offsetAt(w + DAY)])]
      .filter((t) => wallOf(t) === w)
      .sort((a, b) => a - b);
  return {
    next(after) {
      const wall = wallOf(after);
      // a fall-back ahead repeats wall times already passed: start the search that much earlier
      const repeats = offsetAt(after + SHIFT) < offsetAt(after);
      let best: number | undefined;
      for (let w = nextWall(repeats ? wall - SHIFT : wall); w !== undefined; w = nextWall(w)) {
        // without a repeated hour ahead, wall order is time order: the first found is the next
        if (best !== undefined && (!repeats || w > wallOf(best) + SHIFT)) break;
        if (w - wall > HORIZON) break;
        for (const t of instantsOf(w)) if (t > after && (best === undefined || t < best)) best = t;
      }
      return best;
    },
  };
}

/** Whether the host knows an IANA time zone of that name (Go's time.LoadLocation succeeding). */
export function isKnownTimeZone(name: string): boolean {
  // Go's LoadLocation: "" is UTC and "Local" the host's zone; zone names never hold a colon
  if (name === '' || name === 'Local') return true;
  if (name.includes(':')) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * Parses a schedule as upstream's `cron.ParseStandard` does: five fields (minute, hour, day of month,
 * month, day of week) with `*`, `?`, ranges, steps, lists and month/day names; a day-of-month and a
 * day-of-week that are both restricted match either (classic cron); the descriptors `@yearly`,
 * `@annually`, `@monthly`, `@weekly`, `@daily`, `@midnight`, `@hourly` and `@every <Go duration>`;
 * a `TZ=<zone>` or `CRON_TZ=<zone>` prefix. Seconds fields, `L`, `W`, `#` and day 7 are rejected as
 * robfig rejects them.
 *
 * @example
 * const r = parseCronSchedule('*\/5 * * * *', 'Europe/Rome');
 * if (r.ok) r.schedule.next(Date.parse('2024-01-01T00:02:00Z')); // 00:05 Rome time
 *
 * @param spec the schedule text
 * @param timeZone the zone fields are read in (a TZ= prefix wins); undefined: the host's local zone
 * @returns the schedule, or robfig's message for why not
 */
export function parseCronSchedule(spec: string, timeZone?: string): CronScheduleParse {
  let text = spec;
  let zone = timeZone;
  if (text.length === 0) return { ok: false, error: 'empty spec string' };
  if (text.startsWith('TZ=') || text.startsWith('CRON_TZ=')) {
    const space = text.indexOf(' ');
    const name = text.slice(text.indexOf('=') + 1, space < 0 ? undefined : space);
    if (!isKnownTimeZone(name)) {
      return { ok: false, error: `provided bad location ${name}: unknown time zone ${name}` };
    }
    zone = name === '' ? 'UTC' : name;
    if (zone === 'Local') zone = undefined;
    text = space < 0 ? '' : text.slice(space).trim();
  }
  try {
    if (text.startsWith('@')) {
      if (text.startsWith('@every ')) {
        try {
          return { ok: true, schedule: everySchedule(parseGoDuration(text.slice('@every '.length))) };
        } catch (error) {
          return { ok: false, error: `failed to parse duration ${text}: ${(error as Error).message}` };
        }
      }
      const expanded = DESCRIPTORS[text];
      if (expanded === undefined) return { ok: false, error: `unrecognized descriptor: ${text}` };
      text = expanded;
    }
    const parts = text.split(/\s+/).filter((p) => p !== '');
    if (parts.length !== 5) {
      return { ok: false, error: `expected exactly 5 fields, found ${parts.length}: [${parts.join(' ')}]` };
    }
    const fields = parts.map((p, i) => parseField(p, FIELDS[i] as Bounds));
    return { ok: true, schedule: fieldsSchedule(fields, zone) };
  } catch (error) {
    if (error instanceof FieldError) return { ok: false, error: error.message };
    throw error;
  }
}

/**
 * Why the API server refuses a schedule, in the standard parser's words, or undefined when it parses (the
 * zone of a `TZ=` prefix included; the CronJob's `spec.timeZone` is validated on its own).
 * @param spec the schedule text
 */
export function cronScheduleProblem(spec: string): string | undefined {
  const parsed = parseCronSchedule(spec, 'UTC');
  return parsed.ok ? undefined : parsed.error;
}
