// validateConfiguration and parseSchedulerConfig: cases in the spirit of upstream's validation_test.go, each error naming its field.
import { describe, expect, it } from 'vitest';
import { formatFieldError } from '../../../../src/scheduler/config/field-error.ts';
import { parseSchedulerConfig } from '../../../../src/scheduler/config/load-config.ts';
import { setDefaults } from '../../../../src/scheduler/config/set-defaults.ts';
import type { KubeSchedulerConfiguration } from '../../../../src/scheduler/config/types.ts';
import { validateConfiguration } from '../../../../src/scheduler/config/validate-configuration.ts';

const KNOWN = new Set([
  'SchedulingGates',
  'PrioritySort',
  'NodeUnschedulable',
  'NodeName',
  'TaintToleration',
  'NodeAffinity',
  'NodePorts',
  'NodeResourcesFit',
  'VolumeRestrictions',
  'NodeVolumeLimits',
  'VolumeZone',
  'PodTopologySpread',
  'InterPodAffinity',
  'DefaultPreemption',
  'NodeResourcesBalancedAllocation',
  'ImageLocality',
  'DefaultBinder',
  'CustomSort',
]);

const errorsOf = (config: KubeSchedulerConfiguration) =>
  validateConfiguration(setDefaults(config), { knownPlugins: KNOWN }).map(formatFieldError);

