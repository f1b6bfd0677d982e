// NodeInfo and pod requests, with cases of component-helpers' resource tests and the scheduler's types_test.go in our words.
import { describe, expect, it } from 'vitest';
import type { Container, Pod } from '../../../../operators/api/core-v1.ts';
import {
  HostPortInfo,
  NodeInfo,
  podHostPorts,
  podRequests,
} from '../../../../operators/scheduling/framework/node-info.ts';

const c = (name: string, cpu?: string, memory?: string, extra: Partial<Container> = {}): Container => {
  const requests: Record<string, string> = {};
  if (cpu) requests.cpu = cpu;
  if (memory) requests.memory = memory;
  return { name, resources: { requests }, ...extra };
};
const pod = (
  containers: Container[],
  initContainers: Container[] = [],
  overhead?: Record<string, string>,
): Pod => ({
  metadata: { name: 'p', namespace: 'ns', uid: `u-${Math.random()}` },
  spec: { containers, initContainers, ...(overhead ? { overhead } : {}) },
});

describe('podRequests (PodRequests)', () => {
  it.each<[string, Pod, number, number]>([
    ['the sum of the containers', pod([c('a', '100m', '1Mi'), c('b', '200m', '2Mi')]), 300, 3 * 1024 * 1024],
    ['an init container larger than the sum wins', pod([c('a', '100m')], [c('i', '500m')]), 500, 0],
    ['a smaller init container does not count', pod([c('a', '300m')], [c('i', '100m')]), 300, 0],
    [
      'a sidecar adds to the total',
      pod([c('a', '100m')], [c('s', '50m', undefined, { restartPolicy: 'Always' })]),
      150,
      0,
    ],
    [
      'an init container after a sidecar runs beside it',
      pod([c('a', '100m')], [c('s', '200m', undefined, { restartPolicy: 'Always' }), c('i', '250m')]),
      450,
      0,
    ],
    [
      'an init container before a sidecar runs alone',
      pod([c('a', '100m')], [c('i', '250m'), c('s', '200m', undefined, { restartPolicy: 'Always' })]),
      300,
      0,
    ],
    [
      'the overhead is added',
      pod([c('a', '100m', '1Mi')], [], { cpu: '10m', memory: '1Mi' }),
      110,
      2 * 1024 * 1024,
    ],
  ])('%s', (_case, p, milliCPU, memory) => {
    const r = podRequests(p);
    expect(r.milliCPU).toBe(milliCPU);
    expect(r.memory).toBe(memory);
  });

  it('non-zero requests count 100m and 200Mi for a container that asks for nothing (scoring only)', () => {
    const r = podRequests(pod([c('a'), c('b', '300m')]), true);
    expect(r.milliCPU).toBe(100 + 300);
    expect(r.memory).toBe(2 * 200 * 1024 * 1024);
    expect(podRequests(pod([c('a')])).milliCPU).toBe(0);
  });
});

describe('host ports', () => {
  it('counts the containers and sidecars, not ordinary init containers', () => {
    const port = (hostPort: number) => ({ ports: [{ containerPort: 80, hostPort }] });
    const p = pod(
      [c('a', undefined, undefined, port(8080))],
      [
        c('init', undefined, undefined, port(9090)),
        c('side', undefined, undefined, { ...port(7070), restartPolicy: 'Always' }),
      ],
    );
    expect(
      podHostPorts(p)
        .map((h) => h.port)
        .sort(),
    ).toEqual([7070, 8080]);
  });

  it.each<
    [
      string,
      { ip: string; protocol: string; port: number },
      { ip: string; protocol: string; port: number },
      boolean,
    ]
  >([
    [
      'same IP and port',
      { ip: '1.2.3.4', protocol: 'TCP', port: 80 },
      { ip: '1.2.3.4', protocol: 'TCP', port: 80 },
      true,
    ],
    [
      'other protocol',
      { ip: '1.2.3.4', protocol: 'TCP', port: 80 },
      { ip: '1.2.3.4', protocol: 'UDP', port: 80 },
      false,
    ],
    [
      'other IPs',
      { ip: '1.2.3.4', protocol: 'TCP', port: 80 },
      { ip: '5.6.7.8', protocol: 'TCP', port: 80 },
      false,
    ],
    [
      'a used wildcard blocks any IP',
      { ip: '0.0.0.0', protocol: 'TCP', port: 80 },
      { ip: '5.6.7.8', protocol: 'TCP', port: 80 },
      true,
    ],
    [
      'a wildcard request conflicts with any IP',
      { ip: '1.2.3.4', protocol: 'TCP', port: 80 },
      { ip: '0.0.0.0', protocol: 'TCP', port: 80 },
      true,
    ],
  ])('HostPortInfo conflict: %s', (_case, used, wanted, conflicts) => {
    const info = new HostPortInfo();
    info.add(used);
    expect(info.conflicts(wanted)).toBe(conflicts);
    info.remove(used);
    expect(info.conflicts(wanted)).toBe(false);
    expect(info.size).toBe(0);
  });
});

describe('NodeInfo', () => {
  const node = {
    metadata: { name: 'n1' },
    status: { allocatable: { cpu: '4', memory: '32Gi', pods: '110' } },
  };

  it('sums what its pods request and forgets a removed pod, bumping the generation each time', () => {
    const info = new NodeInfo(node);
    const a = pod([c('a', '100m', '500Mi', { ports: [{ containerPort: 80, hostPort: 80 }] })]);
    const b = pod([c('b')], [], undefined);
    b.spec.affinity = {
      podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'x' }] },
    };
    const g0 = info.generation;
    info.addPod(a);
    info.addPod(b);
    expect(info.generation).toBeGreaterThan(g0);
    expect(info.requested.milliCPU).toBe(100);
    expect(info.nonZeroRequested.milliCPU).toBe(200);
    expect(info.allocatable).toMatchObject({ milliCPU: 4000, allowedPodNumber: 110 });
    expect(info.podsWithAffinity.map((p) => p.pod)).toEqual([b]);
    expect(info.podsWithRequiredAntiAffinity.map((p) => p.pod)).toEqual([b]);
    expect(info.usedPorts.size).toBe(1);
    const g1 = info.generation;
    expect(info.removePod(a)).toBe(true);
    expect(info.removePod(a)).toBe(false);
    expect(info.generation).toBeGreaterThan(g1);
    expect(info.requested.milliCPU).toBe(0);
    expect(info.usedPorts.size).toBe(0);
  });

  it('a clone changes independently of its original', () => {
    const info = new NodeInfo(node, [pod([c('a', '1')])]);
    const copy = info.clone();
    copy.addPod(pod([c('b', '1')]));
    expect(info.requested.milliCPU).toBe(1000);
    expect(copy.requested.milliCPU).toBe(2000);
    expect(info.pods).toHaveLength(1);
  });
});
