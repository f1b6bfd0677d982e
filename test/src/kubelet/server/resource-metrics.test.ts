// resourceMetricsText: the kubelet's /metrics/resource body from container and node samples.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import {
  type ContainerSample,
  resourceMetricsText,
} from '../../../../src/kubelet/server/resource-metrics.ts';

const pod = (name: string): Pod => ({
  metadata: { name, namespace: 'ns', uid: `uid-${name}` },
  spec: { containers: [] },
});
const sample = (p: Pod, container: string, cpuNs: number, mem: number, at: number): ContainerSample => ({
  pod: p,
  container: {
    id: `${p.metadata.name}-${container}`,
    sandboxId: 's',
    metadata: { name: container, attempt: 0 },
    image: 'busybox',
    state: 'CONTAINER_RUNNING',
    createdAt: 1_000,
    startedAt: 2_000,
    logPath: '/dev/null',
    labels: {},
  },
  stats: { containerId: 'x', cpuUsageCoreNanoSeconds: cpuNs, memoryWorkingSetBytes: mem, at },
});

describe('resourceMetricsText', () => {
  const web = pod('web');
  const text = resourceMetricsText({ cpuUsageSeconds: 12.5, memoryWorkingSetBytes: 4096, at: 9_000 }, [
    sample(web, 'app', 1_500_000_000, 100, 5_000),
    sample(web, 'sidecar', 500_000_000, 50, 6_000),
  ]);
  const lines = text.split('\n');

  it.each([
    'container_cpu_usage_seconds_total{container="app",namespace="ns",pod="web"} 1.5 5000',
    'container_cpu_usage_seconds_total{container="sidecar",namespace="ns",pod="web"} 0.5 6000',
    'container_memory_working_set_bytes{container="app",namespace="ns",pod="web"} 100 5000',
    'container_start_time_seconds{container="app",namespace="ns",pod="web"} 2 5000',
    'pod_cpu_usage_seconds_total{namespace="ns",pod="web"} 2 6000',
    'pod_memory_working_set_bytes{namespace="ns",pod="web"} 150 6000',
    'node_cpu_usage_seconds_total 12.5 9000',
    'node_memory_working_set_bytes 4096 9000',
    'scrape_error 0',
    '# TYPE container_cpu_usage_seconds_total counter',
    '# TYPE pod_memory_working_set_bytes gauge',
  ])('has the line %s', (line) => {
    expect(lines).toContain(line);
  });

  it('escapes quotes and backslashes in label values', () => {
    const odd = pod('a"b\\c');
    const out = resourceMetricsText({ cpuUsageSeconds: 0, memoryWorkingSetBytes: 0, at: 0 }, [
      sample(odd, 'c', 0, 0, 0),
    ]);
    expect(out).toContain('pod="a\\"b\\\\c"');
  });
});
