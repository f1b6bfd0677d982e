// Two `kube-rx scheduler` processes with leader election on Lease kube-system/kube-scheduler: only the leader binds, and the other takes over.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../../src/apiserver/index.ts';
import { KUBECTL, kubectl, type SchedulerProcess, startSchedulerProcess } from './scheduler-process.ts';
import { waitFor } from './wait-for.ts';

const pods = (names: string[]) =>
  names
    .map(
      (name) =>
        `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}, namespace: default}\nspec:\n  containers: [{name: c, image: nginx}]\n---\n`,
    )
    .join('');

/** Pods this process logged as bound. */
const boundBy = (p: SchedulerProcess): string[] =>
  p
    .stderr()
    .split('\n')
    .filter((l) => l.includes('Successfully bound pod to node'))
    .map((l) => (JSON.parse(l) as { pod: string }).pod);

describe.skipIf(!KUBECTL)('kube-rx scheduler leader election', { timeout: 90_000 }, () => {
  let server: RunningApiServer;
  let dir: string;
  let kubeconfig: string;
  const procs: SchedulerProcess[] = [];

  const ok = async (args: string[], input?: string) => {
    const r = await kubectl(kubeconfig, args, input);
    expect(r.stderr, `kubectl ${args.join(' ')}`).toBe('');
    return r.stdout;
  };
  const holder = () =>
    ok(['get', 'lease', '-n', 'kube-system', 'kube-scheduler', '-o', 'jsonpath={.spec.holderIdentity}']);
  const allBound = (names: string[]) =>
    waitFor(async () => {
      const out = await ok([
        'get',
        'pods',
        '-o',
        'jsonpath={range .items[*]}{.metadata.name}={.spec.nodeName}{"\\n"}{end}',
      ]);
      for (const n of names) expect(out).toMatch(new RegExp(`^${n}=n1$`, 'm'));
    }, 20_000);

  beforeAll(async () => {
    server = await startApiServer();
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-scheduler-le-'));
    kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
    await ok(
      ['apply', '-f', '-'],
      'apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: "100", memory: 100Gi, pods: "500"}}\n',
    );
    const args = [
      '--kubeconfig',
      kubeconfig,
      '--secure-port',
      '0',
      '--leader-elect-lease-duration',
      '2s',
      '--leader-elect-renew-deadline',
      '1500ms',
      '--leader-elect-retry-period',
      '250ms',
    ];
    procs.push(...(await Promise.all([startSchedulerProcess(args), startSchedulerProcess(args)])));
  });

  afterAll(async () => {
    for (const p of procs) await p.stop();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('binds every pod exactly once, all by the leader, and hands over when the leader stops', async () => {
    await waitFor(async () => expect(await holder()).not.toBe(''));
    const first = Array.from({ length: 12 }, (_, i) => `first-${i}`);
    await ok(['apply', '-f', '-'], pods(first));
    await allBound(first);
    const [a, b] = procs as [SchedulerProcess, SchedulerProcess];
    const byA = boundBy(a);
    const byB = boundBy(b);
    expect(byA.length === 0 || byB.length === 0).toBe(true);
    expect([...byA, ...byB].sort()).toEqual(first.map((n) => `default/${n}`).sort());
    const scheduled = await ok(['get', 'events', '--field-selector', 'reason=Scheduled', '-o', 'name']);
    expect(scheduled.trim().split('\n')).toHaveLength(first.length);
    const failed = await ok(['get', 'events', '--field-selector', 'reason=FailedScheduling', '-o', 'name']);
    expect(failed).toBe('');

    const [leader, follower] = byA.length > 0 ? [a, b] : [b, a];
    const leaderCount = boundBy(leader).length;
    expect(await leader.stop()).toBe(0);
    const second = Array.from({ length: 5 }, (_, i) => `second-${i}`);
    await ok(['apply', '-f', '-'], pods(second));
    await allBound(second);
    expect(boundBy(follower).sort()).toEqual(second.map((n) => `default/${n}`).sort());
    expect(boundBy(leader)).toHaveLength(leaderCount);
  });
});
