// parseResourceMetrics: what the kubelet's /metrics/resource says, read back as node and container points.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { parseResourceMetrics } from '../../../../src/apiserver/metrics-api/parse-resource-metrics.ts';
import { resourceMetricsText } from '../../../../src/kubelet/server/resource-metrics.ts';
import type { ContainerStatus } from '../../../../streams/runtimes/runtime.ts';

const AT = 1_700_000_000_123;

describe('parseResourceMetrics', () => {
  it("reads the kubelet's own output: node point, and per pod and container CPU, memory and start time", () => {
    const pod = { metadata: { name: 'web', namespace: 'default', uid: 'u1' } } as Pod;
    const container = {
      metadata: { name: 'app', attempt: 0 },
      createdAt: AT - 60_000,
      startedAt: AT - 30_000,
    } as unknown as ContainerStatus;
    const text = resourceMetricsText({ cpuUsageSeconds: 1234.5, memoryWorkingSetBytes: 4096, at: AT }, [
      {
        pod,
        container,
        stats: {
          containerId: 'c1',
          cpuUsageCoreNanoSeconds: 2.5e9,
          memoryWorkingSetBytes: 1024 * 1024,
          at: AT,
        },
      },
    ]);
    const batch = parseResourceMetrics(text, 0);
    expect(batch.node).toEqual({ cumulativeCpuNanos: 1234.5e9, memoryWorkingSetBytes: 4096, timestamp: AT });
    expect([...batch.pods.keys()]).toEqual(['default/web']);
    expect(batch.pods.get('default/web')?.get('app')).toEqual({
      cumulativeCpuNanos: 2.5e9,
      memoryWorkingSetBytes: 1024 * 1024,
      timestamp: AT,
      startTime: AT - 30_000,
    });
  });

  it('takes the scrape time for samples without a timestamp and keeps escaped label values', () => {
    const text = [
      'container_cpu_usage_seconds_total{container="c",namespace="n",pod="p\\"q"} 1.5',
      'container_memory_working_set_bytes{container="c",namespace="n",pod="p\\"q"} 10',
    ].join('\n');
    expect(parseResourceMetrics(text, 42).pods.get('n/p"q')?.get('c')).toEqual({
      cumulativeCpuNanos: 1.5e9,
      memoryWorkingSetBytes: 10,
      timestamp: 42,
      startTime: 0,
    });
  });

  it.each([
    [
      'a container without memory',
      'container_cpu_usage_seconds_total{container="c",namespace="n",pod="p"} 1 5',
    ],
    [
      'a container without CPU',
      'container_memory_working_set_bytes{container="c",namespace="n",pod="p"} 1 5',
    ],
    [
      'a NaN value',
      'container_cpu_usage_seconds_total{container="c",namespace="n",pod="p"} NaN 5\ncontainer_memory_working_set_bytes{container="c",namespace="n",pod="p"} 1 5',
    ],
    ['a sample without its pod label', 'container_cpu_usage_seconds_total{container="c",namespace="n"} 1 5'],
    ['a malformed line', 'container_cpu_usage_seconds_total{container="c" 1 5'],
    ['only the node CPU', 'node_cpu_usage_seconds_total 12 5'],
  ])('drops %s', (_name, text) => {
    const batch = parseResourceMetrics(`# HELP x y\n${text}\nscrape_error 0\n`, 0);
    expect(batch.node).toBeUndefined();
    expect(batch.pods.size).toBe(0);
  });
});
