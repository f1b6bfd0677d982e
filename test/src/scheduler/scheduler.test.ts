// The scheduler assembly against the embedded API server over HTTPS: nodes and pods created through the API get bound.

import type { Subscription } from 'rxjs';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../operators/api/core-v1.ts';
import { newScheduler, type Scheduler } from '../../../src/scheduler/scheduler.ts';
import { NODES, PODS } from '../../../streams/resources.ts';
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
});
