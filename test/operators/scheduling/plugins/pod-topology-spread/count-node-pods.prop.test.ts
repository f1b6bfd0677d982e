// Properties of PodTopologySpread's remembered per-node counts: always what a fresh count over the node's pods gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../../../operators/api/core-v1.ts';
import { labelSelectorFromObject } from '../../../../../operators/label-selector.ts';
import { NodeInfo } from '../../../../../operators/scheduling/framework/node-info.ts';
import {
  countNodePodsMatchingSelector,
  countPodsMatchingSelector,
  podCountKey,
} from '../../../../../operators/scheduling/plugins/pod-topology-spread/spread-constraint.ts';

const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } } as Node;

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
    spec: { nodeName: 'n1', containers: [{ name: 'c' }] },
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

const op = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    uid: fc.integer({ min: 0, max: 9 }),
    ns: fc.constantFrom('a', 'b'),
    color: fc.constantFrom('blue', 'green', 'red'),
    terminating: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('remove' as const), uid: fc.integer({ min: 0, max: 9 }) }),
  fc.record({ kind: fc.constant('clone' as const) }),
);

describe('countNodePodsMatchingSelector', () => {
  it('equals a fresh count after any sequence of pod adds, removals and clones, for every selector and namespace', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        let info = new NodeInfo(node);
        const check = () => {
          for (const selector of selectors) {
            for (const ns of ['a', 'b', undefined]) {
              const key = podCountKey(selector, ns);
              // asked twice: the second answer comes from memory
              for (let i = 0; i < 2; i++) {
                expect(countNodePodsMatchingSelector(info, selector, ns, key)).toBe(
                  countPodsMatchingSelector(info.pods, selector, ns),
                );
              }
            }
          }
        };
        check();
        for (const o of ops) {
          if (o.kind === 'add') {
            if (info.pods.some((p) => p.pod.metadata.uid === `u${o.uid}`)) continue;
            info.addPod(pod(o.uid, o.ns, o.color, o.terminating));
          } else if (o.kind === 'remove') {
            info.removePod(pod(o.uid, 'a', 'blue', false));
          } else {
            info = info.clone();
          }
          check();
        }
      }),
      { numRuns: 200 },
    );
  });

  it('keeps the selector that matches nothing apart from the empty selector, which matches everything', () => {
    expect(podCountKey(labelSelectorFromObject(null), 'a')).not.toBe(
      podCountKey(labelSelectorFromObject({}), 'a'),
    );
  });
});
