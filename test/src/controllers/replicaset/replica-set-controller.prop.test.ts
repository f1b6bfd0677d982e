// Property: a ReplicaSet converges to its replica count for any interleaving of pod deletions, pod phase changes and scaling (embedded API server, few runs).
import fc from 'fast-check';
import { firstValueFrom, type Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { isPodActive } from '../../../../operators/controller/pod-deletion-order.ts';
import type { ReplicaSet } from '../../../../operators/controller/replicaset/replica-set-types.ts';
import { replicaSetController } from '../../../../src/controllers/replicaset/replica-set-controller.ts';
import { type InformerFactory, informerFactory } from '../../../../src/informers/informer-factory.ts';
import { PODS, REPLICA_SETS } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

const cluster = useEmbeddedCluster();
const ns = { namespace: 'default' };

type Step =
  | { type: 'delete'; pick: number }
  | { type: 'phase'; pick: number; phase: 'Running' | 'Failed' | 'Succeeded' }
  | { type: 'scale'; replicas: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ type: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({
    type: fc.constant('phase' as const),
    pick: fc.nat(),
    phase: fc.constantFrom('Running' as const, 'Failed' as const, 'Succeeded' as const),
  }),
  fc.record({ type: fc.constant('scale' as const), replicas: fc.integer({ min: 0, max: 4 }) }),
);

const podsOf = async (app: string) =>
  (await firstValueFrom(cluster.api.list<Pod>(PODS, { ...ns, labelSelector: `app=${app}` }))).items;

/** Applies one step; a pod already gone (the controller raced it) is not a failure of the step. */
async function apply(app: string, s: Step): Promise<void> {
  if (s.type === 'scale') {
    // a merge patch, as `kubectl scale` would not conflict with the controller's status writes
    await firstValueFrom(
      cluster.api.patch(REPLICA_SETS, app, { spec: { replicas: s.replicas } }, 'merge', ns),
    );
    return;
  }
  const active = (await podsOf(app)).filter(isPodActive);
  const pod = active[s.pick % Math.max(1, active.length)];
  if (!pod) return;
  const name = pod.metadata.name ?? '';
  const ignoreGone = (e: unknown) => {
    if (
      (e as { statusCode?: number }).statusCode !== 404 &&
      (e as { statusCode?: number }).statusCode !== 409
    )
      throw e;
  };
  if (s.type === 'delete') {
    await firstValueFrom(cluster.api.delete(PODS, name, ns)).catch(ignoreGone);
    return;
  }
  const ready = s.phase === 'Running';
  await firstValueFrom(
    cluster.api.updateStatus<Pod>(
      PODS,
      {
        ...pod,
        status: {
          phase: s.phase,
          conditions: [
            { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2024-01-01T00:00:00Z' },
          ],
        },
      },
      ns,
    ),
  ).catch(ignoreGone);
}

describe('replicaset controller convergence', { timeout: 120_000 }, () => {
  let factory: InformerFactory;
  let running: Subscription;
  let run = 0;

  beforeAll(() => {
    factory = informerFactory({ client: cluster.api });
    running = replicaSetController({ client: cluster.api, informerFactory: factory, workers: 2 }).subscribe();
    factory.start();
  });
  afterAll(() => {
    running?.unsubscribe();
    factory?.shutdown();
  });

  it('ends with exactly spec.replicas active pods, all owned by it, and a status saying so', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 4 }),
        fc.array(step, { maxLength: 8 }),
        async (initial, steps) => {
          const app = `conv-${run++}`;
          const rs: ReplicaSet = {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            metadata: { name: app, namespace: 'default' },
            spec: {
              replicas: initial,
              selector: { matchLabels: { app } },
              template: {
                metadata: { labels: { app } },
                spec: { containers: [{ name: 'c', image: 'nginx' }] },
              },
            },
          };
          const created = await firstValueFrom(cluster.api.create<ReplicaSet>(REPLICA_SETS, rs, ns));
          let want = initial;
          for (const s of steps) {
            await apply(app, s);
            if (s.type === 'scale') want = s.replicas;
          }
          await waitFor(async () => {
            const active = (await podsOf(app)).filter(isPodActive);
            expect(active).toHaveLength(want);
            for (const p of active) expect(p.metadata.ownerReferences?.[0]?.uid).toBe(created.metadata.uid);
            const live = await firstValueFrom(cluster.api.get<ReplicaSet>(REPLICA_SETS, app, ns));
            expect(live.status?.replicas).toBe(want);
            expect(live.status?.observedGeneration).toBe(live.metadata.generation);
          }, 10_000);
        },
      ),
      { numRuns: 25 },
    );
  });
});
