// `kube-rx controller-manager`: kube-controller-manager's command — --controllers, leader election, secure serving — against a cluster or the embedded API server.
import { readFile } from 'node:fs/promises';
import { Command, InvalidArgumentError } from 'commander';
import { collectDefaultMetrics, Registry as MetricsRegistry } from 'prom-client';
import { isControllerEnabled } from '../../operators/controller-manager/is-controller-enabled.ts';
import { resolveControllersFlag } from '../../operators/controller-manager/resolve-controllers-flag.ts';
import { InvalidConfigError } from '../../operators/errors.ts';
import type { Logger } from '../../operators/logger.ts';
import { kubeApiClient } from '../../streams/client-node/kube-api-client.ts';
import { clusterOrEmbedded, embeddedApiServerFlags } from '../cli/cluster-or-embedded.ts';
import { featureGatesFlag, goDurationFlag, portFlag, positiveNumberFlag } from '../cli/flag-parsers.ts';
import { type SignalSource, shutdownSignal } from '../cli/shutdown-signal.ts';
import { withEventsClient } from '../controllers/controller-event-recorder.ts';
import { rootCAFromKubeconfig } from '../controllers/root-ca-cert-publisher/root-ca-from-kubeconfig.ts';
import { healthzAdaptor } from '../leader-election/healthz-adaptor.ts';
import { createLogger } from '../logging/logger.ts';
import { prometheusWorkQueueMetrics } from '../metrics/prometheus-work-queue-metrics.ts';
import { reflectorMetrics } from '../metrics/reflector-metrics.ts';
import { startSecureServing } from '../serving/secure-serving.ts';
import type { ControllerDescriptor } from './controller-context.ts';
import {
  CONTROLLER_FEATURE_GATES,
  controllerDescriptors,
  DEFAULT_TERMINATED_POD_GC_THRESHOLD,
  knownControllerNames,
} from './controller-descriptors.ts';
import { controllerManager } from './controller-manager.ts';

/** Upstream's per-controller concurrency flags and their defaults. */
export const CONCURRENCY_FLAGS: Readonly<Record<string, number>> = {
  'concurrent-deployment-syncs': 5,
  'concurrent-replicaset-syncs': 5,
  'concurrent-rc-syncs': 5,
  'concurrent-job-syncs': 5,
  'concurrent-cron-job-syncs': 5,
  'concurrent-statefulset-syncs': 5,
  'concurrent-daemonset-syncs': 2,
  'concurrent-gc-syncs': 20,
  'concurrent-namespace-syncs': 10,
  'concurrent-ttl-after-finished-syncs': 5,
  'concurrent-endpoint-syncs': 5,
  'concurrent-service-endpoint-syncs': 5,
  'concurrent-serviceaccount-token-syncs': 5,
  'concurrent-resource-quota-syncs': 5,
  'concurrent-horizontal-pod-autoscaler-syncs': 5,
  'concurrent-ephemeralvolume-syncs': 5,
};

interface Flags {
  controllers: string;
  controllerStartInterval: number;
  kubeconfig?: string;
  master?: string;
  kubeApiQps: number;
  kubeApiBurst: number;
  leaderElect: boolean;
  leaderElectLeaseDuration: number;
  leaderElectRenewDeadline: number;
  leaderElectRetryPeriod: number;
  leaderElectResourceNamespace: string;
  leaderElectResourceName: string;
  securePort: number;
  bindAddress: string;
  authorizationAlwaysAllowPaths: string;
  rootCaFile?: string;
  clusterSigningCertFile?: string;
  clusterSigningKeyFile?: string;
  clusterSigningDuration: number;
  terminatedPodGcThreshold: number;
  nodeMonitorPeriod: number;
  nodeMonitorGracePeriod: number;
  nodeStartupGracePeriod: number;
  nodeEvictionRate: number;
  secondaryNodeEvictionRate: number;
  largeClusterSizeThreshold: number;
  unhealthyZoneThreshold: number;
  namespaceSyncPeriod: number;
  resourceQuotaSyncPeriod: number;
  minResyncPeriod: number;
  featureGates: Record<string, boolean>;
  port: number;
  dataDir?: string;
  kubeconfigOut: string;
  [concurrency: string]: unknown;
}

