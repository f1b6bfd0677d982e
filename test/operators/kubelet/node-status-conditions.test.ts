// Tests of node condition updates, cases ported from nodestatus/setters_test.go (TestReadyCondition, Test*PressureCondition).
import { describe, expect, it } from 'vitest';
import type { NodeCondition } from '../../../operators/api/core-v1.ts';
import {
  nodeConditionEvents,
  observeNodeConditions,
  updateNodeConditions,
} from '../../../operators/kubelet/node-status-conditions.ts';

const BEFORE = '2026-11-24T10:00:00Z';
const NOW = '2026-11-24T10:00:10Z';

const calm = {
  memoryPressure: false,
  diskPressure: false,
  pidPressure: false,
  notReadyErrors: [] as string[],
};

describe('updateNodeConditions', () => {
  it.each([
    [
      'MemoryPressure',
      { ...calm, memoryPressure: true },
      'KubeletHasInsufficientMemory',
      'kubelet has insufficient memory available',
    ],
    ['MemoryPressure', calm, 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
    ['DiskPressure', { ...calm, diskPressure: true }, 'KubeletHasDiskPressure', 'kubelet has disk pressure'],
    ['DiskPressure', calm, 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
    [
      'PIDPressure',
      { ...calm, pidPressure: true },
      'KubeletHasInsufficientPID',
      'kubelet has insufficient PID available',
    ],
    ['PIDPressure', calm, 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
    ['Ready', calm, 'KubeletReady', 'kubelet is posting ready status'],
    [
      'Ready',
      { ...calm, notReadyErrors: ['container runtime is down', 'network not ready'] },
      'KubeletNotReady',
      'container runtime is down, network not ready',
    ],
  ])(
    '%s: a new condition gets reason %s with heartbeat and transition now',
    (type, input, reason, message) => {
      const conditions = updateNodeConditions(undefined, observeNodeConditions(input), NOW);
      expect(conditions.find((c) => c.type === type)).toEqual({
        type,
        status: reason === 'KubeletReady' || /Insufficient|HasDisk/.test(reason) ? 'True' : 'False',
        reason,
        message,
        lastHeartbeatTime: NOW,
        lastTransitionTime: NOW,
      });
    },
  );

  it('reports the four conditions in the kubelet order', () => {
    expect(updateNodeConditions([], observeNodeConditions(calm), NOW).map((c) => c.type)).toEqual([
      'MemoryPressure',
      'DiskPressure',
      'PIDPressure',
      'Ready',
    ]);
  });

  it('an unchanged status moves the heartbeat and keeps the transition', () => {
    const before = updateNodeConditions(undefined, observeNodeConditions(calm), BEFORE);
    const after = updateNodeConditions(before, observeNodeConditions(calm), NOW);
    for (const c of after) {
      expect(c.lastHeartbeatTime).toBe(NOW);
      expect(c.lastTransitionTime).toBe(BEFORE);
    }
    // the input is not changed
    expect(before[0]?.lastHeartbeatTime).toBe(BEFORE);
  });

  it('a changed status moves both (Ready → NotReady → Ready)', () => {
    const ready = updateNodeConditions(undefined, observeNodeConditions(calm), BEFORE);
    const notReady = updateNodeConditions(
      ready,
      observeNodeConditions({ ...calm, notReadyErrors: ['PLEG is not healthy'] }),
      NOW,
    );
    const r = notReady.find((c) => c.type === 'Ready')!;
    expect(r).toMatchObject({
      status: 'False',
      reason: 'KubeletNotReady',
      message: 'PLEG is not healthy',
      lastTransitionTime: NOW,
    });
    expect(notReady.find((c) => c.type === 'MemoryPressure')?.lastTransitionTime).toBe(BEFORE);
  });

  it('a condition without a transition time (year 1 in describe) gets one', () => {
    const old: NodeCondition[] = [
      { type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: BEFORE },
    ];
    expect(updateNodeConditions(old, observeNodeConditions(calm), NOW)[0]?.lastTransitionTime).toBe(NOW);
  });

  it("keeps other writers' conditions in place", () => {
    const old: NodeCondition[] = [
      { type: 'NetworkUnavailable', status: 'False', reason: 'RouteCreated', lastTransitionTime: BEFORE },
    ];
    const out = updateNodeConditions(old, observeNodeConditions(calm), NOW);
    expect(out[0]).toEqual(old[0]);
    expect(out.map((c) => c.type)).toEqual([
      'NetworkUnavailable',
      'MemoryPressure',
      'DiskPressure',
      'PIDPressure',
      'Ready',
    ]);
  });
});

describe('nodeConditionEvents (recordNodeStatusEvent)', () => {
  it('records one Normal event per new or changed condition', () => {
    const first = updateNodeConditions(undefined, observeNodeConditions(calm), BEFORE);
    expect(nodeConditionEvents('n1', undefined, first)).toEqual([
      { reason: 'NodeHasSufficientMemory', message: 'Node n1 status is now: NodeHasSufficientMemory' },
      { reason: 'NodeHasNoDiskPressure', message: 'Node n1 status is now: NodeHasNoDiskPressure' },
      { reason: 'NodeHasSufficientPID', message: 'Node n1 status is now: NodeHasSufficientPID' },
      { reason: 'NodeReady', message: 'Node n1 status is now: NodeReady' },
    ]);
    const same = updateNodeConditions(first, observeNodeConditions(calm), NOW);
    expect(nodeConditionEvents('n1', first, same)).toEqual([]);
    const notReady = updateNodeConditions(
      first,
      observeNodeConditions({ ...calm, notReadyErrors: ['x'], memoryPressure: true }),
      NOW,
    );
    expect(nodeConditionEvents('n1', first, notReady).map((e) => e.reason)).toEqual([
      'NodeHasInsufficientMemory',
      'NodeNotReady',
    ]);
  });
});
