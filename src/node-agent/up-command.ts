// `kube-rx up`: runs the node agent against the embedded API server (default) or a cluster, until SIGTERM.
import { readFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import type { Logger } from '../../operators/logger.ts';
import { kubeApiClient } from '../../streams/client-node/kube-api-client.ts';
import { addEtcdFlags, type EtcdFlags, etcdOptions } from '../apiserver/etcd-flags.ts';
import { KNOWN_FEATURE_GATES } from '../apiserver/index.ts';
import { featureGatesFlag, portFlag, positiveNumberFlag } from '../cli/flag-parsers.ts';
import { type SignalSource, shutdownSignal } from '../cli/shutdown-signal.ts';
import { CONCURRENCY_FLAGS } from '../controller-manager/command.ts';
import {
  CONTROLLER_FEATURE_GATES,
  controllerDescriptors,
  DEFAULT_TERMINATED_POD_GC_THRESHOLD,
} from '../controller-manager/controller-descriptors.ts';
import { controllerManager } from '../controller-manager/controller-manager.ts';
import { withEventsClient } from '../controllers/controller-event-recorder.ts';
import { rootCAFromKubeconfig } from '../controllers/root-ca-cert-publisher/root-ca-from-kubeconfig.ts';
import { parseGoDuration } from '../kubelet/go-duration.ts';
import { addPodSourceOptions, type PodSourceFlags, podSourceOptions } from '../kubelet/pod-source-flags.ts';
import { createLogger } from '../logging/logger.ts';
import { prometheusWorkQueueMetrics } from '../metrics/prometheus-work-queue-metrics.ts';
import { reflectorMetrics } from '../metrics/reflector-metrics.ts';
import { startNodeAgent } from './node-agent.ts';

interface Flags extends PodSourceFlags, EtcdFlags {
  kubeconfig?: string;
  inCluster?: boolean;
  port: number;
  bindAddress: string;
  token?: string;
  dataDir?: string;
  kubeconfigOut: string;
  healthPort: number;
  kubeletPort: number;
  tokenAuthFile?: string;
  anonymousAuth: boolean;
  authorizationMode: string;
  featureGates?: Record<string, boolean>;
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
  return addEtcdFlags(
    addPodSourceOptions(
      new Command('up').description(
        'run the node agent: the embedded API server (or --kubeconfig), node registration and lease, informers, pod config, /readyz',
      ),
    )
      .option('--kubeconfig <path>', 'use this cluster instead of the embedded API server')
      .addOption(new Option('--in-cluster', 'use the in-cluster service account').conflicts('kubeconfig'))
      .option('--port <port>', 'the embedded API server port (0 picks a free one)', portFlag('--port'), 6443)
      .option('--bind-address <address>', 'the embedded API server address', '127.0.0.1')
      .option('--token <token>', 'bearer token of the embedded API server (needed off loopback)')
      .option('--data-dir <dir>', 'persist the embedded API server here (default: memory only)'),
    'embedded API server: ',
  )
    .option(
      '--kubeconfig-out <path>',
      "where the embedded server's kubeconfig is written",
      '.kube-rx/kubeconfig',
    )
    .option(
      '--health-port <port>',
      '/healthz, /readyz and /metrics on 127.0.0.1 (0 picks a free one)',
      portFlag('--health-port'),
      10248,
    )
    .option(
      '--token-auth-file <path>',
      'embedded API server: static tokens, a CSV of token,user,uid,"group1,group2"',
    )
    .option(
      '--anonymous-auth [bool]',
      'embedded API server: requests without credentials become system:anonymous; off: 401',
      (v: string) => v !== 'false',
      false,
    )
    .option('--authorization-mode <modes>', 'embedded API server: RBAC or AlwaysAllow', 'RBAC')
    .option(
      '--feature-gates <gates>',
      `embedded API server feature gates (known: ${Object.keys(KNOWN_FEATURE_GATES).join(', ')})`,
      featureGatesFlag('--feature-gates', KNOWN_FEATURE_GATES),
    )
    .option(
      '--kubelet-port <port>',
      "the kubelet's HTTPS API for kubectl logs/exec/port-forward and the metrics behind kubectl top, on 127.0.0.1 with the embedded API server (0: none)",
      portFlag('--kubelet-port'),
      10250,
    )
    .option('--kube-api-qps <qps>', 'client-side write rate limit', positiveNumberFlag('--kube-api-qps'))
    .option('--kube-api-burst <burst>', 'client-side write burst', positiveNumberFlag('--kube-api-burst'))
    .option('--shutdown-grace-period <duration>', 'how long a graceful stop may take', '10s')
    .action(async (flags: Flags) => {
      const logger = deps.logger ?? createLogger();
      const stdout = deps.stdout ?? process.stdout;
      const sourceOptions = podSourceOptions(flags);
      const nodeName = sourceOptions.nodeName;
      const grace = parseGoDuration('--shutdown-grace-period', flags.shutdownGracePeriod);
      const etcd = etcdOptions(flags);
      const { requested, dispose } = shutdownSignal(deps.signals, undefined, logger);
      try {
        const agent = await startNodeAgent({
          ...sourceOptions,
          kubeconfig: flags.kubeconfig,
          inCluster: flags.inCluster,
          port: flags.port,
          bindAddress: flags.bindAddress,
          token: flags.token,
          dataDir: flags.dataDir,
          kubeconfigOut: flags.kubeconfigOut,
          healthPort: flags.healthPort,
          ...(flags.kubeletPort ? { kubeletPort: flags.kubeletPort } : {}),
          apiServer: {
            ...etcd,
            ...(flags.tokenAuthFile ? { tokenAuthFile: flags.tokenAuthFile } : {}),
            anonymousAuth: flags.anonymousAuth,
            authorizationMode: flags.authorizationMode,
            ...(flags.featureGates ? { featureGates: flags.featureGates } : {}),
          },
          qps: flags.kubeApiQps,
          burst: flags.kubeApiBurst,
          logger,
        });
        // the controller manager, for the embedded API server only (a cluster has its own); one process,
        // so no leader election, as the scheduler here
        const embedded = !flags.kubeconfig && !flags.inCluster && agent.kubeconfig;
        // Events on a client of their own, as upstream's broadcaster: they never spend the controllers' qps
        const eventsClient = embedded
          ? kubeApiClient({
              kubeConfig: { from: 'file', path: agent.kubeconfig as string },
              ...(flags.kubeApiQps ? { qps: flags.kubeApiQps } : {}),
              ...(flags.kubeApiBurst ? { burst: flags.kubeApiBurst } : {}),
              logger,
            })
          : undefined;
        const controllers = eventsClient
          ? controllerManager({
              client: withEventsClient(agent.client, eventsClient),
              descriptors: controllerDescriptors(),
              options: {
                concurrency: CONCURRENCY_FLAGS,
                rootCA: rootCAFromKubeconfig(await readFile(agent.kubeconfig as string, 'utf8')),
                // the CSR signer signs with the embedded server's CA, as kube-controller-manager with
                // --cluster-signing-cert-file/--cluster-signing-key-file pointing at the cluster CA
                ...(agent.clusterSigning ? { clusterSigning: agent.clusterSigning } : {}),
                terminatedPodGCThreshold: DEFAULT_TERMINATED_POD_GC_THRESHOLD,
                featureGates: CONTROLLER_FEATURE_GATES,
              },
              workQueueMetrics: prometheusWorkQueueMetrics(agent.registry),
              reflectorMetrics: reflectorMetrics(agent.registry),
              logger,
            }).subscribe({
              next: (event) => {
                if (event.type === 'Started')
                  logger.info({ controller: event.controller }, 'Started controller');
                if (event.type === 'Failed') {
                  logger.error(
                    { controller: event.controller, err: String(event.error) },
                    'controller stopped',
                  );
                }
              },
              error: (err) => logger.error({ err: String(err) }, 'controller manager stopped'),
            })
          : undefined;
        stdout.write(
          `${JSON.stringify({ server: agent.server, kubeconfig: agent.kubeconfig ?? null, node: nodeName, health: agent.healthUrl })}\n`,
        );
        await requested;
        controllers?.unsubscribe();
        eventsClient?.close();
        await agent.stop(grace);
      } finally {
        dispose();
      }
    });
}
