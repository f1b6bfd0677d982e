// Seeded pseudo-random numbers for the fault proxy and the trials: the same seed gives the same sequence.

/** A source of numbers in [0, 1), like `Math.random`, but reproducible. */
export type SeededRandom = () => number;

/** Mixes 32-bit words into one well-spread 32-bit word (a murmur-style finaliser). */
function mix32(value: number): number {
  let h = value | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * A small, fast seeded generator (the mulberry32 recurrence): a 32-bit state advanced by a Weyl step
 * and scrambled on output. Not cryptographic; good enough to pick faults and byte positions.
 *
 * @example
 * const random = seededRandom(42);
 * random(); // always the same first number for seed 42
 * @param seed any number; only its low 32 bits matter
 * @returns a function returning numbers in [0, 1)
 */
export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The generator of one numbered stream derived from a seed (e.g. the n-th request of a proxy), so
 * that each stream's draws do not depend on how many draws other streams made.
 * @param seed the run's seed
 * @param index the stream's number
 * @returns an independent generator for that stream
 */
export function derivedRandom(seed: number, index: number): SeededRandom {
  return seededRandom(mix32(mix32(seed >>> 0) ^ Math.imul(index + 1, 0x9e3779b1)));
}

/**
 * A whole number in [min, max] drawn from `random`.
 * @param random the generator
 * @param min lowest value (inclusive)
 * @param max highest value (inclusive)
 */
export function randomInt(random: SeededRandom, min: number, max: number): number {
  if (max <= min) return min;
  return min + Math.floor(random() * (max - min + 1));
}
