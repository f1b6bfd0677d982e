// The endpoints controller against the embedded API server: leftover Endpoints at start, leader-election records, Services without a selector, publishNotReadyAddresses, headless Services.
import { firstValueFrom, type Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { Endpoints } from '../../../../operators/controller/endpoints/endpoints-types.ts';
import type { Service } from '../../../../operators/controller/endpointslice/endpoint-slice-types.ts';
import { endpointsController } from '../../../../src/controllers/endpoints/endpoints-controller.ts';
import { type InformerFactory, informerFactory } from '../../../../src/informers/informer-factory.ts';
import { ENDPOINTS, PODS, SERVICES } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

const cluster = useEmbeddedCluster();
const ns = { namespace: 'default' };
const get = (name: string) => firstValueFrom(cluster.api.get<Endpoints>(ENDPOINTS, name, ns));
const createEndpoints = (name: string, annotations?: Record<string, string>) =>
  firstValueFrom(
    cluster.api.create<Endpoints>(
      ENDPOINTS,
      {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name, ...(annotations ? { annotations } : {}) },
        subsets: [{ addresses: [{ ip: '192.168.0.1' }], ports: [{ port: 443, protocol: 'TCP' }] }],
      },
      ns,
    ),
  );
const createService = (name: string, spec: Partial<Service['spec']>) =>
  firstValueFrom(
    cluster.api.create<Service>(
      SERVICES,
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name },
        spec: {
          ipFamilies: ['IPv4'],
          ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }],
          ...spec,
        },
      },
      ns,
    ),
  );
async function createPod(name: string, app: string, ip: string, ready: boolean) {
  const made = await firstValueFrom(
    cluster.api.create<Pod>(
      PODS,
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, labels: { app } },
        spec: { nodeName: 'node-a', containers: [{ name: 'c', image: 'nginx' }] },
      },
      ns,
    ),
  );
  return firstValueFrom(
    cluster.api.updateStatus<Pod>(
      PODS,
      {
        ...made,
        status: {
          phase: 'Running',
          podIP: ip,
          podIPs: [{ ip }],
          conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
        },
      },
      ns,
    ),
  );
}

describe('endpoints controller on the embedded API server', { timeout: 30_000 }, () => {
  let factory: InformerFactory;
  let running: Subscription | undefined;

  beforeAll(async () => {
    // written before the controller starts: one without a Service, one leader-election record, one user-managed
    await createEndpoints('orphan');
    await createEndpoints('lock', { 'control-plane.alpha.kubernetes.io/leader': '{}' });
    await createService('manual', { selector: undefined });
    await createEndpoints('manual');
    factory = informerFactory({ client: cluster.api });
    running = endpointsController({ client: cluster.api, informerFactory: factory }).subscribe();
    factory.start();
  });
  afterAll(() => {
    running?.unsubscribe();
    factory?.shutdown();
  });

  it('deletes Endpoints left without a Service at start; keeps leader records and user-managed ones', async () => {
    await waitFor(async () => {
      await expect(get('orphan')).rejects.toMatchObject({ statusCode: 404 });
    });
    expect((await get('lock')).subsets?.[0]?.addresses?.[0]?.ip).toBe('192.168.0.1');
    expect((await get('manual')).subsets?.[0]?.addresses?.[0]?.ip).toBe('192.168.0.1');
  });

  it('publishNotReadyAddresses lists a not-ready pod as ready', async () => {
    await createPod('pub-1', 'pub', '10.3.0.1', false);
    await createService('pub', { selector: { app: 'pub' }, publishNotReadyAddresses: true });
    await waitFor(async () => {
      const ep = await get('pub');
      expect(ep.subsets).toEqual([
        {
          addresses: [
            {
              ip: '10.3.0.1',
              nodeName: 'node-a',
              targetRef: expect.objectContaining({ kind: 'Pod', name: 'pub-1', namespace: 'default' }),
            },
          ],
          ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
        },
      ]);
    });
  });

  it('a headless Service without ports lists its pods without ports and is labelled headless', async () => {
    await createPod('hl-1', 'hl', '10.4.0.1', true);
    await createService('hl', { selector: { app: 'hl' }, clusterIP: 'None', ports: [] });
    await waitFor(async () => {
      const ep = await get('hl');
      expect(ep.metadata.labels).toEqual({ 'service.kubernetes.io/headless': '' });
      expect(ep.subsets?.map((s) => [s.addresses?.map((a) => a.ip), s.ports])).toEqual([
        [['10.4.0.1'], undefined],
      ]);
    });
  });
});
