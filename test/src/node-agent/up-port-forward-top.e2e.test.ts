// kube-rx up end to end with kubectl: port-forward reaches an HTTP server in a pod, and top shows the pod and the node.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeAgent, startNodeAgent } from '../../../src/node-agent/node-agent.ts';
import { KUBECTL } from '../../helpers/kubectl.ts';
import { freePort } from '../kubelet/server/free-port.ts';

const run = promisify(execFile);

function get(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => {
        body += d.toString();
      });
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error('no answer')));
    req.end();
  });
}

describe.skipIf(!KUBECTL)('kube-rx up: kubectl port-forward and top', () => {
  let dir: string;
  let agent: NodeAgent;
  const kubeconfig = () => join(dir, 'kubeconfig');
  const kubectl = (...args: string[]) =>
    run(KUBECTL!, ['--kubeconfig', kubeconfig(), ...args], { timeout: 20_000 });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kube-rx-up-pf-'));
    agent = await startNodeAgent({
      nodeName: 'desk',
      port: 0,
      healthPort: 0,
      kubeletPort: await freePort(),
      kubeconfigOut: kubeconfig(),
      kubeletRootDir: join(dir, 'kubelet'),
    });
  });

  afterAll(async () => {
    await agent?.stop(5000);
    await rm(dir, { recursive: true, force: true });
  });

  it('forwards a local port to the pod and shows its usage with top', async () => {
    const podPort = await freePort();
    const server = `require('http').createServer((q, s) => s.end('hello through up\\n')).listen(${podPort}, '127.0.0.1')`;
    await kubectl('run', 'web', '--image=node', '--command', '--', process.execPath, '-e', server);
    let phase = '';
    for (let i = 0; i < 100 && phase !== 'Running'; i++) {
      phase = (await kubectl('get', 'pod', 'web', '-o', 'jsonpath={.status.phase}')).stdout;
      if (phase !== 'Running') await new Promise((r) => setTimeout(r, 200));
    }
    expect(phase).toBe('Running');

    const local = await freePort();
    const forward = spawn(
      KUBECTL!,
      ['--kubeconfig', kubeconfig(), 'port-forward', 'pod/web', `${local}:${podPort}`],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<void>((resolve) => forward.once('close', () => resolve()));
    const guard = setTimeout(() => forward.kill('SIGKILL'), 30_000);
    try {
      await new Promise<void>((resolve, reject) => {
        forward.stdout.on('data', (d: Buffer) => {
          if (d.toString().includes('Forwarding from')) resolve();
        });
        void exited.then(() => reject(new Error('kubectl port-forward exited')));
      });
      // the server may still be starting after the pod is Running
      let body = '';
      for (let i = 0; i < 25 && body === ''; i++) {
        body = await get(local).catch(() => '');
        if (body === '') await new Promise((r) => setTimeout(r, 200));
      }
      expect(body).toBe('hello through up\n');
    } finally {
      forward.kill('SIGTERM');
      await exited;
      clearTimeout(guard);
    }

    const pods = (await kubectl('top', 'pod')).stdout;
    expect(pods).toMatch(/^NAME\s+CPU\(cores\)\s+MEMORY\(bytes\)/);
    expect(pods).toMatch(/\nweb\s+\d+m\s+\d+Mi/);
    const nodes = (await kubectl('top', 'node')).stdout;
    expect(nodes).toMatch(/\ndesk\s+\d+m\s+\d+%\s+\d+Mi\s+\d+%/);
  }, 60_000);
});
