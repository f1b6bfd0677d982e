// NodeResourcesFit: PreFilter computes the pod's request; Filter rejects nodes without room ("Insufficient cpu", "Too many pods"); Score by strategy.
import type { Node, Pod } from '../../../api/core-v1.ts';
import type { KubeObject } from '../../../types.ts';
import {
  ActionType,
  type ClusterEventWithHint,
  type CycleState,
  type EnqueueExtensions,
  type FilterPlugin,
  type PluginFactory,
  type PreFilterPlugin,
  type PreScorePlugin,
  type QueueingHint,
  type ScorePlugin,
} from '../../framework/interface.ts';
import { NodeInfo, podRequests, type Resource } from '../../framework/node-info.ts';
import { asStatus, type Status } from '../../framework/status.ts';
import { PLUGIN_NAMES } from '../names.ts';
import {
  defaultNodeResourcesFitArgs,
  type NodeResourcesFitArgs,
  validateNodeResourcesFitArgs,
} from './node-resources-fit-args.ts';
import {
  leastResourceScorer,
  mostResourceScorer,
  ResourceAllocationScorer,
  requestedToCapacityRatioScorer,
} from './resource-allocation-scorer.ts';

const PRE_FILTER_KEY = `PreFilter${PLUGIN_NAMES.NodeResourcesFit}`;
const PRE_SCORE_KEY = `PreScore${PLUGIN_NAMES.NodeResourcesFit}`;

/** One resource the node cannot hold; `unresolvable` when the request exceeds the node's whole allocatable. */
export interface InsufficientResource {
  readonly resourceName: string;
  readonly reason: string;
  readonly requested: number;
  readonly used: number;
  readonly capacity: number;
  readonly unresolvable: boolean;
}

/** An extended resource: a domain-prefixed name outside kubernetes.io (only these can be ignored). */
export function isExtendedResourceName(name: string): boolean {
  if (!name.includes('/') || name.includes('kubernetes.io/')) return false;
  return !name.startsWith('requests.');
}

function hasRequests(r: Resource): boolean {
  if (r.milliCPU !== 0 || r.memory !== 0 || r.ephemeralStorage !== 0) return true;
  for (const _ in r.scalar) return true;
  return false;
}

/**
 * The resources `nodeInfo` lacks for a pod requesting `request`, in upstream's order: pods, cpu,
 * memory, ephemeral-storage, then scalar resources (ignored extended resources skipped).
 */
export function fitsRequest(
  request: Resource,
  nodeInfo: NodeInfo,
  ignoredResources?: ReadonlySet<string>,
  ignoredResourceGroups?: ReadonlySet<string>,
): InsufficientResource[] {
  // Filter runs this for every node of every cycle and most nodes fit: allocate only for a shortfall.
  const alloc = nodeInfo.allocatable;
  const used = nodeInfo.requested;
  const podCount = nodeInfo.pods.length;
  if (
    podCount + 1 <= alloc.allowedPodNumber &&
    request.milliCPU <= alloc.milliCPU - used.milliCPU &&
    request.memory <= alloc.memory - used.memory &&
    request.ephemeralStorage <= alloc.ephemeralStorage - used.ephemeralStorage &&
    isEmpty(request.scalar)
  )
    return [];
  return shortfalls(request, nodeInfo, ignoredResources, ignoredResourceGroups);
}

function isEmpty(o: Record<string, number>): boolean {
  for (const _ in o) return false;
  return true;
}

