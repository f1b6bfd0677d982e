// The statefulset controller against the embedded API server (no kubelets: pod status is written by the test) — claims before pods, ordered start, Parallel, adoption, Events and status.
import { firstValueFrom, type Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { StatefulSet } from '../../../../operators/controller/statefulset/stateful-set-types.ts';
import type { KubeObject } from '../../../../operators/types.ts';
import { statefulSetController } from '../../../../src/controllers/statefulset/stateful-set-controller.ts';
import { type InformerFactory, informerFactory } from '../../../../src/informers/informer-factory.ts';
import {
  CONTROLLER_REVISIONS,
  EVENTS,
  PERSISTENT_VOLUME_CLAIMS,
  PODS,
  STATEFUL_SETS,
} from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

const cluster = useEmbeddedCluster();
const ns = { namespace: 'default' };

const statefulSet = (name: string, spec: Partial<StatefulSet['spec']> = {}): StatefulSet => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name, namespace: 'default' },
  spec: {
    replicas: 2,
    serviceName: name,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'c', image: 'busybox', command: ['sleep', '3600'] }] },
    },
    ...spec,
  },
});
const claimTemplate = {
  metadata: { name: 'data' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
};
const names = async (resource: typeof PODS, app: string) =>
  (await firstValueFrom(cluster.api.list<KubeObject>(resource, { ...ns, labelSelector: `app=${app}` }))).items
    .map((o) => o.metadata?.name ?? '')
    .sort();
/** The pod Running and Ready, as a kubelet would report it. */
const runReady = async (name: string) => {
  const pod = await firstValueFrom(cluster.api.get<Pod>(PODS, name, ns));
  const at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  await firstValueFrom(
    cluster.api.updateStatus<Pod>(
      PODS,
      {
        ...pod,
        status: {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at }],
        },
      },
      ns,
    ),
  );
};
const events = async (name: string) =>
  (
    await firstValueFrom(
      cluster.api.list<KubeObject & { reason: string; message: string }>(EVENTS, {
        ...ns,
        fieldSelector: `involvedObject.name=${name}`,
      }),
    )
  ).items.map((e) => `${e.reason}: ${e.message}`);

describe('statefulset controller on the embedded API server', { timeout: 30_000 }, () => {
  let factory: InformerFactory;
  let running: Subscription;

  beforeAll(() => {
    factory = informerFactory({ client: cluster.api });
    running = statefulSetController({
      client: cluster.api,
      informerFactory: factory,
      workers: 2,
    }).subscribe();
    factory.start();
  });
  afterAll(() => {
    running?.unsubscribe();
    factory?.shutdown();
  });

  it('creates each pod claim before its pod, one ordinal at a time, waiting for readiness', async () => {
    await firstValueFrom(
      cluster.api.create(STATEFUL_SETS, statefulSet('db', { volumeClaimTemplates: [claimTemplate] }), ns),
    );
    await waitFor(async () => expect(await names(PODS, 'db')).toEqual(['db-0']));
    expect(await names(PERSISTENT_VOLUME_CLAIMS, 'db')).toEqual(['data-db-0']);
    const pod = await firstValueFrom(cluster.api.get<Pod>(PODS, 'db-0', ns));
    expect(pod.spec.volumes?.[0]).toEqual({
      name: 'data',
      persistentVolumeClaim: { claimName: 'data-db-0' },
    });
    await runReady('db-0');
    await waitFor(async () => expect(await names(PODS, 'db')).toEqual(['db-0', 'db-1']));
    expect(await names(PERSISTENT_VOLUME_CLAIMS, 'db')).toEqual(['data-db-0', 'data-db-1']);
    await runReady('db-1');
    await waitFor(async () => {
      const set = await firstValueFrom(cluster.api.get<StatefulSet>(STATEFUL_SETS, 'db', ns));
      expect(set.status).toMatchObject({
        replicas: 2,
        readyReplicas: 2,
        availableReplicas: 2,
        updatedReplicas: 2,
      });
    });
    const said = await events('db');
    expect(said).toContain('SuccessfulCreate: create Claim data-db-0 Pod db-0 in StatefulSet db success');
    expect(said).toContain('SuccessfulCreate: create Pod db-1 in StatefulSet db successful');
    const revisions = await names(CONTROLLER_REVISIONS, 'db');
    expect(revisions).toHaveLength(1);
    expect(pod.metadata.labels?.['controller-revision-hash']).toBe(revisions[0]);
  });

  it('owns claims as persistentVolumeClaimRetentionPolicy says: the set, then a scaled-away pod', async () => {
    const created = await firstValueFrom(
      cluster.api.create<StatefulSet>(
        STATEFUL_SETS,
        statefulSet('keep', {
          podManagementPolicy: 'Parallel',
          volumeClaimTemplates: [claimTemplate],
          persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' },
        }),
        ns,
      ),
    );
    const ownersOf = async (name: string) =>
      (await firstValueFrom(cluster.api.get<KubeObject>(PERSISTENT_VOLUME_CLAIMS, name, ns))).metadata
        ?.ownerReferences ?? [];
    await waitFor(async () =>
      expect(await names(PERSISTENT_VOLUME_CLAIMS, 'keep')).toEqual(['data-keep-0', 'data-keep-1']),
    );
    expect(await ownersOf('data-keep-1')).toEqual([
      { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'keep', uid: created.metadata.uid },
    ]);
    const pod1 = await firstValueFrom(cluster.api.get<Pod>(PODS, 'keep-1', ns));
    await firstValueFrom(cluster.api.patch(STATEFUL_SETS, 'keep', { spec: { replicas: 1 } }, 'merge', ns));
    await waitFor(async () =>
      expect(await ownersOf('data-keep-1')).toEqual([
        { apiVersion: 'v1', kind: 'Pod', name: 'keep-1', uid: pod1.metadata.uid },
      ]),
    );
    await waitFor(async () => expect(await names(PODS, 'keep')).toEqual(['keep-0']));
  });

  it('under Parallel creates every pod at once', async () => {
    await firstValueFrom(
      cluster.api.create(
        STATEFUL_SETS,
        statefulSet('par', { replicas: 3, podManagementPolicy: 'Parallel' }),
        ns,
      ),
    );
    await waitFor(async () => expect(await names(PODS, 'par')).toEqual(['par-0', 'par-1', 'par-2']));
  });

  it('adopts an orphan pod with its name and labels', async () => {
    const orphan: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'adopt-0', namespace: 'default', labels: { app: 'adopt' } },
      spec: { containers: [{ name: 'c', image: 'busybox' }] },
    };
    const created = await firstValueFrom(cluster.api.create<Pod>(PODS, orphan, ns));
    // under OrderedReady the identity of a pod is repaired once it is Running and Ready; OnDelete keeps a pod of
    // no known revision (RollingUpdate would replace it)
    await runReady('adopt-0');
    const set = await firstValueFrom(
      cluster.api.create<StatefulSet>(
        STATEFUL_SETS,
        statefulSet('adopt', { replicas: 1, updateStrategy: { type: 'OnDelete' } }),
        ns,
      ),
    );
    await waitFor(async () => {
      const pod = await firstValueFrom(cluster.api.get<Pod>(PODS, 'adopt-0', ns));
      expect(pod.metadata.uid).toBe(created.metadata.uid);
      expect(pod.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'StatefulSet', uid: set.metadata.uid });
      // and its identity labels put back
      expect(pod.metadata.labels?.['statefulset.kubernetes.io/pod-name']).toBe('adopt-0');
    });
  });
});
