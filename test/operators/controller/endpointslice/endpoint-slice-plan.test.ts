// endpointSlicePlan: cases from upstream's reconciler_test.go (one pod, placeholders, slice sizes, keeping existing slices, ownership, address types, labels, trigger time), in our words.
import { describe, expect, it } from 'vitest';
import { endpointSlicePlan } from '../../../../operators/controller/endpointslice/endpoint-slice-plan.ts';
import type { EndpointSlice } from '../../../../operators/controller/endpointslice/endpoint-slice-types.ts';
import { applyPlan, node, nodesOf, pod, service } from './endpoint-slice-fixtures.ts';

const nodes = nodesOf(node('node-1', 'zone-a'), node('node-2'));
const addresses = (slices: EndpointSlice[]) =>
  slices.flatMap((s) => (s.endpoints ?? []).flatMap((e) => e.addresses)).sort();

describe('endpointSlicePlan', () => {
  it('gives one pod one endpoint with its conditions, node, zone, target and ports', () => {
    const plan = endpointSlicePlan({ service: service(), pods: [pod(1)], nodeOf: nodes, existing: [] });
    expect(plan.update).toEqual([]);
    expect(plan.delete).toEqual([]);
    expect(plan.create).toHaveLength(1);
    const slice = plan.create[0]!;
    expect(slice.metadata).toMatchObject({
      generateName: 'web-',
      namespace: 'default',
      labels: {
        'kubernetes.io/service-name': 'web',
        'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
      },
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'Service',
          name: 'web',
          uid: 'svc-uid',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    });
    expect(slice.addressType).toBe('IPv4');
    expect(slice.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    expect(slice.endpoints).toEqual([
      {
        addresses: ['10.0.0.1'],
        conditions: { ready: true, serving: true, terminating: false },
        targetRef: { kind: 'Pod', namespace: 'default', name: 'pod1', uid: 'pod-uid-1' },
        nodeName: 'node-1',
        zone: 'zone-a',
      },
    ]);
  });

  it.each([
    ['not ready', { ready: false }, { ready: false, serving: false, terminating: false }, false],
    [
      'terminating and ready',
      { terminating: true },
      { ready: false, serving: true, terminating: true },
      false,
    ],
    [
      'terminating, not ready',
      { terminating: true, ready: false },
      { ready: false, serving: false, terminating: true },
      false,
    ],
    [
      'not ready, publishNotReadyAddresses',
      { ready: false },
      { ready: true, serving: false, terminating: false },
      true,
    ],
    [
      'terminating, publishNotReadyAddresses',
      { terminating: true },
      { ready: true, serving: true, terminating: true },
      true,
    ],
  ])('a pod %s gets conditions %o', (_name, opts, conditions, publish) => {
    const plan = endpointSlicePlan({
      service: service({ publishNotReadyAddresses: publish }),
      pods: [pod(1, opts)],
      nodeOf: nodes,
      existing: [],
    });
    expect(plan.create[0]!.endpoints![0]!.conditions).toEqual(conditions);
  });

  it.each([
    ['without an IP', { ip: [] as string[] }],
    ['Succeeded', { phase: 'Succeeded' }],
    ['Failed', { phase: 'Failed' }],
  ])('leaves out a pod %s (only the placeholder is made)', (_name, opts) => {
    const plan = endpointSlicePlan({ service: service(), pods: [pod(1, opts)], nodeOf: nodes, existing: [] });
    expect(plan.create).toHaveLength(1);
    expect(plan.create[0]).toMatchObject({ addressType: 'IPv4', ports: [], endpoints: [] });
  });

  it.each([
    ['IPv4 only', ['IPv4'], { IPv4: ['10.0.0.1'] }],
    ['IPv6 only', ['IPv6'], { IPv6: ['fd00::1'] }],
    ['dual stack', ['IPv4', 'IPv6'], { IPv4: ['10.0.0.1'], IPv6: ['fd00::1'] }],
  ])('a dual-stack pod under a %s Service gets addresses of its families', (_name, families, want) => {
    const plan = endpointSlicePlan({
      service: service({ ipFamilies: families }),
      pods: [pod(1, { ip: ['10.0.0.1', 'fd00::1'] })],
      nodeOf: nodes,
      existing: [],
    });
    const got = Object.fromEntries(plan.create.map((s) => [s.addressType, addresses([s])]));
    expect(got).toEqual(want);
  });

  it.each([
    ['families first', { ipFamilies: ['IPv6'], clusterIP: '10.96.0.1' }, ['IPv6']],
    ['else the cluster IP family', { ipFamilies: [], clusterIP: 'fd00::10' }, ['IPv6']],
    ['else both (headless, no families)', { ipFamilies: [], clusterIP: 'None' }, ['IPv4', 'IPv6']],
  ])('address types: %s', (_name, spec, types) => {
    const plan = endpointSlicePlan({ service: service(spec), pods: [], nodeOf: nodes, existing: [] });
    expect(plan.create.map((s) => s.addressType).sort()).toEqual(types);
  });

  it('a Service with no pods gets one placeholder slice, and keeps it without churn', () => {
    const first = endpointSlicePlan({ service: service(), pods: [], nodeOf: nodes, existing: [] });
    expect(first.create).toHaveLength(1);
    expect(first.create[0]).toMatchObject({ ports: [], endpoints: [] });
    const existing = applyPlan([], first);
    const again = endpointSlicePlan({ service: service(), pods: [], nodeOf: nodes, existing });
    expect(again).toEqual({ create: [], update: [], delete: [], skipped: [] });
  });

  it('the placeholder becomes the first pod’s slice (an update, not a delete and a create)', () => {
    const existing = applyPlan(
      [],
      endpointSlicePlan({ service: service(), pods: [], nodeOf: nodes, existing: [] }),
    );
    const plan = endpointSlicePlan({ service: service(), pods: [pod(1)], nodeOf: nodes, existing });
    expect(plan.create).toEqual([]);
    expect(plan.delete).toEqual([]);
    expect(plan.update).toHaveLength(1);
    expect(plan.update[0]!.metadata.name).toBe(existing[0]!.metadata.name);
    expect(addresses(plan.update)).toEqual(['10.0.0.1']);
  });

  it.each([
    [250, 100, [100, 100, 50]],
    [100, 100, [100]],
    [101, 100, [100, 1]],
    [7, 3, [3, 3, 1]],
  ])('%i pods at most %i per slice make slices of %o', (count, max, sizes) => {
    const pods = Array.from({ length: count }, (_, i) =>
      pod(i, { ip: `10.1.${Math.floor(i / 250)}.${i % 250}` }),
    );
    const plan = endpointSlicePlan({
      service: service(),
      pods,
      nodeOf: nodes,
      existing: [],
      maxEndpointsPerSlice: max,
    });
    expect(plan.create.map((s) => s.endpoints!.length)).toEqual(sizes);
  });

  it('nothing changes when the slices already hold the endpoints', () => {
    const pods = [pod(1), pod(2), pod(3)];
    const existing = applyPlan(
      [],
      endpointSlicePlan({ service: service(), pods, nodeOf: nodes, existing: [] }),
    );
    expect(endpointSlicePlan({ service: service(), pods, nodeOf: nodes, existing })).toEqual({
      create: [],
      update: [],
      delete: [],
      skipped: [],
    });
  });

  it('a changed endpoint updates only its slice; a new pod goes into the slice being updated', () => {
    const pods = Array.from({ length: 5 }, (_, i) => pod(i + 1));
    const existing = applyPlan(
      [],
      endpointSlicePlan({ service: service(), pods, nodeOf: nodes, existing: [], maxEndpointsPerSlice: 3 }),
    );
    expect(existing.map((s) => s.endpoints!.length)).toEqual([3, 2]);
    const changed = [pod(1, { ready: false }), ...pods.slice(1), pod(6)];
    const plan = endpointSlicePlan({
      service: service(),
      pods: changed,
      nodeOf: nodes,
      existing,
      maxEndpointsPerSlice: 3,
    });
    expect(plan.create).toEqual([]);
    // the first slice (pod1 changed) is full, so pod6 fills the second... which was unchanged, so it fits there
    expect(plan.update.map((s) => s.metadata.name).sort()).toEqual(
      existing.map((s) => s.metadata.name).sort(),
    );
    expect(addresses(applyPlan(existing, plan))).toEqual(changed.map((p) => p.status!.podIP!).sort());
  });

  it('removed pods leave their slices; an emptied slice is deleted', () => {
    const pods = Array.from({ length: 4 }, (_, i) => pod(i + 1));
    const existing = applyPlan(
      [],
      endpointSlicePlan({ service: service(), pods, nodeOf: nodes, existing: [], maxEndpointsPerSlice: 2 }),
    );
    const plan = endpointSlicePlan({
      service: service(),
      pods: pods.slice(0, 2),
      nodeOf: nodes,
      existing,
      maxEndpointsPerSlice: 2,
    });
    expect(plan.create).toEqual([]);
    expect(plan.update).toEqual([]);
    expect(plan.delete.map((s) => s.metadata.name)).toEqual([existing[1]!.metadata.name]);
  });

  it('leftovers go into the unchanged slice that fits them most tightly', () => {
    const mk = (name: string, n: number, from: number): EndpointSlice => ({
      ...endpointSlicePlan({ service: service(), pods: [], nodeOf: nodes, existing: [] }).create[0]!,
      metadata: {
        ...endpointSlicePlan({ service: service(), pods: [], nodeOf: nodes, existing: [] }).create[0]!
          .metadata,
        name,
        uid: name,
      },
      ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
      endpoints: Array.from(
        { length: n },
        (_, i) =>
          endpointSlicePlan({ service: service(), pods: [pod(from + i)], nodeOf: nodes, existing: [] })
            .create[0]!.endpoints![0]!,
      ),
    });
    const existing = [mk('a', 1, 1), mk('b', 7, 10), mk('c', 5, 20)];
    const pods = [
      pod(1),
      ...Array.from({ length: 7 }, (_, i) => pod(10 + i)),
      ...Array.from({ length: 5 }, (_, i) => pod(20 + i)),
      pod(40),
      pod(41),
    ];
    const plan = endpointSlicePlan({
      service: service(),
      pods,
      nodeOf: nodes,
      existing,
      maxEndpointsPerSlice: 10,
    });
    // 2 new endpoints: 'b' (7) would be at 9, 'c' (5) at 7, 'a' (1) at 3: 'b' is the tightest fit
    expect(plan.create).toEqual([]);
    expect(plan.update.map((s) => [s.metadata.name, s.endpoints!.length])).toEqual([['b', 9]]);
  });

  it('named target ports resolve per pod; pods with different numbers get slices of their own', () => {
    const svc = service({ ports: [{ name: 'http', port: 80, targetPort: 'web', protocol: 'TCP' }] });
    const pods = [
      pod(1, { ports: [{ name: 'web', containerPort: 8080 }] }),
      pod(2, { ports: [{ name: 'web', containerPort: 9090 }] }),
      pod(3, { ports: [{ name: 'web', containerPort: 8080 }] }),
      pod(4, { ports: [{ name: 'other', containerPort: 8080 }] }),
    ];
    const plan = endpointSlicePlan({ service: svc, pods, nodeOf: nodes, existing: [] });
    const byPorts = Object.fromEntries(plan.create.map((s) => [JSON.stringify(s.ports), addresses([s])]));
    expect(byPorts).toEqual({
      [JSON.stringify([{ name: 'http', port: 8080, protocol: 'TCP' }])]: ['10.0.0.1', '10.0.0.3'],
      [JSON.stringify([{ name: 'http', port: 9090, protocol: 'TCP' }])]: ['10.0.0.2'],
      // no port of that name: the pod is an endpoint with no ports
      '[]': ['10.0.0.4'],
    });
  });

  it('a named port of another protocol does not match', () => {
    const svc = service({ ports: [{ name: 'dns', port: 53, targetPort: 'dns', protocol: 'UDP' }] });
    const plan = endpointSlicePlan({
      service: svc,
      pods: [pod(1, { ports: [{ name: 'dns', containerPort: 5353, protocol: 'TCP' }] })],
      nodeOf: nodes,
      existing: [],
    });
    expect(plan.create[0]!.ports).toEqual([]);
  });

  it('a slice not owned by this Service (an old Service of the same name) is deleted, not reused', () => {
    const placeholder = endpointSlicePlan({ service: service(), pods: [], nodeOf: nodes, existing: [] })
      .create[0]!;
    const foreign: EndpointSlice = {
      ...placeholder,
      metadata: {
        ...placeholder.metadata,
        name: 'web-old',
        uid: 'x',
        ownerReferences: [
          { apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'old-uid', controller: true },
        ],
      },
    };
    const plan = endpointSlicePlan({
      service: service(),
      pods: [pod(1)],
      nodeOf: nodes,
      existing: [foreign],
    });
    expect(plan.delete.map((s) => s.metadata.name)).toEqual(['web-old']);
    expect(plan.create).toHaveLength(1);
    expect(plan.update).toEqual([]);
  });

  it('slices of an address type the Service no longer has are deleted', () => {
    const dual = service({ ipFamilies: ['IPv4', 'IPv6'] });
    const existing = applyPlan(
      [],
      endpointSlicePlan({
        service: dual,
        pods: [pod(1, { ip: ['10.0.0.1', 'fd00::1'] })],
        nodeOf: nodes,
        existing: [],
      }),
    );
    const plan = endpointSlicePlan({
      service: service(),
      pods: [pod(1, { ip: ['10.0.0.1', 'fd00::1'] })],
      nodeOf: nodes,
      existing,
    });
    expect(plan.delete.map((s) => s.addressType)).toEqual(['IPv6']);
    expect(plan.create).toEqual([]);
    expect(plan.update).toEqual([]);
  });

  it('a pod on a node not in the cache is skipped and named, unless not-ready addresses are published', () => {
    const plan = endpointSlicePlan({
      service: service(),
      pods: [pod(1, { node: 'gone' }), pod(2)],
      nodeOf: nodes,
      existing: [],
    });
    expect(addresses(plan.create)).toEqual(['10.0.0.2']);
    expect(plan.skipped).toEqual(['skipping Pod pod1 for Service default/web: Node gone Not Found']);
    const published = endpointSlicePlan({
      service: service({ publishNotReadyAddresses: true }),
      pods: [pod(1, { node: 'gone' })],
      nodeOf: nodes,
      existing: [],
    });
    expect(published.skipped).toEqual([]);
    expect(published.create[0]!.endpoints![0]).not.toHaveProperty('zone');
  });

  it('copies the Service labels but not the reserved ones, and marks a headless Service', () => {
    const svc = service(
      { clusterIP: 'None' },
      { team: 'a', 'kubernetes.io/service-name': 'evil', 'endpointslice.kubernetes.io/managed-by': 'me' },
    );
    const plan = endpointSlicePlan({ service: svc, pods: [pod(1)], nodeOf: nodes, existing: [] });
    expect(plan.create[0]!.metadata.labels).toEqual({
      team: 'a',
      'service.kubernetes.io/headless': '',
      'kubernetes.io/service-name': 'web',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
    });
  });

  it('a change of the Service labels updates unchanged slices', () => {
    const existing = applyPlan(
      [],
      endpointSlicePlan({ service: service(), pods: [pod(1)], nodeOf: nodes, existing: [] }),
    );
    const plan = endpointSlicePlan({
      service: service({}, { team: 'b' }),
      pods: [pod(1)],
      nodeOf: nodes,
      existing,
    });
    expect(plan.update).toHaveLength(1);
    expect(plan.update[0]!.metadata.labels).toMatchObject({ team: 'b' });
    expect(plan.update[0]!.endpoints).toEqual(existing[0]!.endpoints);
  });

  it('the hostname is set when the pod names the Service as its subdomain', () => {
    const plan = endpointSlicePlan({
      service: service(),
      pods: [pod(1, { hostname: 'h1', subdomain: 'web' }), pod(2, { hostname: 'h2', subdomain: 'other' })],
      nodeOf: nodes,
      existing: [],
    });
    expect(plan.create[0]!.endpoints!.map((e) => e.hostname)).toEqual(['h1', undefined]);
  });

  it('stamps the trigger time on written slices and clears it when there is none', () => {
    const t = '2024-01-01T00:00:05Z';
    const first = endpointSlicePlan({
      service: service(),
      pods: [pod(1)],
      nodeOf: nodes,
      existing: [],
      triggerTime: t,
    });
    expect(first.create[0]!.metadata.annotations).toEqual({
      'endpoints.kubernetes.io/last-change-trigger-time': t,
    });
    const existing = applyPlan([], first);
    const plan = endpointSlicePlan({
      service: service(),
      pods: [pod(1, { ready: false })],
      nodeOf: nodes,
      existing,
    });
    expect(plan.update[0]!.metadata.annotations).toEqual({});
  });

  it('a Service being deleted gets no new slices', () => {
    const svc = service();
    svc.metadata.deletionTimestamp = '2024-01-01T00:00:00Z';
    expect(endpointSlicePlan({ service: svc, pods: [pod(1)], nodeOf: nodes, existing: [] }).create).toEqual(
      [],
    );
  });
});