/** What the command takes from outside; tests inject their own. */
export interface ControllerManagerCommandDeps {
  stdout?: { write(line: string): unknown };
  logger?: Logger;
  signals?: SignalSource;
  /** The user's own controllers, registered beside the built-in ones (see the README's example). */
  controllers?: readonly ControllerDescriptor[];
}

function boolFlag(flag: string): (value: string | undefined) => boolean {
  return (value) => {
    if (value === undefined || value === 'true' || value === '1' || value === 't') return true;
    if (value === 'false' || value === '0' || value === 'f') return false;
    throw new InvalidArgumentError(`${flag}: not a boolean: ${value}`);
  };
}

function intFlag(flag: string): (value: string) => number {
  return (value) => {
    if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError(`${flag}: not an integer: ${value}`);
    return Number(value);
  };
}

function nonNegativeNumberFlag(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < 0) {
      throw new InvalidArgumentError(`${flag}: not a non-negative number: ${value}`);
    }
    return n;
  };
}

const camel = (flag: string) => flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/**
 * `kube-rx controller-manager`: kube-controller-manager's flags. Prints one JSON line
 * `{"server","kubeconfig","secureServing","controllers"}` once every enabled controller has started (after
 * winning the lease, with `--leader-elect`), and runs until SIGINT/SIGTERM. Without `--kubeconfig`/`--master`
 * it starts the embedded API server, as `kube-rx scheduler` does. An unknown or unbuilt name in
 * `--controllers` exits non-zero naming it; losing the lease exits non-zero ("leaderelection lost").
 */
