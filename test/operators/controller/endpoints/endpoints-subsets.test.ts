// endpointsSubsets, repackSubsets, truncateEndpoints and desiredEndpoints: cases from upstream's endpoints_controller_test.go and endpoints_test.go, in our words.
import { describe, expect, it } from 'vitest';
import { desiredEndpoints } from '../../../../operators/controller/endpoints/desired-endpoints.ts';
import { endpointsSubsets } from '../../../../operators/controller/endpoints/endpoints-subsets.ts';
import type {
  EndpointAddress,
  EndpointSubset,
  Endpoints,
} from '../../../../operators/controller/endpoints/endpoints-types.ts';
import { repackSubsets } from '../../../../operators/controller/endpoints/repack-subsets.ts';
import { truncateEndpoints } from '../../../../operators/controller/endpoints/truncate-endpoints.ts';
import { pod, service } from '../endpointslice/endpoint-slice-fixtures.ts';

const addr = (i: number, ip = `10.0.0.${i}`): EndpointAddress => ({
  ip,
  nodeName: 'node-1',
  targetRef: { kind: 'Pod', namespace: 'default', name: `pod${i}`, uid: `pod-uid-${i}` },
});
const HTTP = { name: 'http', port: 8080, protocol: 'TCP' };

describe('endpointsSubsets', () => {
  it('puts ready pods in addresses and not-ready ones in notReadyAddresses, one subset per port set', () => {
    const { subsets, ready, notReady } = endpointsSubsets(service(), [
      pod(1),
      pod(2, { ready: false }),
      pod(3),
    ]);
    expect(subsets).toEqual([{ addresses: [addr(1), addr(3)], notReadyAddresses: [addr(2)], ports: [HTTP] }]);
    expect([ready, notReady]).toEqual([2, 1]);
  });

  it.each([
    ['a terminating pod', { terminating: true }, false, []],
    [
      'a terminating pod, publishNotReadyAddresses',
      { terminating: true },
      true,
      [{ addresses: [addr(1)], ports: [HTTP] }],
    ],
    [
      'a not-ready pod, publishNotReadyAddresses',
      { ready: false },
      true,
      [{ addresses: [addr(1)], ports: [HTTP] }],
    ],
    ['a pod without an IP', { ip: [] as string[] }, false, []],
    ['a Succeeded pod', { phase: 'Succeeded' }, false, []],
    ['a Failed pod, publishNotReadyAddresses', { phase: 'Failed' }, true, []],
  ])('%s', (_name, opts, publish, want) => {
    expect(endpointsSubsets(service({ publishNotReadyAddresses: publish }), [pod(1, opts)]).subsets).toEqual(
      want,
    );
  });

  it('resolves named target ports per pod: pods with different numbers land in different subsets', () => {
    const svc = service({ ports: [{ name: 'http', port: 80, targetPort: 'web', protocol: 'TCP' }] });
    const { subsets } = endpointsSubsets(svc, [
      pod(1, { ports: [{ name: 'web', containerPort: 8080 }] }),
      pod(2, { ports: [{ name: 'web', containerPort: 9090 }] }),
      pod(3, { ports: [{ name: 'nope', containerPort: 9090 }] }),
    ]);
    expect(subsets).toEqual([
      { addresses: [addr(1)], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] },
      { addresses: [addr(2)], ports: [{ name: 'http', port: 9090, protocol: 'TCP' }] },
    ]);
  });

  it('several Service ports of the same pods share one subset', () => {
    const svc = service({
      ports: [
        { name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' },
        { name: 'https', port: 443, targetPort: 8443, protocol: 'TCP' },
      ],
    });
    expect(endpointsSubsets(svc, [pod(1), pod(2)]).subsets).toEqual([
      {
        addresses: [addr(1), addr(2)],
        ports: [HTTP, { name: 'https', port: 8443, protocol: 'TCP' }],
      },
    ]);
  });

  it('a headless Service without ports lists its pods without ports; one with a cluster IP lists none', () => {
    expect(endpointsSubsets(service({ clusterIP: 'None', ports: [] }), [pod(1)]).subsets).toEqual([
      { addresses: [addr(1)] },
    ]);
    expect(endpointsSubsets(service({ ports: [] }), [pod(1)]).subsets).toEqual([]);
  });

  it.each([
    ['the first IP family', { ipFamilies: ['IPv6', 'IPv4'] }, 'fd00::1'],
    ['the cluster IP family without families', { ipFamilies: [], clusterIP: 'fd00::a' }, 'fd00::1'],
    [
      'the pod IP family for a headless Service without families',
      { ipFamilies: [], clusterIP: 'None' },
      '10.0.0.1',
    ],
  ])('picks the address of %s', (_name, spec, ip) => {
    const { subsets } = endpointsSubsets(service(spec), [pod(1, { ip: ['10.0.0.1', 'fd00::1'] })]);
    expect(subsets[0]!.addresses![0]!.ip).toBe(ip);
  });

  it('a pod without an IP of the Service family is left out', () => {
    expect(endpointsSubsets(service({ ipFamilies: ['IPv6'] }), [pod(1)]).subsets).toEqual([]);
  });
});

