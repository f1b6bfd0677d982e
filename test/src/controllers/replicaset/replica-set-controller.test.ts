// The replicaset controller against the embedded API server (pod readiness written by the test): quota failures and the ReplicaFailure condition, release, availability, recreation, adoption rules.
import { firstValueFrom, type Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { ReplicaSet } from '../../../../operators/controller/replicaset/replica-set-types.ts';
import { replicaSetController } from '../../../../src/controllers/replicaset/replica-set-controller.ts';
import { type InformerFactory, informerFactory } from '../../../../src/informers/informer-factory.ts';
import type { ApiClient, ResourceDescriptor } from '../../../../streams/api-client.ts';
import { PODS, REPLICA_SETS } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

const cluster = useEmbeddedCluster({ builtinNamespaceControllers: true });
const QUOTAS: ResourceDescriptor = {
  group: '',
  version: 'v1',
  plural: 'resourcequotas',
  kind: 'ResourceQuota',
  namespaced: true,
};
const NAMESPACES: ResourceDescriptor = {
  group: '',
  version: 'v1',
  plural: 'namespaces',
  kind: 'Namespace',
  namespaced: false,
};

const newRS = (
  name: string,
  namespace: string,
  replicas: number,
  extra: Partial<ReplicaSet['spec']> = {},
): ReplicaSet => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name, namespace },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    ...extra,
  },
});
const activePods = async (name: string, namespace = 'default') =>
  (
    await firstValueFrom(cluster.api.list<Pod>(PODS, { namespace, labelSelector: `app=${name}` }))
  ).items.filter((p) => !p.metadata.deletionTimestamp);
const getRS = (name: string, namespace = 'default') =>
  firstValueFrom(cluster.api.get<ReplicaSet>(REPLICA_SETS, name, { namespace }));
const createRS = (rs: ReplicaSet) =>
  firstValueFrom(
    cluster.api.create<ReplicaSet>(REPLICA_SETS, rs, { namespace: rs.metadata.namespace ?? '' }),
  );
const count = async (name: string, n: number, namespace = 'default') =>
  waitFor(async () => {
    const pods = await activePods(name, namespace);
    expect(pods).toHaveLength(n);
    return pods;
  });

