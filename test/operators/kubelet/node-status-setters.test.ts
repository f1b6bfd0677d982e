// Tests of the node status setters: capacity and allocatable, addresses, nodeInfo, registration, change detection (setters_test.go, kubelet_node_status_test.go).
import { describe, expect, it } from 'vitest';
import {
  buildNodeStatus,
  initialNode,
  type MachineInfo,
  type NodeStatusConfig,
  nodeAddresses,
  nodeStatusChanged,
} from '../../../operators/kubelet/node-status-setters.ts';

const NOW = '2026-11-24T10:00:10Z';
const LATER = '2026-11-24T10:00:20Z';
const GI = 1024 ** 3;

const machine: MachineInfo = {
  hostname: 'host-1',
  cpus: 4,
  memoryBytes: 8 * GI,
  memoryAvailableBytes: 4 * GI,
  ephemeralStorageBytes: 100 * GI,
  ephemeralStorageAvailableBytes: 50 * GI,
  addresses: [
    { address: 'fe80::1', family: 'IPv6' },
    { address: '10.0.0.5', family: 'IPv4' },
    { address: '192.168.1.9', family: 'IPv4' },
  ],
  operatingSystem: 'linux',
  architecture: 'amd64',
  kernelVersion: '6.1.0-18-amd64',
  osImage: 'Debian GNU/Linux 12 (bookworm)',
  machineID: 'mid',
  systemUUID: 'uuid',
  bootID: 'boot',
};

const config: NodeStatusConfig = {
  nodeName: 'node-1',
  kubeletVersion: 'v1.33.0-kube-rx',
  containerRuntimeVersion: 'process://1.0.0',
};

describe('buildNodeStatus: capacity and allocatable (TestMachineInfo)', () => {
  it('reads cpu, memory, ephemeral storage and pods from the host; allocatable less eviction thresholds', () => {
    const s = buildNodeStatus(undefined, machine, config, NOW);
    expect(s.capacity).toEqual({
      cpu: '4',
      memory: `${8 * 1024 * 1024}Ki`,
      'ephemeral-storage': `${100 * 1024 * 1024}Ki`,
      pods: '110',
      'hugepages-1Gi': '0',
      'hugepages-2Mi': '0',
    });
    expect(s.allocatable).toEqual({
      cpu: '4',
      memory: `${8 * 1024 * 1024 - 100 * 1024}Ki`,
      'ephemeral-storage': String(100 * GI - Math.floor((100 * GI) / 10)),
      pods: '110',
      'hugepages-1Gi': '0',
      'hugepages-2Mi': '0',
    });
  });

  it('honours maxPods, capacity overrides and reservations', () => {
    const s = buildNodeStatus(
      undefined,
      machine,
      {
        ...config,
        maxPods: 20,
        capacity: { cpu: '2', memory: '4Gi' },
        reserved: { cpu: '500m', memory: '1Gi' },
      },
      NOW,
    );
    expect(s.capacity).toMatchObject({ cpu: '2', memory: '4Gi', pods: '20' });
    expect(s.allocatable).toMatchObject({
      cpu: '1500m',
      memory: `${3 * 1024 * 1024 - 100 * 1024}Ki`,
      pods: '20',
    });
  });

  it('reports memory and disk pressure below the hard eviction thresholds', () => {
    const low = {
      ...machine,
      memoryAvailableBytes: 50 * 1024 * 1024,
      ephemeralStorageAvailableBytes: 5 * GI,
    };
    const s = buildNodeStatus(undefined, low, config, NOW);
    const status = (t: string) => s.conditions?.find((c) => c.type === t)?.status;
    expect([
      status('MemoryPressure'),
      status('DiskPressure'),
      status('PIDPressure'),
      status('Ready'),
    ]).toEqual(['True', 'True', 'False', 'True']);
  });

  it('fills nodeInfo, the kubelet endpoint and keeps fields others set', () => {
    const s = buildNodeStatus(
      { images: [{ names: ['busybox'] }] },
      machine,
      { ...config, kubeletPort: 10250 },
      NOW,
    );
    expect(s.nodeInfo).toEqual({
      machineID: 'mid',
      systemUUID: 'uuid',
      bootID: 'boot',
      kernelVersion: '6.1.0-18-amd64',
      osImage: 'Debian GNU/Linux 12 (bookworm)',
      containerRuntimeVersion: 'process://1.0.0',
      kubeletVersion: 'v1.33.0-kube-rx',
      operatingSystem: 'linux',
      architecture: 'amd64',
    });
    expect(s.daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 10250 } });
    expect(s.images).toEqual([{ names: ['busybox'] }]);
  });
});

describe('nodeAddresses (TestNodeAddress)', () => {
  it.each([
    ['--node-ip wins', { nodeIp: '10.9.9.9' }, machine.addresses, '10.9.9.9'],
    ['else the first IPv4 address', {}, machine.addresses, '10.0.0.5'],
    [
      'an IPv6-only host uses its first address',
      {},
      [{ address: 'fd00::2', family: 'IPv6' as const }],
      'fd00::2',
    ],
  ])('%s', (_name, extra, addresses, internal) => {
    expect(nodeAddresses({ ...machine, addresses }, { ...config, ...extra })).toEqual([
      { type: 'InternalIP', address: internal },
      { type: 'Hostname', address: 'node-1' },
    ]);
  });

  it('a host without addresses has only a Hostname; --hostname-override names it', () => {
    expect(nodeAddresses({ ...machine, addresses: [] }, { ...config, hostname: 'override' })).toEqual([
      { type: 'Hostname', address: 'override' },
    ]);
  });
});

describe('initialNode (TestRegisterWithApiServer, node labels and taints)', () => {
  it('sets default labels, --node-labels, --register-with-taints and the attach/detach annotation', () => {
    const node = initialNode(
      machine,
      {
        ...config,
        nodeLabels: { 'node-role.kubernetes.io/worker': '', zone: 'a' },
        registerWithTaints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      },
      NOW,
    );
    expect(node.metadata.labels).toEqual({
      'beta.kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/hostname': 'node-1',
      'kubernetes.io/os': 'linux',
      'node-role.kubernetes.io/worker': '',
      zone: 'a',
    });
    expect(node.spec?.taints).toEqual([{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }]);
    expect(node.metadata.annotations).toEqual({
      'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
    });
    expect(node.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'True',
      lastTransitionTime: NOW,
    });
  });
});

describe('nodeStatusChanged (TestNodeStatusHasChanged)', () => {
  const base = buildNodeStatus(undefined, machine, config, NOW);
  it.each([
    ['the same status', () => base, false],
    ['only heartbeats moved', () => buildNodeStatus(base, machine, config, LATER), false],
    [
      'a condition status changed',
      () => buildNodeStatus(base, machine, { ...config, notReadyErrors: ['x'] }, LATER),
      true,
    ],
    [
      'a transition time changed',
      () => ({ ...base, conditions: base.conditions!.map((c) => ({ ...c, lastTransitionTime: LATER })) }),
      true,
    ],
    ['the condition order changed', () => ({ ...base, conditions: [...base.conditions!].reverse() }), true],
    ['capacity changed', () => buildNodeStatus(base, { ...machine, cpus: 8 }, config, LATER), true],
  ])('%s → %s', (_name, next, changed) => {
    expect(nodeStatusChanged(base, next())).toBe(changed);
  });

  it('a first status is a change', () => {
    expect(nodeStatusChanged(undefined, base)).toBe(true);
  });
});