describe('repackSubsets', () => {
  it.each<[string, EndpointSubset[], EndpointSubset[]]>([
    ['empty', [], []],
    [
      'merges addresses of the same port',
      [
        { addresses: [addr(2)], ports: [HTTP] },
        { addresses: [addr(1)], ports: [HTTP] },
      ],
      [{ addresses: [addr(1), addr(2)], ports: [HTTP] }],
    ],
    [
      'drops duplicate addresses',
      [
        { addresses: [addr(1)], ports: [HTTP] },
        { addresses: [addr(1)], ports: [HTTP] },
      ],
      [{ addresses: [addr(1)], ports: [HTTP] }],
    ],
    [
      'ready wins over not ready for the same address and port',
      [
        { notReadyAddresses: [addr(1)], ports: [HTTP] },
        { addresses: [addr(1)], ports: [HTTP] },
      ],
      [{ addresses: [addr(1)], ports: [HTTP] }],
    ],
    [
      'the same IP with different targets stays twice',
      [{ addresses: [addr(1), { ...addr(2), ip: '10.0.0.1' }], ports: [HTTP] }],
      [{ addresses: [addr(1), { ...addr(2), ip: '10.0.0.1' }], ports: [HTTP] }],
    ],
    [
      'addresses offering different ports split',
      [
        { addresses: [addr(1)], ports: [HTTP] },
        { addresses: [addr(2)], ports: [{ name: 'b', port: 1, protocol: 'TCP' }] },
      ],
      [
        { addresses: [addr(1)], ports: [HTTP] },
        { addresses: [addr(2)], ports: [{ name: 'b', port: 1, protocol: 'TCP' }] },
      ],
    ],
  ])('%s', (_name, input, want) => {
    expect(repackSubsets(input)).toEqual(want);
  });
});

describe('truncateEndpoints', () => {
  const many = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) => addr(from + i, `10.${from}.${Math.floor(i / 250)}.${i % 250}`));
  const sizes = (s: EndpointSubset[] | undefined) =>
    s?.map((x) => [x.addresses?.length ?? 0, x.notReadyAddresses?.length ?? 0]);

  it.each<[string, EndpointSubset[], number[][] | undefined]>([
    ['fits: untouched', [{ addresses: many(1000) }], undefined],
    [
      'ready over capacity: not-ready all go',
      [{ addresses: many(1001), notReadyAddresses: many(10, 5) }],
      [[1000, 0]],
    ],
    ['not-ready trimmed first', [{ addresses: many(999), notReadyAddresses: many(10, 5) }], [[999, 1]]],
    [
      'ready shared between subsets by proportion',
      [{ addresses: many(600) }, { addresses: many(600, 1) }],
      [
        [500, 0],
        [500, 0],
      ],
    ],
    [
      'not-ready shared by proportion, rounded up within what is left',
      [{ addresses: many(900), notReadyAddresses: many(150, 1) }, { notReadyAddresses: many(50, 2) }],
      [
        [900, 75],
        [0, 25],
      ],
    ],
  ])('%s', (_name, subsets, want) => {
    expect(sizes(truncateEndpoints(subsets))).toEqual(want);
  });
});

