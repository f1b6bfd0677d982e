// MetricsStorage: the last two scrapes of every node, and CPU rates and memory computed from them, as metrics-server's storage does.
import type { ContainerMetricsPoint, MetricsPoint, ResourceMetricsBatch } from './parse-resource-metrics.ts';

/** Usage over one window: CPU in nanocores, memory in bytes. */
export interface Usage {
  cpuNanoCores: number;
  memoryBytes: number;
}

/** A computed reading: usage at `timestamp` (ms) averaged over the `windowMs` before it. */
export interface UsageReading {
  usage: Usage;
  timestamp: number;
  windowMs: number;
}

/** A pod's containers' readings; the pod's timestamp and window are its earliest container's. */
export interface PodUsageReading {
  timestamp: number;
  windowMs: number;
  containers: { name: string; usage: Usage }[];
}

/** A container that started at most this long before its first point counts from its start (upstream's freshContainerMinMetricsResolution is the lower bound). */
const FRESH_CONTAINER_MIN_MS = 10_000;

interface NodeEntry {
  last?: MetricsPoint;
  prev?: MetricsPoint;
  /** `namespace/pod` → container → points. */
  lastPods: Map<string, Map<string, ContainerMetricsPoint>>;
  prevPods: Map<string, Map<string, ContainerMetricsPoint>>;
}

/**
 * Rate between two points, or undefined when the counter went backwards or no time passed
 * (metrics-server's resourceUsage).
 */
export function usageBetween(last: MetricsPoint, prev: MetricsPoint): UsageReading | undefined {
  const windowMs = last.timestamp - prev.timestamp;
  if (windowMs <= 0 || last.cumulativeCpuNanos < prev.cumulativeCpuNanos) return undefined;
  const cpuNanoCores = Math.floor(((last.cumulativeCpuNanos - prev.cumulativeCpuNanos) * 1000) / windowMs);
  return {
    usage: { cpuNanoCores, memoryBytes: last.memoryWorkingSetBytes },
    timestamp: last.timestamp,
    windowMs,
  };
}

/**
 * Holds, per node, the last and the previous point of the node and of each container. Invariants:
 * a previous point is older than its last point and belongs to the same container instance (a
 * restart, seen as a start time after the stored point, drops it); a node's scrape replaces every
 * pod of that node, so a pod that left the node is forgotten.
 */
export class MetricsStorage {
  private readonly nodes = new Map<string, NodeEntry>();
  /** The upstream metric resolution: a container younger than this (and at least 10 s old) counts from its start. */
  private readonly resolutionMs: number;

  constructor(resolutionMs = 15_000) {
    this.resolutionMs = resolutionMs;
  }

  /** Stores one scrape of `nodeName`. */
  store(nodeName: string, batch: ResourceMetricsBatch): void {
    const old = this.nodes.get(nodeName);
    const entry: NodeEntry = { lastPods: new Map(), prevPods: new Map() };
    if (batch.node) {
      entry.last = batch.node;
      if (old?.last && batch.node.timestamp > old.last.timestamp) entry.prev = old.last;
      else if (old?.last && old.prev && old.prev.timestamp < batch.node.timestamp) entry.prev = old.prev;
    }
    for (const [pod, containers] of batch.pods) {
      const last = new Map<string, ContainerMetricsPoint>();
      const prev = new Map<string, ContainerMetricsPoint>();
      for (const [name, point] of containers) {
        last.set(name, point);
        const age = point.timestamp - point.startTime;
        const stored = old?.lastPods.get(pod)?.get(name);
        if (point.startTime > 0 && age >= FRESH_CONTAINER_MIN_MS && age < this.resolutionMs) {
          prev.set(name, { ...point, timestamp: point.startTime, cumulativeCpuNanos: 0 });
        } else if (stored && point.startTime < stored.timestamp) {
          if (point.timestamp > stored.timestamp) prev.set(name, stored);
          else {
            const before = old?.prevPods.get(pod)?.get(name);
            if (before && before.timestamp < point.timestamp) prev.set(name, before);
          }
        }
      }
      entry.lastPods.set(pod, last);
      if (prev.size > 0) entry.prevPods.set(pod, prev);
    }
    this.nodes.set(nodeName, entry);
  }

  /** Forgets a node (it left the cluster). */
  forget(nodeName: string): void {
    this.nodes.delete(nodeName);
  }

  /** Whether `nodeName` has two points to compute from. */
  hasWindow(nodeName: string): boolean {
    const entry = this.nodes.get(nodeName);
    return entry?.prev !== undefined;
  }

  /** The node's usage, or undefined until two points exist. */
  nodeUsage(nodeName: string): UsageReading | undefined {
    const entry = this.nodes.get(nodeName);
    if (!entry?.last || !entry.prev) return undefined;
    return usageBetween(entry.last, entry.prev);
  }

  /**
   * The pod's per-container usage, or undefined unless every container of its last point has a
   * previous point too (as upstream: a pod is reported whole or not at all).
   */
  podUsage(namespace: string, name: string): PodUsageReading | undefined {
    const key = `${namespace}/${name}`;
    for (const entry of this.nodes.values()) {
      const last = entry.lastPods.get(key);
      if (!last) continue;
      const prev = entry.prevPods.get(key);
      if (!prev) return undefined;
      const containers: PodUsageReading['containers'] = [];
      let earliest: UsageReading | undefined;
      for (const [container, point] of last) {
        const before = prev.get(container);
        if (!before) return undefined;
        const reading = usageBetween(point, before);
        if (!reading) continue;
        containers.push({ name: container, usage: reading.usage });
        if (!earliest || reading.timestamp < earliest.timestamp) earliest = reading;
      }
      if (!earliest) return undefined;
      containers.sort((a, b) => a.name.localeCompare(b.name));
      return { timestamp: earliest.timestamp, windowMs: earliest.windowMs, containers };
    }
    return undefined;
  }
}
