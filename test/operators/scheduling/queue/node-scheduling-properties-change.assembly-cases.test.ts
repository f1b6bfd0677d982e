// nodeSchedulingPropertiesChange: cases in the spirit of upstream's TestNodeSchedulingPropertiesChange (events.go tests).
import { describe, expect, it } from 'vitest';
import type { Node } from '../../../../operators/api/core-v1.ts';
import { actionTypeName } from '../../../../operators/scheduling/queue/cluster-events.ts';
import { nodeSchedulingPropertiesChange } from '../../../../operators/scheduling/queue/node-scheduling-properties-change.ts';

const base: Node = {
  metadata: { name: 'n', labels: { a: '1' }, annotations: { x: 'y' } },
  spec: { taints: [{ key: 't', effect: 'NoSchedule' }] },
  status: {
    allocatable: { cpu: '4', memory: '8Gi' },
    conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:00:00Z' }],
  },
};
const edit = (f: (n: Node) => void): Node => {
  const n = structuredClone(base);
  f(n);
  return n;
};

describe('nodeSchedulingPropertiesChange', () => {
  it.each([
    [
      'nothing that matters (heartbeat only)',
      edit((n) => (n.status!.conditions![0]!.lastHeartbeatTime = '2026-02-02T00:00:00Z')),
      [],
    ],
    [
      'allocatable',
      edit((n) => (n.status!.allocatable = { cpu: '8', memory: '8Gi' })),
      ['UpdateNodeAllocatable'],
    ],
    ['a label', edit((n) => (n.metadata.labels = { a: '2' })), ['UpdateNodeLabel']],
    ['a taint', edit((n) => (n.spec!.taints = [])), ['UpdateNodeTaint']],
    [
      'a condition status',
      edit((n) => (n.status!.conditions![0]!.status = 'False')),
      ['UpdateNodeCondition'],
    ],
    ['an annotation', edit((n) => (n.metadata.annotations = {})), ['UpdateNodeAnnotation']],
    ['unschedulable set (no event: it only hurts)', edit((n) => (n.spec!.unschedulable = true)), []],
    [
      'several at once, in upstream’s order',
      edit((n) => {
        n.metadata.labels = {};
        n.status!.allocatable = { cpu: '1' };
      }),
      ['UpdateNodeAllocatable', 'UpdateNodeLabel'],
    ],
  ] as [string, Node, string[]][])('%s', (_name, next, expected) => {
    const events = nodeSchedulingPropertiesChange(next, base);
    expect(events.map((e) => actionTypeName(e.action))).toEqual(expected);
    for (const e of events) expect(e.resource).toBe('Node');
  });

  it('a node becoming schedulable again counts as a taint change', () => {
    const cordoned = edit((n) => (n.spec!.unschedulable = true));
    expect(nodeSchedulingPropertiesChange(base, cordoned).map((e) => actionTypeName(e.action))).toEqual([
      'UpdateNodeTaint',
    ]);
  });
});
