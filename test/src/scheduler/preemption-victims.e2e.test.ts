// End to end against the embedded API server: a preemption victim gets DisruptionTarget (PreemptionByScheduler) and the Preempted event; the preemptor is nominated, then bound once the victim is gone.
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Node, Pod, PodCondition } from '../../../operators/api/core-v1.ts';
import { type RunningScheduler, startScheduler } from '../../../src/scheduler/start-scheduler.ts';
import { EVENTS, NODES, PODS, PRIORITY_CLASSES } from '../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../helpers/embedded-cluster.ts';
import { waitFor } from './wait-for.ts';

const node: Node = {
  metadata: { name: 'only' },
  spec: {},
  status: { allocatable: { cpu: '2', memory: '4Gi', pods: '110' } },
};
const pod = (name: string, cpu: string, extra: Partial<Pod['spec']> = {}): Pod => ({
  metadata: { name, namespace: 'default' },
  spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu } } }], ...extra },
});

describe('preemption victims', { timeout: 60_000 }, () => {
  const cluster = useEmbeddedCluster();
  let running: RunningScheduler;
  const get = (name: string) =>
    firstValueFrom(cluster.api.get(PODS, name, { namespace: 'default' })) as Promise<Pod>;

  beforeAll(async () => {
    await firstValueFrom(cluster.api.create(NODES, node));
    await firstValueFrom(
      cluster.api.create(PRIORITY_CLASSES, {
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: { name: 'urgent' },
        value: 5000,
      } as never),
    );
    running = await startScheduler({
      client: cluster.api,
      config: { leaderElection: { leaderElect: false } },
      signal: AbortSignal.timeout(20_000),
    });
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('marks the victim DisruptionTarget, records Preempted, nominates the preemptor, binds it once the victim is gone', async () => {
    // A victim bound to the node, with a grace period: deleting it leaves it terminating for a while.
    await firstValueFrom(
      cluster.api.create(
        PODS,
        pod('victim', '1500m', { nodeName: 'only', terminationGracePeriodSeconds: 30 }),
      ),
    );
    const preemptor = (await firstValueFrom(
      cluster.api.create(PODS, pod('preemptor', '1500m', { priorityClassName: 'urgent' })),
    )) as Pod;

    const condition = await waitFor(async () => {
      const v = await get('victim').catch(() => undefined);
      const c = v?.status?.conditions?.find((x: PodCondition) => x.type === 'DisruptionTarget');
      expect(c).toBeDefined();
      return c!;
    });
    expect(condition).toMatchObject({
      status: 'True',
      reason: 'PreemptionByScheduler',
      message: 'default-scheduler: preempting to accommodate a higher priority pod',
    });
    expect(condition.lastTransitionTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const preempted = await waitFor(async () => {
      const list = await firstValueFrom(
        cluster.api.list(EVENTS, { namespace: 'default', fieldSelector: 'involvedObject.name=victim' }),
      );
      const e = (list.items as unknown as { reason: string; message: string; type: string }[]).find(
        (x) => x.reason === 'Preempted',
      );
      expect(e).toBeDefined();
      return e!;
    });
    expect(preempted).toMatchObject({
      type: 'Normal',
      message: `Preempted by pod ${preemptor.metadata.uid} on node only`,
    });

    await waitFor(async () => {
      expect((await get('preemptor')).status?.nominatedNodeName).toBe('only');
    });

    // The victim goes away (the kubelet would confirm its termination); the preemptor is then bound.
    await firstValueFrom(
      cluster.api.delete(PODS, 'victim', { namespace: 'default', gracePeriodSeconds: 0 }),
    ).catch(() => undefined);
    await waitFor(async () => {
      expect((await get('preemptor')).spec.nodeName).toBe('only');
    }, 20_000);
  });
});
