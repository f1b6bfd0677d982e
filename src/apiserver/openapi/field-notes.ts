// What the protobuf tables cannot say about the built-in API: descriptions, list semantics and formats.

/** How a list field merges (strategic merge patch) and what server-side apply takes as its identity. */
export interface ListNote {
  /** `map`: elements keyed by `keys`; `set`: primitives compared by value; `atomic`: replaced whole. */
  type: 'map' | 'set' | 'atomic';
  /** The map keys, for `map` (the first is the strategic-merge-patch key). */
  keys?: readonly string[];
}

/**
 * Lists whose keys differ from the field-name table of strategic-merge-patch.ts or that it does not
 * know, by `Message.field` (unqualified message name). These are the upstream `+listType`/`+listMapKey`
 * markers of the types concerned.
 */
export const LIST_NOTES: Readonly<Record<string, ListNote>> = {
  'Container.ports': { type: 'map', keys: ['containerPort', 'protocol'] },
  'ServiceSpec.ports': { type: 'map', keys: ['port', 'protocol'] },
  'EndpointSubset.ports': { type: 'atomic' },
  'NetworkPolicyIngressRule.ports': { type: 'atomic' },
  'NetworkPolicyEgressRule.ports': { type: 'atomic' },
  'ServiceSpec.clusterIPs': { type: 'atomic' },
  'ServiceSpec.ipFamilies': { type: 'atomic' },
  'NodeSelectorTerm.matchExpressions': { type: 'atomic' },
  'PodSpec.tolerations': { type: 'atomic' },
  'ObjectMeta.finalizers': { type: 'set' },
  'NamespaceSpec.finalizers': { type: 'atomic' },
  'ObjectMeta.ownerReferences': { type: 'map', keys: ['uid'] },
  'ObjectMeta.managedFields': { type: 'atomic' },
  'JSONSchemaProps.x-kubernetes-validations': { type: 'map', keys: ['rule'] },
  'PodSpec.topologySpreadConstraints': { type: 'map', keys: ['topologyKey', 'whenUnsatisfiable'] },
  'CustomResourceDefinitionSpec.versions': { type: 'atomic' },
};

/** Structs replaced whole by server-side apply (`+structType=atomic`): `x-kubernetes-map-type: atomic`. */
export const ATOMIC_STRUCTS: ReadonlySet<string> = new Set([
  'meta/v1.LabelSelector',
  'core/v1.NodeSelector',
  'core/v1.ConfigMapKeySelector',
  'core/v1.SecretKeySelector',
  'core/v1.ObjectFieldSelector',
  'core/v1.ResourceFieldSelector',
  'core/v1.ConfigMapEnvSource',
  'core/v1.SecretEnvSource',
  'core/v1.LocalObjectReference',
  'core/v1.ObjectReference',
]);

