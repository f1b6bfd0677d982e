// Properties of RateLimitedTimedQueue: never more releases than the token bucket allows, never a name queued twice, nothing lost.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RateLimitedTimedQueue } from '../../../../operators/controller/node-lifecycle/rate-limited-timed-queue.ts';

const op = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), name: fc.constantFrom('a', 'b', 'c', 'd', 'e') }),
  fc.record({ kind: fc.constant('remove' as const), name: fc.constantFrom('a', 'b', 'c', 'd', 'e') }),
  fc.record({ kind: fc.constant('try' as const), ok: fc.boolean() }),
  fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 30_000 }) }),
  fc.record({ kind: fc.constant('swap' as const), qps: fc.constantFrom(0, 0.01, 0.1, 1) }),
);

describe('RateLimitedTimedQueue properties', () => {
  it('releases at most burst + qps·t in any run at one rate, queues a name at most once, and loses no queued name', () => {
    fc.assert(
      fc.property(fc.constantFrom(0.01, 0.1, 1), fc.array(op, { maxLength: 60 }), (qps, ops) => {
        let now = 0;
        let rate: number = qps;
        let since = 0;
        let released = 0;
        const q = new RateLimitedTimedQueue(qps, 0);
        const model = new Set<string>();
        for (const o of ops) {
          if (o.kind === 'add') {
            if (q.add(o.name, o.name, now)) model.add(o.name);
          } else if (o.kind === 'remove') {
            q.remove(o.name);
            model.delete(o.name);
          } else if (o.kind === 'wait') now += o.ms;
          else if (o.kind === 'swap') {
            if (o.qps !== rate) {
              q.swapLimiter(o.qps, now);
              rate = o.qps;
              since = now;
              released = 0;
            }
          } else {
            const v = q.next(now);
            if (v) {
              released++;
              if (o.ok) {
                q.done(v);
                model.delete(v.value);
              } else q.retryAt(v, now + 1);
            }
          }
          expect(released).toBeLessThanOrEqual(1 + (rate * (now - since)) / 1000 + 1e-6);
          const queued = q.values.map((v) => v.value);
          expect(new Set(queued).size).toBe(queued.length);
          expect(new Set(queued)).toEqual(model);
        }
      }),
    );
  });
});
