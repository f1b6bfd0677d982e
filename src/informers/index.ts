// kube-rx/informers: the light entry for a process that only lists and watches (no API server, kubelet or scheduler loaded).

export { objectKey, splitObjectKey } from '../../operators/object-key.ts';
export { reconcileWith } from '../../operators/reconcile.ts';
export { workQueue } from '../../operators/work-queue.ts';
export { type ApiClient, listerWatcher, type ResourceDescriptor } from '../../streams/api-client.ts';
export {
  type KubeApiClient,
  type KubeApiClientConfig,
  kubeApiClient,
} from '../../streams/client-node/kube-api-client.ts';
export { type ListWatchConfig, listWatch } from '../../streams/list-watch.ts';
export { reflectorMemory } from '../../streams/list-watch-state.ts';
export * from '../../streams/resources.ts';
export { createLogger } from '../logging/logger.ts';
export { type ReflectorMetrics, reflectorMetrics } from '../metrics/reflector-metrics.ts';
export { cachesSynced } from './caches-synced.ts';
export { dropManagedFields } from './drop-managed-fields.ts';
export type { EventHandler } from './event-handler.ts';
export {
  type ForResourceOptions,
  type InformerFactory,
  type InformerFactoryConfig,
  informerFactory,
  resourceName,
} from './informer-factory.ts';
export { metadataInformer } from './metadata-informer.ts';
export {
  type HandlerRegistration,
  InformerStoppedError,
  type ListenerOptions,
  type SharedInformer,
  type SharedInformerConfig,
  sharedInformer,
} from './shared-informer.ts';
export { waitForCacheSync } from './wait-for-cache-sync.ts';
