// nodeLifecycleController with taintEvictionController over HTTP against the embedded API server: a node whose Lease stops being renewed goes Unknown, is tainted unreachable, and its pod is evicted.
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../../operators/api/core-v1.ts';
import type { Lease } from '../../../../operators/leader-election-record.ts';
import {
  type NodeLifecyclePass,
  nodeLifecycleController,
} from '../../../../src/controllers/node-lifecycle/node-lifecycle-controller.ts';
import {
  type TaintEviction,
  taintEvictionController,
} from '../../../../src/controllers/taint-eviction/taint-eviction-controller.ts';
import { informerFactory } from '../../../../src/informers/informer-factory.ts';
import { EVENTS, LEASES, NODES, PODS } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';

const cluster = useEmbeddedCluster();
const UNREACHABLE = 'node.kubernetes.io/unreachable';

async function until(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const micro = () => new Date().toISOString().replace('Z', '000Z');

describe('nodeLifecycleController and taintEvictionController', () => {
  it('a node whose Lease is no longer renewed goes Unknown, gets the unreachable taints, and its pod is evicted after tolerationSeconds', async () => {
    const api = cluster.api;
    const now = new Date().toISOString();
    // n2 stays healthy throughout (its Lease renewed), so the zone is not fully disrupted when n1 goes quiet
    for (const name of ['n1', 'n2']) {
      await firstValueFrom(
        api.create<Node>(NODES, {
          metadata: { name },
          spec: {},
          status: {
            conditions: [
              {
                type: 'Ready',
                status: 'True',
                reason: 'KubeletReady',
                lastHeartbeatTime: now,
                lastTransitionTime: now,
              },
            ],
          },
        }),
      );
    }
    let peerLease = await firstValueFrom(
      api.create<Lease>(
        LEASES,
        {
          metadata: { name: 'n2', namespace: 'kube-node-lease' },
          spec: { holderIdentity: 'n2', renewTime: micro() },
        },
        { namespace: 'kube-node-lease' },
      ),
    );
    let peerRenewing = true;
    const renewPeer = (async () => {
      while (peerRenewing) {
        await new Promise((r) => setTimeout(r, 200));
        peerLease = await firstValueFrom(
          api.update<Lease>(
            LEASES,
            { ...peerLease, spec: { ...peerLease.spec, renewTime: micro() } },
            { namespace: 'kube-node-lease' },
          ),
        );
      }
    })();
    let lease = await firstValueFrom(
      api.create<Lease>(
        LEASES,
        {
          metadata: { name: 'n1', namespace: 'kube-node-lease' },
          spec: { holderIdentity: 'n1', renewTime: micro() },
        },
        { namespace: 'kube-node-lease' },
      ),
    );
    const pod = (name: string, seconds: number): Pod => ({
      metadata: { name, namespace: 'default' },
      spec: {
        nodeName: 'n1',
        containers: [{ name: 'c', image: 'busybox' }],
        tolerations: [
          { key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds },
        ],
      },
    });
    for (const [name, seconds] of [
      ['short', 1],
      ['long', 3600],
    ] as const) {
      const created = await firstValueFrom(
        api.create<Pod>(PODS, pod(name, seconds), { namespace: 'default' }),
      );
      await firstValueFrom(
        api.updateStatus<Pod>(
          PODS,
          { ...created, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } },
          { namespace: 'default' },
        ),
      );
    }

    const factory = informerFactory({ client: api });
    const passes: NodeLifecyclePass[] = [];
    const evictions: TaintEviction[] = [];
    const lifecycle = nodeLifecycleController({
      client: api,
      informerFactory: factory,
      nodeMonitorPeriodMs: 200,
      nodeMonitorGracePeriodMs: 1500,
      nodeStartupGracePeriodMs: 1500,
    }).subscribe((p) => passes.push(p));
    const eviction = taintEvictionController({ client: api, informerFactory: factory }).subscribe((e) =>
      evictions.push(e),
    );
    factory.start();
    const getNode = () => firstValueFrom(api.get<Node>(NODES, 'n1'));
    const readyStatus = async () =>
      (await getNode()).status?.conditions?.find((c) => c.type === 'Ready')?.status;
    try {
      // renewing the Lease for longer than the grace period keeps the node Ready
      for (let i = 0; i < 12; i++) {
        lease = await firstValueFrom(
          api.update<Lease>(
            LEASES,
            { ...lease, spec: { ...lease.spec, renewTime: micro() } },
            { namespace: 'kube-node-lease' },
          ),
        );
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(await readyStatus()).toBe('True');
      expect(passes.length).toBeGreaterThan(3);

      // then the kubelet goes quiet
      await until(async () => (await readyStatus()) === 'Unknown', 'Ready=Unknown');
      const ready = (await getNode()).status?.conditions?.find((c) => c.type === 'Ready');
      expect(ready).toMatchObject({
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
      });
      await until(
        async () => ((await getNode()).spec?.taints ?? []).filter((t) => t.key === UNREACHABLE).length === 2,
        'the unreachable NoSchedule and NoExecute taints',
      );
      expect(((await getNode()).spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).sort()).toEqual([
        `${UNREACHABLE}:NoExecute`,
        `${UNREACHABLE}:NoSchedule`,
      ]);
      expect(passes.flatMap((p) => p.podsNotReady).sort()).toEqual(['default/long', 'default/short']);

      // no kubelet finishes the graceful deletion here: deleted means gone or marked for deletion
      const deleted = async (name: string) => {
        const items = (await firstValueFrom(api.list<Pod>(PODS, { namespace: 'default' }))).items;
        const found = items.find((p) => p.metadata.name === name);
        return !found || found.metadata.deletionTimestamp !== undefined;
      };
      await until(() => deleted('short'), 'the pod tolerating 1 s to be deleted');
      expect(await deleted('long')).toBe(false);
      const short = await firstValueFrom(api.get<Pod>(PODS, 'short', { namespace: 'default' }));
      expect(short.status?.conditions).toContainEqual(
        expect.objectContaining({
          type: 'DisruptionTarget',
          status: 'True',
          reason: 'DeletionByTaintManager',
        }),
      );
      await until(async () => {
        const events = (await firstValueFrom(api.list(EVENTS, { namespace: 'default' }))).items;
        return events.some(
          (e) =>
            e.reason === 'TaintManagerEviction' && e.message === 'Marking for deletion Pod default/short',
        );
      }, 'the TaintManagerEviction event');
      expect(evictions).toEqual([{ pod: 'default/short', deleted: true }]);
      const long = await firstValueFrom(api.get<Pod>(PODS, 'long', { namespace: 'default' }));
      expect(long.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
      expect(passes.flatMap((p) => p.errors)).toEqual([]);
      expect(((await firstValueFrom(api.get<Node>(NODES, 'n2'))).spec?.taints ?? []).length).toBe(0);
    } finally {
      peerRenewing = false;
      await renewPeer.catch(() => undefined);
      lifecycle.unsubscribe();
      eviction.unsubscribe();
      factory.shutdown();
    }
  }, 60_000);
});
