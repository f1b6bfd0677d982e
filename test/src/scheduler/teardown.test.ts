// Teardown: after stop() the scheduler leaves no timer, socket or handle behind.
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../operators/api/core-v1.ts';
import { newScheduler } from '../../../src/scheduler/scheduler.ts';
import { NODES, PODS } from '../../../streams/resources.ts';
import { embeddedCluster } from '../../helpers/embedded-cluster.ts';
import { waitFor } from './wait-for.ts';

const count = (names: string[]) => {
  const out: Record<string, number> = {};
  for (const n of names) out[n] = (out[n] ?? 0) + 1;
  return out;
};

describe('scheduler teardown', () => {
  it('leaves no active resource after stop(), even with a pod still waiting in backoff', async () => {
    const cluster = await embeddedCluster();
    await firstValueFrom(
      cluster.api.create(NODES, {
        metadata: { name: 'n1' },
        status: { allocatable: { cpu: '1', pods: '10' } },
      }),
    );
    const scheduler = newScheduler({ client: cluster.api });
    expect(await scheduler.start(AbortSignal.timeout(20_000))).toBe(true);
    const loop = scheduler.run$.subscribe();
    const pod = (name: string, cpu: string): Pod => ({
      metadata: { name, namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu } } }] },
    });
    await firstValueFrom(cluster.api.create(PODS, pod('fits', '100m')));
    await firstValueFrom(cluster.api.create(PODS, pod('waits', '4')));
    await waitFor(async () => {
      const p = await firstValueFrom(cluster.api.get<Pod>(PODS, 'fits', { namespace: 'default' }));
      expect(p.spec.nodeName).toBe('n1');
      expect(scheduler.queue.whereIs('default', 'waits')).toBe('unschedulable');
    });
    loop.unsubscribe();
    await scheduler.stop();
    await cluster.close();
    await waitFor(async () => {
      // Only the worker's stdio pipes stay: no timer, socket, server or watcher.
      const left = process.getActiveResourcesInfo().filter((k) => k !== 'PipeWrap' && k !== 'TTYWrap');
      expect(count(left)).toEqual({});
    }, 5000);
  });
});
