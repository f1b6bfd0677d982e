// /metrics/resource: per container, pod and node CPU and memory in Prometheus text, with upstream's metric names.
import type { Pod } from '../../../operators/api/core-v1.ts';
import type { ContainerStats, ContainerStatus } from '../../../streams/runtimes/runtime.ts';

/** One running container and its stats, with the pod it belongs to. */
export interface ContainerSample {
  pod: Pod;
  container: ContainerStatus;
  stats: ContainerStats;
}

/** The node's own usage. */
export interface NodeSample {
  cpuUsageSeconds: number;
  memoryWorkingSetBytes: number;
  at: number;
}

const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/**
 * Renders the resource metrics endpoint's body (`node_*`, `pod_*`, `container_*` CPU seconds and
 * working set bytes, `container_start_time_seconds`, `scrape_error`), each sample with its timestamp.
 */
export function resourceMetricsText(node: NodeSample, containers: readonly ContainerSample[]): string {
  const out: string[] = [];
  const family = (name: string, help: string, type: 'counter' | 'gauge') => {
    out.push(`# HELP ${name} [STABLE] ${help}`, `# TYPE ${name} ${type}`);
  };
  family(
    'container_cpu_usage_seconds_total',
    'Cumulative cpu time consumed by the container in core-seconds',
    'counter',
  );
  for (const s of containers)
    out.push(
      sample(
        'container_cpu_usage_seconds_total',
        labels(s),
        s.stats.cpuUsageCoreNanoSeconds / 1e9,
        s.stats.at,
      ),
    );
  family('container_memory_working_set_bytes', 'Current working set of the container in bytes', 'gauge');
  for (const s of containers)
    out.push(
      sample('container_memory_working_set_bytes', labels(s), s.stats.memoryWorkingSetBytes, s.stats.at),
    );
  family('container_start_time_seconds', 'Start time of the container since unix epoch in seconds', 'gauge');
  for (const s of containers) {
    const started = s.container.startedAt ?? s.container.createdAt;
    out.push(sample('container_start_time_seconds', labels(s), started / 1000, s.stats.at));
  }
  family(
    'node_cpu_usage_seconds_total',
    'Cumulative cpu time consumed by the node in core-seconds',
    'counter',
  );
  out.push(sample('node_cpu_usage_seconds_total', '', node.cpuUsageSeconds, node.at));
  family('node_memory_working_set_bytes', 'Current working set of the node in bytes', 'gauge');
  out.push(sample('node_memory_working_set_bytes', '', node.memoryWorkingSetBytes, node.at));
  const pods = new Map<string, { pod: Pod; cpu: number; mem: number; at: number }>();
  for (const s of containers) {
    const key = s.pod.metadata.uid ?? `${s.pod.metadata.namespace}/${s.pod.metadata.name}`;
    const p = pods.get(key) ?? { pod: s.pod, cpu: 0, mem: 0, at: 0 };
    p.cpu += s.stats.cpuUsageCoreNanoSeconds / 1e9;
    p.mem += s.stats.memoryWorkingSetBytes;
    p.at = Math.max(p.at, s.stats.at);
    pods.set(key, p);
  }
  family('pod_cpu_usage_seconds_total', 'Cumulative cpu time consumed by the pod in core-seconds', 'counter');
  for (const p of pods.values())
    out.push(sample('pod_cpu_usage_seconds_total', podLabels(p.pod), p.cpu, p.at));
  family('pod_memory_working_set_bytes', 'Current working set of the pod in bytes', 'gauge');
  for (const p of pods.values())
    out.push(sample('pod_memory_working_set_bytes', podLabels(p.pod), p.mem, p.at));
  family('scrape_error', '1 if there was an error while getting container metrics, 0 otherwise', 'gauge');
  out.push('scrape_error 0');
  return `${out.join('\n')}\n`;
}

function podLabels(pod: Pod): string {
  return `namespace="${esc(pod.metadata.namespace ?? 'default')}",pod="${esc(pod.metadata.name ?? '')}"`;
}

function labels(s: ContainerSample): string {
  return `container="${esc(s.container.metadata.name)}",${podLabels(s.pod)}`;
}

function sample(name: string, labelText: string, value: number, at: number): string {
  return `${name}${labelText ? `{${labelText}}` : ''} ${value} ${Math.round(at)}`;
}
