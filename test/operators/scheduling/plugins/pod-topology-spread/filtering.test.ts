// PodTopologySpread PreFilter/Filter: cases from upstream's filtering_test.go, in our own words.
import { describe, expect, it } from 'vitest';
import type { Pod, TopologySpreadConstraint } from '../../../../../operators/api/core-v1.ts';
import type { Registry } from '../../../../../operators/scheduling/framework/interface.ts';
import { newPodInfo } from '../../../../../operators/scheduling/framework/node-info.ts';
import {
  ERR_REASON_CONSTRAINTS_NOT_MATCH,
  ERR_REASON_NODE_LABEL_NOT_MATCH,
  podTopologySpreadFactory,
} from '../../../../../operators/scheduling/plugins/pod-topology-spread/pod-topology-spread.ts';
import { bareNode, makeCluster, makeNode, makePod } from '../default-preemption/cluster.ts';

const ZONE = 'zone';
const HOST = 'node';

const fooExists = { matchExpressions: [{ key: 'foo', operator: 'Exists' }] };
const spread = (
  key: string,
  maxSkew: number,
  extra: Partial<TopologySpreadConstraint> = {},
): TopologySpreadConstraint => ({
  maxSkew,
  topologyKey: key,
  whenUnsatisfiable: 'DoNotSchedule',
  labelSelector: fooExists,
  ...extra,
});

// Four nodes in two zones: a, b in zone1; x, y in zone2.
const fourNodes = [
  bareNode('node-a', { [ZONE]: 'zone1', [HOST]: 'node-a' }),
  bareNode('node-b', { [ZONE]: 'zone1', [HOST]: 'node-b' }),
  bareNode('node-x', { [ZONE]: 'zone2', [HOST]: 'node-x' }),
  bareNode('node-y', { [ZONE]: 'zone2', [HOST]: 'node-y' }),
];

/** `n` pods labelled foo on the node, named after it. */
function fooPods(node: string, n: number, o: Parameters<typeof makePod>[1] = {}): Pod[] {
  return Array.from({ length: n }, (_, i) => makePod(`${node}-p${i}`, { labels: { foo: '' }, node, ...o }));
}

const registry: Registry = { PodTopologySpread: podTopologySpreadFactory() };

function runFilter(pod: Pod, nodes = fourNodes, pods: Pod[] = []) {
  const { framework, snapshot, newState } = makeCluster({
    nodes,
    pods,
    registry,
    preFilter: ['PodTopologySpread'],
    filter: ['PodTopologySpread'],
  });
  const state = newState();
  const pre = framework.runPreFilterPlugins(state, pod);
  const verdicts: Record<string, string> = {};
  for (const n of snapshot.list()) {
    const s = framework.runFilterPlugins(state, pod, n);
    verdicts[n.name] = s ? `${s.code}: ${s.reasons.join(', ')}` : 'Success';
  }
  return { pre, verdicts, state, framework, snapshot };
}

const FAIL = `Unschedulable: ${ERR_REASON_CONSTRAINTS_NOT_MATCH}`;
const MISSING = `UnschedulableAndUnresolvable: ${ERR_REASON_NODE_LABEL_NOT_MATCH}`;
const OK = 'Success';

