// The node agent: the main job of `kube-rx up` — an API server (embedded by default), node registration, heartbeat, informers and pod config.
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { firstValueFrom, type Observable, Subject, Subscription } from 'rxjs';
import { InvalidConfigError } from '../../operators/errors.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import type { Pod, PodUpdate } from '../../operators/pod-config/types.ts';
import type { KubeObject, ReflectorHealth } from '../../operators/types.ts';
import { listerWatcher } from '../../streams/api-client.ts';
import { type KubeApiClient, kubeApiClient } from '../../streams/client-node/kube-api-client.ts';
import type { KubeConfigSource } from '../../streams/client-node/kube-config.ts';
import { leaseClient } from '../../streams/lease-client.ts';
import { NODES, PODS } from '../../streams/resources.ts';
import { processRuntime } from '../../streams/runtimes/process/process-runtime.ts';
import { type ApiServerOptions, type RunningApiServer, startApiServer } from '../apiserver/index.ts';
import { dropManagedFields } from '../informers/drop-managed-fields.ts';
import { informerFactory } from '../informers/informer-factory.ts';
import type { SharedInformer } from '../informers/shared-informer.ts';
import { startKubelet } from '../kubelet/kubelet.ts';
import { kubeletPodConfig } from '../kubelet/kubelet-pod-config.ts';
import { nodeStatusUpdater } from '../kubelet/node-status/node-status-updater.ts';
import { ensureSystemPriorityClasses } from '../scheduler/ensure-system-priority-classes.ts';
import { startScheduler } from '../scheduler/start-scheduler.ts';
import { type HealthServer, type ReadinessSource, startHealthServer } from './health-server.ts';
import { nodeLease } from './node-lease.ts';
import { describeNode, nodeStatusConfig, registerNode } from './register-node.ts';

/** Options of {@link startNodeAgent}. Only `nodeName` is required. */
export interface NodeAgentOptions {
  nodeName: string;
  /** Talk to the cluster of this kubeconfig file instead of starting the embedded API server. */
  kubeconfig?: string;
  /** Use the in-cluster service account instead of starting the embedded API server. */
  inCluster?: boolean;
  /** The embedded API server's port; default 6443 (0 picks a free one). */
  port?: number;
  /** The embedded API server's address; default 127.0.0.1. */
  bindAddress?: string;
  /** The embedded API server's bearer token (required for a non-loopback address). */
  token?: string;
  /** Persist the embedded API server's state here; without it, state is in memory only. */
  dataDir?: string;
  /** Where the embedded API server's kubeconfig is written; default `.kube-rx/kubeconfig`. */
  kubeconfigOut?: string;
  /** Static pod manifests (`--pod-manifest-path`). */
  podManifestPath?: string;
  fileCheckFrequencyMs?: number;
  manifestUrl?: string;
  manifestUrlHeaders?: readonly (readonly [string, string])[];
  httpCheckFrequencyMs?: number;
  /** The health server's port (`/healthz`, `/readyz`, `/metrics`); default 10248, 0 picks a free one. */
  healthPort?: number;
  /** How often the node lease is renewed; default 10 000 ms. */
  nodeLeaseRenewMs?: number;
  /**
   * Run kube-rx's scheduler in the agent (no leader election), so pods get bound to nodes. Default: only
   * with the embedded API server (a real cluster has its own kube-scheduler).
   */
  runScheduler?: boolean;
  /**
   * Run the kubelet for this node on the process runtime, so pods bound to it really start. Default true.
   * Stopping the agent stops every process the kubelet started.
   */
  runKubelet?: boolean;
  /** The kubelet's `--root-dir` (pod volumes, pod logs under `logs/pods`); default `.kube-rx/kubelet`. */
  kubeletRootDir?: string;
  /**
   * Serve the kubelet's API (`kubectl logs`, `exec`; /containerLogs, /exec, /pods, /metrics/resource) on
   * this port. Only with the embedded API server: the server binds 127.0.0.1 and the node's InternalIP is
   * 127.0.0.1, because it has no authentication yet and must not be reachable from other machines.
   * Default: no kubelet server.
   */
  kubeletPort?: number;
  /** More of the embedded API server's settings (authentication, authorization, feature gates, etcd storage). */
  apiServer?: Pick<
    ApiServerOptions,
    | 'tokenAuthFile'
    | 'anonymousAuth'
    | 'authorizationMode'
    | 'featureGates'
    | 'etcdServers'
    | 'etcdPrefix'
    | 'etcdCompactionIntervalMs'
    | 'etcdCaFile'
    | 'etcdCertFile'
    | 'etcdKeyFile'
  >;
  /** Client-side write rate limit (`--kube-api-qps`, `--kube-api-burst`). */
  qps?: number;
  burst?: number;
  logger?: Logger;
}

