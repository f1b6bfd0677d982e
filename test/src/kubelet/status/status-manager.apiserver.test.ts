// The status manager against the embedded API server: status patched over HTTP, mirror pods, and deletion once finished.
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { type StatusSyncEvent, statusManager } from '../../../../src/kubelet/status/status-manager.ts';
import { PODS } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { until } from '../../../helpers/until.ts';

const cluster = useEmbeddedCluster();

async function createPod(
  name: string,
  extra: Partial<Pod['metadata']> = {},
  nodeName = 'node-1',
): Promise<Pod> {
  return firstValueFrom(
    cluster.api.create<Pod>(
      PODS,
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: 'default', ...extra },
        spec: { nodeName, containers: [{ name: 'c', image: 'busybox' }] },
      },
      { namespace: 'default' },
    ),
  );
}

const get = (name: string) => firstValueFrom(cluster.api.get<Pod>(PODS, name, { namespace: 'default' }));

function run() {
  const manager = statusManager({ client: cluster.api });
  const events: StatusSyncEvent[] = [];
  const sub = manager.run().subscribe((e) => events.push(e));
  return { manager, events, stop: () => sub.unsubscribe() };
}

describe('statusManager over HTTP', () => {
  it('patches the pod status, replacing container states, and keeps the start time', async () => {
    const pod = await createPod('sm-a');
    const { manager, events, stop } = run();
    try {
      manager.setPodStatus(pod, {
        phase: 'Pending',
        containerStatuses: [
          {
            name: 'c',
            ready: false,
            restartCount: 0,
            image: 'busybox',
            imageID: '',
            state: { waiting: { reason: 'ContainerCreating' } },
          },
        ],
      });
      await until(() => events.length === 1, 'the first write');
      manager.setPodStatus(pod, {
        phase: 'Running',
        podIP: '10.0.0.9',
        containerStatuses: [
          {
            name: 'c',
            ready: true,
            restartCount: 0,
            image: 'busybox',
            imageID: '',
            containerID: 'process://1',
            state: { running: { startedAt: '2026-11-24T10:00:00Z' } },
          },
        ],
        conditions: [{ type: 'Ready', status: 'True' }],
      });
      await until(() => events.length === 2, 'the second write');
      expect(events.map((e) => e.outcome)).toEqual(['patched', 'patched']);
      const stored = await get('sm-a');
      expect(stored.status?.phase).toBe('Running');
      expect(stored.status?.podIP).toBe('10.0.0.9');
      expect(stored.status?.containerStatuses?.[0]?.state).toEqual({
        running: { startedAt: '2026-11-24T10:00:00Z' },
      });
      expect(stored.status?.startTime).toBe(manager.getPodStatus(pod.metadata.uid!)?.startTime);
      // the scheduler's PodScheduled condition (set by the server on binding, if any) is not dropped
      expect(stored.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).toBe(true);
    } finally {
      stop();
    }
  });

  it('deletes a pod that is being deleted once its termination is finished', async () => {
    const pod = await createPod('sm-b');
    await firstValueFrom(cluster.api.delete(PODS, 'sm-b', { namespace: 'default', gracePeriodSeconds: 30 }));
    const deleting = await get('sm-b');
    expect(deleting.metadata.deletionTimestamp).toBeDefined();
    const { manager, events, stop } = run();
    try {
      manager.setPodStatus(deleting, { phase: 'Running' });
      await until(() => events.length === 1, 'the running write');
      expect((await get('sm-b')).metadata.uid).toBe(pod.metadata.uid);
      manager.terminatePod({ ...deleting, status: { phase: 'Running' } });
      await until(() => events.some((e) => e.outcome === 'deleted'), 'the deletion');
      await expect(get('sm-b')).rejects.toMatchObject({ statusCode: 404 });
    } finally {
      stop();
    }
  });

  it("writes a static pod's status to its mirror pod", async () => {
    const hash = 'static-hash-1';
    await createPod('sm-static-node-1', {
      annotations: { 'kubernetes.io/config.mirror': hash, 'kubernetes.io/config.source': 'file' },
    });
    const staticPod: Pod = {
      metadata: {
        name: 'sm-static-node-1',
        namespace: 'default',
        uid: hash,
        annotations: { 'kubernetes.io/config.source': 'file', 'kubernetes.io/config.hash': hash },
      },
      spec: { containers: [{ name: 'c' }] },
    };
    const { manager, events, stop } = run();
    try {
      manager.setPodStatus(staticPod, { phase: 'Running', message: 'from the static pod' });
      await until(() => events.length === 1, 'the mirror write');
      expect(events[0]?.outcome).toBe('patched');
      expect((await get('sm-static-node-1')).status?.message).toBe('from the static pod');
    } finally {
      stop();
    }
  });
});
