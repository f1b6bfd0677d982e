// DefaultPreemption PostFilter end to end over the framework: cases from upstream's default_preemption_test.go (TestPostFilter), in our own words.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../../operators/api/core-v1.ts';
import type { FrameworkHandle } from '../../../../../operators/scheduling/framework/interface.ts';
import { newPodInfo } from '../../../../../operators/scheduling/framework/node-info.ts';
import { newStatus, type Status } from '../../../../../operators/scheduling/framework/status.ts';
import { newDefaultPreemption } from '../../../../../operators/scheduling/plugins/default-preemption/default-preemption.ts';
import { makeNode, makePod } from './cluster.ts';
import { preemptionBench } from './preemption-cluster.ts';

const low = (name: string, node: string, cpu = '2', o: Parameters<typeof makePod>[1] = {}) =>
  makePod(name, { node, cpu, priority: 1, ...o });
const high = (name: string, node: string, cpu = '2') => makePod(name, { node, cpu, priority: 100 });
const preemptor = (cpu = '2', o: Parameters<typeof makePod>[1] = {}) =>
  makePod('preemptor', { cpu, priority: 10, ...o });

describe('DefaultPreemption PostFilter', () => {
  it.each<{
    name: string;
    nodes: string[];
    pods: Pod[];
    pod: Pod;
    statuses?: Record<string, Status>;
    nominated?: string;
    status: string;
  }>([
    {
      name: 'a pod with higher priority can be made schedulable',
      nodes: ['node1'],
      pods: [low('p1', 'node1', '4')],
      pod: preemptor(),
      nominated: 'node1',
      status: 'Success',
    },
    {
      name: 'a pod with tied priority is still unschedulable',
      nodes: ['node1'],
      pods: [makePod('p1', { node: 'node1', cpu: '4', priority: 10 })],
      pod: preemptor(),
      nominated: '',
      status:
        'Unschedulable: preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    },
    {
      name: 'a node absent from the statuses counts as UnschedulableAndUnresolvable',
      nodes: ['node1'],
      pods: [low('p1', 'node1', '4')],
      pod: preemptor(),
      statuses: {},
      nominated: '',
      status:
        'Unschedulable: preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    },
    {
      name: 'preemption respects the UnschedulableAndUnresolvable filter status',
      nodes: ['node1'],
      pods: [low('p1', 'node1', '4')],
      pod: preemptor(),
      statuses: {
        node1: newStatus('UnschedulableAndUnresolvable', "node(s) didn't match Pod's node affinity/selector"),
      },
      nominated: '',
      status:
        'Unschedulable: preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    },
    {
      name: 'a pod can be made schedulable on one node only',
      nodes: ['node1', 'node2'],
      pods: [high('p1', 'node1', '4'), low('p2', 'node2', '4')],
      pod: preemptor(),
      nominated: 'node2',
      status: 'Success',
    },
    {
      name: 'no candidate: not enough cpu even without the low-priority pods',
      nodes: ['node1', 'node2'],
      pods: [low('p1', 'node1', '1'), low('p2', 'node2', '1')],
      pod: preemptor('5'),
      nominated: '',
      status: 'Unschedulable: preemption: 0/2 nodes are available: 2 Insufficient cpu.',
    },
    {
      name: 'no candidate, mixed reasons',
      nodes: ['node1', 'node2'],
      pods: [low('p1', 'node1', '1'), high('p2', 'node1', '2'), high('p3', 'node2', '4')],
      pod: preemptor('3'),
      nominated: '',
      status:
        'Unschedulable: preemption: 0/2 nodes are available: 1 Insufficient cpu, 1 No preemption victims found for incoming pod.',
    },
    {
      name: 'no candidate: 2 nodes UnschedulableAndUnresolvable and 2 without enough cpu',
      nodes: ['node1', 'node2', 'node3', 'node4'],
      pods: [
        low('p1', 'node1', '1'),
        low('p2', 'node2', '1'),
        low('p3', 'node3', '4'),
        low('p4', 'node4', '4'),
      ],
      pod: preemptor('5'),
      statuses: {
        node1: newStatus('Unschedulable', 'Insufficient cpu'),
        node2: newStatus('Unschedulable', 'Insufficient cpu'),
        node3: newStatus('UnschedulableAndUnresolvable', 'nope'),
        node4: newStatus('UnschedulableAndUnresolvable', 'nope'),
      },
      nominated: '',
      status:
        'Unschedulable: preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for scheduling.',
    },
    {
      name: 'preemptionPolicy Never is not eligible',
      nodes: ['node1'],
      pods: [low('p1', 'node1', '4')],
      pod: preemptor('2', { preemptionPolicy: 'Never' }),
      status: 'Unschedulable: preemption: not eligible due to preemptionPolicy=Never.',
    },
  ])('$name', async ({ nodes, pods, pod, statuses, nominated, status }) => {
    const bench = preemptionBench({ nodes: nodes.map((n) => makeNode(n)), pods, known: [pod] });
    const given = statuses ? new Map(Object.entries(statuses)) : undefined;
    const out = await bench.postFilter(pod, given);
    const got = out.status ? `${out.status.code}: ${out.status.reasons.join(', ')}` : 'Success';
    expect(got).toBe(status);
    expect(out.result?.nominatingInfo?.nominatedNodeName).toBe(nominated);
    if (nominated !== undefined) expect(out.result?.nominatingInfo?.mode).toBe('Override');
  });

  it('evicts the victims: DisruptionTarget condition first, then delete; higher-priority pods untouched', async () => {
    const pod = preemptor('3');
    const bench = preemptionBench({
      nodes: [makeNode('node1')],
      pods: [low('small', 'node1', '1'), low('big', 'node1', '2'), high('vip', 'node1', '1')],
      known: [pod],
    });
    const out = await bench.postFilter(pod);
    expect(out.result?.nominatingInfo?.nominatedNodeName).toBe('node1');
    expect(out.result?.victims).toBe(2);
    // 4 cpu: vip keeps 1, the preemptor needs 3 → both low pods go (reprieving either leaves < 3 free)
    expect(bench.calls.map((c) => `${c.verb} ${c.pod}`).sort()).toEqual([
      'deletePod big',
      'deletePod small',
      'patchPodCondition big',
      'patchPodCondition small',
      'recordEvent big',
      'recordEvent small',
    ]);
    expect(bench.calls.find((c) => c.verb === 'patchPodCondition')?.arg).toEqual({
      type: 'DisruptionTarget',
      status: 'True',
      reason: 'PreemptionByScheduler',
      message: 'default-scheduler: preempting to accommodate a higher priority pod',
      // the bench's virtual clock starts at 0
      lastTransitionTime: '1970-01-01T00:00:00Z',
    });
    for (const victim of ['small', 'big']) {
      const verbs = bench.calls.filter((c) => c.pod === victim).map((c) => c.verb);
      expect(verbs).toEqual(['patchPodCondition', 'deletePod', 'recordEvent']);
    }
    // upstream's Preempted event on each victim, reported by the preemptor's scheduler
    expect(bench.calls.find((c) => c.verb === 'recordEvent')?.arg).toEqual({
      type: 'Normal',
      reason: 'Preempted',
      action: 'Preempting',
      message: `Preempted by pod ${pod.metadata.uid} on node node1`,
      reportingController: 'default-scheduler',
    });
  });

  it('clears the nomination of lower-priority pods nominated to the chosen node, not of higher ones', async () => {
    const pod = preemptor();
    const lowNominee = makePod('low-nominee', { cpu: '1', priority: 5, nominated: 'node1' });
    const highNominee = makePod('high-nominee', { cpu: '1', priority: 50, nominated: 'node1' });
    const bench = preemptionBench({
      nodes: [makeNode('node1', {}, { cpu: '8' })],
      pods: [low('p1', 'node1', '7')],
      known: [pod],
      nominated: { node1: [lowNominee, highNominee] },
    });
    const out = await bench.postFilter(pod);
    expect(out.result?.nominatingInfo?.nominatedNodeName).toBe('node1');
    const cleared = bench.calls.filter((c) => c.verb === 'setNominatedNodeName');
    expect(cleared).toEqual([{ verb: 'setNominatedNodeName', pod: 'low-nominee', arg: '' }]);
  });

  it('a victim waiting at Permit is rejected instead of deleted', async () => {
    const pod = preemptor();
    const bench = preemptionBench({
      nodes: [makeNode('node1')],
      pods: [low('waiter', 'node1', '4')],
      known: [pod],
    });
    const rejected: string[] = [];
    const fw = bench.framework;
    const handle: FrameworkHandle = {
      snapshot: () => fw.snapshot(),
      scheduler: fw.scheduler,
      logger: fw.logger,
      api: fw.api,
      parallelism: fw.parallelism,
      nominatedPodsForNode: (n) => fw.nominatedPodsForNode(n),
      getPod: (ns, name) => fw.getPod(ns, name),
      podDisruptionBudgets: () => fw.podDisruptionBudgets(),
      runFilterPluginsWithNominatedPods: (s, p, n) => fw.runFilterPluginsWithNominatedPods(s, p, n),
      runPreFilterExtensionAddPod: (s, p, i, n) => fw.runPreFilterExtensionAddPod(s, p, i, n),
      runPreFilterExtensionRemovePod: (s, p, i, n) => fw.runPreFilterExtensionRemovePod(s, p, i, n),
      activate: (pods) => fw.activate(pods),
      rejectWaitingPod: (uid, plugin, msg) => {
        rejected.push(`${uid} ${plugin} ${msg}`);
        return true;
      },
    };
    const plugin = newDefaultPreemption({}, handle, { random: () => 0 });
    const { state, statuses } = bench.filterAll(pod);
    const out = await plugin.postFilter(state, pod, statuses);
    expect(out.result?.nominatingInfo?.nominatedNodeName).toBe('node1');
    expect(rejected).toEqual(['waiter DefaultPreemption preempted']);
    // no API write, but the victim still gets the Preempted event, as upstream
    expect(bench.calls.map((c) => `${c.verb} ${c.pod}`)).toEqual(['recordEvent waiter']);
  });

  it('a failing delete becomes an Error status with the preemption prefix', async () => {
    const pod = preemptor();
    const bench = preemptionBench({
      nodes: [makeNode('node1')],
      pods: [low('p1', 'node1', '4')],
      known: [pod],
      failDeleteOf: 'p1',
    });
    const out = await bench.postFilter(pod);
    expect(out.status?.code).toBe('Error');
    expect(out.status?.reasons).toEqual(['preemption: deleting p1: boom']);
    expect(out.result).toBeUndefined();
  });

  it('no potential node clears the preemptor’s own nomination', async () => {
    const pod = preemptor('2', { nominated: 'node1' });
    const bench = preemptionBench({
      nodes: [makeNode('node1')],
      pods: [low('p1', 'node1', '4')],
      known: [pod],
    });
    const out = await bench.postFilter(
      pod,
      new Map([['node1', newStatus('UnschedulableAndUnresolvable', 'x')]]),
    );
    expect(out.result?.nominatingInfo).toEqual({ nominatedNodeName: '', mode: 'Override' });
    expect(bench.calls).toEqual([{ verb: 'setNominatedNodeName', pod: 'preemptor', arg: '' }]);
  });

  it('a preemptor the informer no longer knows is an Error', async () => {
    const pod = preemptor();
    const bench = preemptionBench({ nodes: [makeNode('node1')], pods: [low('p1', 'node1', '4')] });
    const out = await bench.postFilter(pod);
    expect(out.status?.code).toBe('Error');
    expect(out.status?.reasons[0]).toMatch(/^preemption: pod "default\/preemptor" not found/);
  });

  it('counts nominated pods of equal or higher priority when checking the fit', async () => {
    // node1 frees 4 cpu by evicting p1, but a nominated pod of higher priority takes 3 of them.
    const pod = preemptor('2');
    const bench = preemptionBench({
      nodes: [makeNode('node1'), makeNode('node2')],
      pods: [low('p1', 'node1', '4'), low('p2', 'node2', '4')],
      known: [pod],
      nominated: { node1: [makePod('vip-nominee', { cpu: '3', priority: 50, nominated: 'node1' })] },
    });
    const out = await bench.postFilter(pod);
    expect(out.result?.nominatingInfo?.nominatedNodeName).toBe('node2');
    expect(bench.calls.filter((c) => c.verb === 'deletePod').map((c) => c.pod)).toEqual(['p2']);
  });

  it('PreFilterExtensions see the removals: a victim found through pod anti-affinity', async () => {
    const pod = makePod('preemptor', {
      priority: 10,
      cpu: '1',
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: { app: 'noisy' } }, topologyKey: 'kubernetes.io/hostname' },
          ],
        },
      },
    });
    const bench = preemptionBench({
      nodes: [makeNode('node1')],
      pods: [low('noisy', 'node1', '1', { labels: { app: 'noisy' } }), low('quiet', 'node1', '1')],
      known: [pod],
      withPodPlugins: true,
    });
    const out = await bench.postFilter(pod);
    expect(out.result?.nominatingInfo?.nominatedNodeName).toBe('node1');
    expect(bench.calls.filter((c) => c.verb === 'deletePod').map((c) => c.pod)).toEqual(['noisy']);
  });

  it('PreFilterExtensions see the removals: a victim found through topology spread', async () => {
    const spreadPod = makePod('preemptor', {
      priority: 10,
      cpu: '1',
      labels: { foo: '' },
      spread: [
        {
          maxSkew: 1,
          topologyKey: 'kubernetes.io/hostname',
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: { matchLabels: { foo: '' } },
        },
      ],
    });
    const bench = preemptionBench({
      nodes: [makeNode('node-a'), makeNode('node-b', {}, { cpu: '1' })],
      pods: [low('match-a', 'node-a', '1', { labels: { foo: '' } }), high('full-b', 'node-b', '1')],
      known: [spreadPod],
      withPodPlugins: true,
    });
    const out = await bench.postFilter(spreadPod);
    expect(out.result?.nominatingInfo?.nominatedNodeName).toBe('node-a');
    expect(bench.calls.filter((c) => c.verb === 'deletePod').map((c) => c.pod)).toEqual(['match-a']);
  });

  it('the PodInfo helper agrees with the bench on requests (sanity of the fit filter)', () => {
    expect(newPodInfo(low('x', 'n', '2')).requests.milliCPU).toBe(2000);
  });
});

