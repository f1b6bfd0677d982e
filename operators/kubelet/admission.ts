// The kubelet's pod admission (lifecycle/predicate.go): does a pod fit this node next to the pods already admitted?
import type { Node, Pod, ResourceList, Taint } from '../api/core-v1.ts';
import { NodeInfo, podHostPorts, podRequests, type Resource } from '../scheduling/framework/node-info.ts';
import { requiredNodeAffinity } from '../scheduling/plugins/helpers/node-selector.ts';
import { findMatchingUntoleratedTaint } from '../scheduling/plugins/helpers/toleration.ts';
import { admitUnderNodePressure } from './admission-eviction.ts';

/** The outcome of admitting one pod: admitted, or refused with the kubelet's reason and message. */
export type AdmitResult = { admit: true } | { admit: false; reason: string; message: string };

/** Reasons the kubelet gives when it refuses a pod (lifecycle/predicate.go). */
export const ADMISSION_REASONS = Object.freeze({
  invalidNodeInfo: 'InvalidNodeInfo',
  podOSSelectorNodeLabelDoesNotMatch: 'PodOSSelectorNodeLabelDoesNotMatch',
  podOSNotSupported: 'PodOSNotSupported',
  unexpectedAdmissionError: 'UnexpectedAdmissionError',
  outOfCpu: 'OutOfcpu',
  outOfMemory: 'OutOfmemory',
  outOfEphemeralStorage: 'OutOfephemeral-storage',
  outOfPods: 'OutOfpods',
  insufficientResourcePrefix: 'OutOf',
});

/** Scheduler plugin names and reasons the kubelet reuses for predicate failures. */
export const PREDICATE_FAILURES = Object.freeze({
  nodeAffinity: { name: 'NodeAffinity', reason: "node(s) didn't match Pod's node affinity/selector" },
  nodeName: { name: 'NodeName', reason: "node(s) didn't match the requested node name" },
  nodePorts: { name: 'NodePorts', reason: "node(s) didn't have free ports for the requested pod ports" },
  taintToleration: { name: 'TaintToleration', reason: "node(s) had taints that the pod didn't tolerate" },
});

const LABEL_OS = 'kubernetes.io/os';
const CONFIG_SOURCE = 'kubernetes.io/config.source';

export interface AdmitPodOptions {
  /** The kubelet's operating system (Go's runtime.GOOS); default `linux`. */
  hostOs?: string;
  /**
   * The eviction manager's admit handler, which runs first: the node pressure conditions that are
   * True now (`MemoryPressure`, `DiskPressure`, `PIDPressure`). Omitted: no eviction admission.
   * `true`: read them from the node's status conditions.
   */
  pressure?: readonly string[] | true;
}

/** One failed predicate: a resource that does not fit, or a named predicate with its reason. */
export type PredicateFailure =
  | { kind: 'insufficient'; resource: string; requested: number; used: number; capacity: number }
  | { kind: 'predicate'; name: string; reason: string };

/** `Node didn't have enough resource: cpu, requested: 2000, used: 0, capacity: 1000` and friends. */
export function predicateFailureMessage(failure: PredicateFailure): string {
  return failure.kind === 'insufficient'
    ? `Node didn't have enough resource: ${failure.resource}, requested: ${failure.requested}, used: ${failure.used}, capacity: ${failure.capacity}`
    : `Predicate ${failure.name} failed: ${failure.reason}`;
}

function isStaticPod(pod: Pod): boolean {
  const source = pod.metadata.annotations?.[CONFIG_SOURCE];
  return source !== undefined && source !== 'api';
}

/** An extended resource: a qualified name outside the kubernetes.io namespace, not a quota `requests.` name. */
function isExtendedResourceName(name: string): boolean {
  if (!name.includes('/')) return false;
  if (name.startsWith('kubernetes.io/') || name.includes('.kubernetes.io/')) return false;
  return !name.startsWith('requests.');
}

