// The embedded API server's Prometheus metrics.
export {
  ApiServerMetrics,
  REQUEST_DURATION_BUCKETS,
  type RequestLabels,
  requestLabels,
  type StorageCounts,
  type WatchKind,
} from './api-server-metrics.ts';
export { storedObjectCounts } from './stored-object-counts.ts';
