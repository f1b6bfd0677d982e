// podGCController over HTTP against the embedded API server: terminated pods beyond the threshold, orphans after the quarantine, metrics.
import { Registry } from 'prom-client';
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { podGCController } from '../../../../src/controllers/pod-gc/pod-gc-controller.ts';
import { informerFactory } from '../../../../src/informers/informer-factory.ts';
import { NODES, PODS } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';

const cluster = useEmbeddedCluster();

async function until(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('podGCController', () => {
  it('deletes the oldest terminated pods beyond the threshold and, after the quarantine, the pods of a deleted node', async () => {
    const api = cluster.api;
    await firstValueFrom(api.create(NODES, { metadata: { name: 'n1' }, spec: {}, status: {} }));
    const make = async (name: string, nodeName: string, phase?: string) => {
      const pod = await firstValueFrom(
        api.create<Pod>(
          PODS,
          { metadata: { name }, spec: { nodeName, containers: [{ name: 'c', image: 'busybox' }] } } as Pod,
          { namespace: 'default' },
        ),
      );
      if (phase)
        await firstValueFrom(api.updateStatus(PODS, { ...pod, status: { phase } }, { namespace: 'default' }));
      await new Promise((r) => setTimeout(r, 1100)); // distinct creation seconds
    };
    await make('done-1', 'n1', 'Succeeded');
    await make('done-2', 'n1', 'Failed');
    await make('done-3', 'n1', 'Succeeded');
    await make('running', 'n1');
    await make('orphan', 'ghost');

    const registry = new Registry();
    const factory = informerFactory({ client: api });
    const passes: unknown[] = [];
    const sub = podGCController({
      client: api,
      informerFactory: factory,
      terminatedPodThreshold: 1,
      gcCheckPeriodMs: 200,
      quarantineMs: 600,
      metricsRegistry: registry,
    }).subscribe((p) => passes.push(p));
    factory.start();
    const names = async () =>
      (await firstValueFrom(api.list(PODS, { namespace: 'default' }))).items
        .map((p) => p.metadata?.name)
        .sort();
    try {
      await until(async () => JSON.stringify(await names()) === JSON.stringify(['done-3', 'running']));
      // the orphan survived its quarantine's first passes: terminated pods went first
      expect(passes.length).toBeGreaterThan(1);
      const metrics = await registry.getSingleMetricAsString('pod_gc_collector_force_delete_pods_total');
      expect(metrics).toContain(
        'pod_gc_collector_force_delete_pods_total{namespace="default",reason="terminated"} 2',
      );
      expect(metrics).toContain(
        'pod_gc_collector_force_delete_pods_total{namespace="default",reason="orphaned"} 1',
      );
    } finally {
      sub.unsubscribe();
      factory.shutdown();
    }
  }, 40_000);
});
