// parseResourceMetrics: reads a kubelet's /metrics/resource (Prometheus text) into one node point and per-container points, as metrics-server's decoder does.

/** One cumulative CPU reading and a memory reading at one time. */
export interface MetricsPoint {
  /** Cumulative CPU time in core-nanoseconds. */
  cumulativeCpuNanos: number;
  memoryWorkingSetBytes: number;
  /** When the kubelet took the sample, in ms since the epoch. */
  timestamp: number;
}

/** A container's point and when the container started (ms since the epoch; 0 when not reported). */
export interface ContainerMetricsPoint extends MetricsPoint {
  startTime: number;
}

/** Everything one scrape of one kubelet gave. Invariant: only points with both CPU and memory are kept. */
export interface ResourceMetricsBatch {
  node?: MetricsPoint;
  /** `namespace/pod` → container name → point. */
  pods: Map<string, Map<string, ContainerMetricsPoint>>;
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
  timestamp: number | undefined;
}

function parseLabels(text: string): Record<string, string> | undefined {
  const labels: Record<string, string> = {};
  const pattern = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?/gy;
  let at = 0;
  while (at < text.length) {
    pattern.lastIndex = at;
    const m = pattern.exec(text);
    if (!m) return text.slice(at).trim() === '' ? labels : undefined;
    labels[m[1]!] = m[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    at = pattern.lastIndex;
  }
  return labels;
}

function parseLine(line: string): Sample | undefined {
  const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+(-?\d+))?\s*$/.exec(line);
  if (!m) return undefined;
  const labels = parseLabels(m[2] ?? '');
  const value = Number(m[3]);
  if (!labels || !Number.isFinite(value)) return undefined;
  return { name: m[1]!, labels, value, timestamp: m[4] === undefined ? undefined : Number(m[4]) };
}

/**
 * Reads the text. `node_cpu_usage_seconds_total` and `node_memory_working_set_bytes` make the node
 * point; `container_cpu_usage_seconds_total`, `container_memory_working_set_bytes` and
 * `container_start_time_seconds` (labels `namespace`, `pod`, `container`) make container points.
 * Comments, other families, malformed lines and non-finite values are skipped; a point missing CPU
 * or memory is dropped; a sample without a timestamp takes `scrapeTime`.
 *
 * @param scrapeTime when the scrape was made (ms), for samples without their own timestamp
 */
export function parseResourceMetrics(text: string, scrapeTime: number): ResourceMetricsBatch {
  let nodeCpu: number | undefined;
  let nodeMemory: number | undefined;
  let nodeTime = scrapeTime;
  interface Partial {
    cpu?: number;
    memory?: number;
    start: number;
    timestamp: number;
  }
  const containers = new Map<string, Map<string, Partial>>();
  const entry = (labels: Record<string, string>): Partial | undefined => {
    const { namespace, pod, container } = labels;
    if (!namespace || !pod || !container) return undefined;
    const key = `${namespace}/${pod}`;
    let byName = containers.get(key);
    if (!byName) {
      byName = new Map();
      containers.set(key, byName);
    }
    let found = byName.get(container);
    if (!found) {
      found = { start: 0, timestamp: scrapeTime };
      byName.set(container, found);
    }
    return found;
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const sample = parseLine(line);
    if (!sample) continue;
    const at = sample.timestamp ?? scrapeTime;
    switch (sample.name) {
      case 'node_cpu_usage_seconds_total':
        nodeCpu = sample.value;
        nodeTime = at;
        break;
      case 'node_memory_working_set_bytes':
        nodeMemory = sample.value;
        break;
      case 'container_cpu_usage_seconds_total': {
        const e = entry(sample.labels);
        if (e) {
          e.cpu = sample.value;
          e.timestamp = at;
        }
        break;
      }
      case 'container_memory_working_set_bytes': {
        const e = entry(sample.labels);
        if (e) e.memory = sample.value;
        break;
      }
      case 'container_start_time_seconds': {
        const e = entry(sample.labels);
        if (e) e.start = sample.value * 1000;
        break;
      }
    }
  }
  const batch: ResourceMetricsBatch = { pods: new Map() };
  if (nodeCpu !== undefined && nodeMemory !== undefined) {
    batch.node = {
      cumulativeCpuNanos: Math.round(nodeCpu * 1e9),
      memoryWorkingSetBytes: nodeMemory,
      timestamp: nodeTime,
    };
  }
  for (const [pod, byName] of containers) {
    const points = new Map<string, ContainerMetricsPoint>();
    for (const [name, p] of byName) {
      if (p.cpu === undefined || p.memory === undefined) continue;
      points.set(name, {
        cumulativeCpuNanos: Math.round(p.cpu * 1e9),
        memoryWorkingSetBytes: p.memory,
        timestamp: p.timestamp,
        startTime: p.start,
      });
    }
    if (points.size > 0) batch.pods.set(pod, points);
  }
  return batch;
}
