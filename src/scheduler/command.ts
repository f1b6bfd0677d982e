// `kube-rx scheduler`: kube-scheduler's command — config file, leader election, secure serving — against a cluster or the embedded API server.
import { readFile, writeFile } from 'node:fs/promises';
import { Command, InvalidArgumentError } from 'commander';
import { collectDefaultMetrics, Registry as MetricsRegistry } from 'prom-client';
import { parse, stringify } from 'yaml';
import { InvalidConfigError } from '../../operators/errors.ts';
import type { Logger } from '../../operators/logger.ts';
import type { Registry } from '../../operators/scheduling/framework/interface.ts';
import { inTreeRegistry } from '../../operators/scheduling/plugins/registry.ts';
import { kubeApiClient } from '../../streams/client-node/kube-api-client.ts';
import { clusterOrEmbedded, embeddedApiServerFlags } from '../cli/cluster-or-embedded.ts';
import { goDurationFlag, portFlag, positiveNumberFlag } from '../cli/flag-parsers.ts';
import { type SignalSource, shutdownSignal } from '../cli/shutdown-signal.ts';
import { healthzAdaptor } from '../leader-election/healthz-adaptor.ts';
import { createLogger } from '../logging/logger.ts';
import { startSecureServing } from '../serving/secure-serving.ts';
import { parseSchedulerConfig } from './config/load-config.ts';
import type { KubeSchedulerConfiguration } from './config/types.ts';
import { ensureSystemPriorityClasses } from './ensure-system-priority-classes.ts';
import { startScheduler } from './start-scheduler.ts';

interface Flags {
  config?: string;
  writeConfigTo?: string;
  kubeconfig?: string;
  master?: string;
  leaderElect: boolean;
  leaderElectLeaseDuration?: number;
  leaderElectRenewDeadline?: number;
  leaderElectRetryPeriod?: number;
  leaderElectResourceNamespace?: string;
  leaderElectResourceName?: string;
  securePort: number;
  bindAddress: string;
  authorizationAlwaysAllowPaths: string;
  kubeApiQps?: number;
  kubeApiBurst?: number;
  port: number;
  dataDir?: string;
  kubeconfigOut: string;
}

/** What the command takes from outside; tests inject their own. */
export interface SchedulerCommandDeps {
  stdout?: { write(line: string): unknown };
  logger?: Logger;
  signals?: SignalSource;
  /** User plugins (the out-of-tree registry), merged over the in-tree plugins. */
  outOfTreeRegistry?: Registry;
}

function boolFlag(flag: string): (value: string | undefined) => boolean {
  return (value) => {
    if (value === undefined || value === 'true' || value === '1' || value === 't') return true;
    if (value === 'false' || value === '0' || value === 'f') return false;
    throw new InvalidArgumentError(`${flag}: not a boolean: ${value}`);
  };
}