/** Descriptions of fields by JSON name, whatever message they are in (our own words). */
export const FIELD_DESCRIPTIONS: Readonly<Record<string, string>> = {
  apiVersion:
    'The versioned schema of this representation of an object (group/version, or just the version for the core group). The server converts known schemas to its own version and may reject unknown ones.',
  kind: 'The REST resource type this object represents, in CamelCase, as the server infers it from the endpoint the client submits to. Cannot be updated.',
  metadata:
    "Standard object metadata: name, namespace, labels, annotations, owners, finalizers and the server's bookkeeping (uid, resourceVersion, generation, timestamps).",
  spec: 'The desired state of the object, as its owner declares it.',
  status:
    'The most recently observed state of the object, written by the system (controllers, the kubelet). Read-only for most clients; may lag behind the spec.',
  items: 'The objects of this list.',
  name: 'A name, unique within its scope (its namespace or its parent object); cannot be changed once set.',
  namespace: 'The namespace that holds the object; an empty namespace means "default" for namespaced kinds.',
  generateName:
    'A prefix the server uses to make a unique name when `name` is empty: it appends random characters.',
  labels:
    'String keys and values used to organise and select objects (by label selectors of services, controllers, ...).',
  annotations:
    'Unstructured key/value data that tools and controllers attach to the object; not used for selection.',
  uid: 'A value the server sets on creation that is unique across time and space for this object; read-only.',
  resourceVersion:
    "An opaque value identifying the object's internal version, used for optimistic concurrency and to resume watches. Clients must not interpret it.",
  generation: 'A number the server increments on each change of the desired state (spec); read-only.',
  creationTimestamp: 'When the server created the object (RFC 3339, UTC); read-only.',
  deletionTimestamp:
    'When the object will be (or was asked to be) deleted, set by the server on a graceful delete; read-only.',
  ownerReferences:
    'The objects this one depends on; when every owner is gone the garbage collector deletes it. At most one may be the managing controller.',
  finalizers:
    'Names that must each be removed before the server deletes the object from storage: the hooks of whoever must clean up first.',
  managedFields:
    'Which field manager owns which fields, maintained by server-side apply; users rarely need to read or write it.',
  containers: 'The containers of the pod. At least one; they cannot be added or removed once the pod exists.',
  initContainers:
    'Containers that run one after another, each to completion, before the regular containers start.',
  ephemeralContainers: 'Debugging containers added to a running pod (kubectl debug).',
  image:
    'The container image to run, as a registry reference (`nginx:1.27`, `registry.example.com/app@sha256:...`).',
  command:
    "The entrypoint, run without a shell; the image's ENTRYPOINT when unset. $(VAR) references are expanded from the environment.",
  args: "Arguments to the entrypoint; the image's CMD when unset. $(VAR) references are expanded.",
  env: 'Environment variables to set in the container.',
  envFrom: 'Sources (config maps, secrets) whose keys all become environment variables.',
  ports:
    'Ports the object exposes. For a container this is informational: any port the process listens on is reachable.',
  resources: 'Compute resources (cpu, memory, ...) requested and limited.',
  requests:
    'The minimum amount of each resource the workload needs; the scheduler places it where this fits.',
  limits: 'The maximum amount of each resource the workload may use.',
  volumeMounts: "Where volumes of the pod appear in the container's filesystem.",
  volumes: 'Volumes that containers of the pod can mount.',
  replicas: 'The number of desired pods.',
  selector: 'A label query over the pods (or other objects) this object manages or targets.',
  template: 'The pod template: the metadata and spec of each pod created from it.',
  nodeName: 'The node the pod is bound to; set by the scheduler, or by the user to skip scheduling.',
  nodeSelector: 'Labels a node must carry for the pod to be scheduled on it.',
  affinity: 'Scheduling constraints: node affinity and pod (anti-)affinity.',
  tolerations: 'The taints the pod tolerates.',
  restartPolicy: 'When containers are restarted after they exit: Always, OnFailure or Never.',
  serviceAccountName: 'The service account whose identity the pod runs with.',
  schedulerName: 'The scheduler that places the pod; the default scheduler when unset.',
  priorityClassName: "The priority class whose value becomes the pod's priority.",
  conditions: 'The current conditions of the object, one entry per condition type.',
  type: 'The type of this entry.',
  reason: 'A short CamelCase machine-readable reason for the last change.',
  message: 'A human-readable explanation of the last change.',
  data: 'The data, by key.',
  stringData: 'Write-only convenience: string values merged into `data` (encoded) on write.',
  phase: 'A high-level summary of where the object is in its lifecycle.',
  strategy: 'How existing pods are replaced by new ones.',
  minReadySeconds: 'How long a new pod must be ready, without any container crashing, to count as available.',
  imagePullPolicy: 'When the image is pulled: Always, IfNotPresent or Never.',
  livenessProbe: 'A periodic check of container liveness; the container is restarted when it fails.',
  readinessProbe: 'A periodic check of readiness; the pod leaves service endpoints while it fails.',
  startupProbe: 'A check that must succeed before the other probes start.',
  securityContext: 'Security options (user, group, capabilities, ...).',
  terminationGracePeriodSeconds:
    'Seconds the pod is given to stop gracefully, after its processes get a termination signal and before they are killed.',
  hostNetwork: "Use the node's network namespace.",
  clusterIP: 'The virtual IP of the service, allocated by the server unless given.',
  taints: 'The taints of the node: pods that do not tolerate them are kept away or evicted.',
  unschedulable: 'Whether new pods may be scheduled on the node.',
  podIP: 'The IP address allocated to the pod.',
  hostIP: 'The IP address of the node the pod runs on.',
  containerStatuses: 'The observed state of each container.',
  rules: 'The rules of this object.',
  subjects: 'The users, groups and service accounts this binding applies to.',
  roleRef: 'The role this binding grants.',
};

