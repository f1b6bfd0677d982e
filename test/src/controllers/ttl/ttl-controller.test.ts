// ttlController over HTTP against the embedded API server: every node gets the TTL annotation of its cluster size; a wrong one is put right.
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Node } from '../../../../operators/api/core-v1.ts';
import { OBJECT_TTL_ANNOTATION } from '../../../../operators/controller/ttl/ttl-boundary.ts';
import { ttlController } from '../../../../src/controllers/ttl/ttl-controller.ts';
import { informerFactory } from '../../../../src/informers/informer-factory.ts';
import { NODES } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';

const cluster = useEmbeddedCluster();

describe('ttlController', () => {
  it('annotates every node with 0 s in a small cluster, correcting a wrong value', async () => {
    const api = cluster.api;
    for (const name of ['a', 'b', 'c']) {
      await firstValueFrom(
        api.create(NODES, {
          metadata: { name, ...(name === 'c' ? { annotations: { [OBJECT_TTL_ANNOTATION]: '300' } } : {}) },
        }),
      );
    }
    const factory = informerFactory({ client: api });
    const sub = ttlController({ client: api, informerFactory: factory }).subscribe();
    factory.start();
    try {
      const deadline = Date.now() + 15_000;
      let ttls: (string | undefined)[] = [];
      while (Date.now() < deadline) {
        const list = await firstValueFrom(api.list<Node>(NODES));
        ttls = list.items.map((n) => n.metadata?.annotations?.[OBJECT_TTL_ANNOTATION]);
        if (ttls.length === 3 && ttls.every((t) => t === '0')) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(ttls).toEqual(['0', '0', '0']);
    } finally {
      sub.unsubscribe();
      factory.shutdown();
    }
  }, 30_000);
});
