// Resync periods: determineResyncPeriod and the registration rules, with the sequence of TestResyncCheckPeriod.
import { describe, expect, it } from 'vitest';
import {
  determineResyncPeriod,
  MINIMUM_RESYNC_PERIOD_MS,
  registerResync,
} from '../../operators/resync-period.ts';

const s = 1000;
const min = 60 * s;
const h = 60 * min;

describe('determineResyncPeriod', () => {
  it.each([
    [0, 10 * s, 0],
    [5 * s, 0, 0],
    [5 * s, 10 * s, 10 * s],
    [30 * s, 10 * s, 30 * s],
  ])('(%i, %i) = %i', (desired, check, expected) => {
    expect(determineResyncPeriod(desired, check)).toBe(expected);
  });
});

describe('registerResync', () => {
  it.each([
    [
      'no resync asked',
      0,
      10 * s,
      false,
      { requestedMs: 0, resyncCheckMs: 10 * s, effectiveMs: 0, lowered: false },
    ],
    [
      'under the minimum is raised to 1 s',
      200,
      0,
      false,
      { requestedMs: MINIMUM_RESYNC_PERIOD_MS, resyncCheckMs: 0, effectiveMs: 0, lowered: false },
    ],
    [
      'under the check period before start lowers it',
      5 * s,
      10 * s,
      false,
      { requestedMs: 5 * s, resyncCheckMs: 5 * s, effectiveMs: 5 * s, lowered: true },
    ],
    [
      'under the check period once started is raised',
      5 * s,
      10 * s,
      true,
      { requestedMs: 10 * s, resyncCheckMs: 10 * s, effectiveMs: 10 * s, lowered: false },
    ],
    [
      'above the check period is kept',
      30 * s,
      10 * s,
      true,
      { requestedMs: 30 * s, resyncCheckMs: 10 * s, effectiveMs: 30 * s, lowered: false },
    ],
    [
      'an informer with check period 0 resyncs nobody',
      30 * s,
      0,
      false,
      { requestedMs: 30 * s, resyncCheckMs: 0, effectiveMs: 0, lowered: false },
    ],
  ])('%s', (_name, requested, check, started, expected) => {
    expect(registerResync(requested, check, started)).toMatchObject(expected);
  });

  it('says why it changed a period', () => {
    expect(registerResync(10, 0, false).adjusted).toMatch(/below the minimum/);
    expect(registerResync(5 * s, 10 * s, true).adjusted).toMatch(/check period/);
    expect(registerResync(5 * s, 10 * s, false).adjusted).toBeUndefined();
  });

  it('rejects a negative or non-numeric period', () => {
    expect(() => registerResync(-1, 0, false)).toThrow(/resyncPeriodMs/);
    expect(() => registerResync(Number.NaN, 0, false)).toThrow(/resyncPeriodMs/);
  });

  it('walks the registrations of TestResyncCheckPeriod (informer default 12 h, not started)', () => {
    let check = 12 * h;
    const handlers: { requested: number; effective: number }[] = [];
    const register = (period: number) => {
      const r = registerResync(period, check, false);
      check = r.resyncCheckMs;
      if (r.lowered) for (const l of handlers) l.effective = determineResyncPeriod(l.requested, check);
      handlers.push({ requested: r.requestedMs, effective: r.effectiveMs });
    };
    register(0);
    expect([check, handlers.map((l) => l.effective)]).toEqual([12 * h, [0]]);
    register(1 * min);
    expect([check, handlers.map((l) => l.effective)]).toEqual([1 * min, [0, 1 * min]]);
    register(55 * s);
    expect([check, handlers.map((l) => l.effective)]).toEqual([55 * s, [0, 1 * min, 55 * s]]);
    register(5 * s);
    expect([check, handlers.map((l) => l.effective)]).toEqual([5 * s, [0, 1 * min, 55 * s, 5 * s]]);
  });
});
