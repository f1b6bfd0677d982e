// core/v1 types the scheduler and the kubelet read: Pod, Node and their parts, typed where kube-rx reads them.
import type { KubeObject, ObjectMeta } from '../types.ts';

/** A resource list such as `requests`, `limits`, `capacity`: quantities as the API carries them. */
export type ResourceList = Record<string, string | number>;

export interface ResourceRequirements {
  requests?: ResourceList;
  limits?: ResourceList;
}

export interface ContainerPort {
  name?: string;
  containerPort: number;
  hostPort?: number;
  hostIP?: string;
  protocol?: 'TCP' | 'UDP' | 'SCTP' | string;
}

export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}

export interface EnvVarSource {
  fieldRef?: { apiVersion?: string; fieldPath: string };
  resourceFieldRef?: { containerName?: string; resource: string; divisor?: string | number };
  configMapKeyRef?: { name: string; key: string; optional?: boolean };
  secretKeyRef?: { name: string; key: string; optional?: boolean };
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: EnvVarSource;
}

export interface EnvFromSource {
  prefix?: string;
  configMapRef?: { name: string; optional?: boolean };
  secretRef?: { name: string; optional?: boolean };
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
  subPath?: string;
}

export interface ExecAction {
  command?: string[];
}

export interface HttpGetAction {
  path?: string;
  port: number | string;
  host?: string;
  scheme?: 'HTTP' | 'HTTPS';
  httpHeaders?: { name: string; value: string }[];
}

export interface TcpSocketAction {
  port: number | string;
  host?: string;
}

/** A probe's handler and timing; defaults (applied by the API server) in brackets. */
export interface Probe {
  exec?: ExecAction;
  httpGet?: HttpGetAction;
  tcpSocket?: TcpSocketAction;
  grpc?: { port: number; service?: string };
  /** [0] */
  initialDelaySeconds?: number;
  /** [1] */
  timeoutSeconds?: number;
  /** [10] */
  periodSeconds?: number;
  /** [1]; must be 1 for liveness and startup probes */
  successThreshold?: number;
  /** [3] */
  failureThreshold?: number;
  terminationGracePeriodSeconds?: number;
}

export interface LifecycleHandler {
  exec?: ExecAction;
  httpGet?: HttpGetAction;
  tcpSocket?: TcpSocketAction;
  sleep?: { seconds: number };
}

export interface Container {
  name: string;
  image?: string;
  imagePullPolicy?: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  ports?: ContainerPort[];
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
  resources?: ResourceRequirements;
  volumeMounts?: VolumeMount[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: { postStart?: LifecycleHandler; preStop?: LifecycleHandler };
  /** On an init container, `Always` makes it a sidecar (restartable init container). */
  restartPolicy?: 'Always';
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
  tty?: boolean;
  stdin?: boolean;
  [field: string]: unknown;
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal' | string;
  value?: string;
  effect?: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' | '' | string;
  tolerationSeconds?: number;
}

export interface Taint {
  key: string;
  value?: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' | string;
  timeAdded?: string;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface NodeSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt' | string;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface NodeSelector {
  nodeSelectorTerms: NodeSelectorTerm[];
}

export interface PreferredSchedulingTerm {
  weight: number;
  preference: NodeSelectorTerm;
}

export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector;
  preferredDuringSchedulingIgnoredDuringExecution?: PreferredSchedulingTerm[];
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelector;
  namespaces?: string[];
  namespaceSelector?: LabelSelector;
  topologyKey: string;
  matchLabelKeys?: string[];
  mismatchLabelKeys?: string[];
}

export interface WeightedPodAffinityTerm {
  weight: number;
  podAffinityTerm: PodAffinityTerm;
}

export interface PodAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
  preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
}

export interface Affinity {
  nodeAffinity?: NodeAffinity;
  podAffinity?: PodAffinity;
  podAntiAffinity?: PodAffinity;
}

