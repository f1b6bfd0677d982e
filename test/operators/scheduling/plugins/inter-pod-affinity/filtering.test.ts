// InterPodAffinity PreFilter/Filter: cases from upstream's filtering_test.go, in our own words.
import { describe, expect, it } from 'vitest';
import type { Node, Pod, PodAffinityTerm } from '../../../../../operators/api/core-v1.ts';
import { CycleState } from '../../../../../operators/scheduling/framework/interface.ts';
import { NodeInfo, newPodInfo } from '../../../../../operators/scheduling/framework/node-info.ts';
import {
  ERR_REASON_AFFINITY_RULES_NOT_MATCH,
  ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
  ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
  type InterPodAffinityDeps,
  interPodAffinityFactory,
  newInterPodAffinity,
} from '../../../../../operators/scheduling/plugins/inter-pod-affinity/inter-pod-affinity.ts';
import { bareNode, makeCluster, makePod } from '../default-preemption/cluster.ts';

const AFFINITY = `UnschedulableAndUnresolvable: ${ERR_REASON_AFFINITY_RULES_NOT_MATCH}`;
const ANTI = `Unschedulable: ${ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH}`;
const EXISTING = `Unschedulable: ${ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH}`;
const OK = 'Success';

const term = (
  key: string,
  op: string,
  values: string[],
  topologyKey: string,
  extra: Partial<PodAffinityTerm> = {},
): PodAffinityTerm => ({
  labelSelector: { matchExpressions: [{ key, operator: op, values }] },
  topologyKey,
  ...extra,
});
const affinity = (...terms: PodAffinityTerm[]) => ({
  podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: terms },
});
const anti = (...terms: PodAffinityTerm[]) => ({
  podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: terms },
});

const node1 = bareNode('node1', { region: 'r1', zone: 'z11', hostname: 'h1' });

function filter(pod: Pod, nodes: Node[], pods: Pod[], deps: InterPodAffinityDeps = {}) {
  const { framework, snapshot, newState } = makeCluster({
    nodes,
    pods,
    registry: { InterPodAffinity: interPodAffinityFactory(deps) },
    preFilter: ['InterPodAffinity'],
    filter: ['InterPodAffinity'],
  });
  const state = newState();
  const pre = framework.runPreFilterPlugins(state, pod);
  const verdicts: Record<string, string> = {};
  for (const n of snapshot.list()) {
    const s = framework.runFilterPlugins(state, pod, n);
    verdicts[n.name] = s ? `${s.code}: ${s.reasons.join(', ')}` : OK;
  }
  return { pre, verdicts, state, framework, snapshot };
}

const securityscan = (name: string, node: string, o: Parameters<typeof makePod>[1] = {}) =>
  makePod(name, { labels: { service: 'securityscan' }, node, ...o });

