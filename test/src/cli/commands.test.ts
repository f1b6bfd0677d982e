// The CLI as users run it: every subcommand is registered, and pod-config --kubeconfig watches a real API server.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { startApiServer } from '../../../src/apiserver/index.ts';
import { buildProgram } from '../../../src/cli/main.ts';
import { kubeApiClient } from '../../../streams/client-node/kube-api-client.ts';
import { PODS } from '../../../streams/resources.ts';

const root = resolve(import.meta.dirname, '../../..');

describe('kube-rx CLI', () => {
  it('registers up, apiserver, pod-config, leader-elect, kubelet, scheduler and controller-manager', () => {
    expect(buildProgram().commands.map((c) => c.name())).toEqual([
      'up',
      'apiserver',
      'pod-config',
      'leader-elect',
      'kubelet',
      'scheduler',
      'controller-manager',
    ]);
  });

  it('pod-config --kubeconfig prints the pods bound to the node from the API server', async () => {
    const server = await startApiServer();
    const dir = await mkdtemp(join(tmpdir(), 'kube-rx-pc-'));
    const kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
    const api = kubeApiClient({ kubeConfig: { from: 'string', yaml: server.kubeconfig } });
    const child = spawn(
      process.execPath,
      [join(root, 'bin/kube-rx.js'), 'pod-config', '--kubeconfig', kubeconfig, '--node-name', 'n1'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      const first = JSON.parse((await lines.next()).value as string);
      expect(first).toEqual({ op: 'ADD', source: 'api', pods: [] });
      await firstValueFrom(
        api.create(
          PODS,
          {
            metadata: { name: 'web' },
            spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx' }] },
          },
          { namespace: 'default' },
        ),
      );
      await firstValueFrom(
        api.create(
          PODS,
          {
            metadata: { name: 'elsewhere' },
            spec: { nodeName: 'n2', containers: [{ name: 'c', image: 'nginx' }] },
          },
          { namespace: 'default' },
        ),
      );
      const next = JSON.parse((await lines.next()).value as string);
      expect(next.op).toBe('ADD');
      expect(next.pods.map((p: { metadata: { name: string } }) => p.metadata.name)).toEqual(['web']);
      const exited = new Promise<number | null>((done) => child.once('exit', done));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      api.close();
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
