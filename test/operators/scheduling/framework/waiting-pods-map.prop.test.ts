// Property of a pod waiting at Permit: whatever the interleaving of allows, rejects and time, it settles exactly once and leaves no timer.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_PERMIT_TIMEOUT_MS,
  WaitingPod,
} from '../../../../operators/scheduling/framework/waiting-pods-map.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import { makePod } from './fixtures.ts';

describe('WaitingPod', () => {
  const pod = makePod('p');

  it('settles exactly once whatever the interleaving of allows, rejects and time', async () => {
    const op = fc.oneof(
      fc.record({ type: fc.constant('allow' as const), plugin: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ type: fc.constant('reject' as const), plugin: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ type: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 3_000 }) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 4 }),
        fc.array(op, { maxLength: 20 }),
        async (timeouts, ops) => {
          const clock = new VirtualClock();
          const plugins = timeouts.map((_, i) => `p${i}`);
          const wp = new WaitingPod(pod, new Map(plugins.map((p, i) => [p, timeouts[i]!])), clock.scheduler);
          const allowed = new Set<string>();
          for (const o of ops) {
            if (o.type === 'advance') {
              clock.advance(o.ms);
            } else if (o.plugin < plugins.length) {
              const name = plugins[o.plugin]!;
              if (o.type === 'allow') {
                if (!wp.settled) allowed.add(name);
                wp.allow(name);
              } else wp.reject(name, 'no');
            }
          }
          clock.advance(MAX_PERMIT_TIMEOUT_MS);
          const s = await wp.done;
          expect(wp.settled).toBe(true);
          expect(clock.pending).toBe(0);
          if (s.code === 'Success') {
            // Success only when every plugin allowed before its own timeout.
            expect(allowed.size).toBe(plugins.length);
          } else {
            expect(s.code).toBe('Unschedulable');
            expect(plugins).toContain(s.plugin);
          }
          // A later allow or reject changes nothing.
          wp.reject(plugins[0]!, 'late');
          expect(await wp.done).toBe(s);
        },
      ),
      { numRuns: 200, seed: 3 },
    );
  });
});
