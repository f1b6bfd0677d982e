// Jitter: spreads a duration randomly upwards, as apimachinery's wait.Jitter does.
import { InvalidConfigError } from './errors.ts';

/**
 * Returns `ms` plus a random fraction of `maxFactor * ms`, i.e. a value in `[ms, ms * (1 + maxFactor))`.
 * A `maxFactor` of 0 or less means "no jitter" and returns `ms` unchanged.
 *
 * @example jitter(1000, 1.0, () => 0.5) // 1500
 * @param ms the base duration in milliseconds (finite, not negative)
 * @param maxFactor the largest fraction of `ms` to add
 * @param random a source of numbers in `[0, 1)`; default `Math.random`
 * @returns the jittered duration in milliseconds
 */
export function jitter(ms: number, maxFactor: number, random: () => number = Math.random): number {
  if (!Number.isFinite(ms) || ms < 0)
    throw new InvalidConfigError('ms', `must be a finite number >= 0, got ${ms}`);
  if (!(maxFactor > 0)) return ms;
  return ms + random() * maxFactor * ms;
}
