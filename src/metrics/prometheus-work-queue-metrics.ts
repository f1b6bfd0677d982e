// Implements the work queue's metrics port with prom-client, under client-go's workqueue metric names.
import { Counter, Gauge, Histogram, type Metric, Registry } from 'prom-client';
import type { WorkQueueMetricsProvider } from '../../operators/work-queue-metrics.ts';

/** Upstream's buckets for both duration histograms: 1 µs to 1000 s, ten steps of ×10. */
export const WORK_QUEUE_DURATION_BUCKETS = [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1000];

function reuse<M extends Metric<'name'>>(registry: Registry, name: string, create: () => M): M {
  return (registry.getSingleMetric(name) as M | undefined) ?? create();
}

/**
 * A {@link WorkQueueMetricsProvider} writing to `registry` with the names, help texts, label (`name`)
 * and buckets of component-base's workqueue Prometheus provider: `workqueue_depth`,
 * `workqueue_adds_total`, `workqueue_queue_duration_seconds`, `workqueue_work_duration_seconds`,
 * `workqueue_unfinished_work_seconds`, `workqueue_longest_running_processor_seconds`,
 * `workqueue_retries_total`. Calling it twice with one registry shares the metric families.
 *
 * @example
 * const registry = new Registry();
 * const queue = workQueue({ name: 'pods', metrics: prometheusWorkQueueMetrics(registry) });
 * // later: await registry.metrics()
 * @param registry where the metrics are registered; default a new Registry (never the global one)
 * @returns the provider to pass as a queue's or reconcile runner's `metrics`
 */
export function prometheusWorkQueueMetrics(registry: Registry = new Registry()): WorkQueueMetricsProvider {
  const registers = [registry];
  const labelNames = ['name'] as const;
  const depth = reuse(
    registry,
    'workqueue_depth',
    () => new Gauge({ name: 'workqueue_depth', help: 'Current depth of workqueue', labelNames, registers }),
  );
  const adds = reuse(
    registry,
    'workqueue_adds_total',
    () =>
      new Counter({
        name: 'workqueue_adds_total',
        help: 'Total number of adds handled by workqueue',
        labelNames,
        registers,
      }),
  );
  const latency = reuse(
    registry,
    'workqueue_queue_duration_seconds',
    () =>
      new Histogram({
        name: 'workqueue_queue_duration_seconds',
        help: 'How long in seconds an item stays in workqueue before being requested.',
        buckets: WORK_QUEUE_DURATION_BUCKETS,
        labelNames,
        registers,
      }),
  );
  const workDuration = reuse(
    registry,
    'workqueue_work_duration_seconds',
    () =>
      new Histogram({
        name: 'workqueue_work_duration_seconds',
        help: 'How long in seconds processing an item from workqueue takes.',
        buckets: WORK_QUEUE_DURATION_BUCKETS,
        labelNames,
        registers,
      }),
  );
  const unfinished = reuse(
    registry,
    'workqueue_unfinished_work_seconds',
    () =>
      new Gauge({
        name: 'workqueue_unfinished_work_seconds',
        help:
          "How many seconds of work has done that is in progress and hasn't been observed by work_duration. " +
          'Large values indicate stuck threads. One can deduce the number of stuck threads by observing ' +
          'the rate at which this increases.',
        labelNames,
        registers,
      }),
  );
  const longest = reuse(
    registry,
    'workqueue_longest_running_processor_seconds',
    () =>
      new Gauge({
        name: 'workqueue_longest_running_processor_seconds',
        help: 'How many seconds has the longest running processor for workqueue been running.',
        labelNames,
        registers,
      }),
  );
  const retries = reuse(
    registry,
    'workqueue_retries_total',
    () =>
      new Counter({
        name: 'workqueue_retries_total',
        help: 'Total number of retries handled by workqueue',
        labelNames,
        registers,
      }),
  );
  // Each series starts at zero when its queue is made, so a scrape shows the queue before its first
  // add, as the Go provider's WithLabelValues does.
  return {
    newDepthMetric: (name) => {
      const child = depth.labels({ name });
      child.set(0);
      return { inc: () => child.inc(), dec: () => child.dec() };
    },
    newAddsMetric: (name) => {
      const child = adds.labels({ name });
      child.inc(0);
      return { inc: () => child.inc() };
    },
    newLatencyMetric: (name) => {
      latency.zero({ name });
      const child = latency.labels({ name });
      return { observe: (v) => child.observe(v) };
    },
    newWorkDurationMetric: (name) => {
      workDuration.zero({ name });
      const child = workDuration.labels({ name });
      return { observe: (v) => child.observe(v) };
    },
    newUnfinishedWorkSecondsMetric: (name) => {
      const child = unfinished.labels({ name });
      child.set(0);
      return { set: (v) => child.set(v) };
    },
    newLongestRunningProcessorSecondsMetric: (name) => {
      const child = longest.labels({ name });
      child.set(0);
      return { set: (v) => child.set(v) };
    },
    newRetriesMetric: (name) => {
      const child = retries.labels({ name });
      child.inc(0);
      return { inc: () => child.inc() };
    },
  };
}
