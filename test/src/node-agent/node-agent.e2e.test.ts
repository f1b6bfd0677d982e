// End to end: the node agent on the embedded API server — registration, lease, readiness, pod updates, shutdown.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { filter, firstValueFrom, take, timeout } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readiness } from '../../../src/node-agent/health-server.ts';
import { type NodeAgent, startNodeAgent } from '../../../src/node-agent/node-agent.ts';
import { LEASES, NODES, PODS } from '../../../streams/resources.ts';

const root = resolve(import.meta.dirname, '../../..');

describe('readiness', () => {
  it.each([
    [[], true],
    [[{ state: 'watching', synced: true }], true],
    [[{ state: 'watching', synced: true }, undefined], false],
    [[{ state: 'listing', synced: false }], false],
    [[{ state: 'backingOff', synced: true }], false],
  ] as const)('%j is ready: %s', (healths, ready) => {
    const sources = healths.map((h, i) => ({ name: `s${i}`, health: () => (h ? { ...h } : undefined) }));
    expect(readiness(sources).ready).toBe(ready);
  });
});

describe('node agent on the embedded API server', () => {
  let dir: string;
  let agent: NodeAgent;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kube-rx-agent-'));
    await writeFile(
      join(dir, 'static.yaml'),
      'apiVersion: v1\nkind: Pod\nmetadata: {name: static-web}\nspec: {containers: [{name: c, image: nginx}]}\n',
    );
    agent = await startNodeAgent({
      nodeName: 'node-a',
      port: 0,
      healthPort: 0,
      kubeconfigOut: join(dir, 'kubeconfig'),
      podManifestPath: join(dir, 'static.yaml'),
      nodeLeaseRenewMs: 200,
    });
  });

  afterAll(async () => {
    await agent?.stop(5000);
    await rm(dir, { recursive: true, force: true });
  });

  it('registers its Node and keeps its lease renewed', async () => {
    const node = await firstValueFrom(agent.client.get(NODES, 'node-a'));
    expect(node.metadata?.labels?.['kubernetes.io/hostname']).toBe('node-a');
    const first = await firstValueFrom(agent.client.get(LEASES, 'node-a', { namespace: 'kube-node-lease' }));
    await new Promise((r) => setTimeout(r, 700));
    const later = await firstValueFrom(agent.client.get(LEASES, 'node-a', { namespace: 'kube-node-lease' }));
    expect((later.spec as { holderIdentity: string }).holderIdentity).toBe('node-a');
    expect(Number(later.metadata?.resourceVersion)).toBeGreaterThan(Number(first.metadata?.resourceVersion));
  });

  it('answers /readyz 200 once the informers have synced, with a check per stream', async () => {
    let body: { ready: boolean; checks: Record<string, { state: string }> } | undefined;
    for (let i = 0; i < 50 && !body?.ready; i++) {
      const res = await fetch(`${agent.healthUrl}/readyz`);
      body = (await res.json()) as typeof body;
      if (!body?.ready) await new Promise((r) => setTimeout(r, 100));
    }
    expect(body?.ready).toBe(true);
    expect(Object.keys(body?.checks ?? {})).toEqual(['informer:pods', 'informer:nodes']);
    expect((await fetch(`${agent.healthUrl}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${agent.healthUrl}/metrics`)).text()).toContain('process_cpu');
  });

  it('sees a pod bound to its node through the pod configuration and its pods informer', async () => {
    const bound = firstValueFrom(
      agent.podUpdates$.pipe(
        filter((u) => u.source === 'api' && u.op === 'ADD' && u.pods.some((p) => p.metadata?.name === 'web')),
        take(1),
        timeout(10_000),
      ),
    );
    await firstValueFrom(
      agent.client.create(
        PODS,
        {
          metadata: { name: 'web' },
          spec: { nodeName: 'node-a', containers: [{ name: 'c', image: 'nginx' }] },
        },
        { namespace: 'default' },
      ),
    );
    const update = await bound;
    expect(update.pods.map((p) => p.metadata?.name)).toEqual(['web']);
    const names = agent.pods
      .getStore()
      .list()
      .map((p) => p.metadata?.name);
    expect(names).toContain('web');
  });
});

describe('kube-rx up as a process', () => {
  it('prints where it runs, serves kubectl-compatible state, and exits 0 on SIGTERM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kube-rx-up-'));
    const child = spawn(
      process.execPath,
      [join(root, 'bin/kube-rx.js'), 'up', '--port', '0', '--health-port', '0', '--node-name', 'n-up'],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    try {
      const line = await new Promise<string>((done, fail) => {
        createInterface({ input: child.stdout }).once('line', done);
        child.once('exit', (code) => fail(new Error(`exited ${code}: ${stderr}`)));
      });
      const info = JSON.parse(line) as { server: string; kubeconfig: string; node: string; health: string };
      expect(info.node).toBe('n-up');
      expect(info.kubeconfig).toBe(join(dir, '.kube-rx/kubeconfig'));
      expect((await fetch(`${info.health}/healthz`)).status).toBe(200);
      const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stderr).toContain('"msg":"stopped"');
    } finally {
      child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a bad flag with the flag named and a non-zero exit', async () => {
    const child = spawn(process.execPath, [join(root, 'bin/kube-rx.js'), 'up', '--health-port', 'eighty'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
    expect(code).not.toBe(0);
    expect(stderr).toContain('--health-port');
  });
});