export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway' | string;
  labelSelector?: LabelSelector;
  minDomains?: number;
  nodeAffinityPolicy?: 'Honor' | 'Ignore';
  nodeTaintsPolicy?: 'Honor' | 'Ignore';
  matchLabelKeys?: string[];
}

export interface Volume {
  name: string;
  emptyDir?: { medium?: string; sizeLimit?: string };
  configMap?: { name: string; items?: KeyToPath[]; optional?: boolean; defaultMode?: number };
  secret?: { secretName: string; items?: KeyToPath[]; optional?: boolean; defaultMode?: number };
  downwardAPI?: {
    items?: {
      path: string;
      fieldRef?: { fieldPath: string };
      resourceFieldRef?: EnvVarSource['resourceFieldRef'];
    }[];
    defaultMode?: number;
  };
  projected?: { sources?: Record<string, unknown>[]; defaultMode?: number };
  hostPath?: { path: string; type?: string };
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  [field: string]: unknown;
}

export interface PodSpec {
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  affinity?: Affinity;
  tolerations?: Toleration[];
  topologySpreadConstraints?: TopologySpreadConstraint[];
  schedulingGates?: { name: string }[];
  schedulerName?: string;
  priority?: number;
  priorityClassName?: string;
  preemptionPolicy?: 'PreemptLowerPriority' | 'Never';
  overhead?: ResourceList;
  containers: Container[];
  initContainers?: Container[];
  volumes?: Volume[];
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  hostname?: string;
  subdomain?: string;
  hostNetwork?: boolean;
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  [field: string]: unknown;
}

export interface PodCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
  observedGeneration?: number;
}

export interface ContainerStateWaiting {
  reason?: string;
  message?: string;
}
export interface ContainerStateRunning {
  startedAt?: string;
}
export interface ContainerStateTerminated {
  exitCode: number;
  signal?: number;
  reason?: string;
  message?: string;
  startedAt?: string;
  finishedAt?: string;
  containerID?: string;
}
export interface ContainerState {
  waiting?: ContainerStateWaiting;
  running?: ContainerStateRunning;
  terminated?: ContainerStateTerminated;
}

export interface ContainerStatus {
  name: string;
  state?: ContainerState;
  lastState?: ContainerState;
  ready: boolean;
  started?: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
}

export interface PodStatus {
  phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown' | string;
  conditions?: PodCondition[];
  message?: string;
  reason?: string;
  hostIP?: string;
  hostIPs?: { ip: string }[];
  podIP?: string;
  podIPs?: { ip: string }[];
  startTime?: string;
  nominatedNodeName?: string;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
  qosClass?: string;
  [field: string]: unknown;
}

/** A Pod. Invariant for pods read from an API server: metadata.name, namespace and uid are set. */
export interface Pod extends KubeObject {
  metadata: ObjectMeta;
  spec: PodSpec;
  status?: PodStatus;
}

export interface NodeCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
}

export interface ContainerImage {
  names?: string[];
  sizeBytes?: number;
}

export interface NodeSpec {
  unschedulable?: boolean;
  taints?: Taint[];
  podCIDR?: string;
  providerID?: string;
  [field: string]: unknown;
}

export interface NodeStatus {
  capacity?: ResourceList;
  allocatable?: ResourceList;
  conditions?: NodeCondition[];
  addresses?: { type: string; address: string }[];
  images?: ContainerImage[];
  nodeInfo?: Record<string, string>;
  daemonEndpoints?: { kubeletEndpoint?: { Port: number } };
  [field: string]: unknown;
}

/** A Node. Invariant for nodes read from an API server: metadata.name is set. */
export interface Node extends KubeObject {
  metadata: ObjectMeta;
  spec?: NodeSpec;
  status?: NodeStatus;
}

/** Well-known labels and taints. */
export const LABEL_HOSTNAME = 'kubernetes.io/hostname';
export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';
export const LABEL_TOPOLOGY_REGION = 'topology.kubernetes.io/region';
export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';
