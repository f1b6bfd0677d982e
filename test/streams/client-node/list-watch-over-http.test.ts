// listWatch over the HTTP ApiClient against the embedded API server: survives server-side watch closes and a 410 without losing an update.
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { KubeObject, ReflectorEvent } from '../../../operators/types.ts';
import { listerWatcher } from '../../../streams/api-client.ts';
import { listWatch } from '../../../streams/list-watch.ts';
import { CONFIG_MAPS } from '../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../helpers/embedded-cluster.ts';
import { until } from './loopback-server.ts';

// every watch is closed by the server after 1 s; a tiny history makes resumes hit 410 Expired
const cluster = useEmbeddedCluster({ maxWatchSeconds: 1, historyWindow: 3, bookmarkIntervalMs: 300 });

describe('listWatch over HTTP', () => {
  it('keeps a cache equal to the server across server-side watch closes and a 410', async () => {
    const cache = new Map<string, string>();
    const apply = (e: ReflectorEvent<KubeObject>) => {
      if (e.type === 'Replace') {
        cache.clear();
        for (const o of e.items) cache.set(o.metadata!.name!, o.metadata!.resourceVersion!);
      } else if (e.type === 'Deleted') cache.delete(e.object.metadata!.name!);
      else if (e.type !== 'Bookmark')
        cache.set(e.object.metadata!.name!, e.object.metadata!.resourceVersion!);
    };
    const inner = listerWatcher(cluster.api, CONFIG_MAPS, { namespace: 'default' });
    const calls = { list: 0, watch: 0 };
    const counted = {
      list: (o: Parameters<typeof inner.list>[0]) => {
        calls.list += 1;
        return inner.list(o);
      },
      watch: (o: Parameters<typeof inner.watch>[0]) => {
        calls.watch += 1;
        // fault: the second watch resumes from a compacted resourceVersion, so the server answers 410
        return inner.watch(calls.watch === 2 ? { ...o, resourceVersion: '1' } : o);
      },
    };
    const sub = listWatch(counted, {
      watchList: false,
      backoff: () => ({ next: () => 50, reset: () => {} }),
    }).subscribe(apply);
    for (let i = 0; i < 30; i += 1) {
      const name = `cm${i % 7}`;
      const existing = await firstValueFrom(
        cluster.api.get(CONFIG_MAPS, name, { namespace: 'default' }),
      ).catch(() => undefined);
      if (existing && i % 5 === 0)
        await firstValueFrom(cluster.api.delete(CONFIG_MAPS, name, { namespace: 'default' }));
      else if (existing) {
        await firstValueFrom(cluster.api.update(CONFIG_MAPS, { ...existing, data: { i: String(i) } }));
      } else
        await firstValueFrom(
          cluster.api.create(CONFIG_MAPS, {
            metadata: { name, namespace: 'default' },
            data: { i: String(i) },
          }),
        );
      await new Promise((r) => setTimeout(r, 60));
    }
    const server = async () => {
      const list = await firstValueFrom(cluster.api.list(CONFIG_MAPS, { namespace: 'default' }));
      return new Map(list.items.map((o) => [o.metadata!.name!, o.metadata!.resourceVersion!]));
    };
    const expected = await server();
    await until(() => JSON.stringify([...cache].sort()) === JSON.stringify([...expected].sort()), 5_000);
    sub.unsubscribe();
    expect([...cache].sort()).toEqual([...expected].sort());
    // the server closed watches every second; the 410 on the second watch forced a relist
    expect(calls.watch).toBeGreaterThanOrEqual(3);
    expect(calls.list).toBeGreaterThanOrEqual(2);
  }, 20_000);
});