export function controllerManagerCommand(deps: ControllerManagerCommandDeps = {}): Command {
  const command = new Command('controller-manager')
    .description(
      'run kube-controller-manager: the controllers selected by --controllers over shared informers',
    )
    .option(
      '--controllers <names>',
      'controllers to run: * for every one on by default, name to enable, -name to disable',
      '*',
    )
    .option(
      '--controller-start-interval <d>',
      'pause between controller starts, jittered × [1, 2)',
      goDurationFlag('--controller-start-interval'),
      0,
    )
    .option('--kubeconfig <path>', 'the cluster to run against (default: the embedded API server)')
    .option('--master <url>', 'the API server address (overrides the kubeconfig server)')
    .option(
      '--kube-api-qps <qps>',
      'requests per second to the API server',
      positiveNumberFlag('--kube-api-qps'),
      20,
    )
    .option(
      '--kube-api-burst <n>',
      'request burst to the API server',
      positiveNumberFlag('--kube-api-burst'),
      30,
    )
    .option(
      '--leader-elect [bool]',
      'campaign for the lease before running controllers',
      boolFlag('--leader-elect'),
      true,
    )
    .option(
      '--leader-elect-lease-duration <d>',
      'lease duration',
      goDurationFlag('--leader-elect-lease-duration'),
      15_000,
    )
    .option(
      '--leader-elect-renew-deadline <d>',
      'renew deadline',
      goDurationFlag('--leader-elect-renew-deadline'),
      10_000,
    )
    .option(
      '--leader-elect-retry-period <d>',
      'retry period',
      goDurationFlag('--leader-elect-retry-period'),
      2_000,
    )
    .option('--leader-elect-resource-namespace <ns>', 'namespace of the lease', 'kube-system')
    .option('--leader-elect-resource-name <name>', 'name of the lease', 'kube-controller-manager')
    .option(
      '--secure-port <port>',
      'HTTPS port of /healthz (one check per controller), /readyz, /livez, /metrics (0: do not serve)',
      portFlag('--secure-port'),
      10257,
    )
    .option('--bind-address <address>', 'address of the secure port', '0.0.0.0')
    .option(
      '--authorization-always-allow-paths <paths>',
      'paths served to anyone (others only to loopback clients)',
      '/healthz,/readyz,/livez',
    )
    .option(
      '--root-ca-file <file>',
      'the CA bundle published as kube-root-ca.crt (default: the kubeconfig CA)',
    )
    .option(
      '--cluster-signing-cert-file <file>',
      'PEM CA certificate the CSR signer issues cluster-scoped certificates with (default with --data-dir: the embedded server CA)',
    )
    .option('--cluster-signing-key-file <file>', 'PEM RSA private key of --cluster-signing-cert-file')
    .option(
      '--cluster-signing-duration <d>',
      'the longest certificate the CSR signer issues (a CSR may ask for less with spec.expirationSeconds)',
      goDurationFlag('--cluster-signing-duration'),
      365 * 24 * 3600_000,
    )
    .option(
      '--terminated-pod-gc-threshold <n>',
      'terminated pods kept before the pod GC deletes them (<= 0 disables)',
      intFlag('--terminated-pod-gc-threshold'),
      DEFAULT_TERMINATED_POD_GC_THRESHOLD,
    )
    .option(
      '--node-monitor-period <d>',
      'how often the node lifecycle controller checks node health',
      goDurationFlag('--node-monitor-period'),
      5_000,
    )
    .option(
      '--node-monitor-grace-period <d>',
      'how long a node may go unheard (no status, no Lease renewal) before it is marked unhealthy',
      goDurationFlag('--node-monitor-grace-period'),
      40_000,
    )
    .option(
      '--node-startup-grace-period <d>',
      'how long a starting node may go unheard before it is marked unhealthy',
      goDurationFlag('--node-startup-grace-period'),
      60_000,
    )
    .option(
      '--namespace-sync-period <d>',
      'the period for syncing namespace life-cycle updates',
      goDurationFlag('--namespace-sync-period'),
      300_000,
    )
    .option(
      '--resource-quota-sync-period <d>',
      'the period for syncing quota usage status in the system',
      goDurationFlag('--resource-quota-sync-period'),
      300_000,
    )
    .option(
      '--node-eviction-rate <qps>',
      'nodes per second given NoExecute taints in a zone that is healthy (or fully disrupted while others are not)',
      nonNegativeNumberFlag('--node-eviction-rate'),
      0.1,
    )
    .option(
      '--secondary-node-eviction-rate <qps>',
      'nodes per second given NoExecute taints in a partially disrupted zone larger than --large-cluster-size-threshold',
      nonNegativeNumberFlag('--secondary-node-eviction-rate'),
      0.01,
    )
    .option(
      '--large-cluster-size-threshold <n>',
      'nodes above which a zone is large (smaller partially disrupted zones evict nothing)',
      intFlag('--large-cluster-size-threshold'),
      50,
    )
    .option(
      '--unhealthy-zone-threshold <fraction>',
      'share of not-Ready nodes (at least 3) that makes a zone partially disrupted',
      nonNegativeNumberFlag('--unhealthy-zone-threshold'),
      0.55,
    )
    .option(
      '--min-resync-period <d>',
      'informers resync every period × [1, 2)',
      goDurationFlag('--min-resync-period'),
      12 * 3600_000,
    )
    .option(
      '--feature-gates <gates>',
      `feature gates, A=true,B=false (${Object.keys(CONTROLLER_FEATURE_GATES).join(', ')})`,
      featureGatesFlag('--feature-gates', CONTROLLER_FEATURE_GATES),
      {},
    );
  embeddedApiServerFlags(command);
  for (const [flag, value] of Object.entries(CONCURRENCY_FLAGS)) {
    command.option(
      `--${flag} <n>`,
      `workers of the controller (default ${value})`,
      positiveNumberFlag(`--${flag}`),
      value,
    );
  }

  command.action(async (flags: Flags) => {
    const logger = deps.logger ?? createLogger();
    const stdout = deps.stdout ?? process.stdout;
    const descriptors = controllerDescriptors(deps.controllers);
    const controllers = resolveControllersFlag(
      flags.controllers.split(','),
      knownControllerNames(descriptors),
    );
    const rootCAFromFile = flags.rootCaFile ? await readRootCA(flags.rootCaFile) : undefined;

    const { signal, requested, dispose } = shutdownSignal(deps.signals, undefined, logger);
    const cleanup: (() => Promise<void> | void)[] = [];
    try {
      // an embedded server finishes namespaces itself unless both controllers that do it upstream run here
      const disabledByDefault = new Set(
        [...descriptors.values()].filter((d) => d.disabledByDefault).map((d) => d.name),
      );
      const runsNamespaceControllers = ['namespace-controller', 'serviceaccount-controller'].every(
        (name) => descriptors.get(name)?.init && isControllerEnabled(name, disabledByDefault, controllers),
      );
      const { source, embedded, kubeconfigPath } = await clusterOrEmbedded(
        flags,
        logger,
        !runsNamespaceControllers,
      );
      if (embedded) cleanup.push(() => embedded.close());
      const kubeconfigText =
        embedded?.kubeconfig ?? (flags.kubeconfig ? await readFile(flags.kubeconfig, 'utf8') : undefined);
      const client = kubeApiClient({
        kubeConfig: source,
        qps: flags.kubeApiQps,
        burst: flags.kubeApiBurst,
        logger,
      });
      cleanup.push(() => client.close());
      // Events go through a client of their own, as upstream's event broadcaster: they never spend the
      // controllers' --kube-api-qps
      const eventsClient = kubeApiClient({
        kubeConfig: source,
        qps: flags.kubeApiQps,
        burst: flags.kubeApiBurst,
        logger,
      });
      cleanup.push(() => eventsClient.close());
      const clusterSigning = (await readClusterSigning(flags)) ?? embedded?.clusterSigning;
      let rootCA = rootCAFromFile;
      if (rootCA === undefined && kubeconfigText !== undefined) {
        try {
          rootCA = rootCAFromKubeconfig(kubeconfigText);
        } catch {
          // no CA in the kubeconfig: the root CA publisher is skipped
        }
      }

      const metrics = new MetricsRegistry();
      collectDefaultMetrics({ register: metrics });
      const health = new Map<string, Error | undefined>();
      const leaderHealth = healthzAdaptor(20_000);
      let ready = false;
      let servingUrl: string | null = null;
      if (flags.securePort !== 0) {
        const serving = await startSecureServing({
          port: flags.securePort,
          bindAddress: flags.bindAddress,
          alwaysAllowPaths: flags.authorizationAlwaysAllowPaths.split(',').filter(Boolean),
          readyChecks: () => ({ ping: true, 'informer-sync': ready }),
          healthChecks: () => ({
            ...(flags.leaderElect ? { leaderElection: leaderHealth.check() } : {}),
            ...Object.fromEntries(health),
          }),
          metrics,
        });
        cleanup.push(() => serving.close());
        servingUrl = serving.url;
      }
      const concurrency = Object.fromEntries(
        Object.keys(CONCURRENCY_FLAGS).map((flag) => [flag, flags[camel(flag)] as number]),
      );
      const started: string[] = [];
      const outcome = new Promise<void>((resolveRun, reject) => {
        const sub = controllerManager({
          client: withEventsClient(client, eventsClient),
          descriptors,
          controllers,
          startIntervalMs: flags.controllerStartInterval,
          options: {
            concurrency,
            ...(rootCA !== undefined ? { rootCA } : {}),
            terminatedPodGCThreshold: flags.terminatedPodGcThreshold,
            nodeMonitorPeriodMs: flags.nodeMonitorPeriod,
            nodeMonitorGracePeriodMs: flags.nodeMonitorGracePeriod,
            nodeStartupGracePeriodMs: flags.nodeStartupGracePeriod,
            nodeEvictionRate: flags.nodeEvictionRate,
            secondaryNodeEvictionRate: flags.secondaryNodeEvictionRate,
            largeClusterSizeThreshold: flags.largeClusterSizeThreshold,
            unhealthyZoneThreshold: flags.unhealthyZoneThreshold,
            namespaceSyncPeriodMs: flags.namespaceSyncPeriod,
            resourceQuotaSyncPeriodMs: flags.resourceQuotaSyncPeriod,
            ...(clusterSigning ? { clusterSigning } : {}),
            clusterSigningDurationMs: flags.clusterSigningDuration,
            featureGates: { ...CONTROLLER_FEATURE_GATES, ...flags.featureGates },
          },
          minResyncPeriodMs: flags.minResyncPeriod,
          workQueueMetrics: prometheusWorkQueueMetrics(metrics),
          metricsRegistry: metrics,
          reflectorMetrics: reflectorMetrics(metrics),
          logger,
          ...(flags.leaderElect
            ? {
                leaderElection: {
                  namespace: flags.leaderElectResourceNamespace,
                  name: flags.leaderElectResourceName,
                  leaseDurationMs: flags.leaderElectLeaseDuration,
                  renewDeadlineMs: flags.leaderElectRenewDeadline,
                  retryPeriodMs: flags.leaderElectRetryPeriod,
                  healthz: leaderHealth,
                },
              }
            : {}),
        }).subscribe({
          next: (event) => {
            if (event.type === 'Started') {
              started.push(event.controller);
              health.set(event.controller, undefined);
              logger.info({ controller: event.controller }, 'Started controller');
            } else if (event.type === 'Skipped') {
              logger.info({ controller: event.controller, reason: event.reason }, 'Skipping controller');
            } else if (event.type === 'Failed') {
              health.set(
                event.controller,
                event.error instanceof Error ? event.error : new Error(String(event.error)),
              );
              logger.error({ controller: event.controller, err: String(event.error) }, 'controller stopped');
            } else if (event.type === 'InformersStarted') {
              ready = true;
              stdout.write(
                `${JSON.stringify({ server: embedded?.url ?? client.server, kubeconfig: kubeconfigPath ?? null, secureServing: servingUrl, controllers: started })}\n`,
              );
            }
          },
          error: reject,
          complete: resolveRun,
        });
        cleanup.push(() => sub.unsubscribe());
        signal.addEventListener('abort', () => resolveRun(), { once: true });
      });
      await Promise.race([outcome, requested]);
    } finally {
      for (const step of cleanup.reverse()) await step();
      dispose();
    }
  });
  return command;
}