describe('validateConfiguration', () => {
  it('accepts the defaults and a two-profile configuration', () => {
    expect(errorsOf({})).toEqual([]);
    expect(errorsOf({ profiles: [{ schedulerName: 'a' }, { schedulerName: 'b' }] })).toEqual([]);
  });

  it.each([
    [
      'parallelism',
      { parallelism: -1 },
      'parallelism: Invalid value: -1: should be an integer value greater than zero',
    ],
    [
      'a profile without a name',
      { profiles: [{ schedulerName: 'a' }, {}] },
      'profiles[1].schedulerName: Required value',
    ],
    [
      'duplicate profile names',
      { profiles: [{ schedulerName: 'a' }, { schedulerName: 'a' }] },
      'profiles[1].schedulerName: Duplicate value: "a"',
    ],
    [
      'a different queueSort in the second profile',
      {
        profiles: [
          { schedulerName: 'a' },
          {
            schedulerName: 'b',
            plugins: { queueSort: { enabled: [{ name: 'CustomSort' }], disabled: [{ name: '*' }] } },
          },
        ],
      },
      'profiles[1].plugins.queueSort: Invalid value: {"enabled":[{"name":"CustomSort"}],"disabled":[{"name":"*"}]}: must be the same for all profiles',
    ],
    [
      'percentageOfNodesToScore above 100',
      { percentageOfNodesToScore: 110 },
      'percentageOfNodesToScore: Invalid value: 110: not in valid range [0-100]',
    ],
    [
      'a profile percentageOfNodesToScore below 0',
      { profiles: [{ percentageOfNodesToScore: -1 }] },
      'profiles[0].percentageOfNodesToScore: Invalid value: -1: not in valid range [0-100]',
    ],
    [
      'podInitialBackoffSeconds 0',
      { podInitialBackoffSeconds: 0 },
      'podInitialBackoffSeconds: Invalid value: 0: must be greater than 0',
    ],
    [
      'podMaxBackoffSeconds below the initial',
      { podInitialBackoffSeconds: 5, podMaxBackoffSeconds: 2 },
      'podMaxBackoffSeconds: Invalid value: 2: must be greater than or equal to PodInitialBackoffSeconds',
    ],
    [
      'a resourceLock other than leases',
      { leaderElection: { resourceLock: 'configmaps' } },
      'leaderElection.resourceLock: Invalid value: "configmaps": resourceLock value must be "leases"',
    ],
    [
      'a lease duration not above the renew deadline',
      { leaderElection: { leaseDuration: '10s', renewDeadline: '10s' } },
      'leaderElection.leaseDuration: Invalid value: "10s": LeaseDuration must be greater than RenewDeadline',
    ],
    [
      'a removed plugin',
      { profiles: [{ plugins: { filter: { enabled: [{ name: 'EBSLimits' }] } } }] },
      'profiles[0].plugins.filter.enabled[0]: Invalid value: "EBSLimits": was invalid in version "kubescheduler.config.k8s.io/v1" (KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1")',
    ],
    [
      'an unknown plugin',
      { profiles: [{ plugins: { score: { enabled: [{ name: 'NoSuchPlugin' }] } } }] },
      'profiles[0].plugins.score.enabled[0]: Invalid value: "NoSuchPlugin": plugin "NoSuchPlugin" does not exist',
    ],
    [
      'plugin config given twice',
      { profiles: [{ pluginConfig: [{ name: 'NodeAffinity' }, { name: 'NodeAffinity' }] }] },
      'profiles[0].pluginConfig[1]: Duplicate value: "NodeAffinity"',
    ],
    [
      'DefaultPreemption with both minimums zero',
      {
        profiles: [
          {
            pluginConfig: [
              {
                name: 'DefaultPreemption',
                args: { minCandidateNodesPercentage: 0, minCandidateNodesAbsolute: 0 },
              },
            ],
          },
        ],
      },
      'profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute',
    ],
    [
      'InterPodAffinity with a weight above 100',
      { profiles: [{ pluginConfig: [{ name: 'InterPodAffinity', args: { hardPodAffinityWeight: 101 } }] }] },
      'profiles[0].pluginConfig[0].args.hardPodAffinityWeight: Invalid value: 101: not in valid range [0-100]',
    ],
    [
      'NodeResourcesFit with an unknown strategy',
      {
        profiles: [
          { pluginConfig: [{ name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'Random' } } }] },
        ],
      },
      'profiles[0].pluginConfig[0].args.scoringStrategy.type: Unsupported value: "Random": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"',
    ],
    [
      'NodeResourcesBalancedAllocation with a weight other than 1',
      {
        profiles: [
          {
            pluginConfig: [
              {
                name: 'NodeResourcesBalancedAllocation',
                args: { resources: [{ name: 'cpu', weight: 200 }] },
              },
            ],
          },
        ],
      },
      'profiles[0].pluginConfig[0].args.resources[0].weight: Invalid value: 200: must be 1',
    ],
    [
      'args of another kind',
      { profiles: [{ pluginConfig: [{ name: 'InterPodAffinity', args: { kind: 'NodeAffinityArgs' } }] }] },
      'profiles[0].pluginConfig[0].args: Invalid value: "NodeAffinityArgs": has to match plugin args',
    ],
    [
      'two binding extenders',
      {
        extenders: [
          { urlPrefix: 'http://a', bindVerb: 'bind' },
          { urlPrefix: 'http://b', bindVerb: 'bind' },
        ],
      },
      'extenders: Invalid value: "found 2 extenders implementing bind": only one extender can implement bind',
    ],
    [
      'an extender managing a native resource',
      { extenders: [{ urlPrefix: 'http://a', managedResources: [{ name: 'memory' }] }] },
      'extenders[0].managedResources[0].name: Invalid value: "memory": is an invalid extended resource name',
    ],
    [
      'an extender managing a kubernetes.io resource',
      { extenders: [{ urlPrefix: 'http://a', managedResources: [{ name: 'kubernetes.io/foo' }] }] },
      'extenders[0].managedResources[0].name: Invalid value: "kubernetes.io/foo": is an invalid extended resource name',
    ],
    [
      'two extenders managing the same resource',
      {
        extenders: [
          { urlPrefix: 'http://a', managedResources: [{ name: 'example.com/gpu' }] },
          { urlPrefix: 'http://b', managedResources: [{ name: 'example.com/gpu' }] },
        ],
      },
      'extenders[1].managedResources[0].name: Invalid value: "example.com/gpu": duplicate extender managed resource name',
    ],
    [
      'an extender with a bad httpTimeout',
      { extenders: [{ urlPrefix: 'http://a', httpTimeout: 'soon' }] },
      'extenders[0].httpTimeout: Invalid value: "soon": not a duration (e.g. 15s, 500ms, 1m30s)',
    ],
    [
      'a prioritizing extender without weight',
      { extenders: [{ urlPrefix: 'http://a', prioritizeVerb: 'prioritize' }] },
      'extenders[0].weight: Invalid value: 0: must have a positive weight applied to it',
    ],
  ] as [string, KubeSchedulerConfiguration, string][])('refuses %s', (_name, config, message) => {
    expect(errorsOf(config)).toContain(message);
  });

  it('refuses an empty profile list (validation alone, before defaulting adds one)', () => {
    const c = { ...setDefaults({}), profiles: [] };
    expect(validateConfiguration(c).map(formatFieldError)).toContain('profiles: Required value');
  });
});

