// Properties of the learned stall window: always within [floor, ceiling]; a watch whose bookmarks keep their cadence is never abandoned; the head bound covers recent answers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GAP_FACTOR, HEAD_FACTOR, HEAD_SAMPLES, stallWindow } from '../../streams/stall-window.ts';

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

  it('the response-head bound is within [floor, ceiling], never under HEAD_FACTOR × the slowest recent answer (ceiling permitting), 2 × floor before any', () => {
    fc.assert(
      fc.property(
        fc.nat(5000),
        fc.integer({ min: 1, max: 60_000 }),
        fc.array(fc.nat(30_000), { maxLength: 40 }),
        (floor, ceiling, answers) => {
          const w = stallWindow({ floorMs: floor, ceilingMs: ceiling });
          const low = Math.min(floor, ceiling);
          expect(w.headWindow()).toBe(Math.min(ceiling, Math.max(low, GAP_FACTOR * low)));
          answers.forEach((ms, i) => {
            w.headAnswered(ms);
            const slowest = Math.max(...answers.slice(Math.max(0, i + 1 - HEAD_SAMPLES), i + 1));
            const bound = w.headWindow();
            expect(bound).toBeGreaterThanOrEqual(low);
            expect(bound).toBeLessThanOrEqual(ceiling);
            expect(bound).toBeGreaterThanOrEqual(Math.min(ceiling, HEAD_FACTOR * slowest));
          });
        },
      ),
    );
  });
});