async function readRootCA(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new InvalidConfigError('--root-ca-file', `cannot read ${path}: ${(error as Error).message}`);
  }
}

/**
 * The CSR signer's CA from both `--cluster-signing-*-file` flags, or undefined with neither (then the embedded
 * server's CA, when there is one; else the signer is skipped).
 */
async function readClusterSigning(
  flags: Pick<Flags, 'clusterSigningCertFile' | 'clusterSigningKeyFile'>,
): Promise<{ certPem: string; keyPem: string } | undefined> {
  const { clusterSigningCertFile: cert, clusterSigningKeyFile: key } = flags;
  if ((cert === undefined) !== (key === undefined)) {
    const missing = cert === undefined ? '--cluster-signing-cert-file' : '--cluster-signing-key-file';
    throw new InvalidConfigError(
      missing,
      'cluster-signing-cert-file and cluster-signing-key-file must be specified together',
    );
  }
  const files = cert !== undefined && key !== undefined ? { cert, key } : undefined;
  if (!files) return undefined;
  const read = async (flag: string, path: string) => {
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      throw new InvalidConfigError(flag, `cannot read ${path}: ${(error as Error).message}`);
    }
  };
  return {
    certPem: await read('--cluster-signing-cert-file', files.cert),
    keyPem: await read('--cluster-signing-key-file', files.key),
  };
}
