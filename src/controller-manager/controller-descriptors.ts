// controllerDescriptors: kube-controller-manager's name → init map, every upstream name, with kube-rx's built controllers' init functions.

import type { KnownControllerNames } from '../../operators/controller-manager/resolve-controllers-flag.ts';
import { KubeRxError } from '../../operators/errors.ts';
import { bootstrapSignerController } from '../controllers/bootstrap/bootstrap-signer-controller.ts';
import { tokenCleanerController } from '../controllers/bootstrap/token-cleaner-controller.ts';
import { csrApprovingController } from '../controllers/certificates/csr-approving-controller.ts';
import { csrCleanerController } from '../controllers/certificates/csr-cleaner-controller.ts';
import { csrSigningController } from '../controllers/certificates/csr-signing-controller.ts';
import { clusterRoleAggregationController } from '../controllers/clusterrole-aggregation/clusterrole-aggregation-controller.ts';
import { cronJobController } from '../controllers/cronjob/cron-job-controller.ts';
import { daemonSetController } from '../controllers/daemonset/daemon-set-controller.ts';
import { deploymentController } from '../controllers/deployment/deployment-controller.ts';
import { disruptionController } from '../controllers/disruption/disruption-controller.ts';
import { endpointsController } from '../controllers/endpoints/endpoints-controller.ts';
import { endpointSliceController } from '../controllers/endpointslice/endpoint-slice-controller.ts';
import { endpointSliceMirroringController } from '../controllers/endpointslicemirroring/endpoint-slice-mirroring-controller.ts';
import { garbageCollectorController } from '../controllers/garbage-collector/garbage-collector-controller.ts';
import { jobController } from '../controllers/job/job-controller.ts';
import { namespaceController } from '../controllers/namespace/namespace-controller.ts';
import { nodeLifecycleController } from '../controllers/node-lifecycle/node-lifecycle-controller.ts';
import { podGCController } from '../controllers/pod-gc/pod-gc-controller.ts';
import { replicaSetController } from '../controllers/replicaset/replica-set-controller.ts';
import { resourceQuotaController } from '../controllers/resourcequota/resource-quota-controller.ts';
import { rootCACertPublisher } from '../controllers/root-ca-cert-publisher/root-ca-cert-publisher.ts';
import { serviceAccountsController } from '../controllers/serviceaccount/serviceaccounts-controller.ts';
import { statefulSetController } from '../controllers/statefulset/stateful-set-controller.ts';
import { taintEvictionController } from '../controllers/taint-eviction/taint-eviction-controller.ts';
import { ttlController } from '../controllers/ttl/ttl-controller.ts';
import { ttlAfterFinishedController } from '../controllers/ttl-after-finished/ttl-after-finished-controller.ts';
import { pvProtectionController } from '../controllers/volume-protection/pv-protection-controller.ts';
import { pvcProtectionController } from '../controllers/volume-protection/pvc-protection-controller.ts';
import type { ControllerDescriptor, ControllerInit } from './controller-context.ts';

type Row = [name: string, aliases: string[], extra?: Omit<ControllerDescriptor, 'name' | 'aliases' | 'init'>];