/** A running node agent. */
export interface NodeAgent {
  /** The embedded API server's URL, or the cluster's. */
  readonly server: string;
  /** The kubeconfig file kubectl can use (the embedded server's), or the one given. */
  readonly kubeconfig: string | undefined;
  readonly healthUrl: string;
  readonly client: KubeApiClient;
  readonly pods: SharedInformer<KubeObject>;
  readonly nodes: SharedInformer<KubeObject>;
  /** Every update of the kubelet's pod configuration (the node's pods from every source). */
  readonly podUpdates$: Observable<PodUpdate>;
  readonly registry: Registry;
  /** The embedded API server's cluster CA, for the controller manager's CSR signer; undefined on a cluster. */
  readonly clusterSigning: { certPem: string; keyPem: string } | undefined;
  /**
   * Stops everything: no new work is taken, streams are unsubscribed (aborting their requests), then
   * the health server, the client and the embedded API server close. Waits at most `deadlineMs`.
   */
  stop(deadlineMs?: number): Promise<void>;
}

/**
 * Starts the node agent: the embedded API server unless a cluster is given, the node's registration and
 * lease heartbeat, shared informers for pods and nodes, the kubelet's pod configuration for this node,
 * and the health server whose `/readyz` reports every list-watch stream.
 *
 * @param options the node name, the cluster (embedded by default) and the pod sources
 * @returns the running agent; `stop()` tears it down
 * @throws InvalidConfigError for a missing node name; the API server's own errors on start
 */
