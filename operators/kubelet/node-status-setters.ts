// The kubelet's node status setters (nodestatus/setters.go) as one pure function: capacity, allocatable, conditions, addresses, nodeInfo.
import type { Node, NodeCondition, NodeStatus, ResourceList, Taint } from '../api/core-v1.ts';
import { quantityMilliValue, quantityValue } from '../api/quantity.ts';
import { deepEqual } from '../pod-config/deep-equal.ts';
import { observeNodeConditions, updateNodeConditions } from './node-status-conditions.ts';

/** What the kubelet read from its host this round (cadvisor's MachineInfo and friends). */
export interface MachineInfo {
  hostname: string;
  cpus: number;
  memoryBytes: number;
  /** MemAvailable; undefined when unknown (no memory pressure is reported then). */
  memoryAvailableBytes?: number;
  /** Size and free space of the filesystem holding the kubelet's root dir. */
  ephemeralStorageBytes?: number;
  ephemeralStorageAvailableBytes?: number;
  /** Non-loopback addresses of the host, in interface order. */
  addresses: { address: string; family: 'IPv4' | 'IPv6' }[];
  /** Go's GOOS / GOARCH names: linux, darwin; amd64, arm64. */
  operatingSystem: string;
  architecture: string;
  kernelVersion: string;
  osImage: string;
  machineID: string;
  systemUUID: string;
  bootID: string;
}

/** The kubelet's settings that shape its Node. */
export interface NodeStatusConfig {
  nodeName: string;
  /** `--hostname-override`; the Hostname address and label. Default the node name. */
  hostname?: string;
  /** `--node-ip`: the InternalIP; default the host's first IPv4 address. */
  nodeIp?: string;
  /** `--max-pods` / maxPods; default 110. */
  maxPods?: number;
  /** Capacity entries that replace what was read from the host (e.g. `{cpu: '4', memory: '8Gi'}`). */
  capacity?: ResourceList;
  /** systemReserved + kubeReserved, taken off capacity for allocatable. */
  reserved?: ResourceList;
  /** Hard eviction thresholds: memory.available (default 100Mi), nodefs.available percent (default 10). */
  evictionHard?: { memoryAvailable?: string; nodefsAvailablePercent?: number };
  /** e.g. `v1.33.0-kube-rx`. */
  kubeletVersion: string;
  /** The runtime's `<name>://<version>`. */
  containerRuntimeVersion: string;
  /** The kubelet's port; default 10250. */
  kubeletPort?: number;
  /** `--node-labels`, applied at registration. */
  nodeLabels?: Record<string, string>;
  /** `--register-with-taints`, applied at registration. */
  registerWithTaints?: Taint[];
  /** Why the node is not ready now (runtime or network errors); empty or undefined means Ready. */
  notReadyErrors?: readonly string[];
}

const DEFAULT_MAX_PODS = 110;
const DEFAULT_MEMORY_EVICTION = '100Mi';
const DEFAULT_NODEFS_PERCENT = 10;

const ki = (bytes: number) => `${Math.floor(bytes / 1024)}Ki`;

function capacityOf(machine: MachineInfo, config: NodeStatusConfig): ResourceList {
  const capacity: ResourceList = {
    cpu: String(machine.cpus),
    memory: ki(machine.memoryBytes),
    pods: String(config.maxPods ?? DEFAULT_MAX_PODS),
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
  };
  if (machine.ephemeralStorageBytes !== undefined)
    capacity['ephemeral-storage'] = ki(machine.ephemeralStorageBytes);
  return { ...capacity, ...config.capacity };
}

/** Capacity less reservations and hard eviction thresholds, never below zero (container manager's allocatable). */
function allocatableOf(capacity: ResourceList, config: NodeStatusConfig): ResourceList {
  const reserved = config.reserved ?? {};
  const out: ResourceList = { ...capacity };
  const milli = (name: string) =>
    reserved[name] === undefined ? 0 : quantityMilliValue(reserved[name]!, `reserved.${name}`);
  const value = (name: string) =>
    reserved[name] === undefined ? 0 : quantityValue(reserved[name]!, `reserved.${name}`);
  if (capacity.cpu !== undefined && reserved.cpu !== undefined) {
    const m = Math.max(0, quantityMilliValue(capacity.cpu, 'capacity.cpu') - milli('cpu'));
    out.cpu = m % 1000 === 0 ? String(m / 1000) : `${m}m`;
  }
  if (capacity.memory !== undefined) {
    const eviction = quantityValue(
      config.evictionHard?.memoryAvailable ?? DEFAULT_MEMORY_EVICTION,
      'evictionHard.memory.available',
    );
    out.memory = ki(
      Math.max(0, quantityValue(capacity.memory, 'capacity.memory') - value('memory') - eviction),
    );
  }
  if (capacity['ephemeral-storage'] !== undefined) {
    const total = quantityValue(capacity['ephemeral-storage'], 'capacity.ephemeral-storage');
    const percent = config.evictionHard?.nodefsAvailablePercent ?? DEFAULT_NODEFS_PERCENT;
    out['ephemeral-storage'] = String(
      Math.max(0, total - value('ephemeral-storage') - Math.floor((total * percent) / 100)),
    );
  }
  return out;
}