describe('replicaset controller on the embedded API server', { timeout: 30_000 }, () => {
  let factory: InformerFactory;
  let running: Subscription;

  beforeAll(() => {
    factory = informerFactory({ client: cluster.api });
    running = replicaSetController({ client: cluster.api, informerFactory: factory, workers: 2 }).subscribe();
    factory.start();
  });
  afterAll(() => {
    running?.unsubscribe();
    factory?.shutdown();
  });

  it('sets ReplicaFailure FailedCreate when a quota refuses pods, and clears it once they fit', async () => {
    await firstValueFrom(
      cluster.api.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'quota' } }),
    );
    await firstValueFrom(
      cluster.api.create(
        QUOTAS,
        {
          apiVersion: 'v1',
          kind: 'ResourceQuota',
          metadata: { name: 'pods', namespace: 'quota' },
          spec: { hard: { pods: '2' } },
        },
        { namespace: 'quota' },
      ),
    );
    await createRS(newRS('capped', 'quota', 3));
    await count('capped', 2, 'quota');
    const failed = await waitFor(async () => {
      const rs = await getRS('capped', 'quota');
      const cond = rs.status?.conditions?.find((c) => c.type === 'ReplicaFailure');
      expect(cond).toMatchObject({ status: 'True', reason: 'FailedCreate' });
      // the first failed sync counted the pods it had before creating; a retry counts the two created
      expect(rs.status?.replicas).toBe(2);
      return rs;
    });
    expect(failed.status?.conditions?.[0]?.message).toContain('exceeded quota');
    const quota = await firstValueFrom(cluster.api.get(QUOTAS, 'pods', { namespace: 'quota' }));
    await firstValueFrom(
      cluster.api.update(QUOTAS, { ...quota, spec: { hard: { pods: '5' } } }, { namespace: 'quota' }),
    );
    await count('capped', 3, 'quota');
    await waitFor(async () => {
      const rs = await getRS('capped', 'quota');
      expect(rs.status?.conditions ?? []).toEqual([]);
      expect(rs.status).toMatchObject({ replicas: 3, observedGeneration: rs.metadata.generation });
    });
  });

  it('releases a pod whose labels stop matching and creates a replacement', async () => {
    await createRS(newRS('release', 'default', 1));
    const [pod] = await count('release', 1);
    const live = await firstValueFrom(
      cluster.api.get<Pod>(PODS, pod!.metadata.name!, { namespace: 'default' }),
    );
    await firstValueFrom(
      cluster.api.update<Pod>(
        PODS,
        { ...live, metadata: { ...live.metadata, labels: { app: 'elsewhere' } } },
        { namespace: 'default' },
      ),
    );
    await count('release', 1);
    await waitFor(async () => {
      const released = await firstValueFrom(
        cluster.api.get<Pod>(PODS, pod!.metadata.name!, { namespace: 'default' }),
      );
      expect(released.metadata.ownerReferences ?? []).toEqual([]);
    });
  });

  it('leaves pods controlled by another owner alone', async () => {
    await firstValueFrom(
      cluster.api.create<Pod>(
        PODS,
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: 'taken',
            namespace: 'default',
            labels: { app: 'shared' },
            ownerReferences: [
              {
                apiVersion: 'apps/v1',
                kind: 'ReplicaSet',
                name: 'other',
                uid: 'other-uid',
                controller: true,
              },
            ],
          },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
        { namespace: 'default' },
      ),
    );
    await createRS(newRS('shared', 'default', 1));
    const pods = await count('shared', 2);
    const mine = pods.filter((p) => p.metadata.ownerReferences?.[0]?.name === 'shared');
    expect(mine).toHaveLength(1);
    await waitFor(async () => expect((await getRS('shared')).status?.replicas).toBe(1));
  });

  it('counts readyReplicas at once and availableReplicas only after minReadySeconds', async () => {
    await createRS(newRS('avail', 'default', 1, { minReadySeconds: 1 }));
    const [pod] = await count('avail', 1);
    const live = await firstValueFrom(
      cluster.api.get<Pod>(PODS, pod!.metadata.name!, { namespace: 'default' }),
    );
    await firstValueFrom(
      cluster.api.updateStatus<Pod>(
        PODS,
        {
          ...live,
          status: {
            phase: 'Running',
            conditions: [
              {
                type: 'Ready',
                status: 'True',
                lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
              },
            ],
          },
        },
        { namespace: 'default' },
      ),
    );
    await waitFor(async () => expect((await getRS('avail')).status).toMatchObject({ readyReplicas: 1 }));
    // the controller looks again after minReadySeconds (+1 s) by itself
    await waitFor(
      async () =>
        expect((await getRS('avail')).status).toMatchObject({ readyReplicas: 1, availableReplicas: 1 }),
      8000,
    );
  });

  it('neither adopts nor creates for a ReplicaSet being deleted', async () => {
    const rs = newRS('going', 'default', 0);
    rs.metadata.finalizers = ['example.com/hold'];
    await createRS(rs);
    await firstValueFrom(cluster.api.delete(REPLICA_SETS, 'going', { namespace: 'default' }));
    await firstValueFrom(
      cluster.api.create<Pod>(
        PODS,
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'going-orphan', namespace: 'default', labels: { app: 'going' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
        { namespace: 'default' },
      ),
    );
    const patched = await firstValueFrom(
      cluster.api.patch<ReplicaSet>(REPLICA_SETS, 'going', { spec: { replicas: 2 } }, 'merge', {
        namespace: 'default',
      }),
    );
    expect(patched.metadata.deletionTimestamp).toBeDefined();
    // the controller has looked at the new generation (status written), and still did nothing
    await waitFor(async () =>
      expect((await getRS('going')).status?.observedGeneration).toBe(patched.metadata.generation),
    );
    const pods = await activePods('going');
    expect(pods.map((p) => p.metadata.name)).toEqual(['going-orphan']);
    expect(pods[0]?.metadata.ownerReferences ?? []).toEqual([]);
    await firstValueFrom(
      cluster.api.patch(REPLICA_SETS, 'going', { metadata: { finalizers: null } }, 'merge', {
        namespace: 'default',
      }),
    );
  });

  it('scales down first the pod on the node crowded with pods of its Deployment’s other ReplicaSets', async () => {
    const dep = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'dep', uid: 'dep-uid', controller: true };
    const orphan = (name: string, app: string, nodeName: string): Pod => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default', labels: { app } },
      spec: { nodeName, containers: [{ name: 'c', image: 'nginx' }] },
    });
    for (const pod of [
      orphan('crowd-a2', 'crowd-a', 'n2'),
      orphan('crowd-b1', 'crowd-b', 'n2'),
      orphan('crowd-a1', 'crowd-a', 'n1'),
    ])
      await firstValueFrom(cluster.api.create<Pod>(PODS, pod, { namespace: 'default' }));
    // crowd-a1 restarted often: without the co-location rank (which comes first) it would be the one to go
    const a1 = await firstValueFrom(cluster.api.get<Pod>(PODS, 'crowd-a1', { namespace: 'default' }));
    await firstValueFrom(
      cluster.api.updateStatus<Pod>(
        PODS,
        {
          ...a1,
          status: {
            phase: 'Pending',
            containerStatuses: [{ name: 'c', ready: false, restartCount: 5, image: 'nginx', imageID: '' }],
          },
        },
        { namespace: 'default' },
      ),
    );
    for (const [name, replicas] of [
      ['crowd-a', 2],
      ['crowd-b', 1],
    ] as const) {
      const rs = newRS(name, 'default', replicas);
      rs.metadata.ownerReferences = [dep];
      await createRS(rs);
    }
    await waitFor(async () => expect((await getRS('crowd-a')).status?.replicas).toBe(2));
    await firstValueFrom(
      cluster.api.patch(REPLICA_SETS, 'crowd-a', { spec: { replicas: 1 } }, 'merge', {
        namespace: 'default',
      }),
    );
    const [left] = await count('crowd-a', 1);
    expect(left?.metadata.name).toBe('crowd-a1');
    expect((await activePods('crowd-b')).map((p) => p.metadata.name)).toEqual(['crowd-b1']);
  });

  it('adopts a pod whose only owner references are not controllers, keeping them', async () => {
    const other = { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: 'cm-uid', controller: false };
    await firstValueFrom(
      cluster.api.create<Pod>(
        PODS,
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: 'co-owned',
            namespace: 'default',
            labels: { app: 'coown' },
            ownerReferences: [other],
          },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
        { namespace: 'default' },
      ),
    );
    const rs = await createRS(newRS('coown', 'default', 1));
    await waitFor(async () => {
      const pod = await firstValueFrom(cluster.api.get<Pod>(PODS, 'co-owned', { namespace: 'default' }));
      expect(pod.metadata.ownerReferences).toEqual([
        other,
        expect.objectContaining({
          kind: 'ReplicaSet',
          name: 'coown',
          uid: rs.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        }),
      ]);
    });
    expect((await activePods('coown')).map((p) => p.metadata.name)).toEqual(['co-owned']);
  });

  it('replaces a pod that failed', async () => {
    await createRS(newRS('phase', 'default', 1));
    const [pod] = await count('phase', 1);
    const live = await firstValueFrom(
      cluster.api.get<Pod>(PODS, pod!.metadata.name!, { namespace: 'default' }),
    );
    await firstValueFrom(
      cluster.api.updateStatus<Pod>(PODS, { ...live, status: { phase: 'Failed' } }, { namespace: 'default' }),
    );
    await waitFor(async () => {
      const pods = (await activePods('phase')).filter((p) => p.status?.phase !== 'Failed');
      expect(pods).toHaveLength(1);
      expect(pods[0]?.metadata.name).not.toBe(pod!.metadata.name);
    });
  });
});