function shortfalls(
  request: Resource,
  nodeInfo: NodeInfo,
  ignoredResources?: ReadonlySet<string>,
  ignoredResourceGroups?: ReadonlySet<string>,
): InsufficientResource[] {
  const out: InsufficientResource[] = [];
  const alloc = nodeInfo.allocatable;
  const used = nodeInfo.requested;
  const podCount = nodeInfo.pods.length;
  if (podCount + 1 > alloc.allowedPodNumber) {
    out.push({
      resourceName: 'pods',
      reason: 'Too many pods',
      requested: 1,
      used: podCount,
      capacity: alloc.allowedPodNumber,
      unresolvable: false,
    });
  }
  if (!hasRequests(request)) return out;
  if (request.milliCPU > 0 && request.milliCPU > alloc.milliCPU - used.milliCPU) {
    out.push({
      resourceName: 'cpu',
      reason: 'Insufficient cpu',
      requested: request.milliCPU,
      used: used.milliCPU,
      capacity: alloc.milliCPU,
      unresolvable: request.milliCPU > alloc.milliCPU,
    });
  }
  if (request.memory > 0 && request.memory > alloc.memory - used.memory) {
    out.push({
      resourceName: 'memory',
      reason: 'Insufficient memory',
      requested: request.memory,
      used: used.memory,
      capacity: alloc.memory,
      unresolvable: request.memory > alloc.memory,
    });
  }
  if (
    request.ephemeralStorage > 0 &&
    request.ephemeralStorage > alloc.ephemeralStorage - used.ephemeralStorage
  ) {
    out.push({
      resourceName: 'ephemeral-storage',
      reason: 'Insufficient ephemeral-storage',
      requested: request.ephemeralStorage,
      used: used.ephemeralStorage,
      capacity: alloc.ephemeralStorage,
      unresolvable: request.ephemeralStorage > alloc.ephemeralStorage,
    });
  }
  for (const name in request.scalar) {
    const q = request.scalar[name]!;
    if (q === 0) continue;
    if (isExtendedResourceName(name)) {
      if (ignoredResources?.has(name)) continue;
      if (
        ignoredResourceGroups &&
        ignoredResourceGroups.size > 0 &&
        ignoredResourceGroups.has(name.split('/')[0]!)
      )
        continue;
    }
    const a = alloc.scalar[name] ?? 0;
    const u = used.scalar[name] ?? 0;
    if (q > a - u) {
      out.push({
        resourceName: name,
        reason: `Insufficient ${name}`,
        requested: q,
        used: u,
        capacity: a,
        unresolvable: q > a,
      });
    }
  }
  return out;
}

/** The pod's insufficient resources on `nodeInfo` (no ignored resources). */
export function fits(pod: Pod, nodeInfo: NodeInfo): InsufficientResource[] {
  return fitsRequest(podRequests(pod), nodeInfo);
}

/** The status for a list of insufficient resources: Unschedulable, or UnschedulableAndUnresolvable if any is. */
export function insufficientResourcesStatus(list: readonly InsufficientResource[]): Status | undefined {
  if (list.length === 0) return undefined;
  let unresolvable = false;
  const reasons: string[] = [];
  for (const r of list) {
    reasons.push(r.reason);
    if (r.unresolvable) unresolvable = true;
  }
  return { code: unresolvable ? 'UnschedulableAndUnresolvable' : 'Unschedulable', reasons };
}

function haveAnyRequestedResourcesIncreased(pod: Pod, original: Node, modified: Node): boolean {
  const req = podRequests(pod);
  const a = new NodeInfo(original).allocatable;
  const b = new NodeInfo(modified).allocatable;
  if (b.allowedPodNumber > a.allowedPodNumber) return true;
  if (!hasRequests(req)) return false;
  if (
    (req.milliCPU > 0 && b.milliCPU > a.milliCPU) ||
    (req.memory > 0 && b.memory > a.memory) ||
    (req.ephemeralStorage > 0 && b.ephemeralStorage > a.ephemeralStorage)
  ) {
    return true;
  }
  for (const name in req.scalar) {
    if (req.scalar[name] === 0) continue;
    if ((b.scalar[name] ?? 0) > (a.scalar[name] ?? 0)) return true;
  }
  return false;
}

