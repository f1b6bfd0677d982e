// runKubelets: one or many kubelets in this process, each registering its Node, renewing its Lease, reporting node status and running its pods.
import { firstValueFrom, Subscription } from 'rxjs';
import type { Taint } from '../../operators/api/core-v1.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import type { Pod } from '../../operators/pod-config/types.ts';
import { listerWatcher } from '../../streams/api-client.ts';
import type { KubeApiClient } from '../../streams/client-node/kube-api-client.ts';
import { leaseClient } from '../../streams/lease-client.ts';
import { PODS } from '../../streams/resources.ts';
import { processRuntime } from '../../streams/runtimes/process/process-runtime.ts';
import type { ContainerRuntime } from '../../streams/runtimes/runtime.ts';
import { simulatedRuntime } from '../../streams/runtimes/simulated/simulated-runtime.ts';
import { nodeLease } from '../node-agent/node-lease.ts';
import { describeNode, nodeStatusConfig, registerNode } from '../node-agent/register-node.ts';
import { type Kubelet, startKubelet } from './kubelet.ts';
import type { KubeletConfiguration } from './kubelet-configuration.ts';
import { kubeletPodConfig } from './kubelet-pod-config.ts';
import { nodeStatusUpdater } from './node-status/node-status-updater.ts';

/** Settings of {@link runKubelets}. */
export interface RunKubeletsOptions {
  client: KubeApiClient;
  /** The lease and node status writer (the kubelet's heartbeat client); default `client`. */
  heartbeatClient?: KubeApiClient;
  /** The node name; with `simulatedNodes` > 1 the prefix of `<name>-<i>`. */
  nodeName: string;
  config: KubeletConfiguration;
  runtime: 'process' | 'simulated';
  /** How many simulated kubelets (only with `runtime: simulated`); default 1. */
  simulatedNodes?: number;
  nodeIP?: string;
  nodeLabels?: Record<string, string>;
  registerWithTaints?: Taint[];
  rootDir?: string;
  logger?: Logger;
}

/** Running kubelets; `stop()` stops them all and every process they started. */
export interface RunningKubelets {
  readonly kubelets: readonly Kubelet[];
  readonly nodeNames: readonly string[];
  stop(): Promise<void>;
}

/**
 * Starts the kubelets: per node, registration (labels, taints, capacity from the host or the
 * simulated defaults), the lease, the node status loop, and the kubelet on its pod configuration
 * (static pod path and URL from the configuration, the API server's pods bound to the node).
 *
 * @param options the client, the configuration and the runtime
 * @returns the running kubelets
 */
export async function runKubelets(options: RunKubeletsOptions): Promise<RunningKubelets> {
  const logger = options.logger ?? silentLogger;
  const count = options.runtime === 'simulated' ? Math.max(1, options.simulatedNodes ?? 1) : 1;
  const names =
    count === 1 ? [options.nodeName] : Array.from({ length: count }, (_, i) => `${options.nodeName}-${i}`);
  const subscription = new Subscription();
  const kubelets: Kubelet[] = [];
  const { config } = options;
  const heartbeat = options.heartbeatClient ?? options.client;
  try {
    for (const nodeName of names) {
      const runtime: ContainerRuntime =
        options.runtime === 'simulated'
          ? simulatedRuntime({ logger })
          : processRuntime({ logger, hostIP: options.nodeIP });
      const statusConfig = nodeStatusConfig(nodeName, {
        nodeIp: options.nodeIP,
        maxPods: config.maxPods,
        kubeletPort: config.port,
        nodeLabels: options.nodeLabels,
        registerWithTaints: [...config.registerWithTaints, ...(options.registerWithTaints ?? [])],
        containerRuntimeVersion: `${runtime.name}://${runtime.version}`,
      });
      const node = await firstValueFrom(
        registerNode(
          options.client,
          describeNode(nodeName, Date.now(), options.nodeLabels ?? {}, statusConfig),
        ),
      );
      subscription.add(
        nodeLease({
          client: leaseClient(heartbeat),
          nodeName,
          nodeUid: node.metadata.uid,
          leaseDurationSeconds: config.nodeLeaseDurationSeconds,
          logger,
        }).subscribe(),
      );
      subscription.add(
        nodeStatusUpdater({
          client: heartbeat,
          statusConfig,
          updateFrequencyMs: config.nodeStatusUpdateFrequencyMs,
          reportFrequencyMs: config.nodeStatusReportFrequencyMs,
          logger,
        }).subscribe(),
      );
      const podConfig = kubeletPodConfig({
        nodeName,
        podManifestPath: config.staticPodPath,
        fileCheckFrequencyMs: config.fileCheckFrequencyMs,
        manifestUrl: config.staticPodURL,
        manifestUrlHeaders: config.staticPodURLHeader,
        httpCheckFrequencyMs: config.httpCheckFrequencyMs,
        apiserver: { listerWatcher: listerWatcher<Pod>(options.client, PODS) },
        logger,
      });
      kubelets.push(
        startKubelet({
          nodeName,
          client: options.client,
          runtime,
          podConfig,
          rootDir: options.rootDir
            ? count === 1
              ? options.rootDir
              : `${options.rootDir}/${nodeName}`
            : undefined,
          nodeIP: options.nodeIP,
          maxPods: config.maxPods,
          syncFrequencyMs: config.syncFrequencyMs,
          logger,
        }),
      );
    }
  } catch (error) {
    subscription.unsubscribe();
    await Promise.all(kubelets.map((k) => k.stop()));
    throw error;
  }
  let stopping: Promise<void> | undefined;
  return {
    kubelets,
    nodeNames: names,
    stop() {
      stopping ??= (async () => {
        subscription.unsubscribe();
        await Promise.all(kubelets.map((k) => k.stop()));
      })();
      return stopping;
    },
  };
}