describe('PodTopologySpread Filter, one constraint', () => {
  it.each<{
    name: string;
    pod: Pod;
    nodes?: ReturnType<typeof bareNode>[];
    pods: Pod[];
    want: Record<string, string>;
  }>([
    {
      name: 'no existing pods: every node fits',
      pod: makePod('p', { labels: { foo: '' }, spread: [spread(ZONE, 1)] }),
      pods: [],
      want: { 'node-a': OK, 'node-b': OK, 'node-x': OK, 'node-y': OK },
    },
    {
      name: 'no existing pods and the incoming pod does not match itself: every node fits',
      pod: makePod('p', { labels: { bar: '' }, spread: [spread(ZONE, 0 + 1)] }),
      pods: [],
      want: { 'node-a': OK, 'node-b': OK, 'node-x': OK, 'node-y': OK },
    },
    {
      name: 'pods in another namespace do not count',
      pod: makePod('p', { labels: { foo: '' }, spread: [spread(ZONE, 1)] }),
      pods: [...fooPods('node-a', 1, { ns: 'other' }), ...fooPods('node-b', 1, { ns: 'other' })],
      want: { 'node-a': OK, 'node-b': OK, 'node-x': OK, 'node-y': OK },
    },
    {
      name: 'pods spread 3/3 across zones: every node fits',
      pod: makePod('p', { labels: { foo: '' }, spread: [spread(ZONE, 1)] }),
      pods: [
        ...fooPods('node-a', 1),
        ...fooPods('node-b', 2),
        ...fooPods('node-x', 2),
        ...fooPods('node-y', 1),
      ],
      want: { 'node-a': OK, 'node-b': OK, 'node-x': OK, 'node-y': OK },
    },
    {
      name: 'pods spread 1/2 because node-b has no zone label: zone2 fits, node-b misses the label',
      pod: makePod('p', { labels: { foo: '' }, spread: [spread(ZONE, 1)] }),
      nodes: [
        bareNode('node-a', { [ZONE]: 'zone1', [HOST]: 'node-a' }),
        bareNode('node-b', { [HOST]: 'node-b' }),
        bareNode('node-x', { [ZONE]: 'zone2', [HOST]: 'node-x' }),
        bareNode('node-y', { [ZONE]: 'zone2', [HOST]: 'node-y' }),
      ],
      pods: [
        ...fooPods('node-a', 1),
        ...fooPods('node-b', 1),
        ...fooPods('node-x', 2),
        ...fooPods('node-y', 0),
      ],
      want: { 'node-a': OK, 'node-b': MISSING, 'node-x': FAIL, 'node-y': FAIL },
    },
    {
      name: 'no node has the rack label: every node misses it',
      pod: makePod('p', { labels: { foo: '' }, spread: [spread('rack', 1)] }),
      pods: [],
      want: { 'node-a': MISSING, 'node-b': MISSING, 'node-x': MISSING, 'node-y': MISSING },
    },
    {
      name: 'pods spread 2/1/0/3 across nodes: only node-x fits',
      pod: makePod('p', { labels: { foo: '' }, spread: [spread(HOST, 1)] }),
      pods: [...fooPods('node-a', 2), ...fooPods('node-b', 1), ...fooPods('node-y', 3)],
      want: { 'node-a': FAIL, 'node-b': FAIL, 'node-x': OK, 'node-y': FAIL },
    },
    {
      name: 'pods spread 2/1/0/3 with maxSkew 2: node-b and node-x fit',
      pod: makePod('p', { labels: { foo: '' }, spread: [spread(HOST, 2)] }),
      pods: [...fooPods('node-a', 2), ...fooPods('node-b', 1), ...fooPods('node-y', 3)],
      want: { 'node-a': FAIL, 'node-b': OK, 'node-x': OK, 'node-y': FAIL },
    },
    {
      name: 'pods spread 2/1/0/3 but the incoming pod does not match itself: node-b and node-x fit',
      pod: makePod('p', { labels: { bar: '' }, spread: [spread(HOST, 1)] }),
      pods: [...fooPods('node-a', 2), ...fooPods('node-b', 1), ...fooPods('node-y', 3)],
      want: { 'node-a': FAIL, 'node-b': OK, 'node-x': OK, 'node-y': FAIL },
    },
    {
      name: 'required node affinity to zone1 (policy Honor): only a and b are domains, min is 1; x and y are left to NodeAffinity',
      pod: makePod('p', {
        labels: { foo: '' },
        spread: [spread(HOST, 1)],
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: ZONE, operator: 'In', values: ['zone1'] }] }],
            },
          },
        },
      }),
      pods: [...fooPods('node-a', 2), ...fooPods('node-b', 1), ...fooPods('node-y', 3)],
      want: { 'node-a': FAIL, 'node-b': OK, 'node-x': OK, 'node-y': OK },
    },
    {
      name: 'required node affinity with nodeAffinityPolicy Ignore: node-x counts as a domain with 0, node-b fails',
      pod: makePod('p', {
        labels: { foo: '' },
        spread: [spread(HOST, 1, { nodeAffinityPolicy: 'Ignore' })],
        nodeSelector: { [ZONE]: 'zone1' },
      }),
      pods: [...fooPods('node-a', 2), ...fooPods('node-b', 1), ...fooPods('node-y', 3)],
      want: { 'node-a': FAIL, 'node-b': FAIL, 'node-x': OK, 'node-y': FAIL },
    },
    {
      name: 'nodeTaintsPolicy Honor: the tainted empty node-x is no domain, min is 1, node-b fits',
      pod: makePod('p', { labels: { foo: '' }, spread: [spread(HOST, 1, { nodeTaintsPolicy: 'Honor' })] }),
      nodes: [
        fourNodes[0]!,
        fourNodes[1]!,
        bareNode(
          'node-x',
          { [ZONE]: 'zone2', [HOST]: 'node-x' },
          { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] },
        ),
        fourNodes[3]!,
      ],
      pods: [...fooPods('node-a', 2), ...fooPods('node-b', 1), ...fooPods('node-y', 3)],
      want: { 'node-a': FAIL, 'node-b': OK, 'node-x': OK, 'node-y': FAIL },
    },
    {
      name: 'nodeTaintsPolicy Honor with a toleration: node-x is a domain again, only node-x fits',
      pod: makePod('p', {
        labels: { foo: '' },
        spread: [spread(HOST, 1, { nodeTaintsPolicy: 'Honor' })],
        tolerations: [{ key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' }],
      }),
      nodes: [
        fourNodes[0]!,
        fourNodes[1]!,
        bareNode(
          'node-x',
          { [ZONE]: 'zone2', [HOST]: 'node-x' },
          { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] },
        ),
        fourNodes[3]!,
      ],
      pods: [...fooPods('node-a', 2), ...fooPods('node-b', 1), ...fooPods('node-y', 3)],
      want: { 'node-a': FAIL, 'node-b': FAIL, 'node-x': OK, 'node-y': FAIL },
    },
    {
      name: 'zones hold 2 and 1 pods, maxSkew 2: every node fits',
      pod: makePod('p', { labels: { foo: '' }, spread: [spread(ZONE, 2)] }),
      pods: [...fooPods('node-a', 2), ...fooPods('node-x', 1)],
      want: { 'node-a': OK, 'node-b': OK, 'node-x': OK, 'node-y': OK },
    },
    {
      name: 'the same with minDomains 3 (only 2 zones): the global minimum is 0, zone1 no longer fits',
      pod: makePod('p', { labels: { foo: '' }, spread: [spread(ZONE, 2, { minDomains: 3 })] }),
      pods: [...fooPods('node-a', 2), ...fooPods('node-x', 1)],
      want: { 'node-a': FAIL, 'node-b': FAIL, 'node-x': OK, 'node-y': OK },
    },
    {
      name: 'terminating pods do not count: 2/1/0/3 with node-y all terminating, node-y fits too',
      pod: makePod('p', { labels: { foo: '' }, spread: [spread(HOST, 1)] }),
      pods: [...fooPods('node-a', 2), ...fooPods('node-b', 1), ...fooPods('node-y', 3, { deleting: true })],
      want: { 'node-a': FAIL, 'node-b': FAIL, 'node-x': OK, 'node-y': OK },
    },
    {
      name: 'matchLabelKeys: only pods with the same pod-template-hash count',
      pod: makePod('p', {
        labels: { foo: '', 'pod-template-hash': 'new' },
        spread: [spread(HOST, 1, { matchLabelKeys: ['pod-template-hash'] })],
      }),
      pods: [
        ...fooPods('node-a', 2, { labels: { foo: '', 'pod-template-hash': 'old' } }),
        ...fooPods('node-b', 1, { labels: { foo: '', 'pod-template-hash': 'new' } }),
      ],
      want: { 'node-a': OK, 'node-b': FAIL, 'node-x': OK, 'node-y': OK },
    },
  ])('$name', ({ pod, nodes, pods, want }) => {
    expect(runFilter(pod, nodes, pods).verdicts).toEqual(want);
  });
});

