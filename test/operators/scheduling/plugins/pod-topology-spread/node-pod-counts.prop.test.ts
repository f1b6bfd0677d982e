// Properties of NodePodCounts: what it remembers is always what a fresh count over the node's pods gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../../../operators/api/core-v1.ts';
import { labelSelectorFromObject } from '../../../../../operators/label-selector.ts';
import { NodeInfo } from '../../../../../operators/scheduling/framework/node-info.ts';
import { NodePodCounts } from '../../../../../operators/scheduling/plugins/pod-topology-spread/node-pod-counts.ts';
import { countPodsMatchingSelector } from '../../../../../operators/scheduling/plugins/pod-topology-spread/spread-constraint.ts';

const node = (name: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name } }) as Node;

function pod(uid: number, namespace: string, color: string, terminating: boolean): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `p${uid}`,
      uid: `u${uid}`,
      namespace,
      labels: { color },
      ...(terminating ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: { containers: [{ name: 'c' }] },
  } as Pod;
}

const selectors = [
  labelSelectorFromObject({ matchLabels: { color: 'blue' } }),
  labelSelectorFromObject({
    matchExpressions: [{ key: 'color', operator: 'In', values: ['blue', 'green'] }],
  }),
  labelSelectorFromObject({}),
  labelSelectorFromObject(null),
];

/** Changes to a list of three nodes between cycles: pods come and go, nodes are cloned, swapped or replaced. */
const op = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    at: fc.integer({ min: 0, max: 2 }),
    uid: fc.integer({ min: 0, max: 9 }),
    ns: fc.constantFrom('a', 'b'),
    color: fc.constantFrom('blue', 'green', 'red'),
    terminating: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('remove' as const),
    at: fc.integer({ min: 0, max: 2 }),
    uid: fc.integer({ min: 0, max: 9 }),
  }),
  fc.record({ kind: fc.constant('clone' as const), at: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ kind: fc.constant('swap' as const) }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ kind: fc.constant('shrink' as const) }),
);

describe('NodePodCounts', () => {
  it('counts as a fresh count would, cycle after cycle, however the nodes and the list change', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        const counts = new NodePodCounts();
        let nodes = [new NodeInfo(node('n0')), new NodeInfo(node('n1')), new NodeInfo(node('n2'))];
        let uid = 100;
        const cycle = () => {
          for (const selector of selectors) {
            for (const ns of ['a', 'b', undefined]) {
              const count = counts.counter(nodes.length, selector, ns);
              nodes.forEach((info, i) => {
                expect(count(i, info)).toBe(countPodsMatchingSelector(info.pods, selector, ns));
              });
            }
          }
        };
        cycle();
        for (const o of ops) {
          if (o.kind === 'add') {
            const info = nodes[o.at % nodes.length]!;
            if (!nodes.some((n) => n.pods.some((p) => p.pod.metadata.uid === `u${o.uid}`)))
              info.addPod(pod(o.uid, o.ns, o.color, o.terminating));
          } else if (o.kind === 'remove') {
            for (const info of nodes) info.removePod(pod(o.uid, 'a', 'blue', false));
          } else if (o.kind === 'clone') {
            nodes = nodes.map((n, i) => (i === o.at % nodes.length ? n.clone() : n));
          } else if (o.kind === 'swap') {
            nodes = [...nodes].reverse();
          } else if (o.kind === 'replace') {
            nodes = nodes.map((n, i) =>
              i === o.at % nodes.length ? new NodeInfo(node('new'), [pod(uid++, 'a', 'blue', false)]) : n,
            );
          } else if (nodes.length > 1) {
            nodes = nodes.slice(1);
          }
          cycle();
        }
      }),
      { numRuns: 200 },
    );
  });

  it('keeps the selector that matches nothing apart from the empty selector, which matches everything', () => {
    const counts = new NodePodCounts();
    const info = new NodeInfo(node('n0'), [pod(1, 'a', 'blue', false)]);
    expect(counts.counter(1, labelSelectorFromObject({}), 'a')(0, info)).toBe(1);
    expect(counts.counter(1, labelSelectorFromObject(null), 'a')(0, info)).toBe(0);
  });
});
