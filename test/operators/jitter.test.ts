// Tests of jitter: [d, d·(1+f)) with an injected random source; no jitter for f <= 0; bad input named.
import { describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../../operators/errors.ts';
import { jitter } from '../../operators/jitter.ts';

describe('jitter', () => {
  it.each([
    [1000, 1.0, 0, 1000],
    [1000, 1.0, 0.5, 1500],
    [1000, 0.2, 0.5, 1100],
    [1000, 0, 0.9, 1000],
    [1000, -1, 0.9, 1000],
    [0, 1, 0.9, 0],
  ])('jitter(%d, %d) with random %d is %d', (ms, factor, r, expected) => {
    expect(jitter(ms, factor, () => r)).toBe(expected);
  });

  it('stays within [d, 2d) with Math.random', () => {
    for (let i = 0; i < 100; i++) {
      const v = jitter(500, 1);
      expect(v).toBeGreaterThanOrEqual(500);
      expect(v).toBeLessThan(1000);
    }
  });

  it('rejects a negative duration, naming it', () => {
    expect(() => jitter(-1, 1)).toThrow(InvalidConfigError);
    expect(() => jitter(-1, 1)).toThrow(/^ms:/);
  });
});