/** Upstream's descriptors in registration order (a recent release), with the aliases of the classic names. */
const UPSTREAM: readonly Row[] = [
  ['serviceaccount-token-controller', ['serviceaccount-token']],
  ['endpoints-controller', ['endpoint']],
  ['endpointslice-controller', ['endpointslice']],
  ['endpointslice-mirroring-controller', ['endpointslicemirroring']],
  ['replicationcontroller-controller', ['replicationcontroller']],
  ['pod-garbage-collector-controller', ['podgc']],
  ['resourcequota-controller', ['resourcequota']],
  ['namespace-controller', ['namespace']],
  ['serviceaccount-controller', ['serviceaccount']],
  ['garbage-collector-controller', ['garbagecollector']],
  ['daemonset-controller', ['daemonset']],
  ['job-controller', ['job']],
  ['deployment-controller', ['deployment']],
  ['replicaset-controller', ['replicaset']],
  ['horizontal-pod-autoscaler-controller', ['horizontalpodautoscaling']],
  ['disruption-controller', ['disruption']],
  ['statefulset-controller', ['statefulset']],
  ['cronjob-controller', ['cronjob']],
  ['certificatesigningrequest-signing-controller', ['csrsigning']],
  ['certificatesigningrequest-approving-controller', ['csrapproving']],
  ['certificatesigningrequest-cleaner-controller', ['csrcleaner']],
  ['podcertificaterequest-cleaner-controller', [], { requiredFeatureGates: ['PodCertificateRequest'] }],
  ['ttl-controller', ['ttl']],
  ['bootstrap-signer-controller', ['bootstrapsigner'], { disabledByDefault: true }],
  ['token-cleaner-controller', ['tokencleaner'], { disabledByDefault: true }],
  ['node-ipam-controller', ['nodeipam']],
  ['node-lifecycle-controller', ['nodelifecycle']],
  ['service-lb-controller', ['service'], { cloudProvider: true }],
  ['node-route-controller', ['route'], { cloudProvider: true }],
  ['cloud-node-lifecycle-controller', ['cloud-node-lifecycle'], { cloudProvider: true }],
  ['persistentvolume-binder-controller', ['persistentvolume-binder']],
  ['persistentvolume-attach-detach-controller', ['attachdetach']],
  ['persistentvolume-expander-controller', ['persistentvolume-expander']],
  ['clusterrole-aggregation-controller', ['clusterrole-aggregation']],
  ['persistentvolumeclaim-protection-controller', ['pvc-protection']],
  ['persistentvolume-protection-controller', ['pv-protection']],
  ['volumeattributesclass-protection-controller', [], { requiredFeatureGates: ['VolumeAttributesClass'] }],
  ['ttl-after-finished-controller', ['ttl-after-finished']],
  ['root-ca-certificate-publisher-controller', ['root-ca-cert-publisher']],
  [
    'kube-apiserver-serving-clustertrustbundle-publisher-controller',
    [],
    { requiredFeatureGates: ['ClusterTrustBundle'] },
  ],
  ['ephemeral-volume-controller', ['ephemeral-volume']],
  [
    'storageversion-garbage-collector-controller',
    ['storage-version-gc'],
    { requiredFeatureGates: ['APIServerIdentity', 'StorageVersionAPI'] },
  ],
  [
    'resourceclaim-controller',
    ['resource-claim-controller'],
    { requiredFeatureGates: ['DynamicResourceAllocation'] },
  ],
  ['device-taint-eviction-controller', [], { requiredFeatureGates: ['DRADeviceTaints'] }],
  ['legacy-serviceaccount-token-cleaner-controller', ['legacy-service-account-token-cleaner']],
  ['validatingadmissionpolicy-status-controller', []],
  ['taint-eviction-controller', [], { requiredFeatureGates: ['SeparateTaintEvictionController'] }],
  ['service-cidr-controller', [], { requiredFeatureGates: ['MultiCIDRServiceAllocator'] }],
  [
    'storage-version-migrator-controller',
    [],
    { requiredFeatureGates: ['StorageVersionMigrator', 'InformerResourceVersion'] },
  ],
  [
    'selinux-warning-controller',
    [],
    { disabledByDefault: true, requiredFeatureGates: ['SELinuxChangePolicy'] },
  ],
];

/** The feature gates the table names, with the defaults of a recent release. */
export const CONTROLLER_FEATURE_GATES: Readonly<Record<string, boolean>> = {
  APIServerIdentity: true,
  StorageVersionAPI: false,
  DynamicResourceAllocation: true,
  SeparateTaintEvictionController: true,
  MultiCIDRServiceAllocator: true,
  StorageVersionMigrator: false,
  InformerResourceVersion: false,
  PodCertificateRequest: false,
  VolumeAttributesClass: true,
  ClusterTrustBundle: false,
  DRADeviceTaints: false,
  SELinuxChangePolicy: true,
};

/** The upstream default of `--terminated-pod-gc-threshold`. */
export const DEFAULT_TERMINATED_POD_GC_THRESHOLD = 12_500;

