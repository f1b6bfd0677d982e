// Tests of the marble helpers: they run in virtual time and fail through vitest's expect.
import { delay, map, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { marbles, testScheduler } from '../../../src/testing/marbles.ts';

describe('marbles', () => {
  it('runs a marble test and returns the body result', () => {
    const result = marbles(({ cold, expectObservable }) => {
      expectObservable(cold('a-b|', { a: 1, b: 2 }).pipe(map((n) => n * 10))).toBe('a-b|', { a: 10, b: 20 });
      return 'done';
    });
    expect(result).toBe('done');
  });

  it('virtualizes time: a 10 s delay takes no real time', () => {
    marbles(({ expectObservable }) => {
      expectObservable(of(1).pipe(delay(10_000))).toBe('10s (a|)', { a: 1 });
    });
  });

  it('reports a mismatch as a vitest assertion error', () => {
    expect(() =>
      testScheduler().run(({ cold, expectObservable }) => {
        expectObservable(cold('a|')).toBe('b|');
      }),
    ).toThrow(/expected/);
  });
});
