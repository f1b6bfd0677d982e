// RateLimitedTimedQueue: upstream's rate_limited_queue_test.go cases (add, remove, try, ordering with a retry, add after try, swap limiter) in our own words, on a virtual clock.
import { describe, expect, it } from 'vitest';
import {
  RateLimitedTimedQueue,
  type TimedValue,
} from '../../../../operators/controller/node-lifecycle/rate-limited-timed-queue.ts';

/** A queue whose limiter always lets through (a rate far above the steps of these tests). */
const always = (now = 0) => new RateLimitedTimedQueue(1e9, now);
const names = (q: RateLimitedTimedQueue) => q.values.map((v) => v.value);
/** Upstream's Try: hand out what the limiter and the clock allow, settling each with `fn`. */
function tryAll(
  q: RateLimitedTimedQueue,
  now: () => number,
  fn: (v: TimedValue) => { ok: boolean; waitMs?: number },
): string[] {
  const seen: string[] = [];
  for (let v = q.next(now()); v; v = q.next(now())) {
    seen.push(v.value);
    const { ok, waitMs = 0 } = fn(v);
    if (ok) q.done(v);
    else q.retryAt(v, now() + waitMs + 1);
  }
  return seen;
}

describe('RateLimitedTimedQueue', () => {
  it('queues each name once, in order of arrival', () => {
    const q = always();
    expect([q.add('first', '1', 0), q.add('second', '2', 0), q.add('third', '3', 0)]).toEqual([
      true,
      true,
      true,
    ]);
    expect(q.add('second', '2', 0)).toBe(false);
    expect(names(q)).toEqual(['first', 'second', 'third']);
  });

  it.each([
    { removed: 'first', left: ['second', 'third'] },
    { removed: 'second', left: ['first', 'third'] },
    { removed: 'third', left: ['first', 'second'] },
  ])('removing $removed leaves $left', ({ removed, left }) => {
    const q = always();
    for (const [i, n] of ['first', 'second', 'third'].entries()) q.add(n, String(i), i);
    expect(q.remove(removed)).toBe(true);
    expect(q.remove(removed)).toBe(false);
    expect(names(q)).toEqual(left);
    expect(q.has(removed)).toBe(false);
  });

  it('hands out every queued value when the limiter allows (a removed one is not tried)', () => {
    const q = always();
    for (const n of ['first', 'second', 'third']) q.add(n, n, 0);
    q.remove('second');
    let t = 0;
    expect(
      tryAll(
        q,
        () => ++t,
        () => ({ ok: true }),
      ),
    ).toEqual(['first', 'third']);
    expect(q.values).toEqual([]);
  });

  it('a failed value is tried again after its wait, behind those already due', () => {
    let t = 0;
    const q = always();
    for (const n of ['first', 'second', 'third']) q.add(n, n, ++t);
    let retried = false;
    const order: string[] = [];
    const clock = () => ++t;
    const seen = tryAll(q, clock, (v) => {
      if (v.value === 'second' && !retried) {
        retried = true;
        return { ok: false, waitMs: 2 };
      }
      order.push(v.value);
      return { ok: true };
    });
    // second waits 2 ms: third (due) goes first; second is back once its time has come
    expect(order).toEqual(['first', 'third']);
    expect(seen).toEqual(['first', 'second', 'third']);
    expect(q.values.map((v) => [v.value, v.addedAt])).toEqual([['second', 2]]);
    t += 10;
    expect(tryAll(q, clock, () => ({ ok: true }))).toEqual(['second']);
    expect(q.values).toEqual([]);
  });

  it('a value settled as done is not queued again until it is removed', () => {
    const q = always();
    q.add('first', '1', 0);
    expect(
      tryAll(
        q,
        () => 0,
        () => ({ ok: true }),
      ),
    ).toEqual(['first']);
    expect(q.add('first', '1', 0)).toBe(false);
    expect(
      tryAll(
        q,
        () => 0,
        () => ({ ok: true }),
      ),
    ).toEqual([]);
    q.remove('first');
    expect(q.add('first', '1', 0)).toBe(true);
  });

  it('a value removed while it was out is not retried', () => {
    const q = always();
    q.add('first', '1', 0);
    const v = q.next(0)!;
    q.remove('first');
    q.retryAt(v, 10);
    expect(q.values).toEqual([]);
  });

  it.each([
    {
      qps: 0.1,
      at: [0, 5_000, 9_999, 10_000, 15_000, 20_000],
      want: [true, false, false, true, false, true],
    },
    { qps: 0.01, at: [0, 10_000, 99_999, 100_000], want: [true, false, false, true] },
    { qps: 0, at: [0, 1_000_000], want: [false, false] },
    { qps: 5.5, at: [0, 100, 181, 182], want: [true, false, false, true] },
  ])('releases one value per token: burst 1 and $qps per second', ({ qps, at, want }) => {
    const q = new RateLimitedTimedQueue(qps, 0);
    for (let i = 0; i < at.length; i++) q.add(`n${i}`, '', 0);
    const got = at.map((t) => {
      const v = q.next(t);
      if (v) q.done(v);
      return v !== undefined;
    });
    expect(got).toEqual(want);
  });

  it('a value not due yet waits, though the token is spent (as upstream)', () => {
    const q = new RateLimitedTimedQueue(1, 0);
    q.add('a', '', 0);
    const v = q.next(0)!;
    q.retryAt(v, 5_000);
    expect(q.next(2_000)).toBeUndefined(); // token spent, head not due
    expect(q.next(2_500)).toBeUndefined(); // no token yet
    expect(q.next(5_000)?.value).toBe('a');
  });

  it.each([
    { case: 'to 0: nothing more is released', from: 1, to: 0, usedBefore: false, at: 100_000, want: false },
    {
      case: 'to a new rate with the old bucket full: the new one starts full',
      from: 0.1,
      to: 1,
      usedBefore: false,
      at: 0,
      want: true,
    },
    {
      case: 'to a new rate with the old bucket spent: the new one starts empty',
      from: 0.1,
      to: 1,
      usedBefore: true,
      at: 0,
      want: false,
    },
    {
      case: 'from 0 (never accepting): the new one starts empty',
      from: 0,
      to: 0.1,
      usedBefore: false,
      at: 9_999,
      want: false,
    },
    {
      case: 'from 0, a token comes after one period',
      from: 0,
      to: 0.1,
      usedBefore: false,
      at: 10_000,
      want: true,
    },
    { case: 'to the same rate: nothing changes', from: 0.1, to: 0.1, usedBefore: true, at: 0, want: false },
  ])('swapping the limiter $case', ({ from, to, usedBefore, at, want }) => {
    const q = new RateLimitedTimedQueue(from, 0);
    if (usedBefore) {
      q.add('first', '', 0);
      q.done(q.next(0)!);
    }
    q.swapLimiter(to, 0);
    expect(q.qps).toBe(to);
    q.add('second', '', 0);
    expect(q.next(at) !== undefined).toBe(want);
  });
});