/** kube-rx's built controllers: their init functions, by canonical name. */
const BUILT: Readonly<Record<string, ControllerInit>> = {
  'endpoints-controller': (ctx) =>
    endpointsController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      workers: ctx.options.concurrency['concurrent-endpoint-syncs'] ?? 5,
      metrics: ctx.workQueueMetrics,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'endpointslice-controller': (ctx) =>
    endpointSliceController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      workers: ctx.options.concurrency['concurrent-service-endpoint-syncs'] ?? 5,
      metrics: ctx.workQueueMetrics,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'endpointslice-mirroring-controller': (ctx) =>
    endpointSliceMirroringController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      workers: ctx.options.concurrency['mirroring-concurrent-service-endpoint-syncs'] ?? 5,
      metrics: ctx.workQueueMetrics,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'namespace-controller': (ctx) =>
    namespaceController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      workers: ctx.options.concurrency['concurrent-namespace-syncs'] ?? 10,
      ...(ctx.options.namespaceSyncPeriodMs ? { resyncPeriodMs: ctx.options.namespaceSyncPeriodMs } : {}),
      metrics: ctx.workQueueMetrics,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'serviceaccount-controller': (ctx) =>
    serviceAccountsController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      metrics: ctx.workQueueMetrics,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'garbage-collector-controller': (ctx) =>
    garbageCollectorController({
      client: ctx.client,
      workers: ctx.options.concurrency['concurrent-gc-syncs'] ?? 20,
      metrics: ctx.workQueueMetrics,
      ...(ctx.metricsRegistry ? { metricsRegistry: ctx.metricsRegistry } : {}),
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'node-lifecycle-controller': (ctx) =>
    nodeLifecycleController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      ...(ctx.options.nodeMonitorPeriodMs ? { nodeMonitorPeriodMs: ctx.options.nodeMonitorPeriodMs } : {}),
      ...(ctx.options.nodeMonitorGracePeriodMs
        ? { nodeMonitorGracePeriodMs: ctx.options.nodeMonitorGracePeriodMs }
        : {}),
      ...(ctx.options.nodeStartupGracePeriodMs
        ? { nodeStartupGracePeriodMs: ctx.options.nodeStartupGracePeriodMs }
        : {}),
      ...(ctx.options.nodeEvictionRate !== undefined
        ? { nodeEvictionRate: ctx.options.nodeEvictionRate }
        : {}),
      ...(ctx.options.secondaryNodeEvictionRate !== undefined
        ? { secondaryNodeEvictionRate: ctx.options.secondaryNodeEvictionRate }
        : {}),
      ...(ctx.options.largeClusterSizeThreshold !== undefined
        ? { largeClusterSizeThreshold: ctx.options.largeClusterSizeThreshold }
        : {}),
      ...(ctx.options.unhealthyZoneThreshold !== undefined
        ? { unhealthyZoneThreshold: ctx.options.unhealthyZoneThreshold }
        : {}),
      ...(ctx.metricsRegistry ? { metricsRegistry: ctx.metricsRegistry } : {}),
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'taint-eviction-controller': (ctx) =>
    taintEvictionController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'job-controller': (ctx) =>
    jobController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      workers: ctx.options.concurrency['concurrent-job-syncs'] ?? 5,
      metrics: ctx.workQueueMetrics,
      ...(ctx.metricsRegistry ? { metricsRegistry: ctx.metricsRegistry } : {}),
      features: ctx.options.featureGates,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'cronjob-controller': (ctx) =>
    cronJobController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      workers: ctx.options.concurrency['concurrent-cron-job-syncs'] ?? 5,
      metrics: ctx.workQueueMetrics,
      ...(ctx.metricsRegistry ? { metricsRegistry: ctx.metricsRegistry } : {}),
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'pod-garbage-collector-controller': (ctx) =>
    podGCController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      terminatedPodThreshold: ctx.options.terminatedPodGCThreshold,
      ...(ctx.metricsRegistry ? { metricsRegistry: ctx.metricsRegistry } : {}),
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'deployment-controller': (ctx) =>
    deploymentController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      workers: ctx.options.concurrency['concurrent-deployment-syncs'] ?? 5,
      metrics: ctx.workQueueMetrics,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'resourcequota-controller': (ctx) =>
    resourceQuotaController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      workers: ctx.options.concurrency['concurrent-resource-quota-syncs'] ?? 5,
      ...(ctx.options.resourceQuotaSyncPeriodMs
        ? { resyncPeriodMs: ctx.options.resourceQuotaSyncPeriodMs }
        : {}),
      metrics: ctx.workQueueMetrics,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'disruption-controller': (ctx) =>
    disruptionController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      metrics: ctx.workQueueMetrics,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'statefulset-controller': (ctx) =>
    statefulSetController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      workers: ctx.options.concurrency['concurrent-statefulset-syncs'] ?? 5,
      metrics: ctx.workQueueMetrics,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'replicaset-controller': (ctx) =>
    replicaSetController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      workers: ctx.options.concurrency['concurrent-replicaset-syncs'] ?? 5,
      metrics: ctx.workQueueMetrics,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'replicationcontroller-controller': (ctx) =>
    replicaSetController({
      kind: 'ReplicationController',
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      workers: ctx.options.concurrency['concurrent-rc-syncs'] ?? 5,
      metrics: ctx.workQueueMetrics,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'daemonset-controller': (ctx) =>
    daemonSetController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      workers: ctx.options.concurrency['concurrent-daemonset-syncs'] ?? 2,
      metrics: ctx.workQueueMetrics,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'ttl-controller': (ctx) =>
    ttlController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      metrics: ctx.workQueueMetrics,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'ttl-after-finished-controller': (ctx) =>
    ttlAfterFinishedController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      workers: ctx.options.concurrency['concurrent-ttl-after-finished-syncs'] ?? 5,
      metrics: ctx.workQueueMetrics,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'certificatesigningrequest-signing-controller': (ctx) =>
    // upstream skips the signer without a signing cert/key ("Skipping CSR signer controller")
    ctx.options.clusterSigning === undefined
      ? undefined
      : csrSigningController({
          client: ctx.client,
          informerFactory: ctx.informerFactory,
          ca: ctx.options.clusterSigning,
          ...(ctx.options.clusterSigningDurationMs
            ? { certTtlMs: ctx.options.clusterSigningDurationMs }
            : {}),
          metrics: ctx.workQueueMetrics,
          scheduler: ctx.scheduler,
          logger: ctx.logger,
        }),
  'certificatesigningrequest-approving-controller': (ctx) =>
    csrApprovingController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      metrics: ctx.workQueueMetrics,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'certificatesigningrequest-cleaner-controller': (ctx) =>
    csrCleanerController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'bootstrap-signer-controller': (ctx) =>
    bootstrapSignerController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      metrics: ctx.workQueueMetrics,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'token-cleaner-controller': (ctx) =>
    tokenCleanerController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      metrics: ctx.workQueueMetrics,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'clusterrole-aggregation-controller': (ctx) =>
    clusterRoleAggregationController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      metrics: ctx.workQueueMetrics,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'persistentvolumeclaim-protection-controller': (ctx) =>
    pvcProtectionController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      metrics: ctx.workQueueMetrics,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'persistentvolume-protection-controller': (ctx) =>
    pvProtectionController({
      client: ctx.client,
      informerFactory: ctx.informerFactory,
      metrics: ctx.workQueueMetrics,
      scheduler: ctx.scheduler,
      logger: ctx.logger,
    }),
  'root-ca-certificate-publisher-controller': (ctx) =>
    // upstream refuses to start without a CA; kube-rx skips it ("Warning: skipping controller")
    ctx.options.rootCA === undefined
      ? undefined
      : rootCACertPublisher({
          client: ctx.client,
          rootCA: ctx.options.rootCA,
          scheduler: ctx.scheduler,
          logger: ctx.logger,
        }),
};

/**
 * Every controller kube-controller-manager knows, by canonical name, with kube-rx's init function where the
 * controller is built; `extra` adds the user's own (or replaces a built-in one's init by giving its name).
 * Registration rules as upstream's: a non-empty name, no name twice among `extra`, an alias used once and
 * never equal to a name.
 *
 * @example
 * controllerDescriptors([{ name: 'hello-controller', aliases: [], init: (ctx) => hello(ctx) }]);
 * @param extra the user's descriptors
 * @returns the map, in upstream's registration order, then the user's
 * @throws KubeRxError when a registration breaks a rule
 */
export function controllerDescriptors(
  extra: readonly ControllerDescriptor[] = [],
): ReadonlyMap<string, ControllerDescriptor> {
  const map = new Map<string, ControllerDescriptor>();
  for (const [name, aliases, rest] of UPSTREAM) {
    const init = BUILT[name];
    map.set(name, { name, aliases, ...rest, ...(init ? { init } : {}) });
  }
  const seen = new Set<string>();
  for (const d of extra) {
    if (!d.name)
      throw new KubeRxError('KUBE_RX_CONTROLLER', 'received controller without a name for a registration');
    if (seen.has(d.name)) {
      throw new KubeRxError('KUBE_RX_CONTROLLER', `controller name "${d.name}" was registered twice`);
    }
    seen.add(d.name);
    if (!d.init) {
      throw new KubeRxError('KUBE_RX_CONTROLLER', `controller "${d.name}" does not have an init function`);
    }
    const known = map.get(d.name);
    map.set(d.name, known ? { ...known, init: d.init } : d);
  }
  const aliases = new Set<string>();
  for (const d of map.values()) {
    for (const alias of d.aliases) {
      if (aliases.has(alias)) {
        throw new KubeRxError(
          'KUBE_RX_CONTROLLER',
          `controller "${d.name}" has a duplicate alias "${alias}"`,
        );
      }
      aliases.add(alias);
    }
  }
  for (const alias of aliases) {
    if (map.has(alias)) {
      throw new KubeRxError('KUBE_RX_CONTROLLER', `alias "${alias}" conflicts with a controller name`);
    }
  }
  return map;
}

/** The names and aliases `--controllers` accepts, and the names kube-rx builds. */
export function knownControllerNames(
  descriptors: ReadonlyMap<string, ControllerDescriptor>,
): KnownControllerNames {
  const aliases = new Map<string, string>();
  for (const d of descriptors.values()) for (const a of d.aliases) aliases.set(a, d.name);
  const built = new Set([...descriptors.values()].filter((d) => d.init).map((d) => d.name));
  return { names: new Set(descriptors.keys()), aliases, built };
}