describe('PodTopologySpread Filter, several constraints', () => {
  it.each<{ name: string; pod: Pod; pods: Pod[]; want: Record<string, string> }>([
    {
      name: 'zone and node constraints, pods 3/3 by zone and 2/1/0/3 by node: only node-x fits both',
      pod: makePod('p', { labels: { foo: '' }, spread: [spread(ZONE, 1), spread(HOST, 1)] }),
      pods: [...fooPods('node-a', 2), ...fooPods('node-b', 1), ...fooPods('node-y', 3)],
      want: { 'node-a': FAIL, 'node-b': FAIL, 'node-x': OK, 'node-y': FAIL },
    },
    {
      name: 'zone says zone1 (1 pod vs 3), node says node-b or node-x: node-b is the only node fitting both',
      pod: makePod('p', { labels: { foo: '' }, spread: [spread(ZONE, 1), spread(HOST, 1)] }),
      pods: [...fooPods('node-a', 1), ...fooPods('node-y', 3)],
      want: { 'node-a': FAIL, 'node-b': OK, 'node-x': FAIL, 'node-y': FAIL },
    },
    {
      name: 'two constraints on different selectors, each counted on its own: zone rules out a and b, node rules out x',
      pod: makePod('p', {
        labels: { foo: '', bar: '' },
        spread: [
          spread(ZONE, 1),
          spread(HOST, 1, { labelSelector: { matchExpressions: [{ key: 'bar', operator: 'Exists' }] } }),
        ],
      }),
      pods: [
        ...fooPods('node-a', 1),
        makePod('bar-b', { labels: { bar: '' }, node: 'node-b' }),
        makePod('bar-x', { labels: { bar: '' }, node: 'node-x' }),
      ],
      want: { 'node-a': FAIL, 'node-b': FAIL, 'node-x': FAIL, 'node-y': OK },
    },
  ])('$name', ({ pod, pods, want }) => {
    expect(runFilter(pod, fourNodes, pods).verdicts).toEqual(want);
  });
});

