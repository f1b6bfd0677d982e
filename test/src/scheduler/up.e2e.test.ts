// `kube-rx up` (what `npm start` runs) schedules: `kubectl run web --image=nginx` gets the agent's node.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { KUBECTL, kubectl } from './scheduler-process.ts';
import { waitFor } from './wait-for.ts';

const ROOT = join(import.meta.dirname, '../../..');

describe.skipIf(!KUBECTL)('kube-rx up with kubectl', { timeout: 60_000 }, () => {
  it('binds a pod made by `kubectl run` to its node, records Scheduled, keeps its JSON line, and stops with 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kube-rx-up-sched-'));
    const child = spawn(
      join(ROOT, 'node_modules/.bin/node'),
      [join(ROOT, 'bin/kube-rx.js'), 'up', '--port', '0', '--health-port', '0', '--node-name', 'up-node'],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    try {
      const line = await new Promise<string>((done, fail) => {
        createInterface({ input: child.stdout }).once('line', done);
        child.once('exit', (code) => fail(new Error(`exited ${code}: ${stderr}`)));
      });
      const info = JSON.parse(line) as { server: string; kubeconfig: string; node: string; health: string };
      expect(Object.keys(info)).toEqual(['server', 'kubeconfig', 'node', 'health']);
      const run = await kubectl(info.kubeconfig, ['run', 'web', '--image=nginx']);
      expect(run.code).toBe(0);
      await waitFor(async () => {
        const r = await kubectl(info.kubeconfig, ['get', 'pod', 'web', '-o', 'jsonpath={.spec.nodeName}']);
        expect(r.stdout).toBe('up-node');
      });
      const events = await kubectl(info.kubeconfig, [
        'get',
        'events',
        '--field-selector',
        'involvedObject.name=web,reason=Scheduled',
        '-o',
        'jsonpath={.items[*].message}',
      ]);
      expect(events.stdout).toBe('Successfully assigned default/web to up-node');
      const classes = await kubectl(info.kubeconfig, ['get', 'priorityclasses', '-o', 'name']);
      expect(classes.stdout.trim().split('\n').sort()).toEqual([
        'priorityclass.scheduling.k8s.io/system-cluster-critical',
        'priorityclass.scheduling.k8s.io/system-node-critical',
      ]);
      const metrics = await (await fetch(`${info.health}/metrics`)).text();
      expect(metrics).toContain(
        'scheduler_schedule_attempts_total{result="scheduled",profile="default-scheduler"} 1',
      );
      const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });
});
