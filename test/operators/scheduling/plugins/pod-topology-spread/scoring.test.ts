// PodTopologySpread PreScore/Score/NormalizeScore: cases from upstream's scoring_test.go, in our own words.
import { describe, expect, it } from 'vitest';
import type { Node, Pod, TopologySpreadConstraint } from '../../../../../operators/api/core-v1.ts';
import {
  type PodTopologySpreadDeps,
  podTopologySpreadFactory,
} from '../../../../../operators/scheduling/plugins/pod-topology-spread/pod-topology-spread.ts';
import { makeCluster, makeNode, makePod } from '../default-preemption/cluster.ts';

const HOSTNAME = 'kubernetes.io/hostname';
const ZONE = 'topology.kubernetes.io/zone';
const soft = (key: string, maxSkew = 1): TopologySpreadConstraint => ({
  maxSkew,
  topologyKey: key,
  whenUnsatisfiable: 'ScheduleAnyway',
  labelSelector: { matchExpressions: [{ key: 'foo', operator: 'Exists' }] },
});

function fooPods(node: string, n: number, extra: Parameters<typeof makePod>[1] = {}): Pod[] {
  return Array.from({ length: n }, (_, i) =>
    makePod(`${node}-${i}`, { labels: { foo: '' }, node, ...extra }),
  );
}

function scores(
  pod: Pod,
  nodes: Node[],
  pods: Pod[],
  filtered?: string[],
  o: { deps?: PodTopologySpreadDeps; args?: unknown } = {},
): { status: string; scores: Record<string, number> } {
  const { framework, snapshot, newState } = makeCluster({
    nodes,
    pods,
    registry: { PodTopologySpread: podTopologySpreadFactory(o.deps) },
    preScore: ['PodTopologySpread'],
    score: [{ name: 'PodTopologySpread', weight: 1 }],
    pluginArgs: o.args ? { PodTopologySpread: o.args } : {},
  });
  const state = newState();
  const candidates = snapshot.list().filter((n) => !filtered || filtered.includes(n.name));
  const pre = framework.runPreScorePlugins(state, pod, candidates);
  if (state.skipScorePlugins.has('PodTopologySpread')) return { status: 'Skip', scores: {} };
  const out = framework.runScorePlugins(state, pod, candidates);
  const result: Record<string, number> = {};
  for (const n of out.scores)
    result[n.name] = n.scores.find((s) => s.name === 'PodTopologySpread')?.score ?? -1;
  return { status: pre?.code ?? 'Success', scores: result };
}

const zoned = [
  makeNode('node-a', { [ZONE]: 'zone1' }),
  makeNode('node-b', { [ZONE]: 'zone1' }),
  makeNode('node-x', { [ZONE]: 'zone2' }),
  makeNode('node-y', { [ZONE]: 'zone2' }),
];

