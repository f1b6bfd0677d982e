// The endpointslicemirroring controller against the embedded API server: a selector-less Service's Endpoints mirrored, followed, and unmirrored on skip-mirror, a selector, or deletion.
import { firstValueFrom, type Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Endpoints } from '../../../../operators/controller/endpoints/endpoints-types.ts';
import type {
  EndpointSlice,
  Service,
} from '../../../../operators/controller/endpointslice/endpoint-slice-types.ts';
import { endpointSliceMirroringController } from '../../../../src/controllers/endpointslicemirroring/endpoint-slice-mirroring-controller.ts';
import { type InformerFactory, informerFactory } from '../../../../src/informers/informer-factory.ts';
import { ENDPOINT_SLICES, ENDPOINTS, SERVICES } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

const cluster = useEmbeddedCluster();
const ns = { namespace: 'default' };
const mirrored = async (name: string) =>
  (
    await firstValueFrom(
      cluster.api.list<EndpointSlice>(ENDPOINT_SLICES, {
        ...ns,
        labelSelector: `kubernetes.io/service-name=${name},endpointslice.kubernetes.io/managed-by=endpointslicemirroring-controller.k8s.io`,
      }),
    )
  ).items;
const ips = async (name: string) =>
  (await mirrored(name))
    .flatMap((s) => (s.endpoints ?? []).map((e) => `${e.addresses[0]} ${e.conditions?.ready}`))
    .sort();
const writeEndpoints = async (name: string, ipList: string[], labels?: Record<string, string>) => {
  const body: Endpoints = {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name, ...(labels ? { labels } : {}) },
    subsets: [
      { addresses: ipList.map((ip) => ({ ip })), ports: [{ name: 'db', port: 5432, protocol: 'TCP' }] },
    ],
  };
  const cur = await firstValueFrom(cluster.api.get<Endpoints>(ENDPOINTS, name, ns)).catch(() => undefined);
  return cur
    ? firstValueFrom(
        cluster.api.update<Endpoints>(
          ENDPOINTS,
          { ...body, metadata: { ...cur.metadata, labels: labels ?? {} } },
          ns,
        ),
      )
    : firstValueFrom(cluster.api.create<Endpoints>(ENDPOINTS, body, ns));
};

describe('endpointslicemirroring controller on the embedded API server', { timeout: 30_000 }, () => {
  let factory: InformerFactory;
  let running: Subscription | undefined;

  beforeAll(() => {
    factory = informerFactory({ client: cluster.api });
    running = endpointSliceMirroringController({ client: cluster.api, informerFactory: factory }).subscribe();
    factory.start();
  });
  afterAll(() => {
    running?.unsubscribe();
    factory?.shutdown();
  });

  it('mirrors, follows, and removes the slices on skip-mirror and on Service deletion', async () => {
    const svc = await firstValueFrom(
      cluster.api.create<Service>(
        SERVICES,
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'db' },
          spec: { ports: [{ port: 5432, protocol: 'TCP' }] },
        },
        ns,
      ),
    );
    await writeEndpoints('db', ['192.168.1.10', '192.168.1.11']);
    await waitFor(async () => expect(await ips('db')).toEqual(['192.168.1.10 true', '192.168.1.11 true']));
    const slice = (await mirrored('db'))[0]!;
    expect(slice.ports).toEqual([{ name: 'db', port: 5432, protocol: 'TCP' }]);
    expect(slice.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Endpoints', name: 'db' });
    await writeEndpoints('db', ['192.168.1.12']);
    await waitFor(async () => expect(await ips('db')).toEqual(['192.168.1.12 true']));
    await writeEndpoints('db', ['192.168.1.12'], { 'endpointslice.kubernetes.io/skip-mirror': 'true' });
    await waitFor(async () => expect(await mirrored('db')).toEqual([]));
    await writeEndpoints('db', ['192.168.1.12']);
    await waitFor(async () => expect(await ips('db')).toEqual(['192.168.1.12 true']));
    await firstValueFrom(cluster.api.delete(SERVICES, svc.metadata.name ?? '', ns));
    await waitFor(async () => expect(await mirrored('db')).toEqual([]));
  });

  it('a Service with a selector is not mirrored (the endpointslice controller serves it)', async () => {
    await firstValueFrom(
      cluster.api.create<Service>(
        SERVICES,
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'sel' },
          spec: { selector: { app: 'x' }, ports: [{ port: 80, protocol: 'TCP' }] },
        },
        ns,
      ),
    );
    await writeEndpoints('sel', ['192.168.2.1']);
    // a mirrored Service written after it proves the controller ran past 'sel'
    await firstValueFrom(
      cluster.api.create<Service>(
        SERVICES,
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'probe' },
          spec: { ports: [{ port: 1, protocol: 'TCP' }] },
        },
        ns,
      ),
    );
    await writeEndpoints('probe', ['192.168.2.2']);
    await waitFor(async () => expect(await ips('probe')).toEqual(['192.168.2.2 true']));
    expect(await mirrored('sel')).toEqual([]);
  });
});