/** Descriptions of the top-level kinds (our own words), by kind. */
export const KIND_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Pod: 'A group of containers that run together on one node, sharing network and storage. The unit the scheduler places and the kubelet runs.',
  Node: 'A worker machine the cluster schedules pods onto; the kubelet on it reports its status.',
  Namespace: 'A scope for names: namespaced objects are unique within their namespace.',
  Service: 'A stable name and virtual IP in front of a set of pods chosen by a label selector.',
  ConfigMap: 'Configuration data, as string or binary values by key, for pods to consume.',
  Secret: 'Sensitive data (passwords, tokens, keys) by key, base64-encoded in its `data` field.',
  ServiceAccount: 'An identity for processes that run in pods.',
  Event: 'A report of something that happened to an object in the cluster.',
  Deployment:
    'Declarative updates for pods: keeps a number of replicas of a pod template running, and rolls them to a new template.',
  ReplicaSet: 'Keeps a given number of pod replicas, matching a selector, running.',
  DaemonSet: 'Runs one copy of a pod on each node (that its selectors and tolerations allow).',
  StatefulSet: 'Pods with stable names and storage, created and scaled in order.',
  Job: 'Runs pods until a number of them succeed.',
  CronJob: 'Creates jobs on a schedule.',
  Lease: 'A lease held by one holder for a duration: leader election and node heartbeats.',
  PriorityClass: 'A name for a scheduling priority value.',
  PodDisruptionBudget: 'How many pods of a set may be down at once for voluntary disruptions (evictions).',
  Role: 'A namespaced set of permissions.',
  ClusterRole: 'A cluster-wide set of permissions.',
  RoleBinding: 'Grants the permissions of a role to subjects within a namespace.',
  ClusterRoleBinding: 'Grants the permissions of a cluster role to subjects across the cluster.',
  CSINode: "The CSI drivers installed on a node and each driver's limits there.",
  LeaseCandidate: 'A candidate for a coordinated leader election, with the versions it can lead.',
  Endpoints: 'The addresses and ports behind a service (the older form of EndpointSlice).',
  PodTemplate: 'A reusable pod template.',
  ReplicationController:
    'Keeps a given number of pods matching a selector running (the older form of ReplicaSet).',
  ResourceQuota: 'Limits on the total resources a namespace may use, and their current usage.',
  LimitRange: 'Defaults and bounds for the resources of each pod and container in a namespace.',
  PersistentVolume: 'A piece of storage in the cluster, provisioned by an administrator or a storage class.',
  PersistentVolumeClaim: 'A request for storage by a user, bound to a persistent volume.',
  EndpointSlice: 'A subset of the endpoints behind a service.',
  ControllerRevision:
    'An immutable snapshot of state that a controller (DaemonSet, StatefulSet) can roll back to.',
  StorageClass: 'A class of storage: the provisioner and parameters used to create volumes dynamically.',
  CSIDriver: 'How the cluster interacts with a CSI volume driver installed on nodes.',
  VolumeAttachment: 'The intent to attach a volume to a node, and the result.',
  Ingress: 'Rules routing external HTTP(S) traffic to services.',
  IngressClass: 'The controller that implements a class of ingresses.',
  NetworkPolicy: 'The network traffic allowed to and from a set of pods.',
  HorizontalPodAutoscaler: 'Scales a workload between bounds to keep metrics near their targets.',
  CertificateSigningRequest: 'A request for a certificate from a signer, and the certificate issued.',
  RuntimeClass: 'A container runtime configuration that pods can select.',
  CustomResourceDefinition: 'Adds a custom resource to the API: its names, versions and schema.',
};

/**
 * The values of enumerated string fields, by JSON name where the name always means the same, or by
 * `Message.field` (unqualified message name) where it does not. kubectl explain lists them.
 */
export const FIELD_ENUMS: Readonly<Record<string, readonly string[]>> = {
  imagePullPolicy: ['Always', 'IfNotPresent', 'Never'],
  terminationMessagePolicy: ['FallbackToLogsOnError', 'File'],
  'PodSpec.restartPolicy': ['Always', 'Never', 'OnFailure'],
  'PodSpec.dnsPolicy': ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'],
  'PodSpec.preemptionPolicy': ['Never', 'PreemptLowerPriority'],
  'PodStatus.phase': ['Failed', 'Pending', 'Running', 'Succeeded', 'Unknown'],
  'ContainerPort.protocol': ['SCTP', 'TCP', 'UDP'],
  'ServicePort.protocol': ['SCTP', 'TCP', 'UDP'],
  'ServiceSpec.type': ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'],
  'ServiceSpec.sessionAffinity': ['ClientIP', 'None'],
  'ServiceSpec.externalTrafficPolicy': ['Cluster', 'Local'],
  'ServiceSpec.internalTrafficPolicy': ['Cluster', 'Local'],
  'Taint.effect': ['NoExecute', 'NoSchedule', 'PreferNoSchedule'],
  'Toleration.effect': ['NoExecute', 'NoSchedule', 'PreferNoSchedule'],
  'Toleration.operator': ['Equal', 'Exists'],
  'NodeSelectorRequirement.operator': ['DoesNotExist', 'Exists', 'Gt', 'In', 'Lt', 'NotIn'],
  'DeploymentStrategy.type': ['Recreate', 'RollingUpdate'],
  'CronJobSpec.concurrencyPolicy': ['Allow', 'Forbid', 'Replace'],
  'JobSpec.completionMode': ['Indexed', 'NonIndexed'],
  'PersistentVolumeClaimSpec.volumeMode': ['Block', 'Filesystem'],
  'CustomResourceDefinitionSpec.scope': ['Cluster', 'Namespaced'],
};
