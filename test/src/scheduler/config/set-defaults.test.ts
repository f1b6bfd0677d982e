// setDefaults: cases in the spirit of upstream's v1 defaults_test.go (TestSchedulerDefaults, TestPluginArgsDefaults).
import { describe, expect, it } from 'vitest';
import { setDefaults } from '../../../../src/scheduler/config/set-defaults.ts';
import type { KubeSchedulerConfiguration } from '../../../../src/scheduler/config/types.ts';

const argsOf = (config: KubeSchedulerConfiguration, profile: number, plugin: string) =>
  config.profiles![profile]!.pluginConfig!.find((pc) => pc.name === plugin)?.args;

describe('setDefaults', () => {
  it('fills an empty configuration with the v1 defaults', () => {
    const c = setDefaults({});
    expect(c).toMatchObject({
      apiVersion: 'kubescheduler.config.k8s.io/v1',
      kind: 'KubeSchedulerConfiguration',
      parallelism: 16,
      percentageOfNodesToScore: 0,
      podInitialBackoffSeconds: 1,
      podMaxBackoffSeconds: 10,
      enableProfiling: true,
      enableContentionProfiling: true,
      leaderElection: {
        leaderElect: true,
        leaseDuration: '15s',
        renewDeadline: '10s',
        retryPeriod: '2s',
        resourceLock: 'leases',
        resourceNamespace: 'kube-system',
        resourceName: 'kube-scheduler',
      },
      clientConnection: { contentType: 'application/vnd.kubernetes.protobuf', qps: 50, burst: 100 },
    });
    expect(c.profiles).toHaveLength(1);
    expect(c.profiles![0]!.schedulerName).toBe('default-scheduler');
    expect(c.profiles![0]!.pluginConfig!.map((pc) => pc.name)).toEqual([
      'DefaultPreemption',
      'InterPodAffinity',
      'NodeAffinity',
      'NodeResourcesBalancedAllocation',
      'NodeResourcesFit',
      'PodTopologySpread',
    ]);
  });

  it.each([
    [
      'DefaultPreemption',
      {},
      { kind: 'DefaultPreemptionArgs', minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 },
    ],
    [
      'DefaultPreemption (one field set)',
      { minCandidateNodesAbsolute: 5 },
      { minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 5 },
    ],
    ['InterPodAffinity', {}, { hardPodAffinityWeight: 1 }],
    [
      'NodeResourcesFit',
      {},
      {
        scoringStrategy: {
          type: 'LeastAllocated',
          resources: [
            { name: 'cpu', weight: 1 },
            { name: 'memory', weight: 1 },
          ],
        },
      },
    ],
    [
      'NodeResourcesFit (MostAllocated, a resource without weight)',
      { scoringStrategy: { type: 'MostAllocated', resources: [{ name: 'cpu' }] } },
      { scoringStrategy: { type: 'MostAllocated', resources: [{ name: 'cpu', weight: 1 }] } },
    ],
    [
      'NodeResourcesBalancedAllocation',
      {},
      {
        resources: [
          { name: 'cpu', weight: 1 },
          { name: 'memory', weight: 1 },
        ],
      },
    ],
    ['PodTopologySpread', {}, { defaultingType: 'System' }],
    [
      'PodTopologySpread (constraints given)',
      { defaultConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }] },
      { defaultingType: 'List' },
    ],
  ] as [string, Record<string, unknown>, Record<string, unknown>][])(
    'defaults the args of %s',
    (name, given, expected) => {
      const plugin = name.split(' ')[0]!;
      const c = setDefaults({ profiles: [{ pluginConfig: [{ name: plugin, args: given }] }] });
      expect(argsOf(c, 0, plugin)).toMatchObject({
        apiVersion: 'kubescheduler.config.k8s.io/v1',
        ...expected,
      });
    },
  );

  it('names no profile when there are several, keeps explicit values and partial sections', () => {
    const c = setDefaults({
      parallelism: 4,
      percentageOfNodesToScore: 50,
      leaderElection: { leaderElect: false },
      profiles: [{ schedulerName: 'a' }, {}],
    });
    expect(c.parallelism).toBe(4);
    expect(c.percentageOfNodesToScore).toBe(50);
    expect(c.leaderElection).toMatchObject({
      leaderElect: false,
      leaseDuration: '15s',
      resourceName: 'kube-scheduler',
    });
    expect(c.profiles!.map((p) => p.schedulerName)).toEqual(['a', undefined]);
  });

  it('adds args only for enabled plugins and does not change its input', () => {
    const input: KubeSchedulerConfiguration = {
      profiles: [
        { schedulerName: 'x', plugins: { multiPoint: { disabled: [{ name: 'DefaultPreemption' }] } } },
      ],
    };
    const copy = structuredClone(input);
    const c = setDefaults(input);
    expect(argsOf(c, 0, 'DefaultPreemption')).toBeUndefined();
    expect(input).toEqual(copy);
  });

  it('defaults an extender’s httpTimeout to 5s', () => {
    expect(setDefaults({ extenders: [{ urlPrefix: 'http://x' }] }).extenders![0]!.httpTimeout).toBe('5s');
  });

  it('is stable: defaulting twice changes nothing', () => {
    const once = setDefaults({
      profiles: [
        { schedulerName: 'a', plugins: { score: { enabled: [{ name: 'ImageLocality', weight: 4 }] } } },
      ],
    });
    expect(setDefaults(once)).toEqual(once);
  });
});
