// v1 defaulting of KubeSchedulerConfiguration: top-level fields, profiles, merged plugins and in-tree plugin args.
import { defaultPlugins, mergePlugins } from './default-plugins.ts';
import {
  DEFAULT_SCHEDULER_NAME,
  EXTENSION_POINTS,
  type KubeSchedulerConfiguration,
  type KubeSchedulerProfile,
  type PluginConfig,
  type Plugins,
  SCHEDULER_CONFIG_API_VERSION,
  SCHEDULER_CONFIG_KIND,
} from './types.ts';

type Args = Record<string, unknown>;

const resourceWeights = (list: unknown): { name: string; weight: number }[] | undefined =>
  Array.isArray(list)
    ? list.map((r: { name?: string; weight?: number }) => ({
        ...r,
        name: String(r.name ?? ''),
        weight: r.weight ? r.weight : 1,
      }))
    : undefined;

const DEFAULT_RESOURCES = () => [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];

/**
 * Defaulting of the in-tree plugins' args, by plugin name (v1's `<Name>Args` kinds). Each fills the
 * missing fields of a copy. Plugins without an entry take no args (or are out of tree).
 */
export const PLUGIN_ARGS_DEFAULTS: Readonly<Record<string, (args: Args) => Args>> = {
  DefaultPreemption: (a) => ({
    ...a,
    minCandidateNodesPercentage: a.minCandidateNodesPercentage ?? 10,
    minCandidateNodesAbsolute: a.minCandidateNodesAbsolute ?? 100,
  }),
  InterPodAffinity: (a) => ({ ...a, hardPodAffinityWeight: a.hardPodAffinityWeight ?? 1 }),
  NodeAffinity: (a) => ({ ...a }),
  NodeResourcesBalancedAllocation: (a) => ({
    ...a,
    resources: resourceWeights(a.resources) ?? DEFAULT_RESOURCES(),
  }),
  NodeResourcesFit: (a) => {
    const strategy = { ...((a.scoringStrategy as Args | undefined) ?? {}) };
    strategy.type ??= 'LeastAllocated';
    strategy.resources = resourceWeights(strategy.resources) ?? DEFAULT_RESOURCES();
    return { ...a, scoringStrategy: strategy };
  },
  PodTopologySpread: (a) => {
    const constraints = Array.isArray(a.defaultConstraints) ? a.defaultConstraints : [];
    return { ...a, defaultingType: a.defaultingType ?? (constraints.length ? 'List' : 'System') };
  },
  VolumeBinding: (a) => ({ ...a, bindTimeoutSeconds: a.bindTimeoutSeconds ?? 600 }),
};

/** Options of {@link setDefaults}. */
export interface SetDefaultsOptions {
  /** Which default plugins exist (the registry); default plugins it refuses are not enabled. Default: all. */
  available?: (name: string) => boolean;
}

/** Every plugin named as enabled anywhere in `plugins` (MultiPoint included), sorted by name. */
export function enabledPluginNames(plugins: Plugins | undefined): string[] {
  const names = new Set<string>();
  for (const point of ['multiPoint', ...EXTENSION_POINTS] as const) {
    for (const p of plugins?.[point]?.enabled ?? []) names.add(p.name);
  }
  return [...names].sort();
}

function argsWithKind(name: string, args: Args): Args {
  const { kind, apiVersion, ...rest } = args;
  return { kind: kind ?? `${name}Args`, apiVersion: apiVersion ?? SCHEDULER_CONFIG_API_VERSION, ...rest };
}

/** Defaults one profile: merged plugins, then defaulted args for every enabled in-tree plugin. */
export function setProfileDefaults(
  profile: KubeSchedulerProfile,
  options: SetDefaultsOptions = {},
): KubeSchedulerProfile {
  const plugins = mergePlugins(defaultPlugins(options.available), profile.plugins);
  const pluginConfig: PluginConfig[] = (profile.pluginConfig ?? []).map((pc) => {
    const defaults = PLUGIN_ARGS_DEFAULTS[pc.name];
    if (!defaults) return { ...pc };
    return { name: pc.name, args: argsWithKind(pc.name, defaults(pc.args ?? {})) };
  });
  const configured = new Set(pluginConfig.map((pc) => pc.name));
  for (const name of enabledPluginNames(plugins)) {
    const defaults = PLUGIN_ARGS_DEFAULTS[name];
    if (!defaults || configured.has(name)) continue;
    pluginConfig.push({ name, args: argsWithKind(name, defaults({})) });
  }
  return { ...profile, plugins, pluginConfig };
}

/**
 * The configuration with v1's defaults applied (a new object; the input is not changed):
 * parallelism 16, percentageOfNodesToScore 0 (adaptive), backoff 1 s / 10 s, profiling on, leader
 * election on Lease kube-system/kube-scheduler with 15 s / 10 s / 2 s, client qps 50 / burst 100, one
 * profile when there is none (named `default-scheduler` when it is the only one and has no name), each
 * profile's plugins merged into the default MultiPoint list and its in-tree plugins' args defaulted.
 */
export function setDefaults(
  config: KubeSchedulerConfiguration,
  options: SetDefaultsOptions = {},
): KubeSchedulerConfiguration {
  const profiles = config.profiles?.length ? config.profiles.map((p) => ({ ...p })) : [{}];
  if (profiles.length === 1 && profiles[0]!.schedulerName === undefined) {
    profiles[0]!.schedulerName = DEFAULT_SCHEDULER_NAME;
  }
  const enableProfiling = config.enableProfiling ?? true;
  return {
    apiVersion: config.apiVersion ?? SCHEDULER_CONFIG_API_VERSION,
    kind: config.kind ?? SCHEDULER_CONFIG_KIND,
    ...config,
    parallelism: config.parallelism ?? 16,
    percentageOfNodesToScore: config.percentageOfNodesToScore ?? 0,
    podInitialBackoffSeconds: config.podInitialBackoffSeconds ?? 1,
    podMaxBackoffSeconds: config.podMaxBackoffSeconds ?? 10,
    enableProfiling,
    enableContentionProfiling: config.enableContentionProfiling ?? enableProfiling,
    leaderElection: {
      leaderElect: true,
      leaseDuration: '15s',
      renewDeadline: '10s',
      retryPeriod: '2s',
      resourceLock: 'leases',
      resourceNamespace: 'kube-system',
      resourceName: 'kube-scheduler',
      ...config.leaderElection,
    },
    clientConnection: {
      contentType: 'application/vnd.kubernetes.protobuf',
      qps: 50,
      burst: 100,
      ...config.clientConnection,
    },
    profiles: profiles.map((p) => setProfileDefaults(p, options)),
    ...(config.extenders
      ? { extenders: config.extenders.map((e) => ({ ...e, httpTimeout: e.httpTimeout ?? '5s' })) }
      : {}),
  };
}
