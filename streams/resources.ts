// Descriptors of the well-known resources, for ApiClient calls and listerWatcher.
import type { ResourceDescriptor } from './api-client.ts';

function resource(group: string, version: string, plural: string, kind: string, namespaced: boolean) {
  return Object.freeze({ group, version, plural, kind, namespaced }) satisfies ResourceDescriptor;
}

/** core/v1 */
export const PODS = resource('', 'v1', 'pods', 'Pod', true);
export const NODES = resource('', 'v1', 'nodes', 'Node', false);
export const NAMESPACES = resource('', 'v1', 'namespaces', 'Namespace', false);
export const EVENTS = resource('', 'v1', 'events', 'Event', true);
export const CONFIG_MAPS = resource('', 'v1', 'configmaps', 'ConfigMap', true);
export const SECRETS = resource('', 'v1', 'secrets', 'Secret', true);
export const SERVICES = resource('', 'v1', 'services', 'Service', true);
export const SERVICE_ACCOUNTS = resource('', 'v1', 'serviceaccounts', 'ServiceAccount', true);
export const ENDPOINTS = resource('', 'v1', 'endpoints', 'Endpoints', true);
export const ENDPOINT_SLICES = resource('discovery.k8s.io', 'v1', 'endpointslices', 'EndpointSlice', true);
export const PERSISTENT_VOLUME_CLAIMS = resource(
  '',
  'v1',
  'persistentvolumeclaims',
  'PersistentVolumeClaim',
  true,
);
export const PERSISTENT_VOLUMES = resource('', 'v1', 'persistentvolumes', 'PersistentVolume', false);
/** apps/v1 */
export const DEPLOYMENTS = resource('apps', 'v1', 'deployments', 'Deployment', true);
export const REPLICA_SETS = resource('apps', 'v1', 'replicasets', 'ReplicaSet', true);
export const CONTROLLER_REVISIONS = resource('apps', 'v1', 'controllerrevisions', 'ControllerRevision', true);
export const REPLICATION_CONTROLLERS = resource(
  '',
  'v1',
  'replicationcontrollers',
  'ReplicationController',
  true,
);
export const DAEMON_SETS = resource('apps', 'v1', 'daemonsets', 'DaemonSet', true);
export const STATEFUL_SETS = resource('apps', 'v1', 'statefulsets', 'StatefulSet', true);
/** batch/v1 */
export const JOBS = resource('batch', 'v1', 'jobs', 'Job', true);
export const CRON_JOBS = resource('batch', 'v1', 'cronjobs', 'CronJob', true);
/** policy/v1 */
export const POD_DISRUPTION_BUDGETS = resource(
  'policy',
  'v1',
  'poddisruptionbudgets',
  'PodDisruptionBudget',
  true,
);
/** scheduling.k8s.io/v1 */
export const PRIORITY_CLASSES = resource(
  'scheduling.k8s.io',
  'v1',
  'priorityclasses',
  'PriorityClass',
  false,
);
/** storage.k8s.io/v1 */
export const CSI_NODES = resource('storage.k8s.io', 'v1', 'csinodes', 'CSINode', false);
export const STORAGE_CLASSES = resource('storage.k8s.io', 'v1', 'storageclasses', 'StorageClass', false);
/** coordination.k8s.io/v1beta1 (coordinated leader election) */
export const LEASE_CANDIDATES = resource(
  'coordination.k8s.io',
  'v1beta1',
  'leasecandidates',
  'LeaseCandidate',
  true,
);
export { LEASES } from './lease-client.ts';
