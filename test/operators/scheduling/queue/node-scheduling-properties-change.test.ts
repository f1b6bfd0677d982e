// Tables after kube-scheduler's TestNodeSchedulingPropertiesChange: which update events a node change makes.
import { describe, expect, it } from 'vitest';
import type { Node } from '../../../../operators/api/core-v1.ts';
import { ActionType } from '../../../../operators/scheduling/framework/interface.ts';
import { nodeSchedulingPropertiesChange } from '../../../../operators/scheduling/queue/node-scheduling-properties-change.ts';

function node(o: {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  unschedulable?: boolean;
  taints?: { key: string; effect: string }[];
  cpu?: string;
  ready?: 'True' | 'False';
  heartbeat?: string;
}): Node {
  return {
    metadata: { name: 'n', labels: o.labels, annotations: o.annotations },
    spec: { unschedulable: o.unschedulable, taints: o.taints },
    status: {
      allocatable: o.cpu ? { cpu: o.cpu } : undefined,
      conditions: o.ready ? [{ type: 'Ready', status: o.ready, lastHeartbeatTime: o.heartbeat }] : undefined,
    },
  };
}

describe('nodeSchedulingPropertiesChange', () => {
  it.each([
    { name: 'nothing changed', old: node({}), now: node({}), want: [] },
    {
      name: 'spec.unschedulable turned off',
      old: node({ unschedulable: true }),
      now: node({}),
      want: [ActionType.UpdateNodeTaint],
    },
    {
      name: 'spec.unschedulable turned on: nothing to requeue',
      old: node({}),
      now: node({ unschedulable: true }),
      want: [],
    },
    {
      name: 'allocatable changed',
      old: node({ cpu: '1' }),
      now: node({ cpu: '2' }),
      want: [ActionType.UpdateNodeAllocatable],
    },
    {
      name: 'allocatable written differently, same value',
      old: node({ cpu: '1' }),
      now: node({ cpu: '1000m' }),
      want: [],
    },
    {
      name: 'labels changed',
      old: node({}),
      now: node({ labels: { a: 'b' } }),
      want: [ActionType.UpdateNodeLabel],
    },
    {
      name: 'taints changed',
      old: node({ taints: [{ key: 'k', effect: 'NoSchedule' }] }),
      now: node({}),
      want: [ActionType.UpdateNodeTaint],
    },
    {
      name: 'a condition changed status',
      old: node({ ready: 'False' }),
      now: node({ ready: 'True' }),
      want: [ActionType.UpdateNodeCondition],
    },
    {
      name: 'only a heartbeat moved',
      old: node({ ready: 'True', heartbeat: 't1' }),
      now: node({ ready: 'True', heartbeat: 't2' }),
      want: [],
    },
    {
      name: 'annotations changed',
      old: node({}),
      now: node({ annotations: { a: 'b' } }),
      want: [ActionType.UpdateNodeAnnotation],
    },
    {
      name: 'several changes, in upstream order',
      old: node({ unschedulable: true, cpu: '1' }),
      now: node({ cpu: '2', labels: { a: 'b' } }),
      want: [ActionType.UpdateNodeTaint, ActionType.UpdateNodeAllocatable, ActionType.UpdateNodeLabel],
    },
  ])('$name', ({ old, now, want }) => {
    const events = nodeSchedulingPropertiesChange(now, old);
    expect(events.map((e) => e.action)).toEqual(want);
    for (const e of events) expect(e.resource).toBe('Node');
  });
});
