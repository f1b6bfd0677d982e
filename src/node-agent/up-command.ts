// `kube-rx up`: runs the node agent against the embedded API server (default) or a cluster, until SIGTERM.
import { hostname } from 'node:os';
import { Command, Option } from 'commander';
import type { Logger } from '../../operators/logger.ts';
import { portFlag, positiveNumberFlag } from '../cli/flag-parsers.ts';
import { type SignalSource, shutdownSignal } from '../cli/shutdown-signal.ts';
import { parseGoDuration } from '../kubelet/go-duration.ts';
import { parseManifestUrlHeader } from '../kubelet/pod-config-command.ts';
import { createLogger } from '../logging/logger.ts';
import { startNodeAgent } from './node-agent.ts';

interface Flags {
  nodeName?: string;
  hostnameOverride?: string;
  kubeconfig?: string;
  inCluster?: boolean;
  port: number;
  bindAddress: string;
  token?: string;
  dataDir?: string;
  kubeconfigOut: string;
  podManifestPath?: string;
  fileCheckFrequency: string;
  manifestUrl?: string;
  manifestUrlHeader: [string, string][];
  httpCheckFrequency: string;
  healthPort: number;
  kubeApiQps?: number;
  kubeApiBurst?: number;
  shutdownGracePeriod: string;
}

/** What the command takes from outside; defaults are the process's. */
export interface UpCommandDeps {
  stdout?: { write(line: string): unknown };
  logger?: Logger;
  signals?: SignalSource;
}

/**
 * `kube-rx up`: starts the node agent (embedded API server unless `--kubeconfig`/`--in-cluster`), prints
 * one JSON line `{"server","kubeconfig","node","health"}` once it runs, and stops on SIGINT/SIGTERM: the
 * first signal drains within `--shutdown-grace-period` and exits 0, a second exits at once.
 */
export function upCommand(deps: UpCommandDeps = {}): Command {
  return new Command('up')
    .description(
      'run the node agent: the embedded API server (or --kubeconfig), node registration and lease, informers, pod config, /readyz',
    )
    .option('--node-name <name>', 'the node name (default: the host name)')
    .option('--hostname-override <name>', 'the node name, as the kubelet spells it')
    .option('--kubeconfig <path>', 'use this cluster instead of the embedded API server')
    .addOption(new Option('--in-cluster', 'use the in-cluster service account').conflicts('kubeconfig'))
    .option('--port <port>', 'the embedded API server port (0 picks a free one)', portFlag('--port'), 6443)
    .option('--bind-address <address>', 'the embedded API server address', '127.0.0.1')
    .option('--token <token>', 'bearer token of the embedded API server (needed off loopback)')
    .option('--data-dir <dir>', 'persist the embedded API server here (default: memory only)')
    .option(
      '--kubeconfig-out <path>',
      "where the embedded server's kubeconfig is written",
      '.kube-rx/kubeconfig',
    )
    .option('--pod-manifest-path <path>', 'static pod manifests: a file or a directory')
    .option('--file-check-frequency <duration>', 'full re-read period of the manifest path', '20s')
    .option('--manifest-url <url>', 'a URL serving a Pod or a PodList')
    .option(
      '--manifest-url-header <key:value>',
      'an HTTP header for --manifest-url (repeatable)',
      (value: string, previous: [string, string][]) => parseManifestUrlHeader(value, previous),
      [],
    )
    .option('--http-check-frequency <duration>', 'poll period of the manifest URL', '20s')
    .option(
      '--health-port <port>',
      '/healthz, /readyz and /metrics on 127.0.0.1 (0 picks a free one)',
      portFlag('--health-port'),
      10248,
    )
    .option('--kube-api-qps <qps>', 'client-side write rate limit', positiveNumberFlag('--kube-api-qps'))
    .option('--kube-api-burst <burst>', 'client-side write burst', positiveNumberFlag('--kube-api-burst'))
    .option('--shutdown-grace-period <duration>', 'how long a graceful stop may take', '10s')
    .action(async (flags: Flags) => {
      const logger = deps.logger ?? createLogger();
      const stdout = deps.stdout ?? process.stdout;
      const nodeName = (flags.nodeName ?? flags.hostnameOverride ?? hostname()).trim().toLowerCase();
      const grace = parseGoDuration('--shutdown-grace-period', flags.shutdownGracePeriod);
      const { requested, dispose } = shutdownSignal(deps.signals, undefined, logger);
      try {
        const agent = await startNodeAgent({
          nodeName,
          kubeconfig: flags.kubeconfig,
          inCluster: flags.inCluster,
          port: flags.port,
          bindAddress: flags.bindAddress,
          token: flags.token,
          dataDir: flags.dataDir,
          kubeconfigOut: flags.kubeconfigOut,
          podManifestPath: flags.podManifestPath,
          fileCheckFrequencyMs: parseGoDuration('--file-check-frequency', flags.fileCheckFrequency),
          manifestUrl: flags.manifestUrl,
          manifestUrlHeaders: flags.manifestUrlHeader,
          httpCheckFrequencyMs: parseGoDuration('--http-check-frequency', flags.httpCheckFrequency),
          healthPort: flags.healthPort,
          qps: flags.kubeApiQps,
          burst: flags.kubeApiBurst,
          logger,
        });
        stdout.write(
          `${JSON.stringify({ server: agent.server, kubeconfig: agent.kubeconfig ?? null, node: nodeName, health: agent.healthUrl })}\n`,
        );
        await requested;
        await agent.stop(grace);
      } finally {
        dispose();
      }
    });
}
