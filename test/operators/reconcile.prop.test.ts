// Properties of the reconcile runner in virtual time: no key reconciled twice at once, no change lost.
import fc from 'fast-check';
import { map, Subject, timer, VirtualAction, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { itemExponentialRateLimiter } from '../../operators/rate-limiter.ts';
import { type ReconcileResult, reconcileWith } from '../../operators/reconcile.ts';

type Answer = 'done' | 'requeue' | 'after' | 'fail';

describe('reconcileWith properties', () => {
  it('with N workers: never two runs of a key at once, at most N runs at once, every change is followed by a run', () => {
    const arbitrary = fc.record({
      workers: fc.integer({ min: 1, max: 4 }),
      emissions: fc.array(
        fc.tuple(fc.integer({ min: 0, max: 60 }), fc.constantFrom('a', 'b', 'c', 'd', 'e')),
        {
          maxLength: 40,
        },
      ),
      durations: fc.array(fc.integer({ min: 0, max: 8 }), { minLength: 1, maxLength: 20 }),
      answers: fc.array(fc.constantFrom<Answer>('done', 'requeue', 'after', 'fail'), { maxLength: 30 }),
    });
    fc.assert(
      fc.property(arbitrary, ({ workers, emissions, durations, answers }) => {
        const scheduler = new VirtualTimeScheduler(VirtualAction, Number.POSITIVE_INFINITY);
        const keys = new Subject<string>();
        const running = new Set<string>();
        const starts: [string, number][] = [];
        let runs = 0;
        let violations = 0;
        let maxParallel = 0;
        const sub = keys
          .pipe(
            reconcileWith(
              (k) => {
                if (running.has(k)) violations++;
                running.add(k);
                maxParallel = Math.max(maxParallel, running.size);
                starts.push([k, scheduler.now()]);
                const n = runs++;
                // After the scripted answers run out, everything is done, so the run settles.
                const answer: Answer = answers[n] ?? 'done';
                return timer(durations[n % durations.length]!, scheduler).pipe(
                  map((): ReconcileResult => {
                    running.delete(k);
                    if (answer === 'fail') throw new Error('scripted failure');
                    if (answer === 'requeue') return { requeue: true };
                    if (answer === 'after') return { requeueAfter: 7 };
                    return {};
                  }),
                );
              },
              { workers, scheduler, rateLimiter: itemExponentialRateLimiter(1, 20) },
            ),
          )
          .subscribe();
        for (const [at, k] of emissions) scheduler.schedule(() => keys.next(k), at);
        scheduler.flush();
        expect(violations).toBe(0);
        expect(maxParallel).toBeLessThanOrEqual(workers);
        expect(running.size).toBe(0);
        // Every change is followed by a run of that key that starts no earlier.
        for (const [at, k] of emissions) {
          expect(starts.some(([sk, st]) => sk === k && st >= at)).toBe(true);
        }
        sub.unsubscribe();
        expect(scheduler.actions).toHaveLength(0);
      }),
      { numRuns: 150 },
    );
  });
});
