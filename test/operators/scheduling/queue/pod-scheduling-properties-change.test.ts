// Tables after kube-scheduler's TestPodSchedulingPropertiesChange: which update events a pod change makes.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { ActionType } from '../../../../operators/scheduling/framework/interface.ts';
import { podSchedulingPropertiesChange } from '../../../../operators/scheduling/queue/pod-scheduling-properties-change.ts';
import { pod } from './fixtures.ts';

const withTolerations = (p: Pod, n: number): Pod => ({
  ...p,
  spec: {
    ...p.spec,
    tolerations: Array.from({ length: n }, (_, i) => ({ key: `k${i}`, operator: 'Exists' })),
  },
});

describe('podSchedulingPropertiesChange', () => {
  it.each([
    {
      name: 'labels changed',
      old: pod('p'),
      now: pod('p', { labels: { a: 'b' } }),
      want: [ActionType.UpdatePodLabel],
    },
    {
      name: 'cpu request scaled down',
      old: pod('p', { cpu: '2' }),
      now: pod('p', { cpu: '1' }),
      want: [ActionType.UpdatePodScaleDown],
    },
    {
      name: 'a request removed',
      old: pod('p', { cpu: '2' }),
      now: pod('p'),
      want: [ActionType.UpdatePodScaleDown],
    },
    {
      name: 'cpu request scaled up: generic update',
      old: pod('p', { cpu: '1' }),
      now: pod('p', { cpu: '2' }),
      want: [ActionType.Update],
    },
    {
      name: 'every gate removed',
      old: pod('p', { gates: ['a'] }),
      now: pod('p'),
      want: [ActionType.UpdatePodSchedulingGatesEliminated],
    },
    {
      name: 'one of two gates removed: generic update',
      old: pod('p', { gates: ['a', 'b'] }),
      now: pod('p', { gates: ['a'] }),
      want: [ActionType.Update],
    },
    {
      name: 'a toleration added',
      old: withTolerations(pod('p'), 1),
      now: withTolerations(pod('p'), 2),
      want: [ActionType.UpdatePodToleration],
    },
    {
      name: 'labels and gates together',
      old: pod('p', { gates: ['a'] }),
      now: pod('p', { labels: { x: 'y' } }),
      want: [ActionType.UpdatePodLabel, ActionType.UpdatePodSchedulingGatesEliminated],
    },
    {
      name: 'nothing relevant: generic update',
      old: pod('p'),
      now: pod('p', { priority: 3 }),
      want: [ActionType.Update],
    },
  ])('$name', ({ old, now, want }) => {
    const events = podSchedulingPropertiesChange(now, old);
    expect(events.map((e) => e.action)).toEqual(want);
    expect(new Set(events.map((e) => e.resource))).toEqual(new Set(['UnschedulablePod']));
  });

  it('a bound pod gives AssignedPod events', () => {
    const [event] = podSchedulingPropertiesChange(
      pod('p', { nodeName: 'n', labels: { a: 'b' } }),
      pod('p', { nodeName: 'n' }),
    );
    expect(event).toEqual({ resource: 'AssignedPod', action: ActionType.UpdatePodLabel });
  });
});
