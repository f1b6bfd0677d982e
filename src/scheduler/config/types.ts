// KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) as TypeScript types: the file format of `--config`.

export const SCHEDULER_CONFIG_API_VERSION = 'kubescheduler.config.k8s.io/v1';
export const SCHEDULER_CONFIG_KIND = 'KubeSchedulerConfiguration';
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

/** One plugin in a plugin set; `weight` only matters for Score (and MultiPoint's Score). */
export interface PluginRef {
  name: string;
  weight?: number;
}

/** Plugins enabled and disabled at one extension point; `disabled: [{name: '*'}]` drops every default. */
export interface PluginSet {
  enabled?: PluginRef[];
  disabled?: PluginRef[];
}

// The extension points a profile configures, as the v1 field names: the framework's own list.
import { EXTENSION_POINTS, type ExtensionPoint } from '../../../operators/scheduling/framework/framework.ts';

export { EXTENSION_POINTS, type ExtensionPoint };

export type Plugins = { multiPoint?: PluginSet } & { [P in ExtensionPoint]?: PluginSet };

/** A plugin's args; `kind`/`apiVersion` are set by defaulting for in-tree plugins (`<Name>Args`). */
export interface PluginConfig {
  name: string;
  args?: Record<string, unknown>;
}

export interface KubeSchedulerProfile {
  schedulerName?: string;
  percentageOfNodesToScore?: number;
  plugins?: Plugins;
  pluginConfig?: PluginConfig[];
}

export interface LeaderElectionConfiguration {
  leaderElect?: boolean;
  /** Go durations, as in the file: `15s`. */
  leaseDuration?: string;
  renewDeadline?: string;
  retryPeriod?: string;
  resourceLock?: string;
  resourceName?: string;
  resourceNamespace?: string;
}

export interface ClientConnectionConfiguration {
  kubeconfig?: string;
  acceptContentTypes?: string;
  contentType?: string;
  qps?: number;
  burst?: number;
}

export interface ExtenderManagedResource {
  name: string;
  ignoredByScheduler?: boolean;
}

/**
 * TLS settings of an HTTPS extender (upstream's ExtenderTLSConfig). The `*Data` fields are base64 PEM, as
 * a Go []byte in YAML; a file and its data together: the data wins.
 */
export interface ExtenderTLSConfig {
  /** Do not verify the server's certificate (testing only). */
  insecure?: boolean;
  /** The name to verify the certificate against (SNI), instead of the URL's host. */
  serverName?: string;
  certFile?: string;
  keyFile?: string;
  caFile?: string;
  certData?: string;
  keyData?: string;
  caData?: string;
}

/** An HTTP extender (src/scheduler/extender/http-extender.ts calls it). */
export interface Extender {
  urlPrefix: string;
  filterVerb?: string;
  preemptVerb?: string;
  prioritizeVerb?: string;
  bindVerb?: string;
  weight?: number;
  enableHTTPS?: boolean;
  tlsConfig?: ExtenderTLSConfig;
  httpTimeout?: string;
  nodeCacheCapable?: boolean;
  managedResources?: ExtenderManagedResource[];
  ignorable?: boolean;
}

/** The whole file. After defaulting every optional field above is set (profiles' plugins expanded). */
export interface KubeSchedulerConfiguration {
  apiVersion?: string;
  kind?: string;
  parallelism?: number;
  leaderElection?: LeaderElectionConfiguration;
  clientConnection?: ClientConnectionConfiguration;
  enableProfiling?: boolean;
  enableContentionProfiling?: boolean;
  percentageOfNodesToScore?: number;
  podInitialBackoffSeconds?: number;
  podMaxBackoffSeconds?: number;
  profiles?: KubeSchedulerProfile[];
  extenders?: Extender[];
  delayCacheUntilActive?: boolean;
}
