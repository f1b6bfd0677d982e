// nodeLifecycleMetrics: the node lifecycle controller's Prometheus metrics under upstream's names (node_collector_evictions_total, node_collector_zone_health, ...).
import { createRequire } from 'node:module';
import type * as PromClient from 'prom-client';
import type { Counter, Gauge, Registry } from 'prom-client';

/** The controller's metrics; every method does nothing without a registry. */
export interface NodeLifecycleMetrics {
  /** A zone's size, not-Ready nodes and healthy percentage after a pass (size 0: the zone is gone). */
  zone(zone: string, size: number, unhealthy: number): void;
  /** A node of `zone` given a NoExecute taint by its zone's tainter. */
  evicted(zone: string): void;
}

/**
 * The metrics, registered once per registry (a second controller on the same registry shares them).
 *
 * @param registry where `/metrics` reads from; undefined records nothing
 */
export function nodeLifecycleMetrics(registry: Registry | undefined): NodeLifecycleMetrics {
  if (!registry) return { zone: () => {}, evicted: () => {} };
  const prom = createRequire(import.meta.url)('prom-client') as typeof PromClient;
  const gauge = (name: string, help: string) =>
    (registry.getSingleMetric(name) as Gauge<string> | undefined) ??
    new prom.Gauge({ name, help, labelNames: ['zone'], registers: [registry] });
  const health = gauge('node_collector_zone_health', 'Gauge measuring percentage of healthy nodes per zone.');
  const size = gauge('node_collector_zone_size', 'Gauge measuring number of registered Nodes per zones.');
  const unhealthyNodes = gauge(
    'node_collector_unhealthy_nodes_in_zone',
    'Gauge measuring number of not Ready Nodes per zones.',
  );
  const evictions =
    (registry.getSingleMetric('node_collector_evictions_total') as Counter<string> | undefined) ??
    new prom.Counter({
      name: 'node_collector_evictions_total',
      help: 'Number of Node evictions that happened since current instance of NodeController started.',
      labelNames: ['zone'],
      registers: [registry],
    });
  return {
    zone(zone, n, unhealthy) {
      size.set({ zone }, n);
      unhealthyNodes.set({ zone }, unhealthy);
      health.set({ zone }, n === 0 ? 100 : (100 * (n - unhealthy)) / n);
    },
    evicted(zone) {
      evictions.inc({ zone });
    },
  };
}
