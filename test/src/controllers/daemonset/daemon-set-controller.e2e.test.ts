// The daemonset controller end to end: the embedded API server, kube-rx scheduler, two simulated kubelets, kube-rx controller-manager (daemonset) and kubectl — a pod on every node, one more on a node added later, a rolling update and `kubectl rollout status`.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultKubeletConfiguration } from '../../../../src/kubelet/kubelet-configuration.ts';
import { type RunningKubelets, runKubelets } from '../../../../src/kubelet/run-kubelets.ts';
import { useControlPlane } from '../../../helpers/control-plane.ts';
import { KUBECTL } from '../../scheduler/scheduler-process.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

const manifest = (image: string) =>
  JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      // written out: the API server does not yet default a DaemonSet's updateStrategy (upstream: RollingUpdate, maxUnavailable 1)
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revisionHistoryLimit: 10,
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: { containers: [{ name: 'agent', image }] },
      },
    },
  });

describe.skipIf(!KUBECTL)('daemonset controller end to end', { timeout: 120_000 }, () => {
  const plane = useControlPlane({
    controllerManager: ['--controllers', 'daemonset', '--kube-api-qps', '1000', '--kube-api-burst', '1000'],
    nodes: 2,
  });
  let extra: RunningKubelets | undefined;
  afterAll(async () => {
    await extra?.stop();
  });
  const json = async (args: string[]) => JSON.parse(await plane.ok([...args, '-o', 'json']));
  type PodView = {
    metadata: { deletionTimestamp?: string; labels: Record<string, string> };
    spec: { nodeName?: string };
  };
  /** node → revision hash of the live daemon pods. */
  const podsByNode = async () => {
    const list = await json(['get', 'pods', '-l', 'app=agent']);
    return Object.fromEntries(
      (list.items as PodView[])
        .filter((p) => !p.metadata.deletionTimestamp)
        .map((p) => [p.spec.nodeName ?? '', p.metadata.labels['controller-revision-hash']]),
    );
  };
  const rolloutStatus = async () => {
    const r = await plane.kubectl(['rollout', 'status', 'ds/agent', '--timeout=60s']);
    expect(r.stderr).toBe('');
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain('daemon set "agent" successfully rolled out');
  };

  it('runs one pod on every node and `kubectl rollout status` returns', async () => {
    await plane.ok(['apply', '-f', '-'], manifest('busybox:1'));
    await rolloutStatus();
    const byNode = await podsByNode();
    expect(Object.keys(byNode).sort()).toEqual(['sim-0', 'sim-1']);
    const ds = await json(['get', 'ds', 'agent']);
    expect(ds.status).toMatchObject({
      desiredNumberScheduled: 2,
      currentNumberScheduled: 2,
      numberMisscheduled: 0,
      numberReady: 2,
      updatedNumberScheduled: 2,
      numberAvailable: 2,
      observedGeneration: ds.metadata.generation,
    });
    const revs = await json(['get', 'controllerrevisions', '-l', 'app=agent']);
    expect(revs.items).toHaveLength(1);
    expect(revs.items[0].revision).toBe(1);
    expect(Object.values(byNode)).toEqual([
      revs.items[0].metadata.labels['controller-revision-hash'],
      revs.items[0].metadata.labels['controller-revision-hash'],
    ]);
  });

  it('follows a node added later', async () => {
    extra = await runKubelets({
      client: plane.client,
      nodeName: 'late',
      config: defaultKubeletConfiguration(),
      runtime: 'simulated',
      simulatedNodes: 1,
      rootDir: join(plane.dir, 'kubelet-late'),
    });
    await waitFor(async () => expect(Object.keys(await podsByNode())).toContain('late'), 60_000);
    await rolloutStatus();
    expect(Object.keys(await podsByNode()).sort()).toEqual(['late', 'sim-0', 'sim-1']);
  });

  it('rolls a new template out node by node and keeps both revisions', async () => {
    await plane.ok(['apply', '-f', '-'], manifest('busybox:2'));
    await rolloutStatus();
    const revs = await json(['get', 'controllerrevisions', '-l', 'app=agent']);
    expect(revs.items.map((r: { revision: number }) => r.revision).sort()).toEqual([1, 2]);
    const current = revs.items.find((r: { revision: number }) => r.revision === 2).metadata.labels[
      'controller-revision-hash'
    ];
    expect(await podsByNode()).toEqual({ late: current, 'sim-0': current, 'sim-1': current });
    const history = await plane.ok(['rollout', 'history', 'ds/agent']);
    expect(history).toMatch(/REVISION\s+CHANGE-CAUSE\s+1\s+<none>\s+2\s+<none>/);
  });

  it('`kubectl rollout undo` brings the first template back as revision 3', async () => {
    const before = await json(['get', 'controllerrevisions', '-l', 'app=agent']);
    const first = before.items.find((r: { revision: number }) => r.revision === 1).metadata;
    expect(await plane.ok(['rollout', 'undo', 'ds/agent'])).toContain('daemonset.apps/agent rolled back');
    await rolloutStatus();
    const ds = await json(['get', 'ds', 'agent']);
    expect(ds.spec.template.spec.containers[0].image).toBe('busybox:1');
    const after = await json(['get', 'controllerrevisions', '-l', 'app=agent']);
    const byName = Object.fromEntries(
      after.items.map((r: { metadata: { name: string }; revision: number }) => [r.metadata.name, r.revision]),
    );
    expect(byName[first.name]).toBe(3);
    const hash = first.labels['controller-revision-hash'];
    expect(await podsByNode()).toEqual({ late: hash, 'sim-0': hash, 'sim-1': hash });
  });

  it('follows node labels, NoExecute taints and cordons', async () => {
    const picky = JSON.parse(manifest('busybox:1'));
    picky.metadata.name = 'picky';
    picky.spec.selector.matchLabels = { app: 'picky' };
    picky.spec.template.metadata.labels = { app: 'picky' };
    picky.spec.template.spec.nodeSelector = { role: 'agent' };
    await plane.ok(['apply', '-f', '-'], JSON.stringify(picky));
    const pickyNodes = async () => {
      const list = await json(['get', 'pods', '-l', 'app=picky']);
      return (list.items as PodView[])
        .filter((p) => !p.metadata.deletionTimestamp)
        .map((p) => p.spec.nodeName ?? '')
        .sort();
    };
    await waitFor(async () =>
      expect((await json(['get', 'ds', 'picky'])).status?.observedGeneration).toBe(1),
    );
    expect(await pickyNodes()).toEqual([]);
    await plane.ok(['label', 'node', 'sim-0', 'sim-1', 'role=agent']);
    await waitFor(async () => expect(await pickyNodes()).toEqual(['sim-0', 'sim-1']), 60_000);
    await plane.ok(['taint', 'node', 'sim-0', 'evict=now:NoExecute']);
    await waitFor(async () => expect(await pickyNodes()).toEqual(['sim-1']), 60_000);
    // a cordoned node still runs daemon pods (they tolerate node.kubernetes.io/unschedulable)
    await plane.ok(['cordon', 'late']);
    await plane.ok(['label', 'node', 'late', 'role=agent']);
    await waitFor(async () => expect(await pickyNodes()).toEqual(['late', 'sim-1']), 60_000);
    const r = await plane.kubectl(['rollout', 'status', 'ds/picky', '--timeout=60s']);
    expect(r.stdout).toContain('daemon set "picky" successfully rolled out');
    const ds = await json(['get', 'ds', 'picky']);
    expect(ds.status).toMatchObject({
      desiredNumberScheduled: 2,
      currentNumberScheduled: 2,
      numberMisscheduled: 0,
    });
  });

  it('rolls out with maxSurge 1 and maxUnavailable 0', async () => {
    // sim-0 keeps the previous test's NoExecute taint, so agent runs on late and sim-1 only
    await plane.ok([
      'patch',
      'ds/agent',
      '--type=merge',
      '-p',
      JSON.stringify({
        spec: {
          updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
          template: { spec: { containers: [{ name: 'agent', image: 'busybox:3' }] } },
        },
      }),
    ]);
    await rolloutStatus();
    const revs = await json(['get', 'controllerrevisions', '-l', 'app=agent']);
    const newest = revs.items.reduce((a: { revision: number }, b: { revision: number }) =>
      a.revision > b.revision ? a : b,
    );
    const hash = newest.metadata.labels['controller-revision-hash'];
    await waitFor(async () => expect(await podsByNode()).toEqual({ late: hash, 'sim-1': hash }), 60_000);
    expect(newest.revision).toBe(4);
  });
});
