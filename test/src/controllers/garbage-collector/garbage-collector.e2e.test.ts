// The garbage collector end to end: kube-rx controller-manager (deployment, replicaset, garbagecollector) with the scheduler and simulated kubelets against the embedded API server, driven by kubectl delete --cascade.
import { firstValueFrom, type Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { KubeObject } from '../../../../operators/types.ts';
import { CONFIG_MAPS, DEPLOYMENTS, PODS, REPLICA_SETS } from '../../../../streams/resources.ts';
import { useControlPlane } from '../../../helpers/control-plane.ts';
import { secureGet } from '../../../helpers/controller-manager.ts';
import { KUBECTL } from '../../../helpers/kubectl.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

const replicaSet = (name: string) => `apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: ${name}, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      terminationGracePeriodSeconds: 1
      containers: [{name: web, image: nginx}]
`;

describe.skipIf(!KUBECTL)('garbage collector end to end', { timeout: 120_000 }, () => {
  const plane = useControlPlane({
    controllerManager: ['--leader-elect=false', '--controllers', 'deployment,replicaset,garbagecollector'],
  });
  const ok = (args: string[], input?: string) => plane.ok(args, input);
  const ns = { namespace: 'default' };

  /** DELETED events of pods, replica sets and deployments, in the order the API server sent them. */
  const deletions: string[] = [];
  let watches: Subscription | undefined;

  const podsOf = async (app: string) =>
    (await firstValueFrom(plane.client.list<Pod>(PODS, { ...ns, labelSelector: `app=${app}` }))).items;
  const exists = async (resource: typeof CONFIG_MAPS, name: string) =>
    firstValueFrom(plane.client.get(resource, name, ns)).then(
      (o) => o,
      () => undefined,
    );
  const runningPods = async (app: string) => {
    await ok(['create', '-f', '-'], replicaSet(app));
    return waitFor(async () => {
      const pods = await podsOf(app);
      expect(pods.filter((p) => p.status?.phase === 'Running')).toHaveLength(2);
      return pods;
    }, 30_000);
  };
  const configMap = (name: string, extra: Partial<KubeObject['metadata']> = {}) =>
    firstValueFrom(
      plane.client.create(
        CONFIG_MAPS,
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra } },
        ns,
      ),
    );
  const refTo = (o: KubeObject, more: { blockOwnerDeletion?: boolean } = {}) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    name: o.metadata?.name ?? '',
    uid: o.metadata?.uid ?? '',
    ...more,
  });

  beforeAll(() => {
    const note = (kind: string) => (e: { type: string; object: KubeObject }) => {
      if (e.type === 'DELETED') deletions.push(`${kind}/${e.object.metadata?.name}`);
    };
    watches = plane.client.watch(PODS, ns).subscribe(note('pod'));
    watches.add(plane.client.watch(REPLICA_SETS, ns).subscribe(note('rs')));
    watches.add(plane.client.watch(DEPLOYMENTS, ns).subscribe(note('deploy')));
  });
  afterAll(() => watches?.unsubscribe());

  it('starts the garbage collector by its alias, with its health check and its queues in /metrics', async () => {
    expect(plane.manager?.started.controllers).toContain('garbage-collector-controller');
    const base = `https://127.0.0.1:${plane.manager?.securePort}`;
    expect(await secureGet(`${base}/healthz/garbage-collector-controller`, plane.token)).toEqual({
      status: 200,
      body: 'ok',
    });
    const metrics = (await secureGet(`${base}/metrics`, plane.token)).body;
    expect(metrics).toContain('workqueue_depth{name="garbage_collector_attempt_to_delete"}');
    expect(metrics).toContain('workqueue_depth{name="garbage_collector_attempt_to_orphan"}');
    expect(metrics).toContain('garbagecollector_controller_resources_sync_error_total');
  });

  it('--cascade=foreground removes the pods first, then the replica set', async () => {
    const pods = await runningPods('fg');
    await ok(['delete', 'rs', 'fg', '--cascade=foreground', '--wait=false']);
    // while it waits for its pods it carries foregroundDeletion (unless it is already gone)
    const rs = await firstValueFrom(plane.client.get(REPLICA_SETS, 'fg', ns)).catch(() => undefined);
    if (rs) expect(rs.metadata?.finalizers).toContain('foregroundDeletion');
    await waitFor(async () => expect(deletions).toContain('rs/fg'), 30_000);
    const rsAt = deletions.indexOf('rs/fg');
    for (const p of pods) {
      const at = deletions.indexOf(`pod/${p.metadata.name}`);
      expect(at, `pod ${p.metadata.name} deleted before its replica set`).toBeGreaterThanOrEqual(0);
      expect(at).toBeLessThan(rsAt);
    }
  });

  it('kubectl delete deployment --cascade=foreground removes its pods, then its replica set, then itself', async () => {
    await ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=2']);
    const pods = await waitFor(async () => {
      const running = (await podsOf('web')).filter((p) => p.status?.phase === 'Running');
      expect(running).toHaveLength(2);
      return running;
    }, 30_000);
    const rsName = pods[0]?.metadata.ownerReferences?.[0]?.name ?? '';
    expect(rsName).toMatch(/^web-/);
    await ok(['delete', 'deployment', 'web', '--cascade=foreground']);
    const at = (what: string) => deletions.indexOf(what);
    await waitFor(async () => expect(deletions).toContain('deploy/web'), 10_000);
    expect(at('deploy/web')).toBeGreaterThan(at(`rs/${rsName}`));
    for (const p of pods) expect(at(`pod/${p.metadata.name}`)).toBeLessThan(at(`rs/${rsName}`));
    expect(at(`pod/${pods[0]?.metadata.name}`)).toBeGreaterThanOrEqual(0);
  });

  it('--cascade=background removes the replica set, then its pods', async () => {
    const pods = await runningPods('bg');
    await ok(['delete', 'rs', 'bg', '--cascade=background']);
    await waitFor(async () => expect(await podsOf('bg')).toHaveLength(0), 30_000);
    const rsAt = deletions.indexOf('rs/bg');
    expect(rsAt).toBeGreaterThanOrEqual(0);
    for (const p of pods) expect(deletions.indexOf(`pod/${p.metadata.name}`)).toBeGreaterThan(rsAt);
  });

  it('--cascade=orphan leaves the pods running without owner references', async () => {
    await runningPods('orph');
    await ok(['delete', 'rs', 'orph', '--cascade=orphan']);
    await waitFor(async () => expect(await exists(REPLICA_SETS, 'orph')).toBeUndefined(), 30_000);
    const pods = await podsOf('orph');
    expect(pods).toHaveLength(2);
    for (const p of pods) {
      expect(p.metadata.ownerReferences ?? []).toEqual([]);
      expect(p.metadata.deletionTimestamp).toBeUndefined();
    }
  });

  it('collects a ConfigMap whose owner is deleted, and one whose owner never existed', async () => {
    const owner = await configMap('owner-a');
    await configMap('dep-a', { ownerReferences: [refTo(owner)] });
    await configMap('dep-ghost', {
      ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: 'no-such-uid' }],
    });
    await configMap('dep-two', { ownerReferences: [refTo(owner), refTo(await configMap('owner-b'))] });
    await ok(['delete', 'configmap', 'owner-a']);
    await waitFor(async () => {
      expect(await exists(CONFIG_MAPS, 'dep-a')).toBeUndefined();
      expect(await exists(CONFIG_MAPS, 'dep-ghost')).toBeUndefined();
    }, 30_000);
    // the dependent with a second, live owner stays, without the reference to the deleted one
    await waitFor(async () => {
      const two = await exists(CONFIG_MAPS, 'dep-two');
      expect(two?.metadata?.ownerReferences?.map((r) => r.name)).toEqual(['owner-b']);
    }, 30_000);
  });

  it('blockOwnerDeletion keeps a foreground-deleted owner until its dependent is gone', async () => {
    const boss = await configMap('boss');
    await configMap('worker', {
      ownerReferences: [refTo(boss, { blockOwnerDeletion: true })],
      finalizers: ['example.com/hold'],
    });
    await ok(['delete', 'configmap', 'boss', '--cascade=foreground', '--wait=false']);
    // the collector deletes the worker, which its own finalizer holds
    await waitFor(
      async () => expect((await exists(CONFIG_MAPS, 'worker'))?.metadata?.deletionTimestamp).toBeDefined(),
      30_000,
    );
    // and the boss waits for it: look again once the collector has finished later work (a marker pair)
    const marker = await configMap('marker-owner');
    await configMap('marker-dep', { ownerReferences: [refTo(marker)] });
    await ok(['delete', 'configmap', 'marker-owner']);
    await waitFor(async () => expect(await exists(CONFIG_MAPS, 'marker-dep')).toBeUndefined(), 30_000);
    const waiting = await exists(CONFIG_MAPS, 'boss');
    expect(waiting?.metadata?.finalizers).toEqual(['foregroundDeletion']);
    await ok(['patch', 'configmap', 'worker', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    await waitFor(async () => {
      expect(await exists(CONFIG_MAPS, 'worker')).toBeUndefined();
      expect(await exists(CONFIG_MAPS, 'boss')).toBeUndefined();
    }, 30_000);
  });
});
