// The endpointslice and endpoints controllers against the embedded API server (pod IPs and readiness written by the test as a kubelet would): slices and Endpoints follow readiness, deletion, selector and port changes.
import { firstValueFrom, type Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../../operators/api/core-v1.ts';
import type { Endpoints } from '../../../../operators/controller/endpoints/endpoints-types.ts';
import type {
  EndpointSlice,
  Service,
} from '../../../../operators/controller/endpointslice/endpoint-slice-types.ts';
import { endpointsController } from '../../../../src/controllers/endpoints/endpoints-controller.ts';
import { endpointSliceController } from '../../../../src/controllers/endpointslice/endpoint-slice-controller.ts';
import { type InformerFactory, informerFactory } from '../../../../src/informers/informer-factory.ts';
import { ENDPOINT_SLICES, ENDPOINTS, NODES, PODS, SERVICES } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

const cluster = useEmbeddedCluster();
const ns = { namespace: 'default' };

const createPod = async (name: string, app: string, ip: string, ready: boolean, port = 8080) => {
  const made = await firstValueFrom(
    cluster.api.create<Pod>(
      PODS,
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, labels: { app } },
        spec: {
          nodeName: 'node-a',
          containers: [{ name: 'c', image: 'nginx', ports: [{ name: 'web', containerPort: port }] }],
        },
      },
      ns,
    ),
  );
  return setReady(made, ready, ip);
};
async function setReady(pod: Pod, ready: boolean, ip = pod.status?.podIP) {
  const live = await firstValueFrom(cluster.api.get<Pod>(PODS, pod.metadata.name ?? '', ns));
  return firstValueFrom(
    cluster.api.updateStatus<Pod>(
      PODS,
      {
        ...live,
        status: {
          phase: 'Running',
          podIP: ip,
          podIPs: [{ ip: ip ?? '' }],
          conditions: [
            { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: new Date().toISOString() },
          ],
        },
      },
      ns,
    ),
  );
}
const createService = (name: string, selector: Record<string, string>, targetPort: number | string = 'web') =>
  firstValueFrom(
    cluster.api.create<Service>(
      SERVICES,
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name },
        // ipFamilies as a real API server defaults them (this one does not: without them a Service gets IPv4 and IPv6 slices)
        spec: {
          selector,
          ipFamilies: ['IPv4'],
          ports: [{ name: 'http', port: 80, targetPort, protocol: 'TCP' }],
        },
      },
      ns,
    ),
  );
const slicesOf = async (svc: string) =>
  (
    await firstValueFrom(
      cluster.api.list<EndpointSlice>(ENDPOINT_SLICES, {
        ...ns,
        labelSelector: `kubernetes.io/service-name=${svc}`,
      }),
    )
  ).items;
/** The slices' endpoints as "ip ready" strings, sorted, and their ports. */
const view = async (svc: string) => {
  const slices = await slicesOf(svc);
  return {
    endpoints: slices
      .flatMap((s) => (s.endpoints ?? []).map((e) => `${e.addresses.join(',')} ${e.conditions?.ready}`))
      .sort(),
    ports: [
      ...new Set(
        slices
          .filter((s) => s.endpoints?.length)
          .map((s) => (s.ports ?? []).map((p) => `${p.name}/${p.port}/${p.protocol}`).join(',')),
      ),
    ].sort(),
  };
};
const endpointsOf = (svc: string) => firstValueFrom(cluster.api.get<Endpoints>(ENDPOINTS, svc, ns));

