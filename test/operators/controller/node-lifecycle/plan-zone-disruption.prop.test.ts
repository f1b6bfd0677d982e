// Properties of planZoneDisruption: zones follow the nodes, all-down stops every eviction, a second pass on the same conditions changes nothing, rates follow the states.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NodeCondition } from '../../../../operators/api/core-v1.ts';
import {
  DEFAULT_ZONE_EVICTION_RATES,
  type KnownZoneState,
  planZoneDisruption,
  zoneEvictionQPS,
} from '../../../../operators/controller/node-lifecycle/plan-zone-disruption.ts';

const ready = fc.constantFrom<NodeCondition | undefined>(
  { type: 'Ready', status: 'True' },
  { type: 'Ready', status: 'False' },
  { type: 'Ready', status: 'Unknown' },
  undefined,
);
const zone = fc.constantFrom('a', 'b', 'c');
const conditions = fc
  .dictionary(zone, fc.array(ready, { minLength: 1, maxLength: 8 }))
  .map((d) => new Map(Object.entries(d)));
const previous = fc
  .dictionary(
    zone,
    fc.constantFrom<KnownZoneState>('Initial', 'Normal', 'PartialDisruption', 'FullDisruption'),
  )
  .map((d) => new Map(Object.entries(d)));
const rates = fc.record({
  evictionQPS: fc.constantFrom(0.1, 1),
  secondaryEvictionQPS: fc.constantFrom(0.01, 0.05),
  largeClusterThreshold: fc.constantFrom(2, 50),
  unhealthyZoneThreshold: fc.constantFrom(0.3, 0.55, 0.9),
});

describe('planZoneDisruption properties', () => {
  it('keeps exactly the zones that have nodes; when all are down every rate is 0; a repeat pass changes nothing; rates follow states', () => {
    fc.assert(
      fc.property(previous, conditions, rates, (prev, now, r) => {
        const plan = planZoneDisruption(prev, now, r);
        expect([...plan.states.keys()].sort()).toEqual([...now.keys()].sort());
        if (plan.mode === 'enter') {
          for (const zone of plan.states.keys()) expect(plan.limiters.get(zone)).toBe(0);
          expect([...plan.states.values()].every((s) => s === 'FullDisruption')).toBe(true);
        }
        if (plan.mode !== 'enter') {
          for (const [zone, qps] of plan.limiters) {
            const state = plan.states.get(zone);
            expect(state).not.toBe('Initial');
            expect(qps).toBe(
              zoneEvictionQPS(state as Exclude<KnownZoneState, 'Initial'>, now.get(zone)!.length, r),
            );
          }
        }
        const again = planZoneDisruption(plan.states, now, r);
        expect(again.limiters.size).toBe(0);
        expect(again.mode).toBeUndefined();
        expect(again.states).toEqual(plan.states);
      }),
    );
  });

  it('an unchanged healthy cluster is never touched', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 4 }), (sizes) => {
        const now = new Map(
          sizes.map((n, i) => [
            `z${i}`,
            Array.from({ length: n }, () => ({ type: 'Ready', status: 'True' }) as NodeCondition),
          ]),
        );
        const prev = new Map(sizes.map((_, i) => [`z${i}`, 'Normal' as KnownZoneState]));
        const plan = planZoneDisruption(prev, now, DEFAULT_ZONE_EVICTION_RATES);
        expect(plan.limiters.size).toBe(0);
        expect(plan.mode).toBeUndefined();
      }),
    );
  });
});
