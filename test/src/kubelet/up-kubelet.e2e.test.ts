// `kube-rx up`'s node agent runs the kubelet: a pod bound to the local node starts a real process, and stopping the agent stops it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../operators/api/core-v1.ts';
import { type NodeAgent, startNodeAgent } from '../../../src/node-agent/node-agent.ts';
import { PODS } from '../../../streams/resources.ts';
import { eventually } from '../../helpers/eventually.ts';
import { processAlive, shellPod, waitForPod } from './kubelet-fixture.ts';

const MARKER = `: up-kubelet-${process.pid}`;
let dir: string;
let agent: NodeAgent | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kube-rx-up-kubelet-'));
  agent = await startNodeAgent({
    nodeName: 'up-node',
    port: 0,
    healthPort: 0,
    kubeconfigOut: join(dir, 'kubeconfig'),
    kubeletRootDir: join(dir, 'kubelet'),
    runScheduler: false,
  });
});
afterAll(async () => {
  await agent?.stop(5000);
  await rm(dir, { recursive: true, force: true });
});

describe('kube-rx up with the kubelet', () => {
  it('runs a pod bound to its node to Succeeded, and stopping it leaves no process behind', async () => {
    if (!agent) throw new Error('no agent');
    await firstValueFrom(
      agent.client.create<Pod>(PODS, shellPod('hello', 'up-node', 'echo hi; exit 0'), {
        namespace: 'default',
      }),
    );
    const done = await waitForPod(
      agent.client,
      'hello',
      (p) => p?.status?.phase === 'Succeeded',
      'Succeeded',
    );
    expect(done?.status?.containerStatuses?.[0]?.state?.terminated?.exitCode).toBe(0);

    await firstValueFrom(
      agent.client.create<Pod>(
        PODS,
        shellPod('server', 'up-node', `${MARKER}; while true; do sleep 0.2; done`, {
          restartPolicy: 'Always',
        }),
        {
          namespace: 'default',
        },
      ),
    );
    await waitForPod(agent.client, 'server', (p) => p?.status?.phase === 'Running', 'Running');
    const pids = (await import('node:child_process'))
      .execFileSync('pgrep', ['-f', MARKER])
      .toString()
      .trim()
      .split('\n')
      .map(Number)
      .filter((pid) => pid > 0);
    expect(pids.length).toBeGreaterThan(0);
    await agent.stop(10_000);
    agent = undefined;
    // a namespaced container's bwrap wrapper may still be on its way out (reparented to init): allow it a moment
    await eventually(() => expect(pids.filter(processAlive)).toEqual([]), 5_000);
  });
});
