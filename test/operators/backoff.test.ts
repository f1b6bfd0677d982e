// Tests of the exponential backoff policy: client-go's wait ranges, cap, reset after two minutes, give-up.
import { VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { exponentialBackoff } from '../../operators/backoff.ts';
import { InvalidConfigError } from '../../operators/errors.ts';

const almostOne = 1 - Number.EPSILON;

function waits(count: number, random: () => number, scheduler = new VirtualTimeScheduler()): number[] {
  const backoff = exponentialBackoff({ scheduler, random });
  return Array.from({ length: count }, () => backoff.next()!);
}

describe('exponentialBackoff', () => {
  // The Reflector's manager: 800 ms doubling, jitter 1.0, cap 30 s (apimachinery wait.Backoff.Step).
  it.each([
    [1, 800, 1600],
    [2, 1600, 3200],
    [3, 3200, 6400],
    [4, 6400, 12800],
    [5, 12800, 25600],
    [6, 25600, 51200],
    [7, 30000, 60000],
    [8, 30000, 60000],
    [20, 30000, 60000],
  ])('wait #%i lies in [%i, %i) ms', (n, low, high) => {
    expect(waits(n, () => 0).at(-1)).toBe(low);
    const top = waits(n, () => almostOne).at(-1)!;
    expect(top).toBeGreaterThanOrEqual(low);
    expect(top).toBeLessThan(high);
  });

  it('starts over after more than two minutes without a call', () => {
    const scheduler = new VirtualTimeScheduler();
    const backoff = exponentialBackoff({ scheduler, random: () => 0 });
    expect([backoff.next(), backoff.next(), backoff.next()]).toEqual([800, 1600, 3200]);
    scheduler.frame += 120_000;
    expect(backoff.next()).toBe(6400); // exactly two minutes: still backing off
    scheduler.frame += 120_001;
    expect(backoff.next()).toBe(800);
  });

  it('reset() starts over at once', () => {
    const backoff = exponentialBackoff({ scheduler: new VirtualTimeScheduler(), random: () => 0 });
    backoff.next();
    backoff.next();
    backoff.reset();
    expect(backoff.next()).toBe(800);
  });

  it('honours custom numbers, no jitter and a retry limit', () => {
    const backoff = exponentialBackoff({
      initialMs: 1,
      maxMs: 50,
      factor: 2,
      jitter: 0,
      maxRetries: 8,
      scheduler: new VirtualTimeScheduler(),
    });
    const seen = Array.from({ length: 9 }, () => backoff.next());
    expect(seen).toEqual([1, 2, 4, 8, 16, 32, 50, 50, undefined]);
    backoff.reset();
    expect(backoff.next()).toBe(1);
  });

  it.each([
    ['initialMs', { initialMs: 0 }],
    ['maxMs', { maxMs: -1 }],
    ['factor', { factor: Number.NaN }],
    ['jitter', { jitter: -0.5 }],
    ['resetAfterMs', { resetAfterMs: Number.POSITIVE_INFINITY }],
  ])('rejects a bad %s, naming the field', (field, config) => {
    expect(() => exponentialBackoff(config)).toThrow(InvalidConfigError);
    expect(() => exponentialBackoff(config)).toThrow(new RegExp(`^${field}:`));
  });
});
