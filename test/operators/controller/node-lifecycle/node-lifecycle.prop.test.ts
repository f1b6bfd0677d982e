// Properties of the node lifecycle decisions: taints converge in one write and keep foreign taints; a renewed Lease keeps a node healthy.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node, NodeCondition, Taint } from '../../../../operators/api/core-v1.ts';
import { nodeControllerTaints } from '../../../../operators/controller/node-lifecycle/node-controller-taints.ts';
import {
  type NodeHealth,
  observeNodeHealth,
} from '../../../../operators/controller/node-lifecycle/node-health.ts';

const status = fc.constantFrom<NodeCondition['status']>('True', 'False', 'Unknown');
const conditionType = fc.constantFrom(
  'Ready',
  'MemoryPressure',
  'DiskPressure',
  'PIDPressure',
  'NetworkUnavailable',
);
const taint: fc.Arbitrary<Taint> = fc.record({
  key: fc.constantFrom(
    'node.kubernetes.io/not-ready',
    'node.kubernetes.io/unreachable',
    'node.kubernetes.io/memory-pressure',
    'node.kubernetes.io/unschedulable',
    'dedicated',
    'example.com/foreign',
  ),
  effect: fc.constantFrom('NoSchedule', 'NoExecute', 'PreferNoSchedule'),
});
const nodeArb: fc.Arbitrary<Node> = fc
  .record({
    conditions: fc.uniqueArray(fc.record({ type: conditionType, status }), { selector: (c) => c.type }),
    taints: fc.uniqueArray(taint, { selector: (t) => `${t.key}:${t.effect}` }),
    unschedulable: fc.boolean(),
  })
  .map(({ conditions, taints, unschedulable }) => ({
    metadata: { name: 'n' },
    spec: { taints, unschedulable },
    status: { conditions },
  }));
const owned = (t: Taint) => t.key.startsWith('node.kubernetes.io/') && t.effect !== 'PreferNoSchedule';

describe('nodeControllerTaints properties', () => {
  it('one write converges: recomputing on the result asks for no change, and foreign taints are kept', () => {
    fc.assert(
      fc.property(nodeArb, fc.option(status, { nil: undefined }), (node, observed) => {
        const ready = observed ? { type: 'Ready', status: observed } : undefined;
        const taints = nodeControllerTaints(node, ready, 0) ?? node.spec?.taints ?? [];
        const after: Node = { ...node, spec: { ...node.spec, taints } };
        expect(nodeControllerTaints(after, ready, 0)).toBeUndefined();
        for (const t of node.spec?.taints ?? []) if (!owned(t)) expect(taints).toContainEqual(t);
        expect(new Set(taints.map((t) => `${t.key}:${t.effect}`)).size).toBe(taints.length);
      }),
    );
  });
});

describe('observeNodeHealth properties', () => {
  it('a node whose Lease is renewed within every grace period is never set Unknown, however stale its status', () => {
    const grace = { monitorGracePeriodMs: 40_000, startupGracePeriodMs: 60_000 };
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 40_000 }), { minLength: 1, maxLength: 30 }), (gaps) => {
        const node: Node = {
          metadata: { name: 'n', creationTimestamp: '2015-01-01T00:00:00Z' },
          status: {
            conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2015-01-01T00:00:00Z' }],
          },
        };
        let now = Date.parse('2015-01-01T00:00:00Z');
        let health: NodeHealth | undefined;
        for (const gap of gaps) {
          const renewed = new Date(now).toISOString();
          now += gap;
          const step = observeNodeHealth(health, node, renewed, now, grace);
          expect(step.conditions).toBeUndefined();
          health = step.health;
        }
      }),
    );
  });

  it('without Lease or heartbeat, a Ready node is set Unknown exactly once the grace period has passed', () => {
    const grace = { monitorGracePeriodMs: 40_000, startupGracePeriodMs: 60_000 };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200_000 }), (elapsed) => {
        const node: Node = {
          metadata: { name: 'n', creationTimestamp: '2015-01-01T00:00:00Z' },
          status: {
            conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2015-01-01T00:00:00Z' }],
          },
        };
        const first = observeNodeHealth(undefined, node, undefined, 1_000_000, grace);
        const later = observeNodeHealth(first.health, node, undefined, 1_000_000 + elapsed, grace);
        expect(later.conditions !== undefined).toBe(elapsed > 40_000);
      }),
    );
  });
});