describe('PodTopologySpread PreFilter', () => {
  it('skips a pod with no constraints and no default ones apply (no owners)', () => {
    const { pre, state } = runFilter(makePod('p', { labels: { foo: '' } }));
    expect(pre.status).toBeUndefined();
    expect(state.skipFilterPlugins.has('PodTopologySpread')).toBe(true);
  });

  it('skips a pod whose constraints are all ScheduleAnyway', () => {
    const { state } = runFilter(
      makePod('p', {
        labels: { foo: '' },
        spread: [spread(ZONE, 1, { whenUnsatisfiable: 'ScheduleAnyway' })],
      }),
    );
    expect(state.skipFilterPlugins.has('PodTopologySpread')).toBe(true);
  });

  it('List defaulting with a DoNotSchedule default applies with the owners’ selector', () => {
    const owners = podTopologySpreadFactory({ ownerSelectors: () => [{ matchLabels: { foo: '' } }] });
    const { framework, snapshot, newState } = makeCluster({
      nodes: fourNodes,
      pods: [...fooPods('node-a', 2), ...fooPods('node-b', 1), ...fooPods('node-y', 3)],
      registry: { PodTopologySpread: owners },
      preFilter: ['PodTopologySpread'],
      filter: ['PodTopologySpread'],
      pluginArgs: {
        PodTopologySpread: {
          defaultingType: 'List',
          defaultConstraints: [{ maxSkew: 1, topologyKey: HOST, whenUnsatisfiable: 'DoNotSchedule' }],
        },
      },
    });
    const state = newState();
    const pod = makePod('p', { labels: { foo: '' } });
    framework.runPreFilterPlugins(state, pod);
    const fits = snapshot.list().filter((n) => framework.runFilterPlugins(state, pod, n) === undefined);
    expect(fits.map((n) => n.name)).toEqual(['node-x']);
  });

  it('a bad labelSelector operator is an Error status naming the field', () => {
    const pod = makePod('p', {
      labels: { foo: '' },
      spread: [
        spread(ZONE, 1, { labelSelector: { matchExpressions: [{ key: 'foo', operator: 'Sometimes' }] } }),
      ],
    });
    const { pre } = runFilter(pod);
    expect(pre.status?.code).toBe('Error');
    expect(pre.status?.reasons.join()).toContain('matchExpressions[0]');
  });
});

