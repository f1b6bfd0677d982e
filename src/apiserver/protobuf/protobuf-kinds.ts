// Which message carries each apiVersion/kind in protobuf: one row per group version, a kind per name.
import { MESSAGES } from './messages.ts';

/** One kind served in protobuf. */
export interface ProtobufKind {
  apiVersion: string;
  kind: string;
  /** Qualified message name, `apps/v1.Deployment`. */
  message: string;
}

/**
 * The kinds, by group version: [apiVersion, message package, kinds]. Each kind's `<Kind>List` is
 * served too when its package has that message. Adding a kind is adding its name to its row.
 */
const ROWS: readonly (readonly [string, string, readonly string[]])[] = [
  [
    'v1',
    'core/v1',
    [
      'Namespace',
      'Pod',
      'Node',
      'Event',
      'ConfigMap',
      'Secret',
      'Service',
      'Binding',
      'ServiceAccount',
      'Endpoints',
      'ReplicationController',
      'PodTemplate',
      'ResourceQuota',
      'LimitRange',
      'PersistentVolume',
      'PersistentVolumeClaim',
    ],
  ],
  ['apps/v1', 'apps/v1', ['ReplicaSet', 'Deployment', 'DaemonSet', 'StatefulSet', 'ControllerRevision']],
  ['batch/v1', 'batch/v1', ['Job', 'CronJob']],
  ['coordination.k8s.io/v1', 'coordination/v1', ['Lease']],
  ['coordination.k8s.io/v1beta1', 'coordination/v1beta1', ['LeaseCandidate']],
  ['policy/v1', 'policy/v1', ['PodDisruptionBudget', 'Eviction']],
  ['scheduling.k8s.io/v1', 'scheduling/v1', ['PriorityClass']],
  [
    'storage.k8s.io/v1',
    'storage/v1',
    ['CSINode', 'StorageClass', 'CSIDriver', 'VolumeAttachment', 'CSIStorageCapacity'],
  ],
  ['autoscaling/v1', 'autoscaling/v1', ['Scale', 'HorizontalPodAutoscaler']],
  ['autoscaling/v2', 'autoscaling/v2', ['HorizontalPodAutoscaler']],
  ['rbac.authorization.k8s.io/v1', 'rbac/v1', ['Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding']],
  ['networking.k8s.io/v1', 'networking/v1', ['Ingress', 'IngressClass', 'NetworkPolicy']],
  ['discovery.k8s.io/v1', 'discovery/v1', ['EndpointSlice']],
  ['events.k8s.io/v1', 'events/v1', ['Event']],
  ['certificates.k8s.io/v1', 'certificates/v1', ['CertificateSigningRequest']],
  ['node.k8s.io/v1', 'node/v1', ['RuntimeClass']],
  ['authentication.k8s.io/v1', 'authentication/v1', ['TokenRequest', 'TokenReview']],
  [
    'authorization.k8s.io/v1',
    'authorization/v1',
    ['SubjectAccessReview', 'SelfSubjectAccessReview', 'LocalSubjectAccessReview', 'SelfSubjectRulesReview'],
  ],
];

/** meta/v1 kinds that every group version carries (matched by kind whatever the apiVersion says). */
const META_KINDS: readonly string[] = ['Status', 'DeleteOptions', 'WatchEvent'];

function build(): Map<string, ProtobufKind> {
  const out = new Map<string, ProtobufKind>();
  const add = (apiVersion: string, kind: string, message: string) => {
    if (!MESSAGES.has(message))
      throw new Error(`protobuf kinds: ${apiVersion} ${kind}: no message ${message}`);
    out.set(`${apiVersion}/${kind}`, { apiVersion, kind, message });
  };
  for (const [apiVersion, pkg, kinds] of ROWS) {
    for (const kind of kinds) {
      add(apiVersion, kind, `${pkg}.${kind}`);
      if (MESSAGES.has(`${pkg}.${kind}List`)) add(apiVersion, `${kind}List`, `${pkg}.${kind}List`);
    }
  }
  return out;
}

const KINDS = build();

/** Every kind served in protobuf (meta/v1's Status, DeleteOptions and WatchEvent not included). */
export function protobufKinds(): ProtobufKind[] {
  return [...KINDS.values()];
}

/** The protobuf form of `apiVersion`/`kind`, or undefined when that kind has none (JSON only). */
export function protobufKind(apiVersion: string, kind: string): ProtobufKind | undefined {
  const hit = KINDS.get(`${apiVersion}/${kind}`);
  if (hit) return hit;
  if (META_KINDS.includes(kind)) return { apiVersion, kind, message: `meta/v1.${kind}` };
  return undefined;
}
