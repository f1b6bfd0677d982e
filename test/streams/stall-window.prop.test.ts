// Properties of the learned stall window: always within [floor, ceiling]; a watch whose bookmarks keep their cadence is never abandoned.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stallWindow } from '../../streams/stall-window.ts';

type Step =
  | { type: 'arrive'; gap: number; bookmark: boolean }
  | { type: 'watch' }
  | { type: 'stalled' }
  | { type: 'initialEnd' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      type: fc.constant('arrive' as const),
      gap: fc.nat(60_000),
      bookmark: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ type: 'watch' as const }) },
  { weight: 1, arbitrary: fc.constant({ type: 'stalled' as const }) },
  { weight: 1, arbitrary: fc.constant({ type: 'initialEnd' as const }) },
);

describe('stallWindow properties', () => {
  it('after any arrivals, restarts, stalls and ends of initial events, the window is within [floor, ceiling]', () => {
    fc.assert(
      fc.property(
        fc.nat(5000),
        fc.integer({ min: 1, max: 60_000 }),
        fc.array(step, { maxLength: 200 }),
        (floor, ceiling, steps) => {
          const w = stallWindow({ floorMs: floor, ceilingMs: ceiling });
          let at = 0;
          w.watchStarted(at);
          for (const s of steps) {
            if (s.type === 'arrive') {
              at += s.gap;
              w.arrived(at, s.bookmark);
            } else if (s.type === 'watch') w.watchStarted(at);
            else if (s.type === 'stalled') w.stalled();
            else w.initialEventsEnded();
            const window = w.window();
            expect(window).toBeGreaterThanOrEqual(Math.min(floor, ceiling));
            expect(window).toBeLessThanOrEqual(ceiling);
          }
        },
      ),
    );
  });

  it('a quiet watch whose bookmarks come every B ms (2B within the ceiling) always has a window of at least B after its first', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 12_000 }),
        fc.array(fc.nat(2000), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 40 }),
        (every, burst, bookmarks) => {
          const w = stallWindow({ floorMs: 1000, ceilingMs: 25_000 });
          let at = 0;
          w.watchStarted(at);
          at += every;
          w.arrived(at, true);
          for (const gap of burst) {
            at += Math.min(gap, every - 1); // events in between
            w.arrived(at, false);
          }
          w.stalled(); // the flow ended and was taken for a stall: the next watch is quiet
          w.watchStarted(at);
          for (let i = 0; i < bookmarks; i++) {
            expect(w.window()).toBeGreaterThanOrEqual(every);
            at += every;
            w.arrived(at, true);
          }
          expect(w.window()).toBeGreaterThanOrEqual(every);
        },
      ),
    );
  });
});
