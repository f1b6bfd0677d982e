// The deployment controller against the embedded API server (with the replicaset controller, no kubelets): adoption and release of ReplicaSets, a hash collision, Recreate's order.
import { firstValueFrom, type Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { Deployment } from '../../../../operators/controller/deployment/deployment-types.ts';
import { podTemplateHash } from '../../../../operators/controller/deployment/pod-template-hash.ts';
import type { ReplicaSet } from '../../../../operators/controller/replicaset/replica-set-types.ts';
import type { KubeObject } from '../../../../operators/types.ts';
import { deploymentController } from '../../../../src/controllers/deployment/deployment-controller.ts';
import { replicaSetController } from '../../../../src/controllers/replicaset/replica-set-controller.ts';
import { type InformerFactory, informerFactory } from '../../../../src/informers/informer-factory.ts';
import { DEPLOYMENTS, EVENTS, PODS, REPLICA_SETS } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

const cluster = useEmbeddedCluster();
const ns = { namespace: 'default' };

const deployment = (name: string, extra: Partial<Deployment['spec']> = {}): Deployment => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    ...extra,
  },
});
const setsOf = async (app: string) =>
  (await firstValueFrom(cluster.api.list<ReplicaSet>(REPLICA_SETS, { ...ns, labelSelector: `app=${app}` })))
    .items;
const getD = (name: string) => firstValueFrom(cluster.api.get<Deployment>(DEPLOYMENTS, name, ns));