const msToGo = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`);

/** The file's configuration with the leader-election flags applied over it (flags win, as upstream). */
function withFlags(
  doc: KubeSchedulerConfiguration,
  flags: Flags,
  given: (name: string) => boolean,
): KubeSchedulerConfiguration {
  const le = { ...doc.leaderElection };
  if (given('leaderElect')) le.leaderElect = flags.leaderElect;
  if (flags.leaderElectLeaseDuration !== undefined) le.leaseDuration = msToGo(flags.leaderElectLeaseDuration);
  if (flags.leaderElectRenewDeadline !== undefined) le.renewDeadline = msToGo(flags.leaderElectRenewDeadline);
  if (flags.leaderElectRetryPeriod !== undefined) le.retryPeriod = msToGo(flags.leaderElectRetryPeriod);
  if (flags.leaderElectResourceNamespace) le.resourceNamespace = flags.leaderElectResourceNamespace;
  if (flags.leaderElectResourceName) le.resourceName = flags.leaderElectResourceName;
  const cc = { ...doc.clientConnection };
  if (flags.kubeApiQps !== undefined) cc.qps = flags.kubeApiQps;
  if (flags.kubeApiBurst !== undefined) cc.burst = flags.kubeApiBurst;
  if (flags.kubeconfig) cc.kubeconfig = flags.kubeconfig;
  return { ...doc, leaderElection: le, clientConnection: cc };
}

/**
 * `kube-rx scheduler`: kube-scheduler's flags. `--write-config-to` writes the defaulted configuration and
 * exits; otherwise it schedules until SIGINT/SIGTERM, printing one JSON line `{"server","kubeconfig","secureServing"}`
 * once its caches have synced. Without `--kubeconfig`/`--master` it starts the embedded API server
 * (`--port`, `--data-dir`, `--kubeconfig-out`), as `kube-rx up` does. A bad configuration exits non-zero
 * naming the field (`profiles[1].schedulerName: Required value`).
 */
export function schedulerCommand(deps: SchedulerCommandDeps = {}): Command {
  const command = new Command('scheduler')
    .description(
      'run kube-scheduler: the scheduling queue, framework and default plugins over shared informers',
    )
    .option('--config <file>', 'the KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) file')
    .option('--write-config-to <file>', 'write the configuration with every default filled in, then exit')
    .option('--kubeconfig <path>', 'the cluster to schedule for (default: the embedded API server)')
    .option('--master <url>', 'the API server address (overrides the kubeconfig server)')
    .option(
      '--leader-elect [bool]',
      'campaign for the lease before scheduling (true|false)',
      boolFlag('--leader-elect'),
      true,
    )
    .option(
      '--leader-elect-lease-duration <d>',
      'lease duration (default 15s)',
      goDurationFlag('--leader-elect-lease-duration'),
    )
    .option(
      '--leader-elect-renew-deadline <d>',
      'renew deadline (default 10s)',
      goDurationFlag('--leader-elect-renew-deadline'),
    )
    .option(
      '--leader-elect-retry-period <d>',
      'retry period (default 2s)',
      goDurationFlag('--leader-elect-retry-period'),
    )
    .option('--leader-elect-resource-namespace <ns>', 'namespace of the lease (default kube-system)')
    .option('--leader-elect-resource-name <name>', 'name of the lease (default kube-scheduler)')
    .option(
      '--secure-port <port>',
      'HTTPS port of /healthz, /readyz, /livez, /metrics (0: do not serve)',
      portFlag('--secure-port'),
      10259,
    )
    .option('--bind-address <address>', 'address of the secure port', '0.0.0.0')
    .option(
      '--authorization-always-allow-paths <paths>',
      'paths served to anyone (others only to loopback clients)',
      '/healthz,/readyz,/livez',
    )
    .option(
      '--kube-api-qps <qps>',
      'writes per second to the API server (default 50)',
      positiveNumberFlag('--kube-api-qps'),
    )
    .option('--kube-api-burst <n>', 'write burst (default 100)', positiveNumberFlag('--kube-api-burst'));
  embeddedApiServerFlags(command);

  command.action(async (flags: Flags) => {
    const logger = deps.logger ?? createLogger();
    const stdout = deps.stdout ?? process.stdout;
    const given = (name: string) => command.getOptionValueSource(name) === 'cli';
    const registry = { ...inTreeRegistry, ...deps.outOfTreeRegistry };
    const knownPlugins = new Set(Object.keys(registry));
    const raw = flags.config ? parseYaml(await readConfigText(flags.config), flags.config) : {};
    const doc = withFlags(raw as KubeSchedulerConfiguration, flags, given);
    const config = parseSchedulerConfig(stringify(doc), flags.config ?? 'config', { knownPlugins });
    if (flags.writeConfigTo) {
      await writeFile(flags.writeConfigTo, stringify(config));
      logger.info({ path: flags.writeConfigTo }, 'Wrote configuration');
      return;
    }

    const { signal, requested, dispose } = shutdownSignal(deps.signals, undefined, logger);
    const cleanup: (() => Promise<void> | void)[] = [];
    try {
      const { source, embedded, kubeconfigPath } = await clusterOrEmbedded(
        { ...flags, kubeconfig: flags.kubeconfig ?? config.clientConnection?.kubeconfig },
        logger,
        true, // no controller manager beside it: its embedded server finishes namespaces itself
      );
      if (embedded) cleanup.push(() => embedded.close());
      const client = kubeApiClient({
        kubeConfig: source,
        qps: config.clientConnection?.qps ?? 50,
        burst: config.clientConnection?.burst ?? 100,
        logger,
      });
      cleanup.push(() => client.close());
      if (embedded) await ensureSystemPriorityClasses(client, logger);

      const metrics = new MetricsRegistry();
      collectDefaultMetrics({ register: metrics });
      let ready = false;
      // kube-scheduler's leader election watchdog: /healthz fails when leadership is not renewed in time
      const leaderHealth = healthzAdaptor(20_000);
      let serving: Awaited<ReturnType<typeof startSecureServing>> | undefined;
      if (flags.securePort !== 0) {
        serving = await startSecureServing({
          port: flags.securePort,
          bindAddress: flags.bindAddress,
          alwaysAllowPaths: flags.authorizationAlwaysAllowPaths.split(',').filter(Boolean),
          readyChecks: () => ({ ping: true, 'sched-handler-sync': ready }),
          healthChecks: () => ({ leaderElection: leaderHealth.check() }),
          metrics,
        });
        cleanup.push(() => serving!.close());
      }
      const running = await startScheduler({
        client,
        config,
        ...(deps.outOfTreeRegistry ? { outOfTreeRegistry: deps.outOfTreeRegistry } : {}),
        metricsRegistry: metrics,
        healthz: leaderHealth,
        signal,
        logger,
      });
      cleanup.push(() => running.stop());
      ready = true;
      stdout.write(
        `${JSON.stringify({ server: embedded?.url ?? client.server, kubeconfig: kubeconfigPath ?? null, secureServing: serving?.url ?? null })}\n`,
      );
      await requested;
    } finally {
      for (const step of cleanup.reverse()) await step();
      dispose();
    }
  });
  return command;
}

function parseYaml(text: string, path: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    throw new InvalidConfigError(path, `not YAML: ${(error as Error).message}`);
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc))
    throw new InvalidConfigError(path, 'a KubeSchedulerConfiguration must be a mapping');
  return doc as Record<string, unknown>;
}

async function readConfigText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new InvalidConfigError('--config', `cannot read ${path}: ${(error as Error).message}`);
  }
}
