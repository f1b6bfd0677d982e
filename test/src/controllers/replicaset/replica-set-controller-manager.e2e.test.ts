import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { ReplicaSet } from '../../../../operators/controller/replicaset/replica-set-types.ts';
import { type RunningApiServer, startApiServer } from '../../../../src/apiserver/index.ts';
import { type KubeApiClient, kubeApiClient } from '../../../../streams/client-node/kube-api-client.ts';
import { PODS, REPLICA_SETS, REPLICATION_CONTROLLERS } from '../../../../streams/resources.ts';
import {
  type RunningControllerManager,
  secureGet,
  startControllerManager,
} from '../../../helpers/controller-manager.ts';
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
  let server: RunningApiServer;
  let client: KubeApiClient;
  let dir: string;
  let manager: RunningControllerManager;
  let securePort: number;

  beforeAll(async () => {
    server = await startApiServer();
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-kcm-rs-'));
    const kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
    client = kubeApiClient({
      kubeConfig: { from: 'string', yaml: server.kubeconfig },
      qps: Number.POSITIVE_INFINITY,
    });
    manager = await startControllerManager([
      '--kubeconfig',
      kubeconfig,
      '--controllers',
      'replicaset,replicationcontroller',
    ]);
    securePort = manager.securePort;
  });

  afterAll(async () => {
    await manager?.stop();
    client?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('starts both by their aliases, keeps 2 pods for each owner, and serves their metrics and checks', async () => {
    expect(manager.started.controllers).toEqual([
      'replicationcontroller-controller',
      'replicaset-controller',
    ]);
    await firstValueFrom(client.create(REPLICA_SETS, owner('ReplicaSet', 'rs'), { namespace: 'default' }));
    await firstValueFrom(
      client.create(REPLICATION_CONTROLLERS, owner('ReplicationController', 'rc'), { namespace: 'default' }),
    );
    for (const app of ['rs', 'rc']) {
      await waitFor(async () => {
        const pods = (
          await firstValueFrom(client.list<Pod>(PODS, { namespace: 'default', labelSelector: `app=${app}` }))
        ).items;
        expect(pods).toHaveLength(2);
      }, 15_000);
    }
    const token = /token: (\S+)/.exec(server.kubeconfig)?.[1] ?? '';
    const metrics = await fetchText(`https://127.0.0.1:${securePort}/metrics`, token);
    expect(metrics).toMatch(/workqueue_adds_total\{name="replicaset"\} [1-9]/);
    expect(metrics).toMatch(/workqueue_adds_total\{name="replicationmanager"\} [1-9]/);
    for (const name of ['replicaset-controller', 'replicationcontroller-controller'])
      expect(await fetchText(`https://127.0.0.1:${securePort}/healthz/${name}`, token)).toBe('ok');
  });
});