describe('deployment controller on the embedded API server', { timeout: 30_000 }, () => {
  let factory: InformerFactory;
  let running: Subscription;

  beforeAll(() => {
    factory = informerFactory({ client: cluster.api });
    running = deploymentController({ client: cluster.api, informerFactory: factory, workers: 2 }).subscribe();
    running.add(
      replicaSetController({ client: cluster.api, informerFactory: factory, workers: 2 }).subscribe(),
    );
    factory.start();
  });
  afterAll(() => {
    running?.unsubscribe();
    factory?.shutdown();
  });

  it('adopts a matching orphan ReplicaSet and releases one whose labels stop matching', async () => {
    const orphan: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'adopt-orphan', namespace: 'default', labels: { app: 'adopt' } },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'adopt' } },
        template: {
          metadata: { labels: { app: 'adopt' } },
          spec: { containers: [{ name: 'c', image: 'old' }] },
        },
      },
    };
    await firstValueFrom(cluster.api.create(REPLICA_SETS, orphan, ns));
    const d = await firstValueFrom(cluster.api.create<Deployment>(DEPLOYMENTS, deployment('adopt'), ns));
    await waitFor(async () => {
      const sets = await setsOf('adopt');
      expect(sets).toHaveLength(2);
      for (const rs of sets)
        expect(rs.metadata.ownerReferences).toEqual([
          expect.objectContaining({
            kind: 'Deployment',
            name: 'adopt',
            uid: d.metadata.uid,
            controller: true,
          }),
        ]);
    });
    await firstValueFrom(
      cluster.api.patch(
        REPLICA_SETS,
        'adopt-orphan',
        { metadata: { labels: { app: 'elsewhere' } } },
        'merge',
        ns,
      ),
    );
    await waitFor(async () => {
      const rs = await firstValueFrom(cluster.api.get<ReplicaSet>(REPLICA_SETS, 'adopt-orphan', ns));
      expect(rs.metadata.ownerReferences ?? []).toEqual([]);
    });
  });

  it('leaves a ReplicaSet controlled by another owner alone, even when its labels match', async () => {
    // owner-a selects tier=a: it keeps the set; the second Deployment's selector (app=shared) matches it too
    const other = await firstValueFrom(
      cluster.api.create<Deployment>(
        DEPLOYMENTS,
        deployment('owner-a', {
          replicas: 0,
          selector: { matchLabels: { tier: 'a' } },
          template: {
            metadata: { labels: { tier: 'a' } },
            spec: { containers: [{ name: 'c', image: 'nginx' }] },
          },
        }),
        ns,
      ),
    );
    const foreign: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: 'shared-foreign',
        namespace: 'default',
        labels: { app: 'shared', tier: 'a' },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: 'owner-a',
            uid: other.metadata.uid ?? '',
            controller: true,
          },
        ],
      },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'shared', tier: 'a' } },
        template: {
          metadata: { labels: { app: 'shared', tier: 'a' } },
          spec: { containers: [{ name: 'c', image: 'x' }] },
        },
      },
    };
    await firstValueFrom(cluster.api.create(REPLICA_SETS, foreign, ns));
    await firstValueFrom(cluster.api.create(DEPLOYMENTS, deployment('shared'), ns));
    await waitFor(async () => expect((await getD('shared')).status?.replicas).toBe(2));
    const rs = await firstValueFrom(cluster.api.get<ReplicaSet>(REPLICA_SETS, 'shared-foreign', ns));
    expect(rs.metadata.ownerReferences?.map((r) => r.uid)).toEqual([other.metadata.uid]);
    expect(rs.spec.replicas).toBe(0);
    // its own set is the only one it counts
    expect((await setsOf('shared')).filter((s) => s.metadata.name !== 'shared-foreign')).toHaveLength(1);
  });

  it('bumps collisionCount when its ReplicaSet name is taken by another template', async () => {
    const d = deployment('clash');
    const taken = `clash-${podTemplateHash(d.spec.template, undefined)}`;
    await firstValueFrom(
      cluster.api.create(
        REPLICA_SETS,
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: { name: taken, namespace: 'default', labels: { other: 'x' } },
          spec: {
            replicas: 0,
            selector: { matchLabels: { other: 'x' } },
            template: {
              metadata: { labels: { other: 'x' } },
              spec: { containers: [{ name: 'c', image: 'x' }] },
            },
          },
        },
        ns,
      ),
    );
    await firstValueFrom(cluster.api.create(DEPLOYMENTS, d, ns));
    await waitFor(async () => {
      expect((await getD('clash')).status?.collisionCount).toBe(1);
      const sets = await setsOf('clash');
      expect(sets.map((s) => s.metadata.name)).toEqual([`clash-${podTemplateHash(d.spec.template, 1)}`]);
    });
  });

  it('Recreate: scales the old ReplicaSet to 0 before the new one gets pods', async () => {
    await firstValueFrom(
      cluster.api.create(DEPLOYMENTS, deployment('recreate', { strategy: { type: 'Recreate' } }), ns),
    );
    await waitFor(async () => expect((await getD('recreate')).status?.replicas).toBe(2));
    await firstValueFrom(
      cluster.api.patch(
        DEPLOYMENTS,
        'recreate',
        { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:2' }] } } } },
        'strategic',
        ns,
      ),
    );
    await waitFor(async () => {
      const sets = await setsOf('recreate');
      expect(sets).toHaveLength(2);
      const byRevision = Object.fromEntries(
        sets.map((s) => [s.metadata.annotations?.['deployment.kubernetes.io/revision'], s.spec.replicas]),
      );
      expect(byRevision).toEqual({ '1': 0, '2': 2 });
      const pods = (
        await firstValueFrom(cluster.api.list<Pod>(PODS, { ...ns, labelSelector: 'app=recreate' }))
      ).items.filter((p) => !p.metadata.deletionTimestamp);
      expect(pods.map((p) => p.spec?.containers[0]?.image)).toEqual(['nginx:2', 'nginx:2']);
    }, 15_000);
    // the new set was only created once the old one was down: its creation Event follows the scale-down
    const events = await firstValueFrom(
      cluster.api.list<KubeObject & { message?: string }>(EVENTS, {
        ...ns,
        fieldSelector: 'involvedObject.name=recreate',
      }),
    );
    // in write order (resourceVersions grow with every write)
    const messages = [...events.items]
      .sort((a, b) => Number(a.metadata?.resourceVersion) - Number(b.metadata?.resourceVersion))
      .map((e) => e.message ?? '');
    const down = messages.findIndex((m) => m.startsWith('Scaled down replica set'));
    const up = messages.findLastIndex((m) => m.startsWith('Scaled up replica set'));
    expect(down).toBeGreaterThanOrEqual(0);
    expect(up).toBeGreaterThan(down);
  });
});