describe('DefaultPreemption with the real NodeResourcesFit', () => {
  it('nominates the node whose low-priority pod makes room', async () => {
    const pod = preemptor('3');
    const bench = preemptionBench({
      nodes: [makeNode('node1'), makeNode('node2')],
      pods: [high('vip', 'node1', '4'), low('p2', 'node2', '2'), low('p3', 'node2', '1')],
      known: [pod],
      realFit: true,
    });
    const out = await bench.postFilter(pod);
    expect(out.result?.nominatingInfo?.nominatedNodeName).toBe('node2');
    // 4 cpu, 3 used: evicting p2 frees enough; p3 is reprieved
    expect(bench.calls.filter((c) => c.verb === 'deletePod').map((c) => c.pod)).toEqual(['p2']);
  });

  it('a request larger than any node’s allocatable is not helped by preemption', async () => {
    const pod = preemptor('5');
    const bench = preemptionBench({
      nodes: [makeNode('node1')],
      pods: [low('p1', 'node1', '1')],
      known: [pod],
      realFit: true,
    });
    const { statuses } = bench.filterAll(pod);
    const out = await bench.postFilter(pod);
    expect(out.status?.code).toBe('Unschedulable');
    expect(out.status?.reasons[0]).toMatch(/^preemption: 0\/1 nodes are available: 1 /);
    expect(statuses.statuses.get('node1')?.code).toBeDefined();
  });
});

