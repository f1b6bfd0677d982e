// Tests the rate limiters against the cases of client-go's default_rate_limiters_test.go, in virtual time.
import { describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../../operators/errors.ts';
import {
  bucketRateLimiter,
  defaultControllerRateLimiter,
  itemExponentialRateLimiter,
  itemFastSlowRateLimiter,
  maxOfRateLimiter,
  type RateLimiter,
  withMaxWaitRateLimiter,
} from '../../operators/rate-limiter.ts';
import { VirtualClock } from '../../src/testing/virtual-clock.ts';

/** A step of a scripted limiter scenario: call `when`, read `numRequeues`, or `forget`. */
type Step = ['when', string, number] | ['requeues', string, number] | ['forget', string];

function play(limiter: RateLimiter, steps: Step[]) {
  return steps.map((step) => {
    if (step[0] === 'when') return [step[1], 'when', limiter.when(step[1])];
    if (step[0] === 'requeues') return [step[1], 'requeues', limiter.numRequeues(step[1])];
    limiter.forget(step[1]);
    return [step[1], 'forget'];
  });
}

function expected(steps: Step[]) {
  return steps.map((step) => (step[0] === 'forget' ? [step[1], 'forget'] : [step[1], step[0], step[2]]));
}

describe('rate limiters (default_rate_limiters_test.go)', () => {
  it.each<[string, () => RateLimiter, Step[]]>([
    [
      'exponential 1 ms → 1 s doubles per item, counts per item, forget restarts',
      () => itemExponentialRateLimiter(1, 1000),
      [
        ['when', 'one', 1],
        ['when', 'one', 2],
        ['when', 'one', 4],
        ['when', 'one', 8],
        ['when', 'one', 16],
        ['requeues', 'one', 5],
        ['when', 'two', 1],
        ['when', 'two', 2],
        ['requeues', 'two', 2],
        ['forget', 'one'],
        ['requeues', 'one', 0],
        ['when', 'one', 1],
      ],
    ],
    [
      'fast/slow 5 ms ×3 then 10 s',
      () => itemFastSlowRateLimiter(5, 10_000, 3),
      [
        ['when', 'one', 5],
        ['when', 'one', 5],
        ['when', 'one', 5],
        ['when', 'one', 10_000],
        ['when', 'one', 10_000],
        ['requeues', 'one', 5],
        ['when', 'two', 5],
        ['when', 'two', 5],
        ['requeues', 'two', 2],
        ['forget', 'one'],
        ['requeues', 'one', 0],
        ['when', 'one', 5],
      ],
    ],
    [
      'max of fast/slow (5 ms ×3, then 3 s) and exponential (1 ms → 1 s)',
      () => maxOfRateLimiter(itemFastSlowRateLimiter(5, 3000, 3), itemExponentialRateLimiter(1, 1000)),
      [
        ['when', 'one', 5],
        ['when', 'one', 5],
        ['when', 'one', 5],
        ['when', 'one', 3000],
        ['when', 'one', 3000],
        ['requeues', 'one', 5],
        ['when', 'two', 5],
        ['when', 'two', 5],
        ['requeues', 'two', 2],
        ['forget', 'one'],
        ['requeues', 'one', 0],
        ['when', 'one', 5],
      ],
    ],
  ])('%s', (_name, make, steps) => {
    expect(play(make(), steps)).toEqual(expected(steps));
  });

  it.each([
    // [base, max, calls before, expected delay of the next call]
    [1, 1_000_000, 5, 32],
    [1, 1_000_000, 1000, 1_000_000],
    [60_000, 3_600_000_000, 2, 240_000],
    [60_000, 3_600_000_000, 1000, 3_600_000_000],
  ])(
    'exponential base %d ms max %d ms: after %d calls the next waits %d ms (no overflow)',
    (base, max, n, next) => {
      const limiter = itemExponentialRateLimiter(base, max);
      for (let i = 0; i < n; i++) limiter.when('x');
      expect(limiter.when('x')).toBe(next);
    },
  );

  it('with max wait caps the delays of a step limiter at 500 s', () => {
    let count = 0;
    const step: RateLimiter = {
      when: () => (++count <= 100 ? 5 : 1_000_000),
      forget: () => {},
      numRequeues: () => 0,
    };
    const limiter = withMaxWaitRateLimiter(step, 500_000);
    const delays = Array.from({ length: 200 }, (_, i) => limiter.when(String(i)));
    expect(delays.slice(0, 100).every((d) => d === 5)).toBe(true);
    expect(delays.slice(100).every((d) => d === 500_000)).toBe(true);
  });

  describe('token bucket (x/time/rate semantics)', () => {
    it('starts full: the first `burst` calls are free, then calls are spaced 1/qps apart', () => {
      const { scheduler } = new VirtualClock();
      const limiter = bucketRateLimiter({ qps: 10, burst: 100, scheduler });
      const delays = Array.from({ length: 103 }, () => limiter.when('any'));
      expect(delays.slice(0, 100)).toEqual(Array(100).fill(0));
      expect(delays.slice(100)).toEqual([100, 200, 300]);
      expect(limiter.numRequeues('any')).toBe(0);
    });

    it('refills with time, never above the burst', () => {
      const clock = new VirtualClock();
      const limiter = bucketRateLimiter({ qps: 2, burst: 2, scheduler: clock.scheduler });
      expect([limiter.when('a'), limiter.when('a'), limiter.when('a')]).toEqual([0, 0, 500]);
      clock.advance(10_000); // owed token repaid, then full (2) again, not 20
      expect([limiter.when('b'), limiter.when('b'), limiter.when('b')]).toEqual([0, 0, 500]);
      clock.advance(250); // −1 + 0.5 refilled − 1 reserved = −1.5 tokens → 750 ms
      expect(limiter.when('c')).toBe(750);
    });

    it('forget does nothing', () => {
      const { scheduler } = new VirtualClock();
      const limiter = bucketRateLimiter({ qps: 1, burst: 1, scheduler });
      limiter.when('a');
      limiter.forget('a');
      expect(limiter.when('a')).toBe(1000);
    });
  });

  it('default controller limiter: exponential 5 ms per item under a 10 qps / 100 burst bucket', () => {
    const { scheduler } = new VirtualClock();
    const limiter = defaultControllerRateLimiter({ scheduler });
    expect([limiter.when('a'), limiter.when('a'), limiter.when('a')]).toEqual([5, 10, 20]);
    expect(limiter.numRequeues('a')).toBe(3);
    for (let i = 0; i < 97; i++) limiter.when(`k${i}`); // the bucket is now empty
    expect(limiter.when('b')).toBe(100); // bucket wins over b's 5 ms
    for (let i = 0; i < 15; i++) limiter.when('a'); // a: 5 ms · 2^18 > 1000 s → capped
    expect(limiter.when('a')).toBe(1_000_000);
    limiter.forget('a');
    expect(limiter.numRequeues('a')).toBe(0);
  });

  it.each<[string, () => unknown]>([
    ['itemExponentialRateLimiter.baseMs', () => itemExponentialRateLimiter(-1, 10)],
    ['bucketRateLimiter.qps', () => bucketRateLimiter({ qps: 0 })],
    ['bucketRateLimiter.burst', () => bucketRateLimiter({ burst: Number.NaN })],
    ['itemFastSlowRateLimiter.slowMs', () => itemFastSlowRateLimiter(1, -5, 1)],
  ])('bad configuration names the field %s', (field, make) => {
    expect(make).toThrow(InvalidConfigError);
    expect(make).toThrow(field);
  });
});
