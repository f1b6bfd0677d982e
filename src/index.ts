// The public entry of kube-rx: sources, operators and assemblies, re-exported from their own files.

export { DelayingQueue, type DelayingQueueConfig } from '../operators/delaying-queue.ts';
export * from '../operators/errors.ts';
export { type Logger, silentLogger } from '../operators/logger.ts';
export { type KeyFunc, objectKey, splitObjectKey } from '../operators/object-key.ts';
export {
  type BucketRateLimiterConfig,
  bucketRateLimiter,
  defaultControllerRateLimiter,
  itemExponentialRateLimiter,
  itemFastSlowRateLimiter,
  maxOfRateLimiter,
  type RateLimiter,
  withMaxWaitRateLimiter,
} from '../operators/rate-limiter.ts';
export {
  type ReconcileConfig,
  type ReconcileOutcome,
  type ReconcileOutcomeType,
  type ReconcileResult,
  type Reconciler,
  reconcileWith,
} from '../operators/reconcile.ts';
// Vocabulary
export * from '../operators/types.ts';
// Work queues, rate limiters, reconcilers, metrics
export { type PollResult, WorkQueue, type WorkQueueConfig, workQueue } from '../operators/work-queue.ts';
export {
  type CounterMetric,
  type GaugeMetric,
  type HistogramMetric,
  noopWorkQueueMetrics,
  type SettableGaugeMetric,
  type WorkQueueMetricsProvider,
} from '../operators/work-queue-metrics.ts';
export { createLogger, type LoggerConfig, REDACTED_PATHS } from './logging/logger.ts';
export { metricsRequestHandler } from './metrics/metrics-request-handler.ts';
export {
  prometheusWorkQueueMetrics,
  WORK_QUEUE_DURATION_BUCKETS,
} from './metrics/prometheus-work-queue-metrics.ts';