describe('endpointslice and endpoints controllers on the embedded API server', { timeout: 30_000 }, () => {
  let factory: InformerFactory;
  let running: Subscription[] = [];

  beforeAll(async () => {
    await firstValueFrom(
      cluster.api.create<Node>(NODES, {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'node-a', labels: { 'topology.kubernetes.io/zone': 'zone-1' } },
      }),
    );
    factory = informerFactory({ client: cluster.api });
    running = [
      endpointSliceController({
        client: cluster.api,
        informerFactory: factory,
        maxEndpointsPerSlice: 2,
      }).subscribe(),
      endpointsController({ client: cluster.api, informerFactory: factory }).subscribe(),
    ];
    factory.start();
  });
  afterAll(() => {
    for (const s of running) s.unsubscribe();
    factory?.shutdown();
  });

  it('a Service without pods gets one placeholder slice and an Endpoints without subsets', async () => {
    await createService('empty', { app: 'none' });
    await waitFor(async () => {
      const slices = await slicesOf('empty');
      expect(slices).toHaveLength(1);
      expect(slices[0]).toMatchObject({ addressType: 'IPv4' });
      expect(slices[0]!.endpoints ?? []).toEqual([]);
      expect(slices[0]!.metadata.labels).toMatchObject({
        'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
      });
      expect(slices[0]!.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Service', name: 'empty' });
      expect((await endpointsOf('empty')).subsets ?? []).toEqual([]);
    });
  });

  it('follows readiness, deletion and more pods than one slice holds', async () => {
    const p1 = await createPod('web-1', 'web', '10.1.0.1', true);
    const p2 = await createPod('web-2', 'web', '10.1.0.2', false);
    await createService('web', { app: 'web' });
    await waitFor(async () => {
      expect(await view('web')).toEqual({
        endpoints: ['10.1.0.1 true', '10.1.0.2 false'],
        ports: ['http/8080/TCP'],
      });
      const ep = await endpointsOf('web');
      expect(ep.subsets?.[0]?.addresses?.map((a) => a.ip)).toEqual(['10.1.0.1']);
      expect(ep.subsets?.[0]?.notReadyAddresses?.map((a) => a.ip)).toEqual(['10.1.0.2']);
      expect(ep.metadata.annotations?.['endpoints.kubernetes.io/last-change-trigger-time']).toBeDefined();
    });
    const slice = (await slicesOf('web')).find((s) => s.endpoints?.length)!;
    expect(slice.endpoints![0]).toMatchObject({
      nodeName: 'node-a',
      zone: 'zone-1',
      targetRef: { kind: 'Pod' },
    });
    await setReady(p2, true);
    await createPod('web-3', 'web', '10.1.0.3', true);
    await waitFor(async () => {
      expect((await view('web')).endpoints).toEqual(['10.1.0.1 true', '10.1.0.2 true', '10.1.0.3 true']);
      // at most 2 per slice
      for (const s of await slicesOf('web')) expect((s.endpoints ?? []).length).toBeLessThanOrEqual(2);
      expect((await endpointsOf('web')).subsets?.[0]?.addresses?.map((a) => a.ip)).toEqual([
        '10.1.0.1',
        '10.1.0.2',
        '10.1.0.3',
      ]);
    });
    await firstValueFrom(cluster.api.delete(PODS, p1.metadata.name ?? '', { ...ns, gracePeriodSeconds: 0 }));
    await waitFor(async () => {
      expect((await view('web')).endpoints).toEqual(['10.1.0.2 true', '10.1.0.3 true']);
      expect((await endpointsOf('web')).subsets?.[0]?.addresses?.map((a) => a.ip)).toEqual([
        '10.1.0.2',
        '10.1.0.3',
      ]);
    });
  });

  it('named target ports resolve per pod; a selector change moves the endpoints', async () => {
    await createPod('api-1', 'api', '10.2.0.1', true, 9000);
    await createPod('api-2', 'api', '10.2.0.2', true, 9001);
    await createPod('other-1', 'other', '10.2.0.9', true, 9000);
    const svc = await createService('api', { app: 'api' });
    await waitFor(async () => {
      expect(await view('api')).toEqual({
        endpoints: ['10.2.0.1 true', '10.2.0.2 true'],
        ports: ['http/9000/TCP', 'http/9001/TCP'],
      });
    });
    await firstValueFrom(
      cluster.api.update<Service>(
        SERVICES,
        { ...svc, spec: { ...svc.spec, selector: { app: 'other' } } },
        ns,
      ),
    );
    await waitFor(async () => {
      expect((await view('api')).endpoints).toEqual(['10.2.0.9 true']);
      expect((await endpointsOf('api')).subsets?.flatMap((s) => s.addresses?.map((a) => a.ip))).toEqual([
        '10.2.0.9',
      ]);
    });
  });

  it('a deleted Service’s Endpoints are deleted; a deleted Endpoints of a live Service comes back', async () => {
    await createService('gone', { app: 'web' });
    await waitFor(async () => expect((await endpointsOf('gone')).subsets?.length).toBe(1));
    await firstValueFrom(cluster.api.delete(ENDPOINTS, 'gone', ns));
    await waitFor(async () => expect((await endpointsOf('gone')).subsets?.length).toBe(1));
    await firstValueFrom(cluster.api.delete(SERVICES, 'gone', ns));
    await waitFor(async () => {
      await expect(endpointsOf('gone')).rejects.toMatchObject({ statusCode: 404 });
    });
  });
});
