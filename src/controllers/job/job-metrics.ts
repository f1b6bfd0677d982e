// jobMetrics: the job controller's Prometheus metrics under upstream's names (job_controller_job_syncs_total, jobs_finished_total, ...).
import { createRequire } from 'node:module';
import type * as PromClient from 'prom-client';
import type { Counter, Histogram, Registry } from 'prom-client';

/** The job controller's metrics; every method does nothing without a registry. */
export interface JobMetrics {
  /** One sync: how it ended (`success`/`error`), what it did (`reconciling`, `tracking`, `pods_created`, `pods_deleted`). */
  sync(completionMode: string, result: 'success' | 'error', action: string, seconds: number): void;
  /** A job that finished: `succeeded` (reason "") or `failed` with its reason. */
  finished(completionMode: string, result: 'succeeded' | 'failed', reason: string): void;
  /** Pods the controller finished tracking (moved from uncounted to the counters). */
  podsFinished(completionMode: string, result: 'succeeded' | 'failed', count: number): void;
}

/** Upstream's histogram buckets: 4 ms doubling, 15 of them. */
const SYNC_BUCKETS = Array.from({ length: 15 }, (_, i) => 0.004 * 2 ** i);

/**
 * The metrics, registered once per registry (a second controller on the same registry shares them).
 *
 * @param registry where `/metrics` reads from; undefined records nothing
 */
export function jobMetrics(registry: Registry | undefined): JobMetrics {
  if (!registry) return { sync: () => {}, finished: () => {}, podsFinished: () => {} };
  const prom = createRequire(import.meta.url)('prom-client') as typeof PromClient;
  const counter = (name: string, help: string, labelNames: string[]) =>
    (registry.getSingleMetric(name) as Counter<string> | undefined) ??
    new prom.Counter({ name, help, labelNames, registers: [registry] });
  const syncs = counter('job_controller_job_syncs_total', 'The number of job syncs', [
    'completion_mode',
    'result',
    'action',
  ]);
  const finished = counter('job_controller_jobs_finished_total', 'The number of finished jobs', [
    'completion_mode',
    'result',
    'reason',
  ]);
  const pods = counter(
    'job_controller_job_pods_finished_total',
    'The number of finished Pods that are fully tracked',
    ['completion_mode', 'result'],
  );
  const durationName = 'job_controller_job_sync_duration_seconds';
  const duration =
    (registry.getSingleMetric(durationName) as Histogram<string> | undefined) ??
    new prom.Histogram({
      name: durationName,
      help: 'The time it took to sync a job',
      labelNames: ['completion_mode', 'result', 'action'],
      buckets: SYNC_BUCKETS,
      registers: [registry],
    });
  return {
    sync(mode, result, action, seconds) {
      syncs.inc({ completion_mode: mode, result, action });
      duration.observe({ completion_mode: mode, result, action }, seconds);
    },
    finished(mode, result, reason) {
      finished.inc({ completion_mode: mode, result, reason });
    },
    podsFinished(mode, result, count) {
      if (count > 0) pods.inc({ completion_mode: mode, result }, count);
    },
  };
}
