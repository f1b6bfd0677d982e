// Deleting a Deployment in the foreground removes its replica set, its pod and the pod's process (process runtime kubelet, deployment, replicaset and garbage collector controllers, embedded API server; one process).
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { firstValueFrom, type Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../../operators/errors.ts';
import { deploymentController } from '../../../../src/controllers/deployment/deployment-controller.ts';
import { garbageCollectorController } from '../../../../src/controllers/garbage-collector/garbage-collector-controller.ts';
import { replicaSetController } from '../../../../src/controllers/replicaset/replica-set-controller.ts';
import { type InformerFactory, informerFactory } from '../../../../src/informers/informer-factory.ts';
import { DEPLOYMENTS, PODS, REPLICA_SETS } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { eventually } from '../../../helpers/eventually.ts';
import { type KubeletFixture, processAlive, startKubeletFixture } from '../../kubelet/kubelet-fixture.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

const NODE = 'gc-node';
const cluster = useEmbeddedCluster({ port: 0 });
const ns = { namespace: 'default' };

describe('garbage collector with the process runtime', { timeout: 60_000 }, () => {
  let fixture: KubeletFixture;
  let factory: InformerFactory;
  let controllers: Subscription;
  let pidFile: string;

  beforeAll(async () => {
    fixture = await startKubeletFixture(cluster.api, { nodeName: NODE });
    pidFile = join(fixture.rootDir, 'web.pid');
    factory = informerFactory({ client: cluster.api });
    controllers = deploymentController({ client: cluster.api, informerFactory: factory }).subscribe();
    controllers.add(replicaSetController({ client: cluster.api, informerFactory: factory }).subscribe());
    controllers.add(garbageCollectorController({ client: cluster.api, workers: 4 }).subscribe());
    factory.start();
  });
  afterAll(async () => {
    controllers?.unsubscribe();
    factory?.shutdown();
    await fixture?.close();
    if (pidFile) await rm(pidFile, { force: true });
  });

  it('a foreground delete of a Deployment ends its pod process, then removes the replica set and itself', async () => {
    await firstValueFrom(
      cluster.api.create(
        DEPLOYMENTS,
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'web' },
          spec: {
            replicas: 1,
            selector: { matchLabels: { app: 'web' } },
            template: {
              metadata: { labels: { app: 'web' } },
              spec: {
                nodeName: NODE,
                terminationGracePeriodSeconds: 1,
                containers: [
                  {
                    name: 'main',
                    image: 'busybox',
                    // `$$$$`: the kubelet's $(VAR) expansion turns `$$` into `$`
                    command: ['sh', '-c', `echo $$$$ > ${pidFile}; exec sleep 300`],
                  },
                ],
              },
            },
          },
        },
        ns,
      ),
    );
    const pid = await waitFor(async () => {
      const text = await readFile(pidFile, 'utf8');
      const n = Number(text.trim());
      expect(processAlive(n)).toBe(true);
      return n;
    }, 30_000);

    await firstValueFrom(cluster.api.delete(DEPLOYMENTS, 'web', { ...ns, propagationPolicy: 'Foreground' }));
    const gone = (e: unknown) => (e instanceof ApiError && e.statusCode === 404 ? 'gone' : Promise.reject(e));
    await waitFor(async () => {
      expect(await firstValueFrom(cluster.api.get(DEPLOYMENTS, 'web', ns)).catch(gone)).toBe('gone');
    }, 30_000);
    // the deployment went last: its replica set and pod are gone, and so is the process
    expect((await firstValueFrom(cluster.api.list(REPLICA_SETS, ns))).items).toEqual([]);
    expect((await firstValueFrom(cluster.api.list(PODS, ns))).items).toEqual([]);
    await eventually(() => expect(processAlive(pid)).toBe(false), 10_000);
  });
});
