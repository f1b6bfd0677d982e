// `kube-rx kubelet` end to end: N simulated kubelets join the embedded API server, run a bound pod, and stop on SIGTERM.
import { EventEmitter } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../operators/api/core-v1.ts';
import { kubeletCommand } from '../../../src/kubelet/command.ts';
import { NODES, PODS } from '../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../helpers/embedded-cluster.ts';
import { shellPod, waitForPod } from './kubelet-fixture.ts';

const cluster = useEmbeddedCluster({ port: 0 });
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('kube-rx kubelet', () => {
  it('runs 3 simulated kubelets from a config file, each with its Node, runs a pod, and stops on SIGTERM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kube-rx-kubelet-cmd-'));
    dirs.push(dir);
    const kubeconfig = join(dir, 'kubeconfig');
    await cluster.server.writeKubeconfig(kubeconfig);
    const config = join(dir, 'kubelet.yaml');
    await writeFile(
      config,
      'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 17\nhealthzPort: 0\n',
    );
    const signals = new EventEmitter();
    const lines: string[] = [];
    const done = kubeletCommand({
      stdout: { write: (line: string) => lines.push(line) },
      signals: signals as never,
    }).parseAsync(
      [
        '--kubeconfig',
        kubeconfig,
        '--config',
        config,
        '--node-name',
        'sim',
        '--runtime',
        'simulated',
        '--simulated-nodes',
        '3',
        '--root-dir',
        join(dir, 'root'),
        '--node-labels',
        'tier=sim',
        '--register-with-taints',
        'sim=yes:NoSchedule',
      ],
      { from: 'user' },
    );
    const deadline = Date.now() + 15_000;
    while (lines.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      nodes: ['sim-0', 'sim-1', 'sim-2'],
      runtime: 'simulated',
    });
    const node = await firstValueFrom(cluster.api.get<Node>(NODES, 'sim-1'));
    expect(node.metadata.labels?.tier).toBe('sim');
    expect(node.spec?.taints).toContainEqual(expect.objectContaining({ key: 'sim', effect: 'NoSchedule' }));
    expect(node.status?.capacity?.pods).toBe('17');
    await firstValueFrom(
      cluster.api.create<Pod>(PODS, shellPod('sim-pod', 'sim-2', 'sleep 1; exit 0'), {
        namespace: 'default',
      }),
    );
    await waitForPod(cluster.api, 'sim-pod', (p) => p?.status?.phase === 'Succeeded', 'Succeeded');
    signals.emit('SIGTERM');
    await done;
  });

  it('refuses to start without --kubeconfig, naming the flag', async () => {
    await expect(
      kubeletCommand({ stdout: { write: () => true } }).parseAsync([], { from: 'user' }),
    ).rejects.toThrow(/--kubeconfig/);
  });
});
