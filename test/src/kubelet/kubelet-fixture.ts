// Test fixture: a kubelet on the process runtime against the embedded API server, with a registered Node and a temporary root directory.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import type { Pod } from '../../../operators/api/core-v1.ts';
import type { Pod as ConfigPod } from '../../../operators/pod-config/types.ts';
import { type Kubelet, startKubelet } from '../../../src/kubelet/kubelet.ts';
import { kubeletPodConfig } from '../../../src/kubelet/kubelet-pod-config.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { listerWatcher } from '../../../streams/api-client.ts';
import { NODES, PODS } from '../../../streams/resources.ts';
import { processRuntime } from '../../../streams/runtimes/process/process-runtime.ts';
import type { ContainerRuntime } from '../../../streams/runtimes/runtime.ts';

/** A kubelet and what the test needs to look at. */
export interface KubeletFixture {
  kubelet: Kubelet;
  runtime: ContainerRuntime;
  rootDir: string;
  nodeName: string;
  close(): Promise<void>;
}

/**
 * Registers a Node and starts a kubelet for it on the process runtime (plain processes).
 *
 * @param api the embedded cluster's client
 * @param options node name, static pod directory and resources
 */
export async function startKubeletFixture(
  api: ApiClient,
  options: { nodeName: string; podManifestPath?: string; cpu?: string; memory?: string },
): Promise<KubeletFixture> {
  const rootDir = await mkdtemp(join(tmpdir(), 'kube-rx-kubelet-'));
  const { nodeName } = options;
  await firstValueFrom(
    api.create(NODES, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: nodeName, labels: { 'kubernetes.io/hostname': nodeName } },
      status: {
        capacity: { cpu: options.cpu ?? '4', memory: options.memory ?? '8Gi', pods: '110' },
        allocatable: { cpu: options.cpu ?? '4', memory: options.memory ?? '8Gi', pods: '110' },
        addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
      },
    }),
  ).catch(() => undefined);
  const runtime = processRuntime({ namespaces: 'none', closeGraceSeconds: 1, hostIP: '127.0.0.1' });
  const podConfig = kubeletPodConfig({
    nodeName,
    podManifestPath: options.podManifestPath,
    fileCheckFrequencyMs: 500,
    apiserver: { listerWatcher: listerWatcher<ConfigPod>(api, PODS) },
  });
  const kubelet = startKubelet({ nodeName, client: api, runtime, podConfig, rootDir, nodeIP: '127.0.0.1' });
  return {
    kubelet,
    runtime,
    rootDir,
    nodeName,
    async close() {
      await kubelet.stop();
      await rm(rootDir, { recursive: true, force: true });
    },
  };
}

/** A pod bound to `nodeName` running `sh -c script`. */
export function shellPod(
  name: string,
  nodeName: string,
  script: string,
  extra: Partial<Pod['spec']> & { image?: string } = {},
): Pod {
  const { image, ...spec } = extra;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: {
      nodeName,
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 30,
      containers: [{ name: 'main', image: image ?? 'busybox', command: ['sh', '-c', script] }],
      ...spec,
    },
  };
}

/** Reads a pod from the API server. */
export async function getPod(api: ApiClient, name: string, namespace = 'default'): Promise<Pod | undefined> {
  try {
    return await firstValueFrom(api.get<Pod>(PODS, name, { namespace }));
  } catch {
    return undefined;
  }
}

/**
 * Polls a pod until `check` holds; returns the pod, or throws naming what was awaited and the last status.
 *
 * @param api the client
 * @param name the pod
 * @param check what to wait for
 * @param what its description
 * @param ms real milliseconds to wait
 */
export async function waitForPod(
  api: ApiClient,
  name: string,
  check: (pod: Pod | undefined) => boolean,
  what: string,
  ms = 15_000,
): Promise<Pod | undefined> {
  const deadline = Date.now() + ms;
  let pod: Pod | undefined;
  for (;;) {
    pod = await getPod(api, name);
    if (check(pod)) return pod;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${name}: ${what}; last status ${JSON.stringify(pod?.status)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether a host process is alive: it exists and is not a zombie waiting to be reaped (state Z in /proc). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