export async function startNodeAgent(options: NodeAgentOptions): Promise<NodeAgent> {
  if (!options.nodeName) throw new InvalidConfigError('--node-name', 'a node name is required');
  const logger = (options.logger ?? silentLogger).child({ component: 'node-agent', node: options.nodeName });
  const cleanup: (() => Promise<void> | void)[] = [];
  const runCleanup = async () => {
    for (const step of cleanup.reverse()) await step();
    cleanup.length = 0;
  };

  try {
    let embedded: RunningApiServer | undefined;
    let kubeConfig: KubeConfigSource;
    let kubeconfigPath: string | undefined;
    if (options.kubeconfig) {
      kubeConfig = { from: 'file', path: options.kubeconfig };
      kubeconfigPath = options.kubeconfig;
    } else if (options.inCluster) {
      kubeConfig = { from: 'cluster' };
    } else {
      embedded = await startApiServer({
        port: options.port ?? 6443,
        bindAddress: options.bindAddress,
        dataDir: options.dataDir,
        token: options.token,
        ...options.apiServer,
        logger: options.logger,
      });
      cleanup.push(() => embedded?.close());
      kubeconfigPath = resolve(options.kubeconfigOut ?? '.kube-rx/kubeconfig');
      await mkdir(dirname(kubeconfigPath), { recursive: true });
      await embedded.writeKubeconfig(kubeconfigPath);
      kubeConfig = { from: 'string', yaml: embedded.kubeconfig };
      logger.info({ url: embedded.url, kubeconfig: kubeconfigPath }, 'embedded API server listening');
    }

    const client = kubeApiClient({
      kubeConfig,
      qps: options.qps,
      burst: options.burst,
      logger: options.logger,
    });
    cleanup.push(() => client.close());
    const streams = new Subscription();
    cleanup.push(() => streams.unsubscribe());

    // with the embedded server everything is on this machine: the node (and its kubelet) is 127.0.0.1
    const local = embedded !== undefined;
    const statusSettings = {
      ...(local ? { nodeIp: '127.0.0.1' } : {}),
      ...(options.kubeletPort ? { kubeletPort: options.kubeletPort } : {}),
    };
    const node = await firstValueFrom(
      registerNode(client, describeNode(options.nodeName, Date.now(), {}, statusSettings)),
    );
    logger.info({ uid: node.metadata?.uid }, 'node registered');
    streams.add(
      nodeLease({
        client: leaseClient(client),
        nodeName: options.nodeName,
        nodeUid: node.metadata?.uid,
        renewIntervalMs: options.nodeLeaseRenewMs,
        logger: options.logger,
      }).subscribe(),
    );

    const factory = informerFactory({ client, transform: dropManagedFields, logger: options.logger });
    const pods = factory.forResource(PODS);
    const nodes = factory.forResource(NODES);
    factory.start();
    cleanup.push(() => factory.shutdown());

    const health = new Map<string, ReflectorHealth>();
    const watchHealth = (name: string, health$: Observable<ReflectorHealth>) =>
      streams.add(health$.subscribe((h) => health.set(name, h)));
    watchHealth('informer:pods', pods.health$);
    watchHealth('informer:nodes', nodes.health$);

    const podUpdates$ = new Subject<PodUpdate>();
    const podConfig = kubeletPodConfig({
      nodeName: options.nodeName,
      podManifestPath: options.podManifestPath,
      fileCheckFrequencyMs: options.fileCheckFrequencyMs,
      manifestUrl: options.manifestUrl,
      manifestUrlHeaders: options.manifestUrlHeaders,
      httpCheckFrequencyMs: options.httpCheckFrequencyMs,
      apiserver: { listerWatcher: listerWatcher<Pod>(client, PODS) },
      logger: options.logger,
    });
    if (options.runKubelet ?? true) {
      // its own client, as the kubelet keeps its pod writes apart from the heartbeat's: a burst of
      // status patches and events must not hold the lease renewal behind the client's rate limit
      const kubeletClient = kubeApiClient({
        kubeConfig,
        qps: options.qps,
        burst: options.burst,
        logger: options.logger,
      });
      cleanup.push(() => kubeletClient.close());
      // subscribed to podUpdates$ before the pod config starts, so it sees every update
      const kubelet = startKubelet({
        nodeName: options.nodeName,
        client: kubeletClient,
        runtime: processRuntime({ logger: options.logger, ...(local ? { hostIP: '127.0.0.1' } : {}) }),
        podConfig: { updates$: podUpdates$, sources: podConfig.sources },
        rootDir: options.kubeletRootDir,
        ...(local ? { nodeIP: '127.0.0.1' } : {}),
        ...(local && options.kubeletPort
          ? { server: { port: options.kubeletPort, address: '127.0.0.1' } }
          : {}),
        logger: options.logger,
      });
      cleanup.push(() => kubelet.stop());
      // the node's status and conditions, with heartbeats, every 10 s (a full report at least every 5 min)
      streams.add(
        nodeStatusUpdater({
          client: kubeletClient,
          statusConfig: nodeStatusConfig(options.nodeName, statusSettings),
          logger: options.logger,
        }).subscribe(),
      );
    }
    streams.add(
      podConfig.updates$.subscribe({
        next: (update) => {
          logger.info(
            { op: update.op, source: update.source, pods: update.pods.map((p) => p.metadata?.name) },
            'pod update',
          );
          podUpdates$.next(update);
        },
        error: (error: unknown) => logger.error({ err: String(error) }, 'pod configuration stopped'),
      }),
    );
    cleanup.push(() => podUpdates$.complete());

    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    if (options.runScheduler ?? embedded !== undefined) {
      if (embedded) await ensureSystemPriorityClasses(client, options.logger);
      const scheduler = await startScheduler({
        client,
        informers: factory,
        config: { leaderElection: { leaderElect: false } },
        metricsRegistry: registry,
        logger: options.logger,
      });
      cleanup.push(() => scheduler.stop());
      logger.info('scheduler running');
    }
    const readinessSources = (): ReadinessSource[] =>
      ['informer:pods', 'informer:nodes'].map((name) => ({ name, health: () => health.get(name) }));
    const healthServer: HealthServer = await startHealthServer(
      options.healthPort ?? 10248,
      readinessSources,
      registry,
    );
    cleanup.push(() => healthServer.close());
    logger.info({ url: healthServer.url }, 'health server listening');

    let stopping: Promise<void> | undefined;
    return {
      server: embedded?.url ?? client.server,
      kubeconfig: kubeconfigPath,
      healthUrl: healthServer.url,
      client,
      pods,
      nodes,
      podUpdates$: podUpdates$.asObservable(),
      registry,
      clusterSigning: embedded?.clusterSigning,
      stop(deadlineMs = 10_000) {
        stopping ??= (async () => {
          logger.info({ deadlineMs }, 'stopping');
          let timer: NodeJS.Timeout | undefined;
          const deadline = new Promise<void>((done) => {
            timer = setTimeout(() => {
              logger.warn({ deadlineMs }, 'shutdown deadline passed; stopping now');
              done();
            }, deadlineMs);
          });
          await Promise.race([runCleanup(), deadline]);
          clearTimeout(timer);
          logger.info('stopped');
        })();
        return stopping;
      },
    };
  } catch (error) {
    await runCleanup();
    throw error;
  }
}