describe('DefaultPreemption’s IsEligiblePod hook', () => {
  it('keeps a pod the hook protects out of the victims', async () => {
    const pod = preemptor('2');
    const pods = [low('protected', 'node1', '4', { labels: { keep: 'yes' } }), low('plain', 'node2', '4')];
    const bench = preemptionBench({ nodes: [makeNode('node1'), makeNode('node2')], pods, known: [pod] });
    const plugin = newDefaultPreemption({}, bench.framework, {
      random: () => 0,
      isEligiblePod: (_node, victim) => victim.pod.metadata.labels?.keep !== 'yes',
    });
    const { state, statuses } = bench.filterAll(pod);
    const out = await plugin.postFilter(state, pod, statuses);
    expect(out.result?.nominatingInfo?.nominatedNodeName).toBe('node2');
    expect(bench.calls.filter((c) => c.verb === 'deletePod').map((c) => c.pod)).toEqual(['plain']);
  });

  it('with every pod protected there is nothing to preempt', async () => {
    const pod = preemptor('2');
    const bench = preemptionBench({
      nodes: [makeNode('node1')],
      pods: [low('p', 'node1', '4')],
      known: [pod],
    });
    const plugin = newDefaultPreemption({}, bench.framework, { isEligiblePod: () => false });
    const { state, statuses } = bench.filterAll(pod);
    const out = await plugin.postFilter(state, pod, statuses);
    expect(out.status?.reasons).toEqual([
      'preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    ]);
  });
});
