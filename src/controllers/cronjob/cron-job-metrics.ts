// cronJobMetrics: the cronjob controller's Prometheus metric under upstream's name (cronjob_controller_job_creation_skew_duration_seconds).
import { createRequire } from 'node:module';
import type * as PromClient from 'prom-client';
import type { Histogram, Registry } from 'prom-client';

/** Records one created Job's lateness; does nothing without a registry. */
export type ObserveCreationSkew = (seconds: number) => void;

const NAME = 'cronjob_controller_job_creation_skew_duration_seconds';

/**
 * Upstream's creation-skew histogram: seconds between a Job's scheduled time and its creation, buckets
 * 1 s doubling ten times. Registered once per registry.
 *
 * @param registry where `/metrics` reads from; undefined records nothing
 */
export function cronJobMetrics(registry: Registry | undefined): ObserveCreationSkew {
  if (!registry) return () => {};
  const prom = createRequire(import.meta.url)('prom-client') as typeof PromClient;
  const histogram =
    (registry.getSingleMetric(NAME) as Histogram<string> | undefined) ??
    new prom.Histogram({
      name: NAME,
      help: 'Time between when a cronjob is scheduled to be run, and when the corresponding job is created',
      buckets: Array.from({ length: 10 }, (_, i) => 2 ** i),
      registers: [registry],
    });
  return (seconds) => histogram.observe(seconds);
}
