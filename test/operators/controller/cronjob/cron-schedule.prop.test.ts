// Property: parseCronSchedule's next time equals a naive model's (the first matching minute after t, with robfig's day-of-month / day-of-week rule), for generated schedules in fixed-offset zones.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCronSchedule } from '../../../../operators/controller/cronjob/cron-schedule.ts';

/** One field as text, the values it stands for, and whether robfig counts it as a wildcard. */
interface Field {
  text: string;
  values: Set<number>;
  star: boolean;
}

const range = (a: number, b: number, step = 1) => {
  const out: number[] = [];
  for (let v = a; v <= b; v += step) out.push(v);
  return out;
};

/** A field of [min, max]: `*`, `?`, `*\/k`, `a-b`, `a-b/k`, `a/k` or a list of numbers. */
const field = (min: number, max: number): fc.Arbitrary<Field> =>
  fc.oneof(
    fc.constantFrom('*', '?').map((text) => ({ text, values: new Set(range(min, max)), star: true })),
    fc
      .integer({ min: 1, max: 12 })
      .map((k) => ({ text: `*/${k}`, values: new Set(range(min, max, k)), star: k === 1 })),
    fc
      .tuple(fc.integer({ min, max }), fc.integer({ min, max }), fc.integer({ min: 1, max: 5 }))
      .map(([a, b, k]) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        return { text: `${lo}-${hi}/${k}`, values: new Set(range(lo, hi, k)), star: false };
      }),
    fc.tuple(fc.integer({ min, max }), fc.integer({ min: 2, max: 9 })).map(([a, k]) => ({
      text: `${a}/${k}`,
      values: new Set(range(a, max, k)),
      star: false,
    })),
    fc.uniqueArray(fc.integer({ min, max }), { minLength: 1, maxLength: 4 }).map((vs) => ({
      text: vs.join(','),
      values: new Set(vs),
      star: false,
    })),
  );

/** The first minute strictly after `after` whose local fields (UTC + offset) match: day by day, then hours and minutes. */
function naiveNext(fields: Field[], after: number, offsetMin: number): number | undefined {
  const [minute, hour, dom, month, dow] = fields as [Field, Field, Field, Field, Field];
  const local = after + offsetMin * 60_000;
  const startDay = Math.floor(local / 86_400_000);
  for (let day = startDay; day < startDay + 5 * 366; day++) {
    const d = new Date(day * 86_400_000);
    if (!month.values.has(d.getUTCMonth() + 1)) continue;
    const domMatch = dom.values.has(d.getUTCDate());
    const dowMatch = dow.values.has(d.getUTCDay());
    if (!(dom.star || dow.star ? domMatch && dowMatch : domMatch || dowMatch)) continue;
    for (const h of [...hour.values].sort((a, b) => a - b)) {
      for (const m of [...minute.values].sort((a, b) => a - b)) {
        const at = day * 86_400_000 + h * 3_600_000 + m * 60_000;
        if (at > local) return at - offsetMin * 60_000;
      }
    }
  }
  return undefined;
}

describe('parseCronSchedule (property)', () => {
  it('next(t) is the first matching minute after t, as a naive scan finds it', () => {
    fc.assert(
      fc.property(
        fc.tuple(field(0, 59), field(0, 23), field(1, 31), field(1, 12), field(0, 6)),
        fc.date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2040-01-01T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.constantFrom(['UTC', 0], ['Etc/GMT-5', 300], ['Etc/GMT+9', -540], ['Asia/Kolkata', 330]),
        (fields, date, [zone, offset]) => {
          const spec = fields.map((f) => f.text).join(' ');
          const parsed = parseCronSchedule(spec, zone as string);
          expect(parsed.ok, spec).toBe(true);
          if (!parsed.ok) return;
          const after = date.getTime();
          expect(parsed.schedule.next(after), `${spec} in ${zone} after ${date.toISOString()}`).toBe(
            naiveNext(fields, after, offset as number),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
