// observeNodeHealth: upstream's TestMonitorNodeHealth* cases (update status, lease, never posted) in our own words.
import { describe, expect, it } from 'vitest';
import type { Node, NodeCondition } from '../../../../operators/api/core-v1.ts';
import { observeNodeHealth } from '../../../../operators/controller/node-lifecycle/node-health.ts';

const config = { monitorGracePeriodMs: 50_000, startupGracePeriodMs: 60_000 };
const T0 = Date.parse('2015-01-01T12:00:00Z');
const at = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const LONG_AGO = '2012-01-01T00:00:00Z';

const ready = (status: NodeCondition['status'], heartbeat: string, transition = LONG_AGO): NodeCondition => ({
  type: 'Ready',
  status,
  lastHeartbeatTime: heartbeat,
  lastTransitionTime: transition,
});
const node = (created: string, conditions?: NodeCondition[]): Node => ({
  metadata: { name: 'node0', creationTimestamp: created },
  ...(conditions ? { status: { conditions } } : {}),
});

/** One pass at T0 with the first node and lease, then one at `later` with the second. */
function twoPasses(first: Node, second: Node, later: number, lease1?: string, lease2?: string) {
  const one = observeNodeHealth(undefined, first, lease1, T0, config);
  return { one, two: observeNodeHealth(one.health, second, lease2, later, config) };
}

describe('observeNodeHealth', () => {
  it('leaves a node created just now that never posted status alone (startup grace)', () => {
    const step = observeNodeHealth(undefined, node(at(T0)), undefined, T0, config);
    expect(step.conditions).toBeUndefined();
    expect(step.currentReady).toBeUndefined();
    expect(step.gracePeriodMs).toBe(60_000);
  });

  it('sets all four conditions Unknown/NodeStatusNeverUpdated on a long-ago node that never posted status', () => {
    const step = observeNodeHealth(undefined, node(LONG_AGO), undefined, T0, config);
    expect(step.conditions).toEqual(
      ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'].map((type) => ({
        type,
        status: 'Unknown',
        reason: 'NodeStatusNeverUpdated',
        message: 'Kubelet never posted node status.',
        lastHeartbeatTime: LONG_AGO,
        lastTransitionTime: at(T0),
      })),
    );
    expect(step.observedReady.status).toBe('Unknown');
  });

  it.each([
    { case: 'within the grace period', after: 50_000, unknown: false },
    { case: 'one second past the grace period', after: 51_000, unknown: true },
  ])('a Ready node whose heartbeat stops: $case', ({ after, unknown }) => {
    const n = node(LONG_AGO, [ready('True', at(T0)), { type: 'MemoryPressure', status: 'False' }]);
    const { two } = twoPasses(n, n, T0 + after);
    if (!unknown) {
      expect(two.conditions).toBeUndefined();
      return;
    }
    expect(two.conditions).toEqual([
      {
        type: 'Ready',
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
        lastHeartbeatTime: at(T0),
        lastTransitionTime: at(T0 + after),
      },
      {
        type: 'MemoryPressure',
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
        lastTransitionTime: at(T0 + after),
      },
      ...['DiskPressure', 'PIDPressure'].map((type) => ({
        type,
        status: 'Unknown',
        reason: 'NodeStatusNeverUpdated',
        message: 'Kubelet never posted node status.',
        lastHeartbeatTime: LONG_AGO,
        lastTransitionTime: at(T0 + after),
      })),
    ]);
    expect(two.observedReady.status).toBe('True');
    expect(two.currentReady?.status).toBe('Unknown');
    expect(two.health.readyTransitionTimestamp).toBe(T0 + after);
  });

  it.each([
    {
      case: 'a fresh Ready heartbeat keeps the node Ready',
      second: node(LONG_AGO, [ready('True', at(T0 + 40_000))]),
      leases: [undefined, undefined],
      unknown: false,
    },
    {
      case: 'a stale status but a renewed Lease keeps the node Ready',
      second: node(LONG_AGO, [ready('True', at(T0))]),
      leases: [at(T0), at(T0 + 40_000)],
      unknown: false,
    },
    {
      case: 'a stale status and a Lease not renewed makes it Unknown',
      second: node(LONG_AGO, [ready('True', at(T0))]),
      leases: [at(T0), at(T0)],
      unknown: true,
    },
  ])('$case', ({ second, leases, unknown }) => {
    const first = node(LONG_AGO, [ready('True', at(T0))]);
    const { two } = twoPasses(first, second, T0 + 60_000, leases[0], leases[1]);
    expect(two.conditions !== undefined).toBe(unknown);
    expect(two.currentReady?.status).toBe(unknown ? 'Unknown' : 'True');
  });

  it('writes nothing when Ready is already Unknown (heartbeat and transition kept)', () => {
    const n = node(LONG_AGO, [
      {
        ...ready('Unknown', at(T0)),
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
      },
    ]);
    const { two } = twoPasses(n, n, T0 + 120_000);
    expect(two.conditions).toBeUndefined();
    expect(two.currentReady?.status).toBe('Unknown');
  });

  it('keeps a node that never posted status but renews its Lease healthy past the startup grace', () => {
    const created = at(T0);
    const { two } = twoPasses(node(created), node(created), T0 + 70_000, at(T0 + 10_000), at(T0 + 65_000));
    expect(two.conditions).toBeUndefined();
    expect(two.health.probeTimestamp).toBe(T0 + 70_000);
  });

  it('notes a Ready transition seen between passes on the controller clock', () => {
    const first = node(LONG_AGO, [ready('False', at(T0), at(T0))]);
    const second = node(LONG_AGO, [ready('True', at(T0 + 10_000), at(T0 + 10_000))]);
    const { one, two } = twoPasses(first, second, T0 + 20_000);
    expect(one.health.readyTransitionTimestamp).toBe(T0);
    expect(two.health).toMatchObject({ probeTimestamp: T0 + 20_000, readyTransitionTimestamp: T0 + 20_000 });
  });
});
