// ControllerContext: what every controller's init function receives from kube-rx controller-manager.
import type { Registry } from 'prom-client';
import type { Observable, SchedulerLike } from 'rxjs';
import type { Logger } from '../../operators/logger.ts';
import type { WorkQueueMetricsProvider } from '../../operators/work-queue-metrics.ts';
import type { ApiClient } from '../../streams/api-client.ts';
import type { InformerFactory } from '../informers/informer-factory.ts';

/** Per-controller settings from the command line (upstream's component config, the parts kube-rx reads). */
export interface ControllerOptions {
  /** `--concurrent-<controller>-syncs` values by flag name without the `--` (e.g. `concurrent-job-syncs`). */
  readonly concurrency: Readonly<Record<string, number>>;
  /** The CA bundle (PEM) published to every namespace and mounted into pods: `--root-ca-file`'s contents. */
  readonly rootCA?: string;
  /** `--terminated-pod-gc-threshold` (≤ 0 disables terminated-pod collection); default 12 500. */
  readonly terminatedPodGCThreshold: number;
  /** Feature gates as `--feature-gates` left them. */
  readonly featureGates: Readonly<Record<string, boolean>>;
  /** `--node-monitor-period` in ms (node lifecycle controller); default 5 s. */
  readonly nodeMonitorPeriodMs?: number;
  /** `--node-monitor-grace-period` in ms; default 40 s. */
  readonly nodeMonitorGracePeriodMs?: number;
  /** `--node-startup-grace-period` in ms; default 1 m. */
  readonly nodeStartupGracePeriodMs?: number;
  /** `--node-eviction-rate`: nodes NoExecute-tainted per second per healthy zone; default 0.1. */
  readonly nodeEvictionRate?: number;
  /** `--secondary-node-eviction-rate`: per second in a partially disrupted large zone; default 0.01. */
  readonly secondaryNodeEvictionRate?: number;
  /** `--large-cluster-size-threshold`: a zone of more nodes is large; default 50. */
  readonly largeClusterSizeThreshold?: number;
  /** `--unhealthy-zone-threshold`: the not-Ready share of a zone that makes it PartialDisruption; default 0.55. */
  readonly unhealthyZoneThreshold?: number;
  /** `--namespace-sync-period` in ms (namespace controller resync); default 5 m. */
  readonly namespaceSyncPeriodMs?: number;
  /** `--resource-quota-sync-period` in ms (resourcequota controller full resync); default 5 m. */
  readonly resourceQuotaSyncPeriodMs?: number;
  /**
   * The cluster signing CA the CSR signer issues with: `--cluster-signing-cert-file`/`--cluster-signing-key-file`
   * contents (PEM); without it the signer is skipped, as upstream's.
   */
  readonly clusterSigning?: { readonly certPem: string; readonly keyPem: string };
  /** `--cluster-signing-duration` in ms: the longest certificate the CSR signer issues; default one year. */
  readonly clusterSigningDurationMs?: number;
}

/**
 * What an init function is given: one API client, the shared informer factory (started by the
 * controller manager only after every controller has been initialised, so each controller's handlers
 * see the whole initial list), the options, a scheduler for time and a logger named after the controller.
 */
export interface ControllerContext {
  readonly client: ApiClient;
  readonly informerFactory: InformerFactory;
  readonly options: ControllerOptions;
  /** Work-queue metrics for `/metrics` (`workqueue_depth{name}`, ...): pass as a queue's `metrics`. */
  readonly workQueueMetrics: WorkQueueMetricsProvider;
  /** Where a controller registers metrics of its own (e.g. `pod_gc_collector_force_delete_pods_total`), if served. */
  readonly metricsRegistry?: Registry;
  readonly scheduler: SchedulerLike;
  readonly logger: Logger;
}

/**
 * Starts one controller: returns the running controller as an observable (the controller manager
 * subscribes to it and unsubscribes on shutdown; an error is logged and fails the controller's health
 * check), or `undefined` when it chose not to start (upstream's `enabled == false`: "Warning: skipping
 * controller"). A throw is a start-up failure: the controller manager exits non-zero naming the controller.
 */
export type ControllerInit = (context: ControllerContext) => Observable<unknown> | undefined;

/** One entry of the name → init map (upstream's ControllerDescriptor). */
export interface ControllerDescriptor {
  /** The canonical name (`job-controller`). */
  readonly name: string;
  /** Older names `--controllers` still accepts (`job`). */
  readonly aliases: readonly string[];
  /** Not started by `*`; only when named (bootstrap-signer-controller, token-cleaner-controller). */
  readonly disabledByDefault?: boolean;
  /** Feature gates that must all be on, or the controller is skipped ("Controller is disabled by a feature gate"). */
  readonly requiredFeatureGates?: readonly string[];
  /** Runs only with an in-tree cloud provider, which kube-rx never has: always skipped, as upstream without one. */
  readonly cloudProvider?: boolean;
  /** The init function; absent for a controller kube-rx does not build yet (refused when named explicitly). */
  readonly init?: ControllerInit;
}
