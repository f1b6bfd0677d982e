// A node whose kubelet stops, end to end: the embedded API server, kube-rx controller-manager (node lifecycle and taint eviction), the scheduler and two simulated kubelets — the node goes Unknown, gets node.kubernetes.io/unreachable NoExecute, and a pod tolerating it for 2 s is evicted while one tolerating it forever stays.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Node, Pod, Toleration } from '../../../../operators/api/core-v1.ts';
import type { KubeObject } from '../../../../operators/types.ts';
import { defaultKubeletConfiguration } from '../../../../src/kubelet/kubelet-configuration.ts';
import { type RunningKubelets, runKubelets } from '../../../../src/kubelet/run-kubelets.ts';
import type { KubeSchedulerConfiguration } from '../../../../src/scheduler/config/types.ts';
import { type RunningScheduler, startScheduler } from '../../../../src/scheduler/start-scheduler.ts';
import { kubeApiClient } from '../../../../streams/client-node/kube-api-client.ts';
import { EVENTS, NODES, PODS } from '../../../../streams/resources.ts';
import {
  type RunningControllerManager,
  secureGet,
  startControllerManager,
} from '../../../helpers/controller-manager.ts';
import { type EmbeddedCluster, embeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

const UNREACHABLE = 'node.kubernetes.io/unreachable';

const pod = (name: string, node: string, toleration: Toleration): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  spec: {
    nodeSelector: { 'kubernetes.io/hostname': node },
    terminationGracePeriodSeconds: 0,
    tolerations: [toleration],
    containers: [{ name: 'c', image: 'busybox', command: ['sleep', '3600'] }],
  },
});

describe('a node whose kubelet stops', { timeout: 90_000 }, () => {
  let cluster: EmbeddedCluster;
  let dir: string;
  let manager: RunningControllerManager;
  let scheduler: RunningScheduler;
  const kubelets: RunningKubelets[] = [];
  const clients: { close(): void }[] = [];

  beforeAll(async () => {
    cluster = await embeddedCluster();
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-nlc-'));
    const kubeconfig = join(dir, 'kubeconfig');
    await cluster.server.writeKubeconfig(kubeconfig);
    const client = () => {
      const c = kubeApiClient({
        kubeConfig: { from: 'string', yaml: cluster.server.kubeconfig },
        qps: Number.POSITIVE_INFINITY,
      });
      clients.push(c);
      return c;
    };
    // two nodes, each its own kubelet: stopping one leaves the zone partly healthy, so it is not the
    // "every zone fully disrupted" case in which the controller taints nothing
    for (const name of ['stays', 'stops']) {
      kubelets.push(
        await runKubelets({
          client: client(),
          nodeName: name,
          // Lease renewed every second (a quarter of its duration), well inside the grace period below
          config: { ...defaultKubeletConfiguration(), nodeLeaseDurationSeconds: 4 },
          runtime: 'simulated',
          rootDir: join(dir, name),
        }),
      );
    }
    scheduler = await startScheduler({
      client: client(),
      config: { leaderElection: { leaderElect: false } } as KubeSchedulerConfiguration,
      signal: AbortSignal.timeout(30_000),
    });
    manager = await startControllerManager([
      '--kubeconfig',
      kubeconfig,
      '--leader-elect=false',
      '--controllers',
      'node-lifecycle-controller,taint-eviction-controller',
      '--node-monitor-period',
      '1s',
      '--node-monitor-grace-period',
      '8s',
    ]);
  });

  afterAll(async () => {
    await manager?.stop();
    await scheduler?.stop();
    for (const k of kubelets) await k.stop();
    for (const c of clients) c.close();
    await cluster?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is tainted unreachable NoExecute and its pod evicted after tolerationSeconds; a pod tolerating it forever stays', async () => {
    const { api } = cluster;
    const forAWhile: Toleration = {
      key: UNREACHABLE,
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 2,
    };
    const forever: Toleration = { key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute' };
    for (const p of [
      pod('short', 'stops', forAWhile),
      pod('forever', 'stops', forever),
      pod('elsewhere', 'stays', forAWhile),
    ]) {
      await firstValueFrom(api.create(PODS, p as KubeObject, { namespace: 'default' }));
    }
    const running = async (name: string) => {
      const p = await firstValueFrom(api.get<Pod & KubeObject>(PODS, name, { namespace: 'default' }));
      expect(p.status?.phase).toBe('Running');
      return p;
    };
    for (const name of ['short', 'forever', 'elsewhere']) await waitFor(() => running(name), 30_000);
    // the DefaultTolerationSeconds admission left the pod's own unreachable toleration alone
    const short = await running('short');
    expect(short.spec.tolerations?.filter((t) => t.key === UNREACHABLE)).toEqual([forAWhile]);

    await kubelets[1]!.stop(); // its Lease and status stop; the API objects stay, as after a crash

    const node = await waitFor(async () => {
      const n = await firstValueFrom(api.get<Node & KubeObject>(NODES, 'stops'));
      expect(n.spec?.taints?.map((t) => `${t.key}:${t.effect}`)).toContain(`${UNREACHABLE}:NoExecute`);
      return n;
    }, 30_000);
    expect(node.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
    });

    // evicted: deleted (grace 0) by the taint eviction controller, with its Event
    await waitFor(async () => {
      const left = await firstValueFrom(api.list<Pod & KubeObject>(PODS, { namespace: 'default' }));
      const short = left.items.find((p) => p.metadata.name === 'short');
      expect(short === undefined || short.metadata.deletionTimestamp !== undefined).toBe(true);
    }, 30_000);
    const events = await firstValueFrom(api.list<KubeObject>(EVENTS, { namespace: 'default' }));
    const about = (name: string) =>
      events.items
        .filter((e) => (e as { involvedObject?: { name?: string } }).involvedObject?.name === name)
        .map((e) => (e as { reason?: string }).reason);
    expect(about('short')).toContain('TaintManagerEviction');
    expect(about('short')).toContain('NodeNotReady');

    // the pod tolerating the taint forever and the pod on the healthy node are still there, not deleting
    for (const name of ['forever', 'elsewhere']) {
      const p = await firstValueFrom(api.get<Pod & KubeObject>(PODS, name, { namespace: 'default' }));
      expect(p.metadata.deletionTimestamp, name).toBeUndefined();
    }
    const stays = await firstValueFrom(api.get<Node & KubeObject>(NODES, 'stays'));
    expect(stays.spec?.taints ?? []).toEqual([]);

    // upstream's node_collector metrics on the controller manager's /metrics: one zone of two nodes, one tainted
    const token = /token: (\S+)/.exec(cluster.server.kubeconfig)?.[1] ?? '';
    const metrics = (await secureGet(`https://127.0.0.1:${manager.securePort}/metrics`, token)).body;
    expect(metrics).toMatch(/node_collector_zone_size\{zone="[^"]*"\} 2/);
    expect(metrics).toMatch(/node_collector_evictions_total\{zone="[^"]*"\} 1/);
  });
});