/** The pod without requests for extended resources the node does not know (cluster-level resources). */
function withoutMissingExtendedResources(pod: Pod, allocatable: Resource): Pod {
  const filter = (requests: ResourceList | undefined): ResourceList | undefined => {
    if (!requests) return requests;
    const kept: ResourceList = {};
    for (const [name, q] of Object.entries(requests)) {
      if (isExtendedResourceName(name) && !(name in allocatable.scalar)) continue;
      kept[name] = q;
    }
    return kept;
  };
  const strip = (containers: Pod['spec']['containers'] | undefined) =>
    containers?.map((c) =>
      c.resources ? { ...c, resources: { ...c.resources, requests: filter(c.resources.requests) } } : c,
    );
  return {
    ...pod,
    spec: {
      ...pod.spec,
      containers: strip(pod.spec.containers) ?? [],
      ...(pod.spec.initContainers ? { initContainers: strip(pod.spec.initContainers) } : {}),
    },
  };
}

/** NodeResourcesFit's `Fits` as the kubelet calls it: every resource that does not fit, pods first. */
export function insufficientResources(pod: Pod, nodeInfo: NodeInfo): PredicateFailure[] {
  const out: PredicateFailure[] = [];
  const allocatable = nodeInfo.allocatable;
  const used = nodeInfo.requested;
  if (nodeInfo.pods.length + 1 > allocatable.allowedPodNumber) {
    out.push({
      kind: 'insufficient',
      resource: 'pods',
      requested: 1,
      used: nodeInfo.pods.length,
      capacity: allocatable.allowedPodNumber,
    });
  }
  const request = podRequests(pod);
  const scalarNames = Object.keys(request.scalar).sort();
  if (
    request.milliCPU === 0 &&
    request.memory === 0 &&
    request.ephemeralStorage === 0 &&
    scalarNames.length === 0
  )
    return out;
  const check = (resource: string, want: number, have: number, capacity: number) => {
    if (want > 0 && want > capacity - have)
      out.push({ kind: 'insufficient', resource, requested: want, used: have, capacity });
  };
  check('cpu', request.milliCPU, used.milliCPU, allocatable.milliCPU);
  check('memory', request.memory, used.memory, allocatable.memory);
  check('ephemeral-storage', request.ephemeralStorage, used.ephemeralStorage, allocatable.ephemeralStorage);
  for (const name of scalarNames) {
    check(name, request.scalar[name] ?? 0, used.scalar[name] ?? 0, allocatable.scalar[name] ?? 0);
  }
  return out;
}

/**
 * The kubelet's GeneralPredicates: resources, required node affinity, node name, host ports, and (for
 * pods that are not static) NoExecute taints the pod does not tolerate, in that order.
 */
export function generalPredicateFailures(pod: Pod, nodeInfo: NodeInfo): PredicateFailure[] {
  const node = nodeInfo.node!;
  const failures = insufficientResources(pod, nodeInfo);
  const fail = (p: { name: string; reason: string }) => failures.push({ kind: 'predicate', ...p });
  if (!requiredNodeAffinity(pod).match(node)) fail(PREDICATE_FAILURES.nodeAffinity);
  if (pod.spec.nodeName && pod.spec.nodeName !== node.metadata.name) fail(PREDICATE_FAILURES.nodeName);
  const ports = podHostPorts(pod);
  if (ports.some((p) => nodeInfo.usedPorts.conflicts(p))) fail(PREDICATE_FAILURES.nodePorts);
  if (!isStaticPod(pod)) {
    const noExecute = (t: Taint) => t.effect === 'NoExecute';
    if (findMatchingUntoleratedTaint(node.spec?.taints, pod.spec.tolerations, noExecute))
      fail(PREDICATE_FAILURES.taintToleration);
  }
  return failures;
}