describe('PodTopologySpread scoring', () => {
  it.each<{
    name: string;
    pod: Pod;
    nodes: Node[];
    pods: Pod[];
    filtered?: string[];
    want: Record<string, number>;
  }>([
    {
      name: 'one hostname constraint, no existing pods: every node scores 100',
      pod: makePod('p', { labels: { foo: '' }, spread: [soft(HOSTNAME)] }),
      nodes: [makeNode('node-a'), makeNode('node-b')],
      pods: [],
      want: { 'node-a': 100, 'node-b': 100 },
    },
    {
      name: 'one hostname constraint, only node-a is a candidate',
      pod: makePod('p', { labels: { foo: '' }, spread: [soft(HOSTNAME)] }),
      nodes: [makeNode('node-a'), makeNode('node-b')],
      pods: [...fooPods('node-a', 2), ...fooPods('node-b', 1)],
      filtered: ['node-a'],
      want: { 'node-a': 100 },
    },
    {
      name: 'one hostname constraint, pods 2/1/0/3 on four candidates',
      pod: makePod('p', { labels: { foo: '' }, spread: [soft(HOSTNAME)] }),
      nodes: [makeNode('node-a'), makeNode('node-b'), makeNode('node-c'), makeNode('node-d')],
      pods: [...fooPods('node-a', 2), ...fooPods('node-b', 1), ...fooPods('node-d', 3)],
      want: { 'node-a': 20, 'node-b': 60, 'node-c': 100, 'node-d': 0 },
    },
    {
      name: 'pods in other namespaces and terminating pods do not count',
      pod: makePod('p', { labels: { foo: '' }, spread: [soft(HOSTNAME)] }),
      nodes: [makeNode('node-a'), makeNode('node-b'), makeNode('node-c'), makeNode('node-d')],
      pods: [
        ...fooPods('node-a', 2),
        ...fooPods('node-b', 1),
        ...fooPods('node-c', 4, { ns: 'other' }),
        ...fooPods('node-d', 3),
        ...fooPods('node-c', 2, { deleting: true, uid: undefined }).map((p, i) => ({
          ...p,
          metadata: { ...p.metadata, name: `t${i}`, uid: `t${i}` },
        })),
      ],
      want: { 'node-a': 20, 'node-b': 60, 'node-c': 100, 'node-d': 0 },
    },
    {
      name: 'one zone constraint: zone1 holds 3 matching pods, zone2 1',
      pod: makePod('p', { labels: { foo: '' }, spread: [soft(ZONE)] }),
      nodes: zoned,
      pods: [...fooPods('node-a', 1), ...fooPods('node-b', 2), ...fooPods('node-x', 1)],
      want: { 'node-a': 25, 'node-b': 25, 'node-x': 100, 'node-y': 100 },
    },
    {
      name: 'zone and hostname constraints together',
      pod: makePod('p', { labels: { foo: '' }, spread: [soft(ZONE), soft(HOSTNAME)] }),
      nodes: zoned,
      pods: [...fooPods('node-a', 1), ...fooPods('node-b', 2), ...fooPods('node-x', 1)],
      want: { 'node-a': 37, 'node-b': 12, 'node-x': 75, 'node-y': 100 },
    },
    {
      name: 'a candidate without the zone label is ignored and scores 0',
      pod: makePod('p', { labels: { foo: '' }, spread: [soft(ZONE)] }),
      nodes: [makeNode('node-a', { [ZONE]: 'zone1' }), makeNode('node-b')],
      pods: [...fooPods('node-b', 2)],
      want: { 'node-a': 100, 'node-b': 0 },
    },
    {
      name: 'maxSkew softens the differences: hostname maxSkew 3, pods 2/0',
      pod: makePod('p', { labels: { foo: '' }, spread: [soft(HOSTNAME, 3)] }),
      nodes: [makeNode('node-a'), makeNode('node-b')],
      pods: [...fooPods('node-a', 2)],
      want: { 'node-a': 40, 'node-b': 100 },
    },
  ])('$name', ({ pod, nodes, pods, filtered, want }) => {
    expect(scores(pod, nodes, pods, filtered).scores).toEqual(want);
  });

  it.each([
    { policy: 'Ignore' as const, want: { 'node-a': 25, 'node-b': 25, 'node-x': 100, 'node-y': 100 } },
    { policy: 'Honor' as const, want: { 'node-a': 100, 'node-b': 100, 'node-x': 0, 'node-y': 0 } },
  ])(
    'nodeTaintsPolicy $policy: pods on a tainted node count only when taints are ignored',
    ({ policy, want }) => {
      const taint = [{ key: 'k', value: 'v', effect: 'NoSchedule' }];
      const nodes = [
        makeNode('node-a', { [ZONE]: 'zone1' }),
        makeNode('node-b', { [ZONE]: 'zone1' }, { taints: taint }),
        makeNode('node-x', { [ZONE]: 'zone2' }),
        makeNode('node-y', { [ZONE]: 'zone2' }),
      ];
      const pod = makePod('p', {
        labels: { foo: '' },
        spread: [{ ...soft(ZONE), nodeTaintsPolicy: policy }],
      });
      expect(scores(pod, nodes, [...fooPods('node-b', 3), ...fooPods('node-x', 1)]).scores).toEqual(want);
    },
  );

  it('PreScore skips a pod without ScheduleAnyway constraints', () => {
    const pod = makePod('p', {
      labels: { foo: '' },
      spread: [{ ...soft(HOSTNAME), whenUnsatisfiable: 'DoNotSchedule' }],
    });
    expect(scores(pod, [makeNode('node-a')], []).status).toBe('Skip');
  });

  it('system defaults spread by hostname with the owners’ selector, even on nodes without a zone label', () => {
    const owned = (node: string, i: number) => makePod(`${node}-${i}`, { labels: { app: 'web' }, node });
    const pod = makePod('p', { labels: { app: 'web' } });
    const deps: PodTopologySpreadDeps = { ownerSelectors: () => [{ matchLabels: { app: 'web' } }] };
    const out = scores(
      pod,
      [makeNode('node-a'), makeNode('node-b')],
      [owned('node-a', 0), owned('node-a', 1)],
      undefined,
      {
        deps,
      },
    );
    expect(out.scores).toEqual({ 'node-a': 40, 'node-b': 100 });
  });

  it('system defaults do nothing for a pod without owners', () => {
    const pod = makePod('p', { labels: { app: 'web' } });
    expect(scores(pod, [makeNode('node-a')], []).status).toBe('Skip');
  });

  it('List defaulting uses the configured soft constraints', () => {
    const pod = makePod('p', { labels: { app: 'web' } });
    const deps: PodTopologySpreadDeps = { ownerSelectors: () => [{ matchLabels: { app: 'web' } }] };
    const args = {
      defaultingType: 'List',
      defaultConstraints: [{ maxSkew: 1, topologyKey: HOSTNAME, whenUnsatisfiable: 'ScheduleAnyway' }],
    };
    const pods = [makePod('w', { labels: { app: 'web' }, node: 'node-a' })];
    // raw scores: node-a 1*ln(4) rounds to 1, node-b 0 → 100*(1+0-1)/1 = 0 and 100
    expect(
      scores(pod, [makeNode('node-a'), makeNode('node-b')], pods, undefined, { deps, args }).scores,
    ).toEqual({
      'node-a': 0,
      'node-b': 100,
    });
  });
});
