// The scheduler assembly against the embedded API server over HTTPS: informer events reach the cache and the queue, pods get bound.
import type { Subscription } from 'rxjs';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../operators/api/core-v1.ts';
import { newScheduler, type Scheduler } from '../../../src/scheduler/scheduler.ts';
import { NODES, PODS, PRIORITY_CLASSES } from '../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../helpers/embedded-cluster.ts';
import { waitFor } from './wait-for.ts';

const node = (
  name: string,
  cpu: string,
  extra: Partial<Node['spec']> = {},
  labels: Record<string, string> = {},
): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
  spec: { ...extra },
  status: {
    capacity: { cpu, memory: '8Gi', pods: '110' },
    allocatable: { cpu, memory: '8Gi', pods: '110' },
    conditions: [{ type: 'Ready', status: 'True' }],
  },
});

const pod = (name: string, cpu: string, spec: Partial<Pod['spec']> = {}): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu } } }], ...spec },
});

describe('newScheduler against the embedded API server', () => {
  const cluster = useEmbeddedCluster();
  let scheduler: Scheduler;
  let loop: Subscription;

  beforeAll(async () => {
    for (const n of [
      node('small', '1'),
      node('big', '8'),
      node('tainted', '16', { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] }),
    ])
      await firstValueFrom(cluster.api.create(NODES, n));
    scheduler = newScheduler({ client: cluster.api });
    expect(await scheduler.start(AbortSignal.timeout(20_000))).toBe(true);
    loop = scheduler.run$.subscribe();
  });

  afterAll(async () => {
    loop?.unsubscribe();
    await scheduler?.stop();
  });

  const nodeOf = async (name: string) =>
    (await firstValueFrom(cluster.api.get<Pod>(PODS, name, { namespace: 'default' }))).spec.nodeName;

  it('binds a pod to the only node with room for it', async () => {
    await firstValueFrom(cluster.api.create(PODS, pod('needs-4', '4')));
    await waitFor(async () => expect(await nodeOf('needs-4')).toBe('big'));
  });

  it('binds a pod that tolerates the taint where it fits', async () => {
    await firstValueFrom(
      cluster.api.create(
        PODS,
        pod('db', '12', {
          tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' }],
        }),
      ),
    );
    await waitFor(async () => expect(await nodeOf('db')).toBe('tainted'));
  });

  const whereIs = (name: string) => scheduler.queue.whereIs('default', name);
  const patchNode = (name: string, patch: unknown) =>
    firstValueFrom(cluster.api.patch(NODES, name, patch, 'merge'));

  it('retries a pending pod when a node becomes schedulable again (uncordon: UpdateNodeTaint)', async () => {
    await firstValueFrom(cluster.api.create(NODES, node('cordoned', '32', { unschedulable: true })));
    await firstValueFrom(cluster.api.create(PODS, pod('needs-20', '20')));
    await waitFor(async () => expect(whereIs('needs-20')).toBe('unschedulable'));
    await patchNode('cordoned', { spec: { unschedulable: null } });
    await waitFor(async () => expect(await nodeOf('needs-20')).toBe('cordoned'));
    expect(whereIs('needs-20')).toBeUndefined();
    await waitFor(async () =>
      expect(scheduler.cache.nodeInfo('cordoned')!.pods.map((p) => p.pod.metadata.name)).toEqual([
        'needs-20',
      ]),
    );
  });

  it('retries a pending pod when a node gains allocatable (UpdateNodeAllocatable)', async () => {
    await firstValueFrom(cluster.api.create(PODS, pod('needs-40', '40')));
    await waitFor(async () => expect(whereIs('needs-40')).toBe('unschedulable'));
    await firstValueFrom(
      cluster.api.patch(
        NODES,
        'small',
        { status: { allocatable: { cpu: '64' }, capacity: { cpu: '64' } } },
        'merge',
        {
          subresource: 'status',
        },
      ),
    );
    await waitFor(async () => expect(await nodeOf('needs-40')).toBe('small'));
  });

  it('drops a pending pod from the queue when it is deleted', async () => {
    await firstValueFrom(cluster.api.create(PODS, pod('too-big', '500')));
    await waitFor(async () => expect(whereIs('too-big')).toBe('unschedulable'));
    await firstValueFrom(
      cluster.api.delete(PODS, 'too-big', { namespace: 'default', gracePeriodSeconds: 0 }),
    );
    await waitFor(async () => expect(whereIs('too-big')).toBeUndefined());
  });

  it('takes a pod bound by someone else out of the queue and into the cache', async () => {
    await firstValueFrom(cluster.api.create(PODS, pod('bound-elsewhere', '500')));
    await waitFor(async () => expect(whereIs('bound-elsewhere')).toBe('unschedulable'));
    await firstValueFrom(
      cluster.api.bind({ namespace: 'default', name: 'bound-elsewhere', nodeName: 'big' }),
    );
    await waitFor(async () => expect(whereIs('bound-elsewhere')).toBeUndefined());
    await waitFor(async () =>
      expect(scheduler.cache.nodeInfo('big')!.pods.map((p) => p.pod.metadata.name)).toContain(
        'bound-elsewhere',
      ),
    );
  });

  it('ignores pods of another scheduler', async () => {
    await firstValueFrom(cluster.api.create(PODS, pod('not-mine', '1', { schedulerName: 'someone-else' })));
    await firstValueFrom(cluster.api.create(PODS, pod('mine-after', '1')));
    await waitFor(async () => expect(await nodeOf('mine-after')).toBeDefined());
    expect(scheduler.informers.pods.getStore().getByKey('default/not-mine')).toBeDefined();
    expect(whereIs('not-mine')).toBeUndefined();
    expect(await nodeOf('not-mine')).toBeUndefined();
  });

  it('gives a pod the priority of its PriorityClass', async () => {
    await firstValueFrom(
      cluster.api.create(PRIORITY_CLASSES, {
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: { name: 'gold' },
        value: 1000,
      } as never),
    );
    await waitFor(async () =>
      expect(scheduler.informers.priorityClasses.getStore().getByKey('gold')).toBeDefined(),
    );
    await firstValueFrom(cluster.api.create(PODS, pod('golden', '900', { priorityClassName: 'gold' })));
    await waitFor(async () => expect(whereIs('golden')).toBe('unschedulable'));
    expect(scheduler.queue.getPod('golden', 'default')!.pod.spec.priority).toBe(1000);
  });

  it('forgets a deleted node', async () => {
    const before = scheduler.cache.nodeCount();
    await firstValueFrom(cluster.api.delete(NODES, 'cordoned'));
    await waitFor(async () => expect(scheduler.cache.nodeCount()).toBe(before - 1));
    expect(scheduler.cache.nodeInfo('cordoned')?.node).toBeUndefined();
  });
});
