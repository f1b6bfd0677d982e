// MetricsStorage: metrics-server's pod and node storage cases (pkg/storage/pod_test.go, node_test.go) in our words.
import { describe, expect, it } from 'vitest';
import { MetricsStorage, usageBetween } from '../../../../src/apiserver/metrics-api/metrics-storage.ts';
import type {
  ContainerMetricsPoint,
  ResourceMetricsBatch,
} from '../../../../src/apiserver/metrics-api/parse-resource-metrics.ts';

const S = 1000; // ms
const CORE_SECOND = 1e9; // core-nanoseconds
const MIB = 1024 * 1024;
const START = 1_700_000_000_000;

function point(start: number, at: number, cpuCoreSeconds: number, memoryMiB: number): ContainerMetricsPoint {
  return {
    startTime: start,
    timestamp: at,
    cumulativeCpuNanos: cpuCoreSeconds * CORE_SECOND,
    memoryWorkingSetBytes: memoryMiB * MIB,
  };
}

function batch(containers: Record<string, ContainerMetricsPoint>, pod = 'ns1/pod1'): ResourceMetricsBatch {
  return { pods: new Map([[pod, new Map(Object.entries(containers))]]) };
}

const EMPTY: ResourceMetricsBatch = { pods: new Map() };

describe('MetricsStorage (pods)', () => {
  it('needs two batches; then CPU is the rate over the window and memory the last value', () => {
    const s = new MetricsStorage(60 * S);
    s.store('n', batch({ c1: point(START, START + 120 * S, 1, 4) }));
    expect(s.podUsage('ns1', 'pod1')).toBeUndefined();
    s.store('n', batch({ c1: point(START, START + 125 * S, 6, 5) }));
    expect(s.podUsage('ns1', 'pod1')).toEqual({
      timestamp: START + 125 * S,
      windowMs: 5 * S,
      containers: [{ name: 'c1', usage: { cpuNanoCores: 1 * CORE_SECOND, memoryBytes: 5 * MIB } }],
    });
    expect(s.podUsage('ns1', 'pod2')).toBeUndefined();
    s.store('n', EMPTY);
    expect(s.podUsage('ns1', 'pod1')).toBeUndefined();
  });

  it("a pod's timestamp and window are its earliest container's", () => {
    const s = new MetricsStorage(60 * S);
    s.store('n', batch({ c1: point(START, START + 110 * S, 1, 4), c2: point(START, START + 115 * S, 2, 5) }));
    s.store('n', batch({ c1: point(START, START + 120 * S, 6, 6), c2: point(START, START + 125 * S, 7, 7) }));
    expect(s.podUsage('ns1', 'pod1')).toMatchObject({ timestamp: START + 120 * S, windowMs: 10 * S });
  });

  it('the same batch twice gives no window', () => {
    const s = new MetricsStorage(60 * S);
    const b = batch({ c1: point(START, START + 110 * S, 1, 4) });
    s.store('n', b);
    s.store('n', b);
    expect(s.podUsage('ns1', 'pod1')).toBeUndefined();
  });

  it('a restart (start after the stored point) counts from the new start time', () => {
    const s = new MetricsStorage(60 * S);
    s.store('n', batch({ c1: point(START, START + 10 * S, 1, 4) }));
    s.store('n', batch({ c1: point(START + 15 * S, START + 25 * S, 5, 5) }));
    expect(s.podUsage('ns1', 'pod1')).toEqual({
      timestamp: START + 25 * S,
      windowMs: 10 * S,
      containers: [{ name: 'c1', usage: { cpuNanoCores: 0.5 * CORE_SECOND, memoryBytes: 5 * MIB } }],
    });
  });

  it('a CPU counter that went down gives no reading for the container (left out here, where upstream lists the pod empty)', () => {
    const s = new MetricsStorage(60 * S);
    s.store('n', batch({ c1: point(START, START + 110 * S, 20, 4) }));
    s.store('n', batch({ c1: point(START, START + 120 * S, 10, 4) }));
    expect(s.podUsage('ns1', 'pod1')).toBeUndefined();
  });

  it('a point older than both stored ones leaves no window', () => {
    const s = new MetricsStorage(60 * S);
    s.store('n', batch({ c1: point(START, START + 1115 * S, 20, 4) }));
    s.store('n', batch({ c1: point(START, START + 1125 * S, 40, 4) }));
    s.store('n', batch({ c1: point(START, START + 115 * S, 10, 4) }));
    expect(s.podUsage('ns1', 'pod1')).toBeUndefined();
  });

  it('a point between the previous and the last one keeps the previous as its window start', () => {
    const s = new MetricsStorage(60 * S);
    s.store('n', batch({ c1: point(START, START + 115 * S, 10, 4) }));
    s.store('n', batch({ c1: point(START, START + 125 * S, 50, 5) }));
    s.store('n', batch({ c1: point(START, START + 120 * S, 35, 5) }));
    expect(s.podUsage('ns1', 'pod1')).toEqual({
      timestamp: START + 120 * S,
      windowMs: 5 * S,
      containers: [{ name: 'c1', usage: { cpuNanoCores: 5 * CORE_SECOND, memoryBytes: 5 * MIB } }],
    });
  });

  it.each([
    ['a long-running container needs a second batch', START + 120 * S, undefined],
    ['a container younger than the resolution counts from its start', START + 10 * S, 1 * CORE_SECOND],
    ['a start time after the sample is ignored', START - 10 * S, undefined],
    ['a container younger than 10 s needs a second batch', START + 9 * S, undefined],
  ])('one batch: %s', (_name, at, cpu) => {
    const s = new MetricsStorage(60 * S);
    s.store('n', batch({ c1: point(START, at, 10, 4) }));
    const reading = s.podUsage('ns1', 'pod1');
    if (cpu === undefined) expect(reading).toBeUndefined();
    else expect(reading?.containers[0]?.usage.cpuNanoCores).toBe(cpu);
  });

  it('works when the kubelet reports no start time', () => {
    const s = new MetricsStorage(60 * S);
    s.store('n', batch({ c1: point(0, START + 120 * S, 1, 4) }));
    expect(s.podUsage('ns1', 'pod1')).toBeUndefined();
    s.store('n', batch({ c1: point(0, START + 125 * S, 6, 5) }));
    expect(s.podUsage('ns1', 'pod1')?.containers[0]?.usage.cpuNanoCores).toBe(CORE_SECOND);
  });

  it('a pod with a container that has no window yet is left out whole', () => {
    const s = new MetricsStorage(60 * S);
    s.store('n', batch({ c1: point(START, START + 110 * S, 1, 4) }));
    s.store('n', batch({ c1: point(START, START + 120 * S, 6, 4), c2: point(START, START + 120 * S, 6, 4) }));
    expect(s.podUsage('ns1', 'pod1')).toBeUndefined();
  });
});

