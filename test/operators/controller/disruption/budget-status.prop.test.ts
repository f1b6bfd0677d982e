// Properties of budgetStatus: whatever the pods, budget and evictions, disruptionsAllowed is never negative, never more than the healthy pods above desiredHealthy, and spending every allowed disruption never takes the healthy count below desiredHealthy.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  budgetStatus,
  type ControllerLookup,
} from '../../../../operators/controller/disruption/budget-status.ts';
import type { KubeObject } from '../../../../operators/types.ts';

const NOW = Date.parse('2024-06-01T12:00:00Z');
const rs = (replicas: number): KubeObject => ({
  kind: 'ReplicaSet',
  metadata: { name: 'rs', uid: 'u' },
  spec: { replicas },
});

const arbPods = fc.array(
  fc.record({
    ready: fc.boolean(),
    deleting: fc.boolean(),
    evictedAgoS: fc.option(fc.integer({ min: 0, max: 300 }), { nil: undefined }),
  }),
  { maxLength: 12 },
);
const arbSpec = fc.oneof(
  fc.nat(15).map((n) => ({ minAvailable: n })),
  fc.integer({ min: 0, max: 100 }).map((p) => ({ minAvailable: `${p}%` })),
  fc.nat(15).map((n) => ({ maxUnavailable: n })),
  fc.integer({ min: 0, max: 100 }).map((p) => ({ maxUnavailable: `${p}%` })),
);

describe('budgetStatus properties', () => {
  it('never allows more disruptions than the healthy pods above desiredHealthy', () => {
    fc.assert(
      fc.property(arbPods, arbSpec, fc.nat(15), (specs, spec, replicas) => {
        const pods: KubeObject[] = specs.map((p, i) => ({
          metadata: {
            name: `p${i}`,
            namespace: 'ns',
            ...(p.deleting ? { deletionTimestamp: new Date(NOW).toISOString() } : {}),
            ownerReferences: [
              { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u', controller: true },
            ],
          },
          status: { conditions: [{ type: 'Ready', status: p.ready ? 'True' : 'False' }] },
        }));
        const disrupted = Object.fromEntries(
          specs.flatMap((p, i) =>
            p.evictedAgoS === undefined
              ? []
              : [[`p${i}`, new Date(NOW - p.evictedAgoS * 1000).toISOString()]],
          ),
        );
        const lookup: ControllerLookup = (kind) => (kind === 'ReplicaSet' ? rs(replicas) : undefined);
        const pdb: KubeObject = {
          metadata: { name: 'b', namespace: 'ns', generation: 2 },
          spec,
          status: { disruptedPods: disrupted },
        };
        const s = budgetStatus(pdb, pods, lookup, NOW).status as {
          disruptionsAllowed: number;
          currentHealthy: number;
          desiredHealthy: number;
          observedGeneration: number;
        };
        expect(s.disruptionsAllowed).toBeGreaterThanOrEqual(0);
        expect(s.currentHealthy).toBeLessThanOrEqual(pods.length);
        expect(s.desiredHealthy).toBeGreaterThanOrEqual(0);
        if (s.disruptionsAllowed > 0)
          expect(s.currentHealthy - s.disruptionsAllowed).toBeGreaterThanOrEqual(s.desiredHealthy);
        expect(s.observedGeneration).toBe(2);
      }),
      { numRuns: 300 },
    );
  });
});