describe('replicaset controller expectations and burst', { timeout: 30_000 }, () => {
  let factory: InformerFactory;
  let running: Subscription;
  let creates = 0;
  let deletes = 0;

  beforeAll(() => {
    const counting: ApiClient = {
      ...cluster.api,
      create: (resource, object, opts) => {
        if (resource.plural === 'pods') creates++;
        return cluster.api.create(resource, object, opts);
      },
      delete: (resource, name, opts) => {
        if (resource.plural === 'pods') deletes++;
        return cluster.api.delete(resource, name, opts);
      },
    } as ApiClient;
    factory = informerFactory({ client: cluster.api });
    running = replicaSetController({
      client: counting,
      informerFactory: factory,
      burstReplicas: 2,
    }).subscribe();
    factory.start();
  });
  afterAll(() => {
    running?.unsubscribe();
    factory?.shutdown();
  });

  // this controller starts on a cluster where the first suite's ReplicaSets already have their pods: it must
  // wait for the pod cache before syncing them, or it would create a second set (counted in `creates`)
  it('creates exactly the missing pods in bursts of 2 (waiting for each burst to be observed), then deletes exactly the surplus', async () => {
    await createRS(newRS('burst', 'default', 7));
    await count('burst', 7);
    await waitFor(async () => expect((await getRS('burst')).status?.replicas).toBe(7));
    expect(creates).toBe(7);
    expect(deletes).toBe(0);
    await firstValueFrom(
      cluster.api.patch(REPLICA_SETS, 'burst', { spec: { replicas: 2 } }, 'merge', { namespace: 'default' }),
    );
    await count('burst', 2);
    await waitFor(async () => expect((await getRS('burst')).status?.replicas).toBe(2));
    expect(deletes).toBe(5);
    expect(creates).toBe(7);
  });
});
