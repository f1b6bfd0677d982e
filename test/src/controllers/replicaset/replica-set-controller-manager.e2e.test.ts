// `kube-rx controller-manager --controllers replicaset,replicationcontroller` against the embedded API server: the registered controllers keep replica counts, their queues show in /metrics and their checks in /healthz.
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { ReplicaSet } from '../../../../operators/controller/replicaset/replica-set-types.ts';
import { PODS, REPLICA_SETS, REPLICATION_CONTROLLERS } from '../../../../streams/resources.ts';
import { secureGet, useControllerManager } from '../../../helpers/controller-manager.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

/** The body of a GET to the secure port. */
const fetchText = async (url: string, token: string) => (await secureGet(url, token)).body;

const owner = (kind: 'ReplicaSet' | 'ReplicationController', name: string): ReplicaSet => ({
  apiVersion: kind === 'ReplicaSet' ? 'apps/v1' : 'v1',
  kind,
  metadata: { name, namespace: 'default' },
  spec: {
    replicas: 2,
    selector: kind === 'ReplicaSet' ? { matchLabels: { app: name } } : ({ app: name } as never),
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
});

describe('replicaset controllers in kube-rx controller-manager', { timeout: 60_000 }, () => {
  const kcm = useControllerManager(['--controllers', 'replicaset,replicationcontroller']);

  it('starts both by their aliases, keeps 2 pods for each owner, and serves their metrics and checks', async () => {
    expect(kcm.manager.started.controllers).toEqual([
      'replicationcontroller-controller',
      'replicaset-controller',
    ]);
    await firstValueFrom(
      kcm.cluster.api.create(REPLICA_SETS, owner('ReplicaSet', 'rs'), { namespace: 'default' }),
    );
    await firstValueFrom(
      kcm.cluster.api.create(REPLICATION_CONTROLLERS, owner('ReplicationController', 'rc'), {
        namespace: 'default',
      }),
    );
    for (const app of ['rs', 'rc']) {
      await waitFor(async () => {
        const pods = (
          await firstValueFrom(
            kcm.cluster.api.list<Pod>(PODS, { namespace: 'default', labelSelector: `app=${app}` }),
          )
        ).items;
        expect(pods).toHaveLength(2);
      }, 15_000);
    }
    const token = kcm.token;
    const metrics = await fetchText(`https://127.0.0.1:${kcm.manager.securePort}/metrics`, token);
    expect(metrics).toMatch(/workqueue_adds_total\{name="replicaset"\} [1-9]/);
    expect(metrics).toMatch(/workqueue_adds_total\{name="replicationmanager"\} [1-9]/);
    for (const name of ['replicaset-controller', 'replicationcontroller-controller'])
      expect(await fetchText(`https://127.0.0.1:${kcm.manager.securePort}/healthz/${name}`, token)).toBe(
        'ok',
      );
  });
});
