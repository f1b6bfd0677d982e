// kube-rx up end to end with kubectl: a pod is scheduled, runs, and kubectl logs and exec reach it through the kubelet server.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeAgent, startNodeAgent } from '../../../src/node-agent/node-agent.ts';
import { NODES } from '../../../streams/resources.ts';

const run = promisify(execFile);

describe('kube-rx up: kubectl run, logs and exec', () => {
  let dir: string;
  let agent: NodeAgent;
  const kubectl = (...args: string[]) =>
    run('kubectl', ['--kubeconfig', join(dir, 'kubeconfig'), ...args], { timeout: 20_000 });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kube-rx-up-logs-'));
    agent = await startNodeAgent({
      nodeName: 'laptop',
      port: 0,
      healthPort: 0,
      kubeletPort: 20_000 + Math.floor(Math.random() * 20_000),
      kubeconfigOut: join(dir, 'kubeconfig'),
      kubeletRootDir: join(dir, 'kubelet'),
    });
  });

  afterAll(async () => {
    await agent?.stop(5000);
    await rm(dir, { recursive: true, force: true });
  });

  it('the node is on loopback, and a pod created with kubectl runs and answers logs and exec', async () => {
    const node = (await firstValueFrom(agent.client.get(NODES, 'laptop'))) as {
      status?: { addresses?: { type: string; address: string }[] };
    };
    expect(node.status?.addresses).toEqual(
      expect.arrayContaining([{ type: 'InternalIP', address: '127.0.0.1' }]),
    );
    await kubectl(
      'run',
      'web',
      '--image=busybox',
      '--command',
      '--',
      'sh',
      '-c',
      'echo hello from web; sleep 300',
    );
    let phase = '';
    for (let i = 0; i < 100 && phase !== 'Running'; i++) {
      phase = (await kubectl('get', 'pod', 'web', '-o', 'jsonpath={.status.phase}')).stdout;
      if (phase !== 'Running') await new Promise((r) => setTimeout(r, 200));
    }
    expect(phase).toBe('Running');
    const ips = (await kubectl('get', 'pod', 'web', '-o', 'jsonpath={.status.hostIP} {.status.podIP}'))
      .stdout;
    expect(ips).toBe('127.0.0.1 127.0.0.1');
    let logs = '';
    for (let i = 0; i < 50 && !logs.includes('hello'); i++) {
      logs = (await kubectl('logs', 'web')).stdout;
      if (!logs.includes('hello')) await new Promise((r) => setTimeout(r, 200));
    }
    expect(logs).toBe('hello from web\n');
    const { stdout } = await kubectl('exec', 'web', '--', 'echo', 'inside');
    expect(stdout).toBe('inside\n');
  }, 60_000);
});
