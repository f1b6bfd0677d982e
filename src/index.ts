// The public entry of kube-rx: sources, operators and assemblies, re-exported from their own files.

// The scheduler: its framework contract, default plugins, queue and assembly (docs/scheduler.md)
export type { Node as V1Node, Pod as V1Pod } from '../operators/api/core-v1.ts';
export { quantityMilliValue, quantityValue } from '../operators/api/quantity.ts';
export { type Backoff, type ExponentialBackoffConfig, exponentialBackoff } from '../operators/backoff.ts';
export {
  ControllerExpectations,
  UIDTrackingControllerExpectations,
} from '../operators/controller/controller-expectations.ts';
export { claimAction, getControllerOf, newControllerRef } from '../operators/controller/controller-ref.ts';
export { comparePodsForDeletion, podsToDelete } from '../operators/controller/pod-deletion-order.ts';
export { slowStartBatch } from '../operators/controller/slow-start-batch.ts';
export { electionStep, type LeaseCandidate } from '../operators/coordinated-election.ts';
export { DelayingQueue, type DelayingQueueConfig } from '../operators/delaying-queue.ts';
export { deltaFifo } from '../operators/delta-fifo.ts';
export * from '../operators/errors.ts';
export {
  escapeFieldValue,
  type FieldRequirement,
  type FieldSelector,
  fieldSelectorFromSet,
  fieldValue,
  parseFieldSelector,
  unescapeFieldValue,
} from '../operators/field-selector.ts';
export {
  dedupDeleted,
  FifoContractError,
  type FifoItem,
  type FifoMode,
  type FifoOptions,
  FifoQueue,
  type FifoQueueConfig,
  keyOfDeltas,
  type Popped,
  RequeueError,
} from '../operators/fifo-queue.ts';
export type { FifoConfig, FifoEvent } from '../operators/fifo-queue-operator.ts';
// FIFOs, the indexed store, listers and selectors
export {
  createIndexedStore,
  type FreezeMode,
  IndexedStore,
  type IndexedStoreConfig,
  type Indexers,
  type IndexFunc,
  IndexFuncError,
  type KnownObjects,
  NAMESPACE_INDEX,
  namespaceIndexFunc,
  UnknownIndexError,
} from '../operators/indexed-store.ts';
export type { InformerNotification } from '../operators/informer-notification.ts';
export { jitter } from '../operators/jitter.ts';
// The kubelet: pod workers, the sync loop, runtimes (docs/kubelet.md)
export { type AdmitResult, admitPod } from '../operators/kubelet/admission.ts';
export { computePodActions } from '../operators/kubelet/compute-pod-actions.ts';
export { expandEnvReferences } from '../operators/kubelet/expand-env-references.ts';
export { generateApiPodStatus } from '../operators/kubelet/generate-api-pod-status.ts';
export { getPhase } from '../operators/kubelet/get-phase.ts';
export { makeEnvironmentVariables } from '../operators/kubelet/make-environment-variables.ts';
export {
  everythingLabelSelector,
  type LabelOperator,
  type LabelRequirement,
  type LabelSelector,
  type LabelSelectorObject,
  labelKeyErrors,
  labelRequirement,
  labelSelectorFromObject,
  labelSelectorFromRequirements,
  labelSelectorFromSet,
  labelValueErrors,
  nothingLabelSelector,
  parseLabelSelector,
} from '../operators/label-selector.ts';
export {
  DEFAULT_LEADER_ELECTION_TIMINGS,
  JITTER_FACTOR,
  type LeaderElectionTimings,
  validateLeaderElectionTimings,
} from '../operators/leader-election-config.ts';
export {
  type LeaderElectionRecord,
  type Lease,
  type LeaseSpec,
  leaseToRecord,
  microTime,
  recordToLeaseSpec,
} from '../operators/leader-election-record.ts';
export { type Lister, lister, type NamespaceLister, type SelectorInput } from '../operators/lister.ts';
export { type Logger, silentLogger } from '../operators/logger.ts';
export { joinObjectKey, type KeyFunc, objectKey, splitObjectKey } from '../operators/object-key.ts';
export { PersistentMap } from '../operators/persistent-map.ts';
export { coalescePodUpdates } from '../operators/pod-config/coalesce-pod-updates.ts';
export { decodeStaticPods } from '../operators/pod-config/decode-static-pods.ts';
export { podConfig } from '../operators/pod-config/pod-config.ts';
export { podConfigMux } from '../operators/pod-config/pod-config-mux.ts';
export { PodStorage } from '../operators/pod-config/pod-storage.ts';
export { reflectorPodSet } from '../operators/pod-config/reflector-pod-set.ts';
export { sourcesReady } from '../operators/pod-config/sources-ready.ts';
// Kubelet pod configuration
export type {
  Pod,
  PodConfigMode,
  PodOperation,
  PodUpdate,
  SourceUpdate,
} from '../operators/pod-config/types.ts';
export {
  ALL_SOURCE,
  API_SOURCE,
  FILE_SOURCE,
  HTTP_SOURCE,
  podFullName,
} from '../operators/pod-config/types.ts';
export { PodWorkers, type PodWorkersConfig } from '../operators/pod-workers/pod-workers.ts';
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
export { realFifo } from '../operators/real-fifo.ts';
export {
  type ReconcileConfig,
  type ReconcileOutcome,
  type ReconcileOutcomeType,
  type ReconcileResult,
  type Reconciler,
  reconcileWith,
} from '../operators/reconcile.ts';
export { applyDeltas, reflect, type StoreChange, type StoreUpdate } from '../operators/reflect.ts';
export { type Extender, extendersBinding } from '../operators/scheduling/framework/extender.ts';
export { FitError, fitErrorMessage } from '../operators/scheduling/framework/fit-error.ts';
export {
  EXTENSION_POINTS,
  type ExtensionPoint,
  type Framework,
  type FrameworkDeps,
  newFramework,
  type ResolvedProfile,
} from '../operators/scheduling/framework/framework.ts';
export {
  ActionType,
  type BindPlugin,
  type ClusterEvent,
  CycleState,
  type EnqueueExtensions,
  type FilterPlugin,
  type FrameworkHandle,
  type PermitPlugin,
  type Plugin,
  type PluginFactory,
  type PostFilterPlugin,
  type PreEnqueuePlugin,
  type PreFilterPlugin,
  type PreScorePlugin,
  type QueueingHint,
  type Registry as SchedulerPluginRegistry,
  type ReservePlugin,
  type ScorePlugin,
} from '../operators/scheduling/framework/interface.ts';
export {
  NodeInfo,
  newPodInfo,
  type PodInfo,
  podRequests,
} from '../operators/scheduling/framework/node-info.ts';
export {
  newSchedulingAlgorithmState,
  numFeasibleNodesToFind,
  schedulePod,
} from '../operators/scheduling/framework/schedule-pod.ts';
export {
  type Code as StatusCode,
  isRejected,
  isSuccess,
  newStatus,
  type Status,
  statusMessage,
} from '../operators/scheduling/framework/status.ts';
export { inTreeRegistry } from '../operators/scheduling/plugins/registry.ts';
export {
  PriorityQueue,
  type PriorityQueueConfig,
  prioritySortLess,
} from '../operators/scheduling/queue/priority-queue.ts';
export { QueuedPodInfo } from '../operators/scheduling/queue/queued-pod-info.ts';
export {
  type SchedulingQueue,
  type SchedulingQueueConfig,
  schedulingQueue,
} from '../operators/scheduling/queue/scheduling-queue.ts';
export { createStoreCell, StoreCell } from '../operators/store-cell.ts';
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
// Talking to a cluster: the ApiClient port, its HTTP adapter over client-node's KubeConfig, resources
export {
  type ApiClient,
  type DeleteOptions,
  type ListerWatcherScope,
  listerWatcher,
  type NamespaceOption,
  type PatchOptions,
  type PatchType,
  type PodBinding,
  type ResourceDescriptor,
  type WriteOptions,
} from '../streams/api-client.ts';
export {
  type HttpAnswer,
  type HttpRequestSpec,
  type HttpStreamPart,
  type HttpTransport,
  nodeHttpTransport,
} from '../streams/client-node/http-transport.ts';
export {
  type KubeApiClient,
  type KubeApiClientConfig,
  kubeApiClient,
} from '../streams/client-node/kube-api-client.ts';
export {
  type KubeConfigSource,
  type KubeConnection,
  loadKubeConnection,
} from '../streams/client-node/kube-config.ts';
export { type LeaseClient, leaseClient } from '../streams/lease-client.ts';
export type { ReflectorMetricsSink } from '../streams/list-watch.ts';
// List-and-watch (the Reflector) and backoff
export { type ListWatchConfig, listWatch } from '../streams/list-watch.ts';
export { isConnectionBroken, type ReflectorMemory, reflectorMemory } from '../streams/list-watch-state.ts';
export { apiserverPodSource } from '../streams/pod-sources/apiserver.ts';
export { filePodSource } from '../streams/pod-sources/file.ts';
export { httpPodSource } from '../streams/pod-sources/http.ts';
export type { ListerWatcher, ListOptions, WatchOptions } from '../streams/ports.ts';
export * from '../streams/resources.ts';
export { criLogOutput, formatCriLogLine, parseCriLogLine, readCriLog } from '../streams/runtimes/cri-log.ts';
export { type ProcessRuntimeConfig, processRuntime } from '../streams/runtimes/process/process-runtime.ts';
export type { ContainerConfig, ContainerRuntime, PodSandboxConfig } from '../streams/runtimes/runtime.ts';
export {
  type SimulatedRuntime,
  type SimulatedRuntimeConfig,
  simulatedRuntime,
} from '../streams/runtimes/simulated/simulated-runtime.ts';
export { type StallWindow, stallWindow } from '../streams/stall-window.ts';
// The embedded API server
export {
  type ApiServerOptions,
  isLoopback,
  type RunningApiServer,
  startApiServer,
} from './apiserver/index.ts';
export { RESOURCES, type ResourceDef } from './apiserver/resource-table.ts';
export { type ShutdownSignal, type SignalSource, shutdownSignal } from './cli/shutdown-signal.ts';
export { controllerManagerCommand } from './controller-manager/command.ts';
export type {
  ControllerContext,
  ControllerDescriptor,
  ControllerInit,
  ControllerOptions,
} from './controller-manager/controller-context.ts';
export { controllerDescriptors, knownControllerNames } from './controller-manager/controller-descriptors.ts';
export { type ControllerManagerConfig, controllerManager } from './controller-manager/controller-manager.ts';
export { type ControllerManagerEvent, startControllers } from './controller-manager/start-controllers.ts';
export {
  type BootstrapSignerControllerConfig,
  bootstrapSignerController,
} from './controllers/bootstrap/bootstrap-signer-controller.ts';
export {
  type TokenCleanerControllerConfig,
  tokenCleanerController,
} from './controllers/bootstrap/token-cleaner-controller.ts';
export {
  type CsrApprovingControllerConfig,
  csrApprovingController,
} from './controllers/certificates/csr-approving-controller.ts';
export {
  type CsrCleanerControllerConfig,
  csrCleanerController,
} from './controllers/certificates/csr-cleaner-controller.ts';
export {
  type CsrSigningControllerConfig,
  csrSigningController,
} from './controllers/certificates/csr-signing-controller.ts';
export {
  type ClusterRoleAggregationControllerConfig,
  clusterRoleAggregationController,
} from './controllers/clusterrole-aggregation/clusterrole-aggregation-controller.ts';
export { controllerEventRecorder, withEventsClient } from './controllers/controller-event-recorder.ts';
export {
  CRON_JOB_CONTROLLER_NAME,
  type CronJobControllerConfig,
  cronJobController,
} from './controllers/cronjob/cron-job-controller.ts';
export {
  type DaemonSetControllerConfig,
  daemonSetController,
} from './controllers/daemonset/daemon-set-controller.ts';
export {
  type DeploymentControllerConfig,
  deploymentController,
} from './controllers/deployment/deployment-controller.ts';
export {
  type DisruptionControllerConfig,
  disruptionController,
} from './controllers/disruption/disruption-controller.ts';
export {
  type EndpointsControllerConfig,
  endpointsController,
} from './controllers/endpoints/endpoints-controller.ts';
export {
  type EndpointSliceControllerConfig,
  endpointSliceController,
} from './controllers/endpointslice/endpoint-slice-controller.ts';
export {
  type EndpointSliceMirroringControllerConfig,
  endpointSliceMirroringController,
} from './controllers/endpointslicemirroring/endpoint-slice-mirroring-controller.ts';
export {
  type DiscoveredResource,
  deletableResources as garbageCollectorDiscovery,
  type ResourceDiscovery,
} from './controllers/garbage-collector/deletable-resources.ts';
export {
  type GarbageCollectorConfig,
  garbageCollectorController,
} from './controllers/garbage-collector/garbage-collector-controller.ts';
export {
  JOB_CONTROLLER_NAME,
  type JobControllerConfig,
  jobController,
} from './controllers/job/job-controller.ts';
export {
  NAMESPACE_CONTROLLER_NAME,
  type NamespaceControllerConfig,
  namespaceController,
} from './controllers/namespace/namespace-controller.ts';
export {
  type NamespacedResourcesDeleterConfig,
  namespacedResourcesDeleter,
} from './controllers/namespace/namespaced-resources-deleter.ts';
export {
  NODE_LIFECYCLE_CONTROLLER_NAME,
  type NodeLifecycleConfig,
  nodeLifecycleController,
} from './controllers/node-lifecycle/node-lifecycle-controller.ts';
export {
  POD_GC_CONTROLLER_NAME,
  type PodGCConfig,
  podGCController,
} from './controllers/pod-gc/pod-gc-controller.ts';
export {
  type ReplicaSetControllerConfig,
  replicaSetController,
} from './controllers/replicaset/replica-set-controller.ts';
export {
  type ResourceQuotaControllerConfig,
  resourceQuotaController,
} from './controllers/resourcequota/resource-quota-controller.ts';
export {
  ROOT_CA_CERT_PUBLISHER_CONTROLLER_NAME,
  type RootCACertPublisherConfig,
  rootCACertPublisher,
} from './controllers/root-ca-cert-publisher/root-ca-cert-publisher.ts';
export {
  SERVICE_ACCOUNT_CONTROLLER_NAME,
  type ServiceAccountsControllerConfig,
  serviceAccountsController,
} from './controllers/serviceaccount/serviceaccounts-controller.ts';
export {
  type StatefulSetControllerConfig,
  statefulSetController,
} from './controllers/statefulset/stateful-set-controller.ts';
export {
  TAINT_EVICTION_CONTROLLER_NAME,
  type TaintEvictionConfig,
  taintEvictionController,
} from './controllers/taint-eviction/taint-eviction-controller.ts';
export {
  TTL_CONTROLLER_NAME,
  type TtlControllerConfig,
  ttlController,
} from './controllers/ttl/ttl-controller.ts';
export {
  TTL_AFTER_FINISHED_CONTROLLER_NAME,
  type TTLAfterFinishedControllerConfig,
  ttlAfterFinishedController,
} from './controllers/ttl-after-finished/ttl-after-finished-controller.ts';
export {
  type PvProtectionControllerConfig,
  pvProtectionController,
} from './controllers/volume-protection/pv-protection-controller.ts';
export {
  type PvcProtectionControllerConfig,
  pvcProtectionController,
} from './controllers/volume-protection/pvc-protection-controller.ts';
export { cachesSynced, type HasSyncedSource } from './informers/caches-synced.ts';
export { dropManagedFields } from './informers/drop-managed-fields.ts';
export { type EventHandler, filteringEventHandler } from './informers/event-handler.ts';
export {
  type ForResourceOptions,
  type InformerFactory,
  type InformerFactoryConfig,
  informerFactory,
} from './informers/informer-factory.ts';
export {
  type MetadataInformerConfig,
  metadataInformer,
  type PartialObjectMetadata,
  toPartialObjectMetadata,
} from './informers/metadata-informer.ts';
// Shared informers and their factory
export {
  type HandlerRegistration,
  InformerStoppedError,
  type ListenerOptions,
  type SharedInformer,
  type SharedInformerConfig,
  sharedInformer,
} from './informers/shared-informer.ts';
export { type WaitForCacheSyncOptions, waitForCacheSync } from './informers/wait-for-cache-sync.ts';
export { type Kubelet, type KubeletOptions, startKubelet } from './kubelet/kubelet.ts';
export { loadKubeletConfiguration, parseKubeletConfiguration } from './kubelet/kubelet-configuration.ts';
export { kubeletPodConfig } from './kubelet/kubelet-pod-config.ts';
// The kubelet's status manager, prober and node status
export {
  type NodeStatusUpdaterConfig,
  nodeStatusUpdater,
} from './kubelet/node-status/node-status-updater.ts';
export {
  type ProberManager,
  type ProberManagerConfig,
  proberManager,
} from './kubelet/prober/prober-manager.ts';
export { type RunKubeletsOptions, runKubelets } from './kubelet/run-kubelets.ts';
export {
  type StatusManager,
  type StatusManagerConfig,
  statusManager,
} from './kubelet/status/status-manager.ts';
export { requiresRefresh, type TokenManager, tokenManager } from './kubelet/token/token-manager.ts';
export { tokenRequestClient } from './kubelet/token/token-request-client.ts';
export {
  type CoordinatedElectionControllerConfig,
  coordinatedElectionController,
} from './leader-election/coordinated-election-controller.ts';
// Leader election
export { type HealthzAdaptor, healthzAdaptor } from './leader-election/healthz-adaptor.ts';
export { type LeaderElectionConfig, leaderElection } from './leader-election/leader-election.ts';
export {
  type LeaderElector,
  type LeaderElectorConfig,
  leaderElector,
} from './leader-election/leader-elector.ts';
export { type LeaseCandidateConfig, leaseCandidate } from './leader-election/lease-candidate.ts';
export { createLogger, type LoggerConfig, REDACTED_PATHS } from './logging/logger.ts';
export { metricsRequestHandler } from './metrics/metrics-request-handler.ts';
export {
  prometheusWorkQueueMetrics,
  WORK_QUEUE_DURATION_BUCKETS,
} from './metrics/prometheus-work-queue-metrics.ts';
// Reflector restarts and lists in Prometheus (issue 19)
export { type ReflectorMetrics, reflectorMetrics } from './metrics/reflector-metrics.ts';
// The node agent (`kube-rx up`)
export { type NodeAgent, type NodeAgentOptions, startNodeAgent } from './node-agent/node-agent.ts';
export { NODE_LEASE_NAMESPACE, type NodeLeaseConfig, nodeLease } from './node-agent/node-lease.ts';
export {
  describeNode,
  KUBELET_VERSION,
  type NodeObject,
  nodeStatusConfig,
  registerNode,
} from './node-agent/register-node.ts';
export { loadSchedulerConfig, parseSchedulerConfig } from './scheduler/config/load-config.ts';
export { setDefaults as setSchedulerConfigDefaults } from './scheduler/config/set-defaults.ts';
export type { KubeSchedulerConfiguration } from './scheduler/config/types.ts';
export { validateConfiguration as validateSchedulerConfiguration } from './scheduler/config/validate-configuration.ts';
export { type NewSchedulerOptions, newScheduler, type Scheduler } from './scheduler/scheduler.ts';
export {
  type RunningScheduler,
  type StartSchedulerOptions,
  startScheduler,
} from './scheduler/start-scheduler.ts';