/** InternalIP (the `--node-ip`, else the first IPv4, else the first address) and Hostname. */
export function nodeAddresses(
  machine: MachineInfo,
  config: NodeStatusConfig,
): { type: string; address: string }[] {
  const internal =
    config.nodeIp ??
    machine.addresses.find((a) => a.family === 'IPv4')?.address ??
    machine.addresses[0]?.address;
  const out: { type: string; address: string }[] = [];
  if (internal) out.push({ type: 'InternalIP', address: internal });
  out.push({ type: 'Hostname', address: config.hostname ?? config.nodeName });
  return out;
}

/**
 * The node's status after one update: capacity and allocatable from the host (or overrides), the
 * MemoryPressure, DiskPressure, PIDPressure and Ready conditions (heartbeat `now`, transition kept
 * unless the status changed), addresses, nodeInfo and the kubelet endpoint. Fields other writers
 * set (images, volumes, other conditions) are kept from `previous`.
 *
 * @param previous the node's current status (undefined at registration)
 * @param machine what was read from the host
 * @param config the kubelet's settings
 * @param now RFC 3339 time of this update
 * @returns the new status
 */
export function buildNodeStatus(
  previous: NodeStatus | undefined,
  machine: MachineInfo,
  config: NodeStatusConfig,
  now: string,
): NodeStatus {
  const capacity = capacityOf(machine, config);
  const allocatable = allocatableOf(capacity, config);
  const evictionMemory = quantityValue(
    config.evictionHard?.memoryAvailable ?? DEFAULT_MEMORY_EVICTION,
    'evictionHard.memory.available',
  );
  const percent = config.evictionHard?.nodefsAvailablePercent ?? DEFAULT_NODEFS_PERCENT;
  const diskPressure =
    machine.ephemeralStorageBytes !== undefined &&
    machine.ephemeralStorageAvailableBytes !== undefined &&
    machine.ephemeralStorageBytes > 0 &&
    (machine.ephemeralStorageAvailableBytes * 100) / machine.ephemeralStorageBytes < percent;
  const conditions = updateNodeConditions(
    previous?.conditions,
    observeNodeConditions({
      memoryPressure:
        machine.memoryAvailableBytes !== undefined && machine.memoryAvailableBytes < evictionMemory,
      diskPressure,
      pidPressure: false,
      notReadyErrors: config.notReadyErrors ?? [],
    }),
    now,
  );
  return {
    ...previous,
    capacity,
    allocatable,
    conditions,
    addresses: nodeAddresses(machine, config),
    daemonEndpoints: { kubeletEndpoint: { Port: config.kubeletPort ?? 10250 } },
    nodeInfo: {
      ...previous?.nodeInfo,
      machineID: machine.machineID,
      systemUUID: machine.systemUUID,
      bootID: machine.bootID,
      kernelVersion: machine.kernelVersion,
      osImage: machine.osImage,
      containerRuntimeVersion: config.containerRuntimeVersion,
      kubeletVersion: config.kubeletVersion,
      operatingSystem: machine.operatingSystem,
      architecture: machine.architecture,
    },
  };
}

/** The labels the kubelet always sets on its node (and puts back if changed). */
export function defaultNodeLabels(machine: MachineInfo, config: NodeStatusConfig): Record<string, string> {
  return {
    'beta.kubernetes.io/arch': machine.architecture,
    'beta.kubernetes.io/os': machine.operatingSystem,
    'kubernetes.io/arch': machine.architecture,
    'kubernetes.io/hostname': config.hostname ?? config.nodeName,
    'kubernetes.io/os': machine.operatingSystem,
  };
}

/**
 * The Node the kubelet registers (kubelet_node_status.go initialNode): default labels plus
 * `--node-labels`, `--register-with-taints`, the controller-managed attach/detach annotation, and a
 * first status.
 */
export function initialNode(machine: MachineInfo, config: NodeStatusConfig, now: string): Node {
  const taints = config.registerWithTaints ?? [];
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: config.nodeName,
      labels: { ...defaultNodeLabels(machine, config), ...config.nodeLabels },
      annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: taints.length ? { taints: taints.map((t) => ({ ...t })) } : {},
    status: buildNodeStatus(undefined, machine, config, now),
  };
}

/**
 * Whether the status differs in anything but condition heartbeats (kubelet_node_status.go
 * nodeStatusHasChanged): only then, or when a full report is due, is it written.
 */
export function nodeStatusChanged(old: NodeStatus | undefined, next: NodeStatus): boolean {
  const strip = (s: NodeStatus | undefined) =>
    s && {
      ...s,
      conditions: s.conditions?.map((c: NodeCondition) => {
        const { lastHeartbeatTime: _ignored, ...rest } = c;
        return rest;
      }),
    };
  return !deepEqual(strip(old), strip(next));
}
