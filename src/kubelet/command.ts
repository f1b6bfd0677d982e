// `kube-rx kubelet`: runs the kubelet (or N simulated ones) against a cluster from its --config file and flags.
import { Command, InvalidArgumentError, Option } from 'commander';
import { Registry } from 'prom-client';
import { InvalidConfigError } from '../../operators/errors.ts';
import type { Logger } from '../../operators/logger.ts';
import { kubeApiClient } from '../../streams/client-node/kube-api-client.ts';
import { portFlag } from '../cli/flag-parsers.ts';
import { type SignalSource, shutdownSignal } from '../cli/shutdown-signal.ts';
import { createLogger } from '../logging/logger.ts';
import { startHealthServer } from '../node-agent/health-server.ts';
import {
  defaultKubeletConfiguration,
  type KubeletConfiguration,
  loadKubeletConfiguration,
  parseNodeLabelsFlag,
  parseTaintsFlag,
} from './kubelet-configuration.ts';
import { addPodSourceOptions, type PodSourceFlags, podSourceOptions } from './pod-source-flags.ts';
import { runKubelets } from './run-kubelets.ts';

interface Flags extends PodSourceFlags {
  config?: string;
  kubeconfig?: string;
  nodeIp?: string;
  nodeLabels?: string;
  registerWithTaints?: string;
  maxPods?: number;
  healthzPort?: number;
  port?: number;
  rootDir: string;
  runtime: 'process' | 'simulated';
  simulatedNodes: number;
}

/** What the command takes from outside; defaults are the process's. */
export interface KubeletCommandDeps {
  stdout?: { write(line: string): unknown };
  logger?: Logger;
  signals?: SignalSource;
}

const positiveInt = (flag: string) => (value: string) => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 0)
    throw new InvalidArgumentError(`${flag}: must be a whole number >= 0, got ${value}`);
  return n;
};

/**
 * Merges the `--config` file with the flags: a flag given on the command line wins over the file, as
 * the kubelet's flag precedence has it.
 */
export function resolveKubeletConfiguration(
  file: KubeletConfiguration,
  flags: Flags,
  given: (name: keyof Flags) => boolean,
): KubeletConfiguration {
  const config = { ...file };
  const sources = podSourceOptions(flags);
  if (flags.podManifestPath !== undefined) config.staticPodPath = flags.podManifestPath;
  if (flags.manifestUrl !== undefined) config.staticPodURL = flags.manifestUrl;
  if (flags.manifestUrlHeader.length > 0) config.staticPodURLHeader = sources.manifestUrlHeaders;
  if (given('fileCheckFrequency')) config.fileCheckFrequencyMs = sources.fileCheckFrequencyMs;
  if (given('httpCheckFrequency')) config.httpCheckFrequencyMs = sources.httpCheckFrequencyMs;
  if (flags.maxPods !== undefined) config.maxPods = flags.maxPods;
  if (flags.healthzPort !== undefined) config.healthzPort = flags.healthzPort;
  if (flags.port !== undefined) config.port = flags.port;
  if (flags.registerWithTaints !== undefined)
    config.registerWithTaints = parseTaintsFlag(flags.registerWithTaints);
  return config;
}

/**
 * `kube-rx kubelet`: registers the node, renews its lease, reports node status and runs the pods bound
 * to it on the process runtime (or `--runtime simulated`, `--simulated-nodes N` kubelets named
 * `<node>-<i>`). Prints one JSON line `{"nodes":[...],"runtime":...,"health":...}` once running; stops
 * on SIGINT/SIGTERM, stopping every process it started.
 */
export function kubeletCommand(deps: KubeletCommandDeps = {}): Command {
  const command = addPodSourceOptions(
    new Command('kubelet').description(
      'run the kubelet: the node, its lease and status, and its pods on a container runtime',
    ),
  )
    .option('--config <path>', 'a KubeletConfiguration (kubelet.config.k8s.io/v1beta1) file')
    .option('--kubeconfig <path>', 'the cluster to join (required)')
    .option('--node-ip <ip>', "the node's InternalIP (default: the host's first IPv4 address)")
    .option('--node-labels <key=value,...>', 'labels to add when registering the node')
    .option('--register-with-taints <key=value:Effect,...>', 'taints to add when registering the node')
    .option('--max-pods <n>', 'how many pods the node holds (default 110)', positiveInt('--max-pods'))
    .option(
      '--healthz-port <port>',
      '/healthz on 127.0.0.1 (default 10248, 0 picks a free one)',
      portFlag('--healthz-port'),
    )
    .option('--port <port>', "the kubelet's port reported on the node (default 10250)", portFlag('--port'))
    .option('--root-dir <dir>', 'pod volumes and logs', '.kube-rx/kubelet')
    .addOption(
      new Option('--runtime <name>', 'the container runtime')
        .choices(['process', 'simulated'])
        .default('process'),
    )
    .option(
      '--simulated-nodes <n>',
      'with --runtime simulated: run this many kubelets',
      positiveInt('--simulated-nodes'),
      1,
    );
  return command.action(async (flags: Flags) => {
    const logger = deps.logger ?? createLogger();
    const stdout = deps.stdout ?? process.stdout;
    if (!flags.kubeconfig)
      throw new InvalidConfigError('--kubeconfig', 'is required: the kubelet joins an existing cluster');
    if (flags.simulatedNodes > 1 && flags.runtime !== 'simulated') {
      throw new InvalidConfigError('--simulated-nodes', 'needs --runtime simulated');
    }
    const file = flags.config ? await loadKubeletConfiguration(flags.config) : defaultKubeletConfiguration();
    const config = resolveKubeletConfiguration(
      file,
      flags,
      (name) => command.getOptionValueSource(name) === 'cli',
    );
    const nodeName = podSourceOptions(flags).nodeName;
    const { requested, dispose } = shutdownSignal(deps.signals, undefined, logger);
    const client = kubeApiClient({ kubeConfig: { from: 'file', path: flags.kubeconfig }, logger });
    // as the kubelet's heartbeat client: the lease and node status never wait behind pod writes
    const heartbeatClient = kubeApiClient({
      kubeConfig: { from: 'file', path: flags.kubeconfig },
      qps: Number.POSITIVE_INFINITY,
      logger,
    });
    try {
      const running = await runKubelets({
        client,
        heartbeatClient,
        nodeName,
        config,
        runtime: flags.runtime,
        simulatedNodes: flags.simulatedNodes,
        nodeIP: flags.nodeIp,
        nodeLabels: flags.nodeLabels ? parseNodeLabelsFlag(flags.nodeLabels) : undefined,
        rootDir: flags.rootDir,
        logger,
      });
      const health = await startHealthServer(config.healthzPort, () => [], new Registry());
      stdout.write(
        `${JSON.stringify({ nodes: running.nodeNames, runtime: flags.runtime, health: health.url })}\n`,
      );
      await requested;
      await running.stop();
      await health.close();
    } finally {
      client.close();
      heartbeatClient.close();
      dispose();
    }
  });
}