describe('MetricsStorage (nodes)', () => {
  const node = (at: number, cpu: number, mem: number): ResourceMetricsBatch => ({
    node: { timestamp: at, cumulativeCpuNanos: cpu * CORE_SECOND, memoryWorkingSetBytes: mem * MIB },
    pods: new Map(),
  });

  it('needs two points; then the rate and the last working set', () => {
    const s = new MetricsStorage();
    s.store('n1', node(START, 10, 100));
    expect(s.hasWindow('n1')).toBe(false);
    expect(s.nodeUsage('n1')).toBeUndefined();
    s.store('n1', node(START + 10 * S, 30, 120));
    expect(s.nodeUsage('n1')).toEqual({
      timestamp: START + 10 * S,
      windowMs: 10 * S,
      usage: { cpuNanoCores: 2 * CORE_SECOND, memoryBytes: 120 * MIB },
    });
    expect(s.nodeUsage('n2')).toBeUndefined();
    s.forget('n1');
    expect(s.nodeUsage('n1')).toBeUndefined();
  });

  it("one node's scrape does not touch another node's pods", () => {
    const s = new MetricsStorage(60 * S);
    s.store('a', batch({ c: point(START, START + 100 * S, 1, 1) }, 'ns/pa'));
    s.store('b', batch({ c: point(START, START + 100 * S, 1, 1) }, 'ns/pb'));
    s.store('a', batch({ c: point(START, START + 110 * S, 2, 1) }, 'ns/pa'));
    s.store('b', batch({ c: point(START, START + 110 * S, 3, 1) }, 'ns/pb'));
    expect(s.podUsage('ns', 'pa')?.containers[0]?.usage.cpuNanoCores).toBe(0.1 * CORE_SECOND);
    expect(s.podUsage('ns', 'pb')?.containers[0]?.usage.cpuNanoCores).toBe(0.2 * CORE_SECOND);
  });
});

describe('usageBetween', () => {
  it('is undefined when no time passed or the counter went backwards', () => {
    const p = { timestamp: START, cumulativeCpuNanos: 5, memoryWorkingSetBytes: 1 };
    expect(usageBetween(p, p)).toBeUndefined();
    expect(usageBetween({ ...p, timestamp: START + 1 }, { ...p, cumulativeCpuNanos: 6 })).toBeUndefined();
  });
});
