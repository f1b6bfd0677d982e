// Properties of the exponential backoff: each wait is base·[1, 2), bases double up to the cap and never shrink.
import fc from 'fast-check';
import { VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { exponentialBackoff } from '../../operators/backoff.ts';

describe('exponentialBackoff properties', () => {
  it('every wait is its base times [1, 1 + jitter), bases double and stop at the cap', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.integer({ min: 1, max: 2000 }),
        fc.integer({ min: 1, max: 100_000 }),
        (randoms, initialMs, maxMs) => {
          let i = 0;
          const backoff = exponentialBackoff({
            initialMs,
            maxMs,
            scheduler: new VirtualTimeScheduler(),
            random: () => randoms[i]!,
          });
          let base = initialMs;
          let capped = false;
          for (i = 0; i < randoms.length; i++) {
            const wait = backoff.next()!;
            expect(wait).toBeCloseTo(base * (1 + randoms[i]!), 6);
            if (!capped) {
              base *= 2;
              if (base > maxMs) {
                base = maxMs;
                capped = true;
              }
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
