// podGCPlan: upstream's gc_controller_test cases (terminated beyond the threshold, evicted first, out-of-service, orphans, unscheduled terminating) in our words.
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../../operators/api/core-v1.ts';
import { OUT_OF_SERVICE_TAINT, podGCPlan } from '../../../../operators/controller/pod-gc/pod-gc-plan.ts';

const t = (s: number) => new Date(Date.UTC(2026, 10, 25, 0, 0, s)).toISOString();
function pod(
  name: string,
  phase: string,
  extra: { node?: string; created?: number; reason?: string; deleting?: boolean } = {},
): Pod {
  return {
    metadata: {
      name,
      namespace: 'default',
      creationTimestamp: t(extra.created ?? 0),
      ...(extra.deleting ? { deletionTimestamp: t(99) } : {}),
    },
    spec: { containers: [], ...(extra.node ? { nodeName: extra.node } : {}) },
    status: { phase, ...(extra.reason ? { reason: extra.reason } : {}) },
  };
}
const node = (name: string, ready = true, taints: string[] = []): Node => ({
  metadata: { name },
  spec: { taints: taints.map((key) => ({ key, effect: 'NoExecute' })) },
  status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
});
const names = (plan: ReturnType<typeof podGCPlan>) =>
  plan.deletions.map((d) => `${d.pod.metadata.name}:${d.reason}`);

describe('podGCPlan', () => {
  it.each([
    [
      'threshold 1, three terminated: the two oldest go',
      1,
      [
        pod('a', 'Failed', { created: 1 }),
        pod('b', 'Succeeded', { created: 2 }),
        pod('c', 'Failed', { created: 3 }),
      ],
      ['a:terminated', 'b:terminated'],
    ],
    ['threshold 3: nothing', 3, [pod('a', 'Failed'), pod('b', 'Succeeded'), pod('c', 'Failed')], []],
    ['threshold 0 disables the rule', 0, [pod('a', 'Failed'), pod('b', 'Succeeded')], []],
    [
      'running and pending pods never count',
      1,
      [pod('a', 'Running'), pod('b', 'Pending'), pod('c', 'Unknown'), pod('d', 'Failed')],
      [],
    ],
    [
      'evicted pods first, even when newer',
      1,
      [pod('old', 'Succeeded', { created: 1 }), pod('evicted', 'Failed', { created: 5, reason: 'Evicted' })],
      ['evicted:terminated'],
    ],
    ['same creation time: by name', 1, [pod('b', 'Failed'), pod('a', 'Failed')], ['a:terminated']],
  ])('terminated: %s', (_name, threshold, pods, expected) => {
    expect(names(podGCPlan(pods, [node('n')], threshold, new Set()))).toEqual(expected);
  });

  it('collects terminating pods only on a not-ready node with the out-of-service taint', () => {
    const pods = [
      pod('on-oos', 'Running', { node: 'oos', deleting: true }),
      pod('on-ready-oos', 'Running', { node: 'ready-oos', deleting: true }),
      pod('on-not-ready', 'Running', { node: 'not-ready', deleting: true }),
      pod('not-deleting', 'Running', { node: 'oos' }),
    ];
    const nodes = [
      node('oos', false, [OUT_OF_SERVICE_TAINT]),
      node('ready-oos', true, [OUT_OF_SERVICE_TAINT]),
      node('not-ready', false),
    ];
    expect(names(podGCPlan(pods, nodes, 0, new Set()))).toEqual(['on-oos:terminating_out_of_service']);
  });

  it('quarantines missing nodes and collects pods only on nodes confirmed deleted', () => {
    const pods = [
      pod('a', 'Running', { node: 'gone' }),
      pod('b', 'Running', { node: 'late' }),
      pod('c', 'Running', { node: 'n' }),
    ];
    const first = podGCPlan(pods, [node('n')], 0, new Set());
    expect(first.deletions).toEqual([]);
    expect([...first.missingNodes].sort()).toEqual(['gone', 'late']);
    expect(names(podGCPlan(pods, [node('n')], 0, new Set(['gone'])))).toEqual(['a:orphaned']);
    // a node the informer has again is never treated as deleted
    expect(names(podGCPlan(pods, [node('n'), node('gone')], 0, new Set(['gone'])))).toEqual([]);
  });

  it('collects terminating pods bound to no node, and takes a pod once under its first rule', () => {
    const pods = [
      pod('unscheduled', 'Pending', { deleting: true }),
      pod('done', 'Failed', { deleting: true, node: 'gone' }),
    ];
    expect(names(podGCPlan(pods, [], 0, new Set(['gone'])))).toEqual([
      'done:orphaned',
      'unscheduled:terminating_unscheduled',
    ]);
    expect(names(podGCPlan(pods, [], 1, new Set(['gone'])))).toEqual([
      'done:orphaned',
      'unscheduled:terminating_unscheduled',
    ]);
    // two terminated beyond a threshold of 1: `done` (first by name) goes as terminated, and only once
    expect(names(podGCPlan([pod('x', 'Failed'), ...pods], [], 1, new Set(['gone'])))).toEqual([
      'done:terminated',
      'unscheduled:terminating_unscheduled',
    ]);
  });
});
