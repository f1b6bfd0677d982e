// Scenarios over schedulePod with the three plugins and NodeResourcesFit: pods scheduled one after another onto a live snapshot.
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../../../operators/api/core-v1.ts';
import type { Registry } from '../../../../../operators/scheduling/framework/interface.ts';
import {
  newSchedulingAlgorithmState,
  schedulePod,
} from '../../../../../operators/scheduling/framework/schedule-pod.ts';
import { defaultPreemptionFactory } from '../../../../../operators/scheduling/plugins/default-preemption/default-preemption.ts';
import { interPodAffinityFactory } from '../../../../../operators/scheduling/plugins/inter-pod-affinity/inter-pod-affinity.ts';
import { newNodeResourcesFit } from '../../../../../operators/scheduling/plugins/node-resources/node-resources-fit.ts';
import { podTopologySpreadFactory } from '../../../../../operators/scheduling/plugins/pod-topology-spread/pod-topology-spread.ts';
import { makeCluster, makeNode, makePod } from './cluster.ts';

const registry: Registry = {
  NodeResourcesFit: newNodeResourcesFit,
  PodTopologySpread: podTopologySpreadFactory(),
  InterPodAffinity: interPodAffinityFactory(),
  DefaultPreemption: defaultPreemptionFactory({ random: () => 0 }),
};
const PLUGINS = ['NodeResourcesFit', 'PodTopologySpread', 'InterPodAffinity'];

function scheduler(nodes: Node[], pods: Pod[] = [], known: Pod[] = []) {
  const cluster = makeCluster({
    nodes,
    pods,
    known,
    registry,
    preFilter: PLUGINS,
    filter: PLUGINS,
    postFilter: ['DefaultPreemption'],
    preScore: ['PodTopologySpread', 'InterPodAffinity'],
    score: [
      { name: 'PodTopologySpread', weight: 2 },
      { name: 'InterPodAffinity', weight: 2 },
    ],
  });
  const algorithm = newSchedulingAlgorithmState();
  let seed = 1;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  /** Schedules the pod and, on success, places it on the chosen node; returns the node or the FitError text. */
  async function place(pod: Pod): Promise<string> {
    const state = cluster.newState();
    const out = await schedulePod({ framework: cluster.framework, state, pod, algorithm, random });
    if (out.type === 'Scheduled') {
      const bound = { ...pod, spec: { ...pod.spec, nodeName: out.suggestedHost } };
      cluster.snapshot.get(out.suggestedHost)!.addPod(bound);
      return out.suggestedHost;
    }
    if (out.type === 'FitError') return out.error.message;
    return `Error: ${out.status.reasons.join(', ')}`;
  }
  return { ...cluster, place };
}

const zones = (perZone: number, names: string[]) =>
  names.flatMap((z) =>
    Array.from({ length: perZone }, (_, i) => makeNode(`${z}-n${i}`, { 'topology.kubernetes.io/zone': z })),
  );

describe('scheduling scenarios', () => {
  it('DoNotSchedule zone spread keeps 3 zones within maxSkew 1 after every placement', async () => {
    const s = scheduler(zones(2, ['a', 'b', 'c']));
    const perZone = new Map<string, number>();
    for (let i = 0; i < 10; i++) {
      const host = await s.place(
        makePod(`web-${i}`, {
          cpu: '100m',
          labels: { app: 'web' },
          spread: [
            {
              maxSkew: 1,
              topologyKey: 'topology.kubernetes.io/zone',
              whenUnsatisfiable: 'DoNotSchedule',
              labelSelector: { matchLabels: { app: 'web' } },
            },
          ],
        }),
      );
      const zone = host.split('-')[0]!;
      perZone.set(zone, (perZone.get(zone) ?? 0) + 1);
      const counts = ['a', 'b', 'c'].map((z) => perZone.get(z) ?? 0);
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    }
  });

  it('ScheduleAnyway hostname spread prefers the emptiest node', async () => {
    const s = scheduler([makeNode('n1'), makeNode('n2'), makeNode('n3')]);
    const hosts: string[] = [];
    for (let i = 0; i < 6; i++) {
      hosts.push(
        await s.place(
          makePod(`soft-${i}`, {
            cpu: '100m',
            labels: { app: 'soft' },
            spread: [
              {
                maxSkew: 1,
                topologyKey: 'kubernetes.io/hostname',
                whenUnsatisfiable: 'ScheduleAnyway',
                labelSelector: { matchLabels: { app: 'soft' } },
              },
            ],
          }),
        ),
      );
    }
    const counts = ['n1', 'n2', 'n3'].map((n) => hosts.filter((h) => h === n).length);
    expect(counts).toEqual([2, 2, 2]);
  });

  it('required hostname anti-affinity: one pod per node, then a FitError in upstream’s words', async () => {
    const s = scheduler([makeNode('n1'), makeNode('n2'), makeNode('n3')]);
    const antiPod = (name: string) =>
      makePod(name, {
        cpu: '100m',
        labels: { app: 'db' },
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'kubernetes.io/hostname' },
            ],
          },
        },
      });
    const hosts = [
      await s.place(antiPod('db-0')),
      await s.place(antiPod('db-1')),
      await s.place(antiPod('db-2')),
    ];
    expect([...hosts].sort()).toEqual(['n1', 'n2', 'n3']);
    expect(await s.place(antiPod('db-3'))).toBe(
      "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.",
    );
  });

  it('required pod affinity follows the first pod of the group', async () => {
    const s = scheduler(zones(2, ['a', 'b']));
    const cachePod = (name: string) =>
      makePod(name, {
        cpu: '100m',
        labels: { app: 'cache' },
        affinity: {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              {
                labelSelector: { matchLabels: { app: 'cache' } },
                topologyKey: 'topology.kubernetes.io/zone',
              },
            ],
          },
        },
      });
    const first = await s.place(cachePod('cache-0'));
    for (let i = 1; i < 5; i++) {
      expect((await s.place(cachePod(`cache-${i}`))).split('-')[0]).toBe(first.split('-')[0]);
    }
  });

  it('a FitError for a high-priority pod leads to preemption through the framework’s PostFilter', async () => {
    const vip = makePod('vip', { cpu: '1', priority: 100 });
    const s = scheduler(
      [makeNode('n1', {}, { cpu: '2' })],
      [makePod('batch', { node: 'n1', cpu: '2', priority: 1 })],
      [vip],
    );
    const state = s.newState();
    const out = await schedulePod({
      framework: s.framework,
      state,
      pod: vip,
      algorithm: newSchedulingAlgorithmState(),
    });
    expect(out.type).toBe('FitError');
    if (out.type !== 'FitError') return;
    expect(out.error.message).toBe('0/1 nodes are available: 1 Insufficient cpu.');
    const post = await s.framework.runPostFilterPlugins(state, vip, out.error.diagnosis.nodeToStatus);
    expect(post.result?.nominatingInfo).toEqual({ nominatedNodeName: 'n1', mode: 'Override' });
    expect(s.calls.map((c) => `${c.verb} ${c.pod}`)).toEqual([
      'patchPodCondition batch',
      'deletePod batch',
      'recordEvent batch',
    ]);
  });
});