function reasonFor(failure: PredicateFailure): string {
  if (failure.kind === 'predicate') return failure.name;
  switch (failure.resource) {
    case 'cpu':
      return ADMISSION_REASONS.outOfCpu;
    case 'memory':
      return ADMISSION_REASONS.outOfMemory;
    case 'ephemeral-storage':
      return ADMISSION_REASONS.outOfEphemeralStorage;
    case 'pods':
      return ADMISSION_REASONS.outOfPods;
    default:
      return `${ADMISSION_REASONS.insufficientResourcePrefix}${failure.resource}`;
  }
}

/**
 * Decides whether the kubelet admits `pod` onto `node`, given the pods it has already admitted, as the
 * kubelet's admit handlers do: the eviction manager's (only with `options.pressure`), then the
 * predicate handler's OS label and field checks, then the general predicates; a refusal carries the
 * FIRST failure's reason and message.
 *
 * ```
 * admitPod(pod 2 cpu, node 1 cpu, []) → { admit: false, reason: 'OutOfcpu',
 *   message: "Node didn't have enough resource: cpu, requested: 2000, used: 0, capacity: 1000" }
 * ```
 *
 * Pure: bad quantities in a pod throw InvalidInputError naming the quantity (the caller reports it as
 * `UnexpectedAdmissionError`, see {@link admitPodSafely}).
 *
 * @param pod the pod to admit
 * @param node the kubelet's Node (undefined when it could not be read)
 * @param admittedPods the pods already admitted and not terminal; the pod itself (same uid) is ignored
 * @param options the host's OS
 * @returns `{admit: true}` or `{admit: false, reason, message}`
 */
export function admitPod(
  pod: Pod,
  node: Node | undefined,
  admittedPods: readonly Pod[],
  options: AdmitPodOptions = {},
): AdmitResult {
  if (options.pressure !== undefined) {
    const pressure =
      options.pressure === true
        ? (node?.status?.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type)
        : options.pressure;
    const evictionVerdict = admitUnderNodePressure(pod, pressure);
    if (!evictionVerdict.admit) return evictionVerdict;
  }
  if (!node) {
    return {
      admit: false,
      reason: ADMISSION_REASONS.invalidNodeInfo,
      message: 'Kubelet cannot get node info.',
    };
  }
  const hostOs = options.hostOs ?? 'linux';
  const podOs = pod.metadata.labels?.[LABEL_OS];
  if (podOs !== undefined && podOs !== hostOs) {
    return {
      admit: false,
      reason: ADMISSION_REASONS.podOSSelectorNodeLabelDoesNotMatch,
      message: "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label",
    };
  }
  const osField = (pod.spec.os as { name?: string } | undefined)?.name;
  if (osField !== undefined && osField !== hostOs) {
    return {
      admit: false,
      reason: ADMISSION_REASONS.podOSNotSupported,
      message: "Failed to admit pod as the OS field doesn't match node OS",
    };
  }
  const uid = pod.metadata.uid;
  const others = admittedPods.filter((p) => uid === undefined || p.metadata.uid !== uid);
  const nodeInfo = new NodeInfo(node, others);
  const failures = generalPredicateFailures(
    withoutMissingExtendedResources(pod, nodeInfo.allocatable),
    nodeInfo,
  );
  if (failures.length === 0) return { admit: true };
  const first = failures[0]!;
  return { admit: false, reason: reasonFor(first), message: predicateFailureMessage(first) };
}

/**
 * {@link admitPod}, with any thrown error (an unparsable quantity) turned into the kubelet's
 * `UnexpectedAdmissionError` refusal instead of an exception.
 */
export function admitPodSafely(
  pod: Pod,
  node: Node | undefined,
  admittedPods: readonly Pod[],
  options: AdmitPodOptions = {},
): AdmitResult {
  try {
    return admitPod(pod, node, admittedPods, options);
  } catch (error) {
    return {
      admit: false,
      reason: ADMISSION_REASONS.unexpectedAdmissionError,
      message: `Unexpected error while attempting to recover from admission failure: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
