// The daemonset controller against the embedded API server, nodes and pod readiness written by the test (no scheduler, no kubelet): pods aimed at nodes by affinity, adoption, status, revisions and their trimming, a node removed.
import { firstValueFrom, type Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../../operators/api/core-v1.ts';
import { daemonPodTargetNode } from '../../../../operators/controller/daemonset/daemon-pod-node-affinity.ts';
import type {
  ControllerRevision,
  DaemonSet,
} from '../../../../operators/controller/daemonset/daemon-set-types.ts';
import { daemonSetController } from '../../../../src/controllers/daemonset/daemon-set-controller.ts';
import { type InformerFactory, informerFactory } from '../../../../src/informers/informer-factory.ts';
import { CONTROLLER_REVISIONS, DAEMON_SETS, NODES, PODS } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

const cluster = useEmbeddedCluster();
const ns = { namespace: 'default' };

const newDS = (name: string, extra: Partial<DaemonSet['spec']> = {}, image = 'nginx'): DaemonSet => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name, namespace: 'default' },
  spec: {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image }] } },
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
    ...extra,
  },
});
const addNode = (name: string, labels: Record<string, string> = {}) =>
  firstValueFrom(
    cluster.api.create<Node>(NODES, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
      spec: {},
    } as Node),
  );
const livePods = async (app: string) =>
  (await firstValueFrom(cluster.api.list<Pod>(PODS, { ...ns, labelSelector: `app=${app}` }))).items.filter(
    (p) => !p.metadata.deletionTimestamp,
  );
const targets = async (app: string) => (await livePods(app)).map((p) => daemonPodTargetNode(p)).sort();
const getDS = (name: string) => firstValueFrom(cluster.api.get<DaemonSet>(DAEMON_SETS, name, ns));
const revisions = async (app: string) =>
  (
    await firstValueFrom(
      cluster.api.list<ControllerRevision>(CONTROLLER_REVISIONS, { ...ns, labelSelector: `app=${app}` }),
    )
  ).items;

