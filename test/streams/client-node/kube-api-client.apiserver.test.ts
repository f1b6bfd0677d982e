// End to end over HTTPS against the embedded API server: every ApiClient call, a watch, and leader election hand-over.
import { filter, firstValueFrom, lastValueFrom, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../operators/errors.ts';
import type { KubeObject } from '../../../operators/types.ts';
import { startApiServer } from '../../../src/apiserver/index.ts';
import { leaderElection } from '../../../src/leader-election/leader-election.ts';
import { listerWatcher } from '../../../streams/api-client.ts';
import { kubeApiClient } from '../../../streams/client-node/kube-api-client.ts';
import { leaseClient } from '../../../streams/lease-client.ts';
import { CONFIG_MAPS, NODES, PODS } from '../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../helpers/embedded-cluster.ts';
import { until } from './loopback-server.ts';

const cluster = useEmbeddedCluster();

const pod = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', labels: { app: 'web' } },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});

describe('kubeApiClient against the embedded API server', () => {
  it('creates, reads, patches (merge, strategic, json), updates, updates status, binds and deletes', async () => {
    const created = await firstValueFrom(cluster.api.create(PODS, pod('p1')));
    expect(created.metadata?.resourceVersion).toBeTruthy();
    const got = await firstValueFrom(cluster.api.get(PODS, 'p1', { namespace: 'default' }));
    expect(got.metadata?.uid).toBe(created.metadata?.uid);

    await firstValueFrom(
      cluster.api.patch(PODS, 'p1', { metadata: { labels: { tier: 'front' } } }, 'merge', {
        namespace: 'default',
      }),
    );
    await firstValueFrom(
      cluster.api.patch(PODS, 'p1', { metadata: { annotations: { a: 'b' } } }, 'strategic', {
        namespace: 'default',
      }),
    );
    const patched = await firstValueFrom(
      cluster.api.patch(PODS, 'p1', [{ op: 'add', path: '/metadata/labels/x', value: 'y' }], 'json', {
        namespace: 'default',
      }),
    );
    expect(patched.metadata?.labels).toMatchObject({ app: 'web', tier: 'front', x: 'y' });
    expect(patched.metadata?.annotations).toMatchObject({ a: 'b' });

    const updated = await firstValueFrom(
      cluster.api.update(PODS, { ...patched, metadata: { ...patched.metadata, labels: { app: 'web2' } } }),
    );
    expect(updated.metadata?.labels).toEqual({ app: 'web2' });
    const stale = await firstValueFrom(cluster.api.update(PODS, patched)).catch((e) => e);
    expect(stale).toBeInstanceOf(ApiError);
    expect(stale.statusCode).toBe(409);

    const withStatus = await firstValueFrom(
      cluster.api.updateStatus(PODS, { ...updated, status: { phase: 'Pending', message: 'waiting' } }),
    );
    expect((withStatus.status as { message?: string }).message).toBe('waiting');

    await firstValueFrom(cluster.api.create(NODES, { metadata: { name: 'n1' } }));
    await firstValueFrom(
      cluster.api.bind({ namespace: 'default', name: 'p1', nodeName: 'n1', uid: created.metadata?.uid }),
    );
    const bound = await firstValueFrom(cluster.api.get(PODS, 'p1', { namespace: 'default' }));
    expect((bound.spec as { nodeName?: string }).nodeName).toBe('n1');

    await firstValueFrom(cluster.api.delete(PODS, 'p1', { namespace: 'default', gracePeriodSeconds: 0 }));
    const gone = await firstValueFrom(cluster.api.get(PODS, 'p1', { namespace: 'default' })).catch((e) => e);
    expect(gone).toMatchObject({ statusCode: 404, reason: 'NotFound' });
  });

  it('lists with selectors and watches from the list resourceVersion through a ListerWatcher', async () => {
    await firstValueFrom(
      cluster.api.create(CONFIG_MAPS, { metadata: { name: 'a', namespace: 'default', labels: { k: 'v' } } }),
    );
    await firstValueFrom(cluster.api.create(CONFIG_MAPS, { metadata: { name: 'b', namespace: 'default' } }));
    const lw = listerWatcher(cluster.api, CONFIG_MAPS, { namespace: 'default', labelSelector: 'k=v' });
    const list = await firstValueFrom(lw.list({}));
    expect(list.items.map((i) => i.metadata?.name)).toEqual(['a']);
    const events$ = lw.watch({ resourceVersion: list.metadata.resourceVersion, allowWatchBookmarks: true });
    const seen = lastValueFrom(
      events$.pipe(
        filter((e) => e.type !== 'BOOKMARK'),
        take(2),
        toArray(),
      ),
    );
    await new Promise((r) => setTimeout(r, 50));
    await firstValueFrom(
      cluster.api.create(CONFIG_MAPS, { metadata: { name: 'c', namespace: 'default', labels: { k: 'v' } } }),
    );
    await firstValueFrom(cluster.api.delete(CONFIG_MAPS, 'a', { namespace: 'default' }));
    const events = await seen;
    expect(events.map((e) => [e.type, e.object.metadata?.name])).toEqual([
      ['ADDED', 'c'],
      ['DELETED', 'a'],
    ]);
  });

  it('a watch from a compacted resourceVersion reports 410 Expired', async () => {
    const small = await startApiServer({ historyWindow: 2 });
    const c = kubeApiClient({
      kubeConfig: { from: 'string', yaml: small.kubeconfig },
      qps: Number.POSITIVE_INFINITY,
    });
    try {
      const first = await firstValueFrom(
        c.create<KubeObject>(CONFIG_MAPS, { metadata: { name: 'h0', namespace: 'default' } }),
      );
      for (let i = 1; i < 6; i += 1) {
        await firstValueFrom(c.create(CONFIG_MAPS, { metadata: { name: `h${i}`, namespace: 'default' } }));
      }
      const outcome = await firstValueFrom(
        c.watch(CONFIG_MAPS, { resourceVersion: first.metadata?.resourceVersion, namespace: 'default' }),
      ).catch((e) => e);
      const code =
        outcome instanceof ApiError
          ? outcome.statusCode
          : (outcome as { object: { code?: number } }).object.code;
      expect(code).toBe(410);
    } finally {
      c.close();
      await small.close();
    }
  });

  it('leader election hands over through real Leases: release on unsubscribe, takeover by the other', async () => {
    const timings = { leaseDuration: 2_000, renewDeadline: 1_500, retryPeriod: 300 };
    const leases = leaseClient(cluster.api);
    const aStates: boolean[] = [];
    const bStates: boolean[] = [];
    const a = leaderElection({
      client: leases,
      namespace: 'default',
      name: 'e2e-lock',
      identity: 'a',
      ...timings,
    }).subscribe((v) => aStates.push(v));
    await until(() => aStates.at(-1) === true, 3_000);
    const b = leaderElection({
      client: leases,
      namespace: 'default',
      name: 'e2e-lock',
      identity: 'b',
      ...timings,
    }).subscribe((v) => bStates.push(v));
    await new Promise((r) => setTimeout(r, 700));
    expect(bStates).toEqual([false]);
    a.unsubscribe();
    await until(() => bStates.at(-1) === true, 3_000);
    const lease = await firstValueFrom(leases.get('default', 'e2e-lock'));
    expect(lease?.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    b.unsubscribe();
    let released = false;
    await until(() => {
      leases.get('default', 'e2e-lock').subscribe((l) => {
        released = l?.spec?.holderIdentity === '';
      });
      return released;
    }, 3_000);
  });
});