describe('InterPodAffinity Filter on one node', () => {
  it.each<{ name: string; pod: Pod; pods: Pod[]; want: string }>([
    {
      name: 'a pod without required pod affinity fits a node with no pods',
      pod: makePod('p'),
      pods: [],
      want: OK,
    },
    {
      name: 'affinity In matches the existing pod in the same region',
      pod: makePod('p', { affinity: affinity(term('service', 'In', ['securityscan', 'value2'], 'region')) }),
      pods: [securityscan('e', 'node1')],
      want: OK,
    },
    {
      name: 'affinity NotIn is satisfied by a pod with another value',
      pod: makePod('p', {
        affinity: affinity(term('service', 'NotIn', ['securityscan3', 'value3'], 'region')),
      }),
      pods: [securityscan('e', 'node1')],
      want: OK,
    },
    {
      name: 'affinity to a namespace the existing pod is not in does not match',
      pod: makePod('p', {
        affinity: affinity(
          term('service', 'In', ['securityscan'], 'region', { namespaces: ['DiffNameSpace'] }),
        ),
      }),
      pods: [securityscan('e', 'node1', { ns: 'ns' })],
      want: AFFINITY,
    },
    {
      name: 'affinity In with values no pod has does not match',
      pod: makePod('p', { affinity: affinity(term('service', 'In', ['antivirusscan', 'value2'], 'region')) }),
      pods: [securityscan('e', 'node1')],
      want: AFFINITY,
    },
    {
      name: 'several terms must all be matched by one pod: they are',
      pod: makePod('p', {
        affinity: affinity(
          term('service', 'Exists', [], 'region'),
          term('service', 'In', ['securityscan'], 'region'),
        ),
      }),
      pods: [securityscan('e', 'node1')],
      want: OK,
    },
    {
      name: 'several terms matched by two different pods only: no match',
      pod: makePod('p', {
        affinity: affinity(
          term('service', 'In', ['securityscan'], 'region'),
          term('team', 'In', ['a'], 'region'),
        ),
      }),
      pods: [securityscan('e', 'node1'), makePod('t', { labels: { team: 'a' }, node: 'node1' })],
      want: AFFINITY,
    },
    {
      name: 'anti-affinity to the existing pod in the same zone',
      pod: makePod('p', { affinity: anti(term('service', 'In', ['securityscan'], 'zone')) }),
      pods: [securityscan('e', 'node1')],
      want: ANTI,
    },
    {
      name: 'anti-affinity on a key the node does not have is satisfied',
      pod: makePod('p', { affinity: anti(term('service', 'In', ['securityscan'], 'rack')) }),
      pods: [securityscan('e', 'node1')],
      want: OK,
    },
    {
      name: 'affinity and anti-affinity both satisfied',
      pod: makePod('p', {
        affinity: {
          ...affinity(term('service', 'In', ['securityscan'], 'region')),
          ...anti(term('service', 'In', ['antivirusscan'], 'zone')),
        },
      }),
      pods: [securityscan('e', 'node1')],
      want: OK,
    },
    {
      name: 'the existing pod’s anti-affinity selects the incoming pod',
      pod: makePod('p', { labels: { service: 'securityscan' } }),
      pods: [
        makePod('e', { node: 'node1', affinity: anti(term('service', 'In', ['securityscan'], 'zone')) }),
      ],
      want: EXISTING,
    },
    {
      name: 'the existing pod’s anti-affinity on a key the node lacks does not bite',
      pod: makePod('p', { labels: { service: 'securityscan' } }),
      pods: [
        makePod('e', { node: 'node1', affinity: anti(term('service', 'In', ['securityscan'], 'rack')) }),
      ],
      want: OK,
    },
    {
      name: 'the existing pod’s anti-affinity on another namespace does not bite',
      pod: makePod('p', { labels: { service: 'securityscan' } }),
      pods: [
        makePod('e', {
          node: 'node1',
          affinity: anti(term('service', 'In', ['securityscan'], 'zone', { namespaces: ['elsewhere'] })),
        }),
      ],
      want: OK,
    },
    {
      name: 'the first pod of a group: no pod matches and the pod matches its own affinity',
      pod: makePod('p', {
        labels: { service: 'securityscan' },
        affinity: affinity(term('service', 'In', ['securityscan'], 'region')),
      }),
      pods: [],
      want: OK,
    },
    {
      name: 'the first pod of a group on a node without the topology key is rejected',
      pod: makePod('p', {
        labels: { service: 'securityscan' },
        affinity: affinity(term('service', 'In', ['securityscan'], 'rack')),
      }),
      pods: [],
      want: AFFINITY,
    },
    {
      name: 'a pod whose affinity selects neither itself nor any pod is rejected',
      pod: makePod('p', {
        labels: { service: 'other' },
        affinity: affinity(term('service', 'In', ['securityscan'], 'region')),
      }),
      pods: [],
      want: AFFINITY,
    },
    {
      name: 'terms with an empty namespaceSelector match every namespace',
      pod: makePod('p', {
        affinity: affinity(term('service', 'In', ['securityscan'], 'region', { namespaceSelector: {} })),
      }),
      pods: [securityscan('e', 'node1', { ns: 'far-away' })],
      want: OK,
    },
  ])('$name', ({ pod, pods, want }) => {
    expect(filter(pod, [node1], pods).verdicts.node1).toBe(want);
  });

  it('namespaceSelector matches the namespaces whose labels match (through the injected lookup)', () => {
    const pod = makePod('p', {
      affinity: affinity(
        term('service', 'In', ['securityscan'], 'region', {
          namespaceSelector: { matchLabels: { team: 'blue' } },
        }),
      ),
    });
    const labels: Record<string, Record<string, string>> = { blue1: { team: 'blue' }, red1: { team: 'red' } };
    const deps = { namespaceLabels: (ns: string) => labels[ns] };
    expect(filter(pod, [node1], [securityscan('e', 'node1', { ns: 'blue1' })], deps).verdicts.node1).toBe(OK);
    expect(filter(pod, [node1], [securityscan('e', 'node1', { ns: 'red1' })], deps).verdicts.node1).toBe(
      AFFINITY,
    );
  });

  it('PreFilter skips when neither the pod nor any existing pod has required terms', () => {
    const { state } = filter(makePod('p'), [node1], [securityscan('e', 'node1')]);
    expect(state.skipFilterPlugins.has('InterPodAffinity')).toBe(true);
  });
});