describe('PodTopologySpread PreFilterExtensions', () => {
  const pod = makePod('p', { labels: { foo: '' }, spread: [spread(HOST, 1)] });
  const pods = [...fooPods('node-a', 1), ...fooPods('node-b', 1)];

  it('addPod of a matching pod on the only empty nodes changes which nodes fit', () => {
    const { framework, snapshot, state } = runFilter(pod, fourNodes, pods);
    const fitting = () =>
      snapshot
        .list()
        .filter((n) => framework.runFilterPlugins(state, pod, n) === undefined)
        .map((n) => n.name);
    expect(fitting()).toEqual(['node-x', 'node-y']);
    const nodeX = snapshot.get('node-x')!;
    framework.runPreFilterExtensionAddPod(
      state,
      pod,
      newPodInfo(makePod('new-x', { labels: { foo: '' }, node: 'node-x' })),
      nodeX,
    );
    const nodeY = snapshot.get('node-y')!;
    framework.runPreFilterExtensionAddPod(
      state,
      pod,
      newPodInfo(makePod('new-y', { labels: { foo: '' }, node: 'node-y' })),
      nodeY,
    );
    expect(fitting()).toEqual(['node-a', 'node-b', 'node-x', 'node-y']);
    framework.runPreFilterExtensionRemovePod(state, pod, newPodInfo(pods[0]!), snapshot.get('node-a')!);
    expect(fitting()).toEqual(['node-a']);
  });

  it('pods of other namespaces or non-matching labels do not change the counts', () => {
    const { framework, snapshot, state } = runFilter(pod, fourNodes, pods);
    const nodeX = snapshot.get('node-x')!;
    framework.runPreFilterExtensionAddPod(
      state,
      pod,
      newPodInfo(makePod('o', { labels: { foo: '' }, ns: 'other', node: 'node-x' })),
      nodeX,
    );
    framework.runPreFilterExtensionAddPod(
      state,
      pod,
      newPodInfo(makePod('q', { labels: { bar: '' }, node: 'node-x' })),
      nodeX,
    );
    expect(framework.runFilterPlugins(state, pod, nodeX)).toBeUndefined();
    expect(framework.runFilterPlugins(state, pod, snapshot.get('node-a')!)?.reasons).toEqual([
      ERR_REASON_CONSTRAINTS_NOT_MATCH,
    ]);
  });

  it('a cloned state is independent of the original', () => {
    const { framework, snapshot, state } = runFilter(pod, fourNodes, pods);
    const copy = state.clone();
    framework.runPreFilterExtensionAddPod(
      copy,
      pod,
      newPodInfo(makePod('n', { labels: { foo: '' }, node: 'node-x' })),
      snapshot.get('node-x')!,
    );
    framework.runPreFilterExtensionAddPod(
      copy,
      pod,
      newPodInfo(makePod('m', { labels: { foo: '' }, node: 'node-y' })),
      snapshot.get('node-y')!,
    );
    expect(framework.runFilterPlugins(copy, pod, snapshot.get('node-a')!)).toBeUndefined();
    expect(framework.runFilterPlugins(state, pod, snapshot.get('node-a')!)?.code).toBe('Unschedulable');
  });
});

describe('makeNode sanity for this file', () => {
  it('makeNode adds the hostname label', () => {
    expect(makeNode('n1').metadata.labels?.['kubernetes.io/hostname']).toBe('n1');
  });
});

describe('PodTopologySpread AddPod honours the preemptor’s node inclusion policies', () => {
  it('a pod added on a node outside the preemptor’s required affinity does not count', () => {
    const pod = makePod('p', {
      labels: { foo: '' },
      spread: [spread(HOST, 1)],
      nodeSelector: { [ZONE]: 'zone1' },
    });
    const { framework, snapshot, state } = runFilter(pod, fourNodes, [...fooPods('node-a', 1)]);
    // Domains: node-a (1), node-b (0); node-x/node-y are outside the nodeSelector and not counted.
    const nodeX = snapshot.get('node-x')!;
    framework.runPreFilterExtensionAddPod(
      state,
      pod,
      newPodInfo(makePod('x1', { labels: { foo: '' }, node: 'node-x' })),
      nodeX,
    );
    expect(framework.runFilterPlugins(state, pod, snapshot.get('node-b')!)).toBeUndefined();
    expect(framework.runFilterPlugins(state, pod, snapshot.get('node-a')!)?.code).toBe('Unschedulable');
    const nodeB = snapshot.get('node-b')!;
    framework.runPreFilterExtensionAddPod(
      state,
      pod,
      newPodInfo(makePod('b1', { labels: { foo: '' }, node: 'node-b' })),
      nodeB,
    );
    expect(framework.runFilterPlugins(state, pod, snapshot.get('node-a')!)).toBeUndefined();
  });
});