describe('desiredEndpoints', () => {
  const existing = (subsets: EndpointSubset[], extra: Partial<Endpoints['metadata']> = {}): Endpoints => ({
    metadata: { name: 'web', namespace: 'default', resourceVersion: '5', ...extra },
    subsets,
  });

  it('creates the Endpoints with the Service labels and the trigger time', () => {
    const w = desiredEndpoints(
      service({}, { app: 'web' }),
      undefined,
      [{ addresses: [addr(1)] }],
      '2024-01-01T00:00:00Z',
    );
    expect(w).toEqual({
      action: 'create',
      endpoints: {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: {
          name: 'web',
          namespace: 'default',
          labels: { app: 'web' },
          annotations: { 'endpoints.kubernetes.io/last-change-trigger-time': '2024-01-01T00:00:00Z' },
        },
        subsets: [{ addresses: [addr(1)] }],
      },
    });
  });

  it('writes nothing when subsets and labels agree (pod resourceVersions aside)', () => {
    const cur = existing([
      { addresses: [{ ...addr(1), targetRef: { ...addr(1).targetRef, resourceVersion: '9' } }] },
    ]);
    expect(desiredEndpoints(service(), cur, [{ addresses: [addr(1)] }], undefined)).toEqual({
      action: 'none',
    });
  });

  it('a headless Service: its Endpoints carry the headless label, which does not count as a difference', () => {
    const w = desiredEndpoints(service({ clusterIP: 'None' }), undefined, [], undefined);
    expect(w.action === 'create' && w.endpoints.metadata.labels).toEqual({
      'service.kubernetes.io/headless': '',
    });
    const cur = existing([], { labels: { 'service.kubernetes.io/headless': '' } });
    expect(desiredEndpoints(service({ clusterIP: 'None' }), cur, [], undefined)).toEqual({ action: 'none' });
  });

  it('updates when labels differ and removes a stale trigger time', () => {
    const cur = existing([], { annotations: { 'endpoints.kubernetes.io/last-change-trigger-time': 'x' } });
    const w = desiredEndpoints(service({}, { team: 'a' }), cur, [], undefined);
    expect(w.action).toBe('update');
    expect(w.action === 'update' && w.endpoints.metadata).toMatchObject({
      resourceVersion: '5',
      labels: { team: 'a' },
      annotations: {},
    });
  });

  it('past 1000 addresses: truncated subsets and the over-capacity annotation; back under: annotation removed', () => {
    const big = [
      {
        addresses: Array.from({ length: 1001 }, (_, i) => addr(i, `10.1.${Math.floor(i / 250)}.${i % 250}`)),
      },
    ];
    const w = desiredEndpoints(service(), undefined, big, undefined);
    expect(w.action === 'create' && w.endpoints.metadata.annotations).toEqual({
      'endpoints.kubernetes.io/over-capacity': 'truncated',
    });
    expect(w.action === 'create' && w.endpoints.subsets?.[0]?.addresses).toHaveLength(1000);
    const cur = existing([{ addresses: [addr(1)] }], {
      annotations: { 'endpoints.kubernetes.io/over-capacity': 'truncated' },
    });
    const back = desiredEndpoints(service(), cur, [{ addresses: [addr(1)] }], undefined);
    expect(back.action === 'update' && back.endpoints.metadata.annotations).toEqual({});
  });
});
