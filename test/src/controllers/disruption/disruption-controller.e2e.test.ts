// The disruption controller end to end: kube-rx controller-manager (replicaset, deployment, disruption), the embedded API server, kube-rx scheduler, one simulated node and kubectl — a budget's status follows its pods, and `kubectl drain` stops at it.
import { describe, expect, it } from 'vitest';
import { useControlPlane } from '../../../helpers/control-plane.ts';
import { KUBECTL } from '../../scheduler/scheduler-process.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

const REFUSED = "Cannot evict pod as it would violate the pod's disruption budget.";

describe.skipIf(!KUBECTL)('disruption controller end to end', { timeout: 120_000 }, () => {
  const plane = useControlPlane({
    nodes: 1,
    controllerManager: ['--controllers', 'replicaset,deployment,disruption'],
  });
  const ok = plane.ok;
  const budget = async () => JSON.parse(await ok(['get', 'pdb', 'web', '-o', 'json']));
  const runningWebPods = async () =>
    (
      JSON.parse(await ok(['get', 'pods', '-l', 'app=web', '-o', 'json'])).items as {
        metadata: { deletionTimestamp?: string };
        spec: { nodeName?: string };
      }[]
    ).filter((p) => p.spec.nodeName && !p.metadata.deletionTimestamp).length;

  it('writes the budget of a 2-replica Deployment: 2 expected, 2 healthy, none allowed at minAvailable 2', async () => {
    expect(plane.manager!.started.controllers).toEqual([
      'deployment-controller',
      'replicaset-controller',
      'disruption-controller',
    ]);
    await ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=2']);
    const rolled = await plane.kubectl(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    expect(rolled.code).toBe(0);
    await ok(['create', 'pdb', 'web', '--selector=app=web', '--min-available=2']);
    await waitFor(async () => {
      const pdb = await budget();
      expect(pdb.status).toMatchObject({
        observedGeneration: 1,
        expectedPods: 2,
        currentHealthy: 2,
        desiredHealthy: 2,
        disruptionsAllowed: 0,
      });
      expect(pdb.status.conditions).toEqual([
        expect.objectContaining({ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods' }),
      ]);
    }, 20_000);
  });

  it('`kubectl drain` stops at the budget, retrying with the eviction refusal, and no pod leaves', async () => {
    const drain = await plane.kubectl(['drain', 'sim', '--timeout=6s', '--disable-eviction=false']);
    expect(drain.code).not.toBe(0);
    expect(drain.stderr).toContain(REFUSED);
    expect(drain.stderr).toContain('will retry after 5s');
    expect(await runningWebPods()).toBe(2);
  });

  it("a percentage budget follows the Deployment's scale, and drain then evicts exactly the one pod it allows", async () => {
    await ok([
      'patch',
      'pdb',
      'web',
      '--type=merge',
      '-p',
      JSON.stringify({ spec: { minAvailable: '50%' } }),
    ]);
    await waitFor(async () => {
      expect((await budget()).status).toMatchObject({
        observedGeneration: 2,
        expectedPods: 2,
        desiredHealthy: 1,
        disruptionsAllowed: 1,
      });
    }, 20_000);
    const drain = await plane.kubectl(['drain', 'sim', '--timeout=8s']);
    expect(drain.stdout).toMatch(/pod\/web-[a-z0-9-]+ evicted/);
    expect(drain.code).not.toBe(0);
    expect(drain.stderr).toContain(REFUSED);
    expect(await runningWebPods()).toBe(1);
    // the replacement stays Pending on the cordoned node; the budget counts 1 healthy and allows nothing more
    await waitFor(async () => {
      expect((await budget()).status).toMatchObject({ currentHealthy: 1, disruptionsAllowed: 0 });
    }, 20_000);
  });
});