describe('daemonset controller on the embedded API server', { timeout: 30_000 }, () => {
  let factory: InformerFactory;
  let running: Subscription;

  beforeAll(async () => {
    await addNode('n1', { tier: 'a' });
    await addNode('n2', { tier: 'a' });
    await addNode('n3', { tier: 'b' });
    factory = informerFactory({ client: cluster.api });
    running = daemonSetController({ client: cluster.api, informerFactory: factory }).subscribe();
    factory.start();
  });
  afterAll(() => {
    running?.unsubscribe();
    factory?.shutdown();
  });

  it('creates one unbound pod per node, aimed by a metadata.name affinity, and a revision', async () => {
    await firstValueFrom(cluster.api.create(DAEMON_SETS, newDS('all'), ns));
    await waitFor(async () => expect(await targets('all')).toEqual(['n1', 'n2', 'n3']));
    const pods = await livePods('all');
    expect(pods.every((p) => !p.spec.nodeName)).toBe(true);
    expect(pods[0]!.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'DaemonSet',
      name: 'all',
      controller: true,
    });
    const revs = await revisions('all');
    expect(revs.map((r) => r.revision)).toEqual([1]);
    expect(
      pods.every(
        (p) =>
          p.metadata.labels?.['controller-revision-hash'] ===
          revs[0]!.metadata.labels?.['controller-revision-hash'],
      ),
    ).toBe(true);
    await waitFor(async () =>
      expect((await getDS('all')).status).toMatchObject({
        desiredNumberScheduled: 3,
        currentNumberScheduled: 3,
        numberMisscheduled: 0,
        numberReady: 0,
        numberAvailable: 0,
        numberUnavailable: 3,
        updatedNumberScheduled: 3,
        observedGeneration: 1,
      }),
    );
  });

  it('counts pods that turn ready, and recreates a deleted one', async () => {
    const pods = await livePods('all');
    for (const p of pods.slice(0, 2)) {
      await firstValueFrom(
        cluster.api.updateStatus<Pod>(
          PODS,
          {
            ...p,
            status: {
              phase: 'Running',
              conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: new Date().toISOString() }],
            },
          },
          ns,
        ),
      );
    }
    await waitFor(async () =>
      expect((await getDS('all')).status).toMatchObject({ numberReady: 2, numberAvailable: 2 }),
    );
    await firstValueFrom(cluster.api.delete(PODS, pods[2]!.metadata.name ?? '', ns));
    await waitFor(async () => {
      const now = await livePods('all');
      expect(now.map((p) => p.metadata.name)).not.toContain(pods[2]!.metadata.name);
      expect(now.map((p) => daemonPodTargetNode(p)).sort()).toEqual(['n1', 'n2', 'n3']);
    });
  });

  it('deletes a failed pod and creates its replacement', async () => {
    const victim = (await livePods('all'))[0]!;
    await firstValueFrom(cluster.api.updateStatus<Pod>(PODS, { ...victim, status: { phase: 'Failed' } }, ns));
    await waitFor(async () => {
      const now = await livePods('all');
      expect(now.map((p) => p.metadata.name)).not.toContain(victim.metadata.name);
      expect(now.map((p) => daemonPodTargetNode(p)).sort()).toEqual(['n1', 'n2', 'n3']);
    });
  });

  it('runs only on nodes matching its nodeSelector, and adopts a matching orphan instead of creating', async () => {
    const orphan = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'orphan', namespace: 'default', labels: { app: 'picky' } },
      spec: {
        containers: [{ name: 'c', image: 'nginx' }],
        nodeName: 'n1',
      },
    } as Pod;
    await firstValueFrom(cluster.api.create(PODS, orphan, ns));
    // OnDelete: the adopted pod (no revision label, so of an old revision) is not replaced
    const ds = newDS('picky', { updateStrategy: { type: 'OnDelete' } });
    ds.spec.template!.spec!.nodeSelector = { tier: 'a' };
    await firstValueFrom(cluster.api.create(DAEMON_SETS, ds, ns));
    await waitFor(async () => expect(await targets('picky')).toEqual(['n1', 'n2']));
    const adopted = (await livePods('picky')).find((p) => p.metadata.name === 'orphan');
    expect(adopted?.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'DaemonSet', name: 'picky' });
  });

  it('deletes the pod of a node that leaves the selector, and the unbound pod of a deleted node', async () => {
    const n2 = await firstValueFrom(cluster.api.get<Node>(NODES, 'n2'));
    await firstValueFrom(
      cluster.api.update<Node>(NODES, {
        ...n2,
        metadata: { ...n2.metadata, labels: { ...n2.metadata.labels, tier: 'c' } },
      }),
    );
    await waitFor(async () => expect(await targets('picky')).toEqual(['n1']));
    await firstValueFrom(cluster.api.delete(NODES, 'n3'));
    await waitFor(async () => expect(await targets('all')).toEqual(['n1', 'n2']));
    await waitFor(async () => expect((await getDS('all')).status?.desiredNumberScheduled).toBe(2));
  });

  it('keeps at most revisionHistoryLimit old revisions when no pod runs them', async () => {
    const ds = newDS('hist', {
      revisionHistoryLimit: 1,
      template: {
        metadata: { labels: { app: 'hist' } },
        spec: { containers: [{ name: 'c', image: 'v1' }], nodeSelector: { tier: 'none' } },
      },
    });
    await firstValueFrom(cluster.api.create(DAEMON_SETS, ds, ns));
    for (const image of ['v2', 'v3', 'v4']) {
      await waitFor(async () =>
        expect((await getDS('hist')).status?.observedGeneration).toBe(
          (await getDS('hist')).metadata.generation,
        ),
      );
      const cur = await getDS('hist');
      cur.spec.template!.spec!.containers[0]!.image = image;
      await firstValueFrom(cluster.api.update(DAEMON_SETS, cur, ns));
    }
    await waitFor(async () =>
      expect((await revisions('hist')).map((r) => r.revision).sort()).toEqual([3, 4]),
    );
  });
});