describe('parseSchedulerConfig', () => {
  it('reads extenders with every field, defaulting httpTimeout to 5s', () => {
    const c = parseSchedulerConfig(`extenders:
- urlPrefix: https://127.0.0.1:8888/scheduler
  filterVerb: filter
  prioritizeVerb: prioritize
  preemptVerb: preempt
  bindVerb: bind
  weight: 2
  enableHTTPS: true
  tlsConfig: {insecure: false, serverName: ext, caData: Zm9v}
  nodeCacheCapable: true
  ignorable: true
  managedResources:
  - {name: example.com/gpu, ignoredByScheduler: true}
`);
    expect(c.extenders).toEqual([
      {
        urlPrefix: 'https://127.0.0.1:8888/scheduler',
        filterVerb: 'filter',
        prioritizeVerb: 'prioritize',
        preemptVerb: 'preempt',
        bindVerb: 'bind',
        weight: 2,
        enableHTTPS: true,
        tlsConfig: { insecure: false, serverName: 'ext', caData: 'Zm9v' },
        nodeCacheCapable: true,
        ignorable: true,
        managedResources: [{ name: 'example.com/gpu', ignoredByScheduler: true }],
        httpTimeout: '5s',
      },
    ]);
  });

  it('reads YAML and defaults it', () => {
    const c = parseSchedulerConfig(
      'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: a\n- schedulerName: b\n',
    );
    expect(c.profiles!.map((p) => p.schedulerName)).toEqual(['a', 'b']);
    expect(c.parallelism).toBe(16);
  });

  it.each([
    [
      'a profile without a name',
      'profiles:\n- schedulerName: a\n- {}\n',
      'profiles[1].schedulerName',
      'profiles[1].schedulerName: Required value',
    ],
    [
      'an unknown field',
      'profiles:\n- schedulerName: a\n  color: red\n',
      'profiles[0].color',
      'unknown field',
    ],
    [
      'another apiVersion',
      'apiVersion: kubescheduler.config.k8s.io/v1beta3\n',
      'apiVersion',
      'Unsupported value',
    ],
    ['text that is not YAML', 'profiles: [\n', 'cfg.yaml', 'not YAML'],
    [
      'an unknown extender field',
      'extenders:\n- urlPrefix: http://a\n  filterverb: filter\n',
      'extenders[0].filterverb',
      'unknown field',
    ],
    [
      'an unknown tlsConfig field',
      'extenders:\n- urlPrefix: https://a\n  tlsConfig: {caPem: x}\n',
      'extenders[0].tlsConfig.caPem',
      'unknown field',
    ],
    [
      'an unknown managed resource field',
      'extenders:\n- urlPrefix: http://a\n  managedResources: [{name: example.com/gpu, ignored: true}]\n',
      'extenders[0].managedResources[0].ignored',
      'unknown field',
    ],
  ])('refuses %s, naming the field', (_name, text, field, message) => {
    let thrown: unknown;
    try {
      parseSchedulerConfig(text, 'cfg.yaml');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'KUBE_RX_INVALID_CONFIG', field });
    expect((thrown as Error).message).toContain(message);
  });
});
