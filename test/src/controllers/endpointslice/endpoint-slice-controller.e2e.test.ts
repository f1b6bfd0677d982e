// The endpointslice and endpoints controllers end to end: the embedded API server, kube-rx scheduler, a simulated kubelet, kube-rx controller-manager and kubectl — a deployment of 3 behind a Service, its slices and `kubectl describe service`.
import { describe, expect, it } from 'vitest';
import { useControlPlane } from '../../../helpers/control-plane.ts';
import { KUBECTL } from '../../scheduler/scheduler-process.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

interface Item {
  metadata: { name: string; labels?: Record<string, string>; deletionTimestamp?: string };
  status?: { podIP?: string; conditions?: { type: string; status: string }[] };
  addressType?: string;
  endpoints?: { addresses: string[]; conditions?: { ready?: boolean } }[];
}

describe.skipIf(!KUBECTL)('endpointslice and endpoints controllers end to end', { timeout: 120_000 }, () => {
  // one node: each simulated kubelet numbers its pod IPs from the same prefix
  const plane = useControlPlane({
    nodes: 1,
    controllerManager: [
      '--controllers',
      'replicaset,deployment,endpoint,endpointslice',
      '--kube-api-qps',
      '1000',
      '--kube-api-burst',
      '1000',
    ],
  });
  const json = async (args: string[]): Promise<{ items: Item[] }> =>
    JSON.parse(await plane.ok([...args, '-o', 'json']));
  const readyPodIPs = async () =>
    (await json(['get', 'pods', '-l', 'app=web'])).items
      .filter(
        (p) =>
          !p.metadata.deletionTimestamp &&
          p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
      )
      .map((p) => p.status?.podIP ?? '')
      .sort();
  const sliceAddresses = async () => {
    const slices = (await json(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web'])).items;
    for (const s of slices) {
      expect(s.metadata.labels?.['endpointslice.kubernetes.io/managed-by']).toBe(
        'endpointslice-controller.k8s.io',
      );
    }
    const endpoints = slices.flatMap((s) => s.endpoints ?? []);
    return {
      ready: endpoints
        .filter((e) => e.conditions?.ready)
        .flatMap((e) => e.addresses)
        .sort(),
      all: endpoints.flatMap((e) => e.addresses).sort(),
    };
  };

  it('a Service in front of a deployment of 3 lists exactly its ready pods', async () => {
    expect(plane.manager!.started.controllers).toEqual(
      expect.arrayContaining(['endpoints-controller', 'endpointslice-controller']),
    );
    await plane.ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=3', '--port=80']);
    await plane.ok(['expose', 'deployment', 'web', '--port=8080', '--target-port=80']);
    const r = await plane.kubectl(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    expect(r.code).toBe(0);
    const ips = await readyPodIPs();
    expect(ips).toHaveLength(3);
    expect(new Set(ips).size).toBe(3);
    await waitFor(async () => {
      expect(await sliceAddresses()).toEqual({ ready: ips, all: ips });
    }, 30_000);
    const table = await plane.ok(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web']);
    expect(table).toMatch(/^NAME\s+ADDRESSTYPE\s+PORTS\s+ENDPOINTS\s+AGE/);
    expect(table).toMatch(/web-\S+\s+IPv4\s+80\s+/);
  });

  it('`kubectl describe service web` shows the Endpoints', async () => {
    const ips = await readyPodIPs();
    await waitFor(async () => {
      const out = await plane.ok(['describe', 'service', 'web']);
      const line = out.split('\n').find((l) => l.startsWith('Endpoints:')) ?? '';
      for (const ip of ips) expect(line).toContain(`${ip}:80`);
    }, 30_000);
    const ep = JSON.parse(await plane.ok(['get', 'endpoints', 'web', '-o', 'json']));
    expect(ep.subsets[0].addresses.map((a: { ip: string }) => a.ip).sort()).toEqual(ips);
    expect(ep.subsets[0].ports).toEqual([{ port: 80, protocol: 'TCP' }]);
  });

  it('scaling down to 1 leaves exactly the remaining ready pod', async () => {
    await plane.ok(['scale', 'deployment', 'web', '--replicas=1']);
    await waitFor(async () => {
      const ips = await readyPodIPs();
      expect(ips).toHaveLength(1);
      expect((await sliceAddresses()).ready).toEqual(ips);
    }, 30_000);
  });
});