/** A deleted assigned (or nominated) pod, or a scale-down of a resource the pod requests, may help. */
export function isSchedulableAfterPodEvent(
  pod: Pod,
  oldObj: KubeObject | undefined,
  newObj: KubeObject | undefined,
): QueueingHint {
  const original = oldObj as Pod | undefined;
  const modified = newObj as Pod | undefined;
  if (!modified) {
    if (!original) return 'Queue';
    return !original.spec?.nodeName && !original.status?.nominatedNodeName ? 'QueueSkip' : 'Queue';
  }
  if (modified.metadata.uid === pod.metadata.uid) return 'Queue';
  if (!modified.spec?.nodeName || !original) return 'QueueSkip';
  const before = podRequests(original);
  const after = podRequests(modified);
  const want = podRequests(pod);
  if (want.milliCPU > 0 && before.milliCPU > after.milliCPU) return 'Queue';
  if (want.memory > 0 && before.memory > after.memory) return 'Queue';
  if (want.ephemeralStorage > 0 && before.ephemeralStorage > after.ephemeralStorage) return 'Queue';
  for (const name in want.scalar) {
    if (want.scalar[name] !== 0 && (before.scalar[name] ?? 0) > (after.scalar[name] ?? 0)) return 'Queue';
  }
  return 'QueueSkip';
}

/** A node added that fits the pod, or updated with more of what the pod requests, may help. */
export function isSchedulableAfterNodeChange(
  pod: Pod,
  oldObj: KubeObject | undefined,
  newObj: KubeObject | undefined,
): QueueingHint {
  const modified = newObj as Node | undefined;
  if (!modified || fits(pod, new NodeInfo(modified)).length > 0) return 'QueueSkip';
  if (!oldObj) return 'Queue';
  return haveAnyRequestedResourcesIncreased(pod, oldObj as Node, modified) ? 'Queue' : 'QueueSkip';
}

export class NodeResourcesFit
  implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions
{
  readonly name = PLUGIN_NAMES.NodeResourcesFit;
  readonly #ignored: ReadonlySet<string>;
  readonly #ignoredGroups: ReadonlySet<string>;
  readonly scorer: ResourceAllocationScorer;

  /** @param args defaulted and validated NodeResourcesFitArgs */
  constructor(args: NodeResourcesFitArgs) {
    this.#ignored = new Set(args.ignoredResources ?? []);
    this.#ignoredGroups = new Set(args.ignoredResourceGroups ?? []);
    const strategy = args.scoringStrategy ?? {};
    const resources = strategy.resources ?? [];
    const type = strategy.type ?? 'LeastAllocated';
    const fn =
      type === 'MostAllocated'
        ? mostResourceScorer(resources)
        : type === 'RequestedToCapacityRatio'
          ? requestedToCapacityRatioScorer(resources, strategy.requestedToCapacityRatio?.shape ?? [])
          : leastResourceScorer(resources);
    this.scorer = new ResourceAllocationScorer(type, fn, resources, false);
  }

  preFilter(state: CycleState, pod: Pod) {
    state.write(PRE_FILTER_KEY, podRequests(pod));
    return undefined;
  }

  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const request = state.read<Resource>(PRE_FILTER_KEY);
    if (!request) return asStatus(new Error(`error reading "${PRE_FILTER_KEY}" from cycleState: not found`));
    return insufficientResourcesStatus(fitsRequest(request, nodeInfo, this.#ignored, this.#ignoredGroups));
  }

  preScore(state: CycleState, pod: Pod): Status | undefined {
    state.write(PRE_SCORE_KEY, this.scorer.podRequestList(pod));
    return undefined;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status {
    if (this.scorer.resources.length === 0) return asStatus(new Error('resources not found'));
    const list = state.read<number[]>(PRE_SCORE_KEY) ?? this.scorer.podRequestList(pod);
    return this.scorer.score(nodeInfo, list);
  }

  eventsToRegister(): readonly ClusterEventWithHint[] {
    return [
      {
        event: { resource: 'Pod', action: ActionType.Delete | ActionType.UpdatePodScaleDown },
        hint: isSchedulableAfterPodEvent,
      },
      {
        event: { resource: 'Node', action: ActionType.Add | ActionType.UpdateNodeAllocatable },
        hint: isSchedulableAfterNodeChange,
      },
    ];
  }
}

/** Builds NodeResourcesFit; args are defaulted and validated (a bad field throws InvalidConfigError). */
export const newNodeResourcesFit: PluginFactory = (args) => {
  const a = defaultNodeResourcesFitArgs(args);
  validateNodeResourcesFitArgs(a, 'args');
  return new NodeResourcesFit(a);
};
