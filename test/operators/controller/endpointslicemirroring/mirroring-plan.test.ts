// mirroringPlan: cases from upstream's endpointslicemirroring reconciler_test.go, in our words.
import { describe, expect, it } from 'vitest';
import type {
  EndpointSubset,
  Endpoints,
} from '../../../../operators/controller/endpoints/endpoints-types.ts';
import type { EndpointSlice } from '../../../../operators/controller/endpointslice/endpoint-slice-types.ts';
import { mirroringPlan } from '../../../../operators/controller/endpointslicemirroring/mirroring-plan.ts';

const eps = (subsets: EndpointSubset[], meta: Partial<Endpoints['metadata']> = {}): Endpoints => ({
  metadata: { name: 'ext', namespace: 'default', uid: 'ep-uid', ...meta },
  subsets,
});
const P443 = [{ name: 'https', port: 443, protocol: 'TCP' }];
/** Applies creates as a server would, giving names. */
const applied = (plan: ReturnType<typeof mirroringPlan>): EndpointSlice[] =>
  plan.create.map((s, i) => ({
    ...s,
    metadata: { ...s.metadata, name: `ext-${i}`, uid: `u${i}`, resourceVersion: '1' },
  }));

describe('mirroringPlan', () => {
  it('mirrors ready and not-ready addresses into one slice per address type and ports, owned by the Endpoints', () => {
    const plan = mirroringPlan(
      eps(
        [
          {
            addresses: [{ ip: '10.0.0.1', nodeName: 'n1', hostname: 'h' }, { ip: 'fd00::1' }],
            notReadyAddresses: [{ ip: '10.0.0.2' }],
            ports: P443,
          },
        ],
        {
          labels: { team: 'a' },
          annotations: {
            note: 'x',
            'endpoints.kubernetes.io/last-change-trigger-time': 't',
            'kubectl.kubernetes.io/last-applied-configuration': '{}',
          },
        },
      ),
      [],
    );
    expect(plan.update).toEqual([]);
    expect(plan.delete).toEqual([]);
    expect(plan.create.map((s) => [s.addressType, s.endpoints])).toEqual([
      [
        'IPv4',
        [
          { addresses: ['10.0.0.1'], conditions: { ready: true }, hostname: 'h', nodeName: 'n1' },
          { addresses: ['10.0.0.2'], conditions: { ready: false } },
        ],
      ],
      ['IPv6', [{ addresses: ['fd00::1'], conditions: { ready: true } }]],
    ]);
    expect(plan.create[0]!.metadata).toMatchObject({
      generateName: 'ext-',
      labels: {
        team: 'a',
        'kubernetes.io/service-name': 'ext',
        'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io',
      },
      annotations: { note: 'x' },
      ownerReferences: [
        { apiVersion: 'v1', kind: 'Endpoints', name: 'ext', uid: 'ep-uid', controller: true },
      ],
    });
    expect(plan.create[0]!.ports).toEqual(P443);
  });

  it('nothing changes when the slices already mirror the Endpoints', () => {
    const ep = eps([{ addresses: [{ ip: '10.0.0.1' }], ports: P443 }]);
    const existing = applied(mirroringPlan(ep, []));
    expect(mirroringPlan(ep, existing)).toMatchObject({ create: [], update: [], delete: [] });
  });

  it('a changed address or label rewrites the slice in place', () => {
    const existing = applied(mirroringPlan(eps([{ addresses: [{ ip: '10.0.0.1' }], ports: P443 }]), []));
    const moved = mirroringPlan(eps([{ addresses: [{ ip: '10.0.0.9' }], ports: P443 }]), existing);
    expect(moved.update.map((s) => [s.metadata.name, s.endpoints?.map((e) => e.addresses[0])])).toEqual([
      ['ext-0', ['10.0.0.9']],
    ]);
    const relabelled = mirroringPlan(
      eps([{ addresses: [{ ip: '10.0.0.1' }], ports: P443 }], { labels: { a: 'b' } }),
      existing,
    );
    expect(relabelled.update).toHaveLength(1);
  });

  it('new ports: the old slice is recycled as the new one; no addresses: slices deleted', () => {
    const existing = applied(mirroringPlan(eps([{ addresses: [{ ip: '10.0.0.1' }], ports: P443 }]), []));
    const ported = mirroringPlan(
      eps([{ addresses: [{ ip: '10.0.0.1' }], ports: [{ name: 'h', port: 80, protocol: 'TCP' }] }]),
      existing,
    );
    expect(ported.create).toEqual([]);
    expect(ported.delete).toEqual([]);
    expect(ported.update.map((s) => [s.metadata.name, s.ports?.[0]?.port])).toEqual([['ext-0', 80]]);
    expect(mirroringPlan(eps([]), existing)).toMatchObject({ create: [], update: [], delete: existing });
  });

  it.each([
    [
      'invalid IPs are skipped and counted',
      [{ addresses: [{ ip: 'not-an-ip' }, { ip: '10.0.0.1' }] }],
      1000,
      1,
      1,
      1,
    ],
    [
      'at most maxEndpointsPerSubset per subset, ready first',
      [{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], notReadyAddresses: [{ ip: '10.0.0.3' }] }],
      2,
      0,
      1,
      2,
    ],
  ] as [string, EndpointSubset[], number, number, number, number][])(
    '%s',
    (_n, subsets, max, invalid, skipped, mirrored) => {
      const plan = mirroringPlan(eps(subsets), [], max);
      expect([plan.invalid, plan.skipped]).toEqual([invalid, skipped]);
      expect(plan.create.flatMap((s) => s.endpoints ?? [])).toHaveLength(mirrored);
    },
  );
});