describe('InterPodAffinity Filter across nodes', () => {
  const nodes = [
    bareNode('machine1', { region: 'r1', zone: 'z11', hostname: 'h1' }),
    bareNode('machine2', { region: 'r1', zone: 'z12', hostname: 'h2' }),
    bareNode('machine3', { region: 'r2', zone: 'z21', hostname: 'h3' }),
  ];

  it.each<{ name: string; pod: Pod; pods: Pod[]; want: Record<string, string> }>([
    {
      name: 'affinity by region: every node of the region of the matching pod fits',
      pod: makePod('p', { affinity: affinity(term('foo', 'In', ['bar'], 'region')) }),
      pods: [makePod('e', { labels: { foo: 'bar' }, node: 'machine1' })],
      want: { machine1: OK, machine2: OK, machine3: AFFINITY },
    },
    {
      name: 'anti-affinity by zone: only the zone of the matching pod is excluded',
      pod: makePod('p', { affinity: anti(term('foo', 'In', ['bar'], 'zone')) }),
      pods: [makePod('e', { labels: { foo: 'bar' }, node: 'machine1' })],
      want: { machine1: ANTI, machine2: OK, machine3: OK },
    },
    {
      name: 'an existing pod’s anti-affinity by region excludes its whole region',
      pod: makePod('p', { labels: { foo: 'bar' } }),
      pods: [makePod('e', { node: 'machine2', affinity: anti(term('foo', 'In', ['bar'], 'region')) })],
      want: { machine1: EXISTING, machine2: EXISTING, machine3: OK },
    },
    {
      name: 'affinity by region and anti-affinity by zone together',
      pod: makePod('p', {
        affinity: {
          ...affinity(term('foo', 'In', ['bar'], 'region')),
          ...anti(term('foo', 'In', ['bar'], 'zone')),
        },
      }),
      pods: [makePod('e', { labels: { foo: 'bar' }, node: 'machine1' })],
      want: { machine1: ANTI, machine2: OK, machine3: AFFINITY },
    },
    {
      name: 'the self-affine first pod may go to any node with the key when nothing matches yet',
      pod: makePod('p', { labels: { foo: 'bar' }, affinity: affinity(term('foo', 'In', ['bar'], 'zone')) }),
      pods: [makePod('other', { labels: { foo: 'baz' }, node: 'machine3' })],
      want: { machine1: OK, machine2: OK, machine3: OK },
    },
  ])('$name', ({ pod, pods, want }) => {
    expect(filter(pod, nodes, pods).verdicts).toEqual(want);
  });

  it('AddPod/RemovePod keep the counts in step (a nominated pod, a preemption what-if)', () => {
    const pod = makePod('p', { labels: { app: 'db' }, affinity: anti(term('app', 'In', ['db'], 'zone')) });
    const { framework, snapshot, state } = filter(pod, nodes, [
      makePod('e', { labels: { foo: 'bar' }, node: 'machine1' }),
    ]);
    const m2 = snapshot.get('machine2')!;
    expect(framework.runFilterPlugins(state, pod, m2)).toBeUndefined();
    const other = newPodInfo(makePod('db2', { labels: { app: 'db' }, node: 'machine2' }));
    framework.runPreFilterExtensionAddPod(state, pod, other, m2);
    expect(framework.runFilterPlugins(state, pod, m2)?.reasons).toEqual([
      ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
    ]);
    const copy = state.clone();
    framework.runPreFilterExtensionRemovePod(copy, pod, other, m2);
    expect(framework.runFilterPlugins(copy, pod, m2)).toBeUndefined();
    expect(framework.runFilterPlugins(state, pod, m2)?.code).toBe('Unschedulable');
    // An added pod with anti-affinity against the incoming pod blocks its zone.
    const blocker = newPodInfo(
      makePod('blocker', { node: 'machine3', affinity: anti(term('app', 'In', ['db'], 'zone')) }),
    );
    const m3 = snapshot.get('machine3')!;
    framework.runPreFilterExtensionAddPod(copy, pod, blocker, m3);
    expect(framework.runFilterPlugins(copy, pod, m3)?.reasons).toEqual([
      ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
    ]);
  });
});

describe('InterPodAffinity without PreFilter', () => {
  it('Filter, AddPod and Score are Error statuses naming the missing state', () => {
    const { framework } = makeCluster({ nodes: [], registry: {} });
    const plugin = newInterPodAffinity({}, framework);
    const pod = makePod('p');
    const nodeInfo = new NodeInfo(node1);
    expect(plugin.filter(new CycleState(), pod, nodeInfo)?.reasons[0]).toContain('PreFilterInterPodAffinity');
    expect(plugin.addPod(new CycleState(), pod, newPodInfo(pod), nodeInfo)?.code).toBe('Error');
    expect(plugin.score(new CycleState(), pod, nodeInfo)).toMatchObject({ code: 'Error' });
  });
});

describe('InterPodAffinity namespaceSelector on existing pods’ terms', () => {
  const existingAnti = (namespaceSelector: Record<string, string>) =>
    makePod('guard', {
      ns: 'ops',
      node: 'node1',
      affinity: anti(
        term('app', 'In', ['web'], 'region', { namespaceSelector: { matchLabels: namespaceSelector } }),
      ),
    });
  const labels: Record<string, Record<string, string>> = { prod: { env: 'prod' }, dev: { env: 'dev' } };
  const deps = { namespaceLabels: (ns: string) => labels[ns] };

  it.each([
    { ns: 'prod', want: EXISTING },
    { ns: 'dev', want: OK },
    { ns: 'unknown', want: OK },
  ])('an incoming pod in $ns → $want', ({ ns, want }) => {
    const incoming = makePod('p', { ns, labels: { app: 'web' } });
    expect(filter(incoming, [node1], [existingAnti({ env: 'prod' })], deps).verdicts.node1).toBe(want);
  });
});
