// Seeded randomness tests: reproducible, in [0, 1), independent per derived stream.
import { describe, expect, it } from 'vitest';
import { derivedRandom, randomInt, seededRandom } from '../../../src/testing/fault-random.ts';

const draws = (next: () => number, n: number) => Array.from({ length: n }, next);

describe('seededRandom', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    expect(draws(seededRandom(42), 20)).toEqual(draws(seededRandom(42), 20));
    expect(draws(seededRandom(42), 20)).not.toEqual(draws(seededRandom(43), 20));
  });

  it('stays in [0, 1) and spreads over it', () => {
    const values = draws(seededRandom(7), 5000);
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    const buckets = new Array(10).fill(0);
    for (const v of values) buckets[Math.floor(v * 10)]++;
    expect(Math.min(...buckets)).toBeGreaterThan(350);
  });
});

describe('derivedRandom', () => {
  it('gives each index its own reproducible stream', () => {
    expect(draws(derivedRandom(1, 5), 10)).toEqual(draws(derivedRandom(1, 5), 10));
    expect(draws(derivedRandom(1, 5), 10)).not.toEqual(draws(derivedRandom(1, 6), 10));
    expect(draws(derivedRandom(1, 5), 10)).not.toEqual(draws(derivedRandom(2, 5), 10));
  });
});

describe('randomInt', () => {
  it.each([
    [0, 0],
    [0.24, 0],
    [0.25, 1],
    [0.5, 2],
    [0.999, 3],
  ])('draw %d over [0, 3] gives %d (each value a quarter of the draws)', (draw, expected) => {
    expect(randomInt(() => draw, 0, 3)).toBe(expected);
  });

  it('returns min for an empty or single range', () => {
    expect(randomInt(() => 0.9, 4, 4)).toBe(4);
    expect(randomInt(() => 0.9, 4, 2)).toBe(4);
  });
});
