// Tests of the eviction manager's admission under node pressure (eviction_manager_test.go TestAdmitUnderNodeConditions, TestMemoryPressure, TestDiskPressureNodeFs).
import { describe, expect, it } from 'vitest';
import type { Node, Pod, ResourceRequirements } from '../../../operators/api/core-v1.ts';
import { admitPod } from '../../../operators/kubelet/admission.ts';
import {
  admitUnderNodePressure,
  isBestEffort,
  isCriticalPod,
} from '../../../operators/kubelet/admission-eviction.ts';

function pod(kind: 'best-effort' | 'burstable' | 'guaranteed', extra: Partial<Pod> = {}): Pod {
  const resources: ResourceRequirements | undefined =
    kind === 'best-effort'
      ? undefined
      : kind === 'burstable'
        ? { requests: { memory: '100Mi' } }
        : { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } };
  return {
    metadata: { uid: kind, name: kind, namespace: 'ns', ...extra.metadata },
    spec: { containers: [{ name: 'c', ...(resources ? { resources } : {}) }], ...extra.spec },
  };
}

const refused = (conditions: string) => ({
  admit: false,
  reason: 'Evicted',
  message: `The node had condition: [${conditions}]. `,
});

describe('admitUnderNodePressure', () => {
  it.each([
    ['no pressure admits everything', 'best-effort', [], { admit: true }],
    ['memory pressure refuses BestEffort', 'best-effort', ['MemoryPressure'], refused('MemoryPressure')],
    ['memory pressure admits Burstable', 'burstable', ['MemoryPressure'], { admit: true }],
    ['memory pressure admits Guaranteed', 'guaranteed', ['MemoryPressure'], { admit: true }],
    ['disk pressure refuses Burstable too', 'burstable', ['DiskPressure'], refused('DiskPressure')],
    [
      'memory and disk pressure refuse Guaranteed',
      'guaranteed',
      ['MemoryPressure', 'DiskPressure'],
      refused('MemoryPressure DiskPressure'),
    ],
    ['PID pressure refuses', 'guaranteed', ['PIDPressure'], refused('PIDPressure')],
    [
      'Ready and other conditions are not pressure',
      'best-effort',
      ['Ready', 'NetworkUnavailable'],
      { admit: true },
    ],
  ] as const)('%s', (_name, kind, pressure, expected) => {
    expect(admitUnderNodePressure(pod(kind), pressure)).toEqual(expected);
  });

  it('admits critical pods under any pressure: static, mirror, system-critical priority', () => {
    const pressure = ['MemoryPressure', 'DiskPressure'];
    const staticPod = pod('best-effort', {
      metadata: { annotations: { 'kubernetes.io/config.source': 'file' } },
    });
    const mirror = pod('best-effort', { metadata: { annotations: { 'kubernetes.io/config.mirror': 'h' } } });
    const critical = pod('best-effort', { spec: { containers: [{ name: 'c' }], priority: 2_000_001_000 } });
    for (const p of [staticPod, mirror, critical]) {
      expect(isCriticalPod(p)).toBe(true);
      expect(admitUnderNodePressure(p, pressure)).toEqual({ admit: true });
    }
    expect(isCriticalPod(pod('best-effort'))).toBe(false);
  });

  it('a BestEffort pod tolerating the memory-pressure taint is admitted under memory pressure only', () => {
    const tolerant = pod('best-effort', {
      spec: {
        containers: [{ name: 'c' }],
        tolerations: [
          { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
        ],
      },
    });
    expect(admitUnderNodePressure(tolerant, ['MemoryPressure'])).toEqual({ admit: true });
    expect(admitUnderNodePressure(tolerant, ['MemoryPressure', 'DiskPressure'])).toEqual(
      refused('MemoryPressure DiskPressure'),
    );
  });

  it('QoS: only a pod without any cpu or memory request or limit is BestEffort', () => {
    expect(isBestEffort(pod('best-effort'))).toBe(true);
    expect(isBestEffort(pod('burstable'))).toBe(false);
    const initOnly = pod('best-effort', {
      spec: {
        containers: [{ name: 'c' }],
        initContainers: [{ name: 'i', resources: { limits: { cpu: '1' } } }],
      },
    });
    expect(isBestEffort(initOnly)).toBe(false);
    const otherResource = pod('best-effort', {
      spec: { containers: [{ name: 'c', resources: { requests: { 'example.com/gpu': '1' } } }] },
    });
    expect(isBestEffort(otherResource)).toBe(true);
  });
});

describe('admitPod with the eviction handler first', () => {
  const node: Node = {
    metadata: { name: 'n' },
    status: {
      allocatable: { pods: 10 },
      conditions: [
        { type: 'MemoryPressure', status: 'True' },
        { type: 'Ready', status: 'True' },
      ],
    },
  };
  it('reads the pressure from the node with pressure: true; without the option it is not checked', () => {
    expect(admitPod(pod('best-effort'), node, [], { pressure: true })).toEqual(refused('MemoryPressure'));
    expect(admitPod(pod('best-effort'), node, [])).toEqual({ admit: true });
    expect(admitPod(pod('best-effort'), node, [], { pressure: [] })).toEqual({ admit: true });
  });

  it('the eviction verdict comes before the resource checks', () => {
    const full: Node = { ...node, status: { ...node.status, allocatable: { pods: 0 } } };
    expect(admitPod(pod('best-effort'), full, [], { pressure: ['DiskPressure'] })).toEqual(
      refused('DiskPressure'),
    );
    expect(admitPod(pod('burstable'), full, [], { pressure: ['MemoryPressure'] })).toMatchObject({
      reason: 'OutOfpods',
    });
  });
});
