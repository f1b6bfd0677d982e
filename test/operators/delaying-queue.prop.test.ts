// Property: the delaying queue releases each item once, at its earliest requested time, in time order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DelayingQueue } from '../../operators/delaying-queue.ts';
import { VirtualClock } from '../../src/testing/virtual-clock.ts';

describe('DelayingQueue properties', () => {
  it('matches a naive model: earliest time per waiting item, released in (time, arrival) order', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('add' as const),
        item: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
        delay: fc.integer({ min: -2, max: 40 }),
      }),
      fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 25 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const clock = new VirtualClock();
        const scheduler = clock.scheduler;
        const released: [string, number][] = [];
        const queue = new DelayingQueue<string>({
          scheduler,
          ready: (i) => released.push([i, scheduler.now()]),
        });
        // Model: item → { at, seq }.
        const waiting = new Map<string, { at: number; seq: number }>();
        const expected: [string, number][] = [];
        let now = 0;
        let seq = 0;
        const releaseUpTo = (t: number) => {
          const due = [...waiting.entries()]
            .filter(([, w]) => w.at <= t)
            .sort((x, y) => x[1].at - y[1].at || x[1].seq - y[1].seq);
          for (const [item, w] of due) {
            waiting.delete(item);
            expected.push([item, w.at]);
          }
        };
        for (const o of ops) {
          if (o.kind === 'add') {
            queue.addAfter(o.item, o.delay);
            if (o.delay <= 0) expected.push([o.item, now]);
            else {
              const w = waiting.get(o.item);
              if (!w) waiting.set(o.item, { at: now + o.delay, seq: seq++ });
              else if (now + o.delay < w.at) w.at = now + o.delay;
            }
          } else {
            // Step one frame at a time so the model releases at the same instants.
            for (let i = 0; i < o.ms; i++) {
              now++;
              releaseUpTo(now);
            }
            clock.advance(o.ms);
          }
          expect(released).toEqual(expected);
          expect(queue.size).toBe(waiting.size);
          expect(scheduler.actions.length).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 150 },
    );
  });
});
