// Test helper: an embedded cluster with one registered node whose process-runtime kubelet serves HTTPS on 127.0.0.1, and a kubeconfig file for kubectl.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll } from 'vitest';
import type { Pod as ConfigPod } from '../../../../operators/pod-config/types.ts';
import { type Kubelet, startKubelet } from '../../../../src/kubelet/kubelet.ts';
import { kubeletPodConfig } from '../../../../src/kubelet/kubelet-pod-config.ts';
import { listerWatcher } from '../../../../streams/api-client.ts';
import { NODES, PODS } from '../../../../streams/resources.ts';
import { processRuntime } from '../../../../streams/runtimes/process/process-runtime.ts';
import { type EmbeddedCluster, useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';

/** What the suite gets, filled before its tests run. */
export interface ServingKubelet {
  cluster: Omit<EmbeddedCluster, 'close'>;
  kubelet: Kubelet;
  /** A kubeconfig file for the embedded API server. */
  kubeconfig: string;
  /** A scratch directory removed after the suite. */
  dir: string;
}

/**
 * Registers hooks that start an embedded cluster, a kubelet for `nodeName` (process runtime, its
 * server on a free port) and the Node object pointing at it (InternalIP 127.0.0.1, 4 CPUs, 8Gi),
 * and stop them after the suite; stopping the kubelet stops every process it started.
 */
export function useServingKubelet(nodeName: string, labels: Record<string, string> = {}): ServingKubelet {
  const cluster = useEmbeddedCluster({ port: 0 });
  const holder = { cluster } as ServingKubelet;
  beforeAll(async () => {
    holder.dir = await mkdtemp(join(tmpdir(), `kube-rx-${nodeName}-`));
    holder.kubeconfig = join(holder.dir, 'kubeconfig');
    await writeFile(holder.kubeconfig, cluster.server.kubeconfig);
    const runtime = processRuntime({ namespaces: 'none', closeGraceSeconds: 1, hostIP: '127.0.0.1' });
    const podConfig = kubeletPodConfig({
      nodeName,
      apiserver: { listerWatcher: listerWatcher<ConfigPod>(cluster.api, PODS) },
    });
    holder.kubelet = startKubelet({
      nodeName,
      client: cluster.api,
      runtime,
      podConfig,
      rootDir: join(holder.dir, 'root'),
      nodeIP: '127.0.0.1',
      server: { port: 0, address: '127.0.0.1' },
    });
    const kubeletPort = await holder.kubelet.server!.ready;
    await firstValueFrom(
      cluster.api.create(NODES, {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: nodeName, labels },
        status: {
          capacity: { cpu: '4', memory: '8Gi', pods: '110' },
          allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
          addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
          daemonEndpoints: { kubeletEndpoint: { Port: kubeletPort } },
        },
      }),
    );
  }, 30_000);
  afterAll(async () => {
    await holder.kubelet?.stop();
    if (holder.dir) await rm(holder.dir, { recursive: true, force: true });
  });
  return holder;
}
