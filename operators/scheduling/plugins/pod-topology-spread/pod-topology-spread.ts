// PodTopologySpread: spreads pods across topology domains (PreFilter/Filter for DoNotSchedule, PreScore/Score for ScheduleAnyway).
import type { Node, Pod, TopologySpreadConstraint } from '../../../api/core-v1.ts';
import type { LabelSelectorObject } from '../../../label-selector.ts';
import {
  ActionType,
  type ClusterEventWithHint,
  type CycleState,
  type EnqueueExtensions,
  type FilterPlugin,
  type FrameworkHandle,
  MAX_NODE_SCORE,
  type NodeScore,
  type PluginFactory,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreScorePlugin,
  type QueueingHint,
  type ScorePlugin,
} from '../../framework/interface.ts';
import type { NodeInfo, PodInfo } from '../../framework/node-info.ts';
import { asStatus, newStatus, type Status } from '../../framework/status.ts';
import { NodePodCounts } from './node-pod-counts.ts';
import {
  defaultPodTopologySpreadArgs,
  type PodTopologySpreadArgs,
  SYSTEM_DEFAULT_CONSTRAINTS,
  validatePodTopologySpreadArgs,
} from './pod-topology-spread-args.ts';
import { PreFilterState } from './pre-filter-state.ts';
import {
  countPodsMatchingSelector,
  matchesNodeInclusionPolicies,
  mergedOwnerSelector,
  nodeHasAllTopologyKeys,
  requiredAffinityOf,
  type SpreadConstraint,
  spreadConstraintsOf,
  type WhenUnsatisfiable,
} from './spread-constraint.ts';

export const POD_TOPOLOGY_SPREAD = 'PodTopologySpread';
export const ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
export const ERR_REASON_NODE_LABEL_NOT_MATCH = `${ERR_REASON_CONSTRAINTS_NOT_MATCH} (missing required label)`;

const PRE_FILTER_KEY = `PreFilter${POD_TOPOLOGY_SPREAD}`;
const PRE_SCORE_KEY = `PreScore${POD_TOPOLOGY_SPREAD}`;
const HOSTNAME = 'kubernetes.io/hostname';
const INVALID_SCORE = -1;

/**
 * What the plugin reads beyond the snapshot. `ownerSelectors` returns the selectors of the Services,
 * ReplicationControllers (both as matchLabels), ReplicaSets and StatefulSets in the pod's namespace
 * that select the pod; default constraints use their merged selector. Without it default constraints
 * never apply (as upstream with no such owners).
 */
export interface PodTopologySpreadDeps {
  ownerSelectors?: (pod: Pod) => readonly LabelSelectorObject[];
}

/** Score's per-cycle state: the soft constraints, ignored nodes, per-domain counts and weights. */
interface PreScoreState {
  readonly constraints: readonly SpreadConstraint[];
  readonly ignoredNodes: Set<string>;
  /** Per constraint: topology value → matching pods (hostname constraints are counted in Score). */
  readonly counts: Map<string, number>[];
  readonly weights: number[];
}

/**
 * The PodTopologySpread plugin. Invariant: Filter never accepts a node where, for a DoNotSchedule
 * constraint, the domain's matching pods + (1 if the pod matches itself) - the global minimum > maxSkew.
 */
export class PodTopologySpread
  implements
    PreFilterPlugin,
    FilterPlugin,
    PreScorePlugin,
    ScorePlugin,
    EnqueueExtensions,
    PreFilterExtensions
{
  readonly name = POD_TOPOLOGY_SPREAD;
  readonly #handle: FrameworkHandle;
  readonly #defaultConstraints: readonly TopologySpreadConstraint[];
  readonly #systemDefaulted: boolean;
  readonly #deps: PodTopologySpreadDeps;
  /** Matching-pod counts per node, kept between cycles (PreFilter and PreScore walk every node). */
  readonly #podCounts = new NodePodCounts();

  constructor(args: PodTopologySpreadArgs, handle: FrameworkHandle, deps: PodTopologySpreadDeps = {}) {
    validatePodTopologySpreadArgs(args);
    const a = defaultPodTopologySpreadArgs(args);
    this.#handle = handle;
    this.#systemDefaulted = a.defaultingType === 'System';
    this.#defaultConstraints = this.#systemDefaulted ? SYSTEM_DEFAULT_CONSTRAINTS : a.defaultConstraints;
    this.#deps = deps;
  }

  /** The pod's constraints of `action`, or the default ones (with its owners' selector) when it declares none. */
  constraintsOf(pod: Pod, action: WhenUnsatisfiable): SpreadConstraint[] {
    const own = pod.spec.topologySpreadConstraints ?? [];
    if (own.length > 0) return spreadConstraintsOf(own, pod.metadata.labels, action);
    const defaults = spreadConstraintsOf(this.#defaultConstraints, pod.metadata.labels, action);
    if (defaults.length === 0) return [];
    const selector = mergedOwnerSelector(this.#deps.ownerSelectors?.(pod) ?? []);
    if (selector.isEmpty()) return [];
    return defaults.map((c) => ({ ...c, selector }));
  }

  // ── PreFilter / Filter ──────────────────────────────────────────────────────────────────────

  preFilter(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): { status?: Status } {
    let constraints: SpreadConstraint[];
    try {
      constraints = this.constraintsOf(pod, 'DoNotSchedule');
    } catch (error) {
      return { status: asStatus(error) };
    }
    if (constraints.length === 0) return { status: newStatus('Skip') };
    const counts = constraints.map(() => new Map<string, number>());
    const required = requiredAffinityOf(pod);
    const namespace = pod.metadata.namespace;
    const counters = constraints.map((c) => this.#podCounts.counter(nodes.length, c.selector, namespace));
    for (let n = 0; n < nodes.length; n++) {
      const nodeInfo = nodes[n]!;
      const node = nodeInfo.node;
      if (!node || !nodeHasAllTopologyKeys(node, constraints)) continue;
      const labels = node.metadata.labels!;
      for (let i = 0; i < constraints.length; i++) {
        const c = constraints[i]!;
        if (!matchesNodeInclusionPolicies(c, pod, node, required)) continue;
        const value = labels[c.topologyKey]!;
        counts[i]!.set(value, (counts[i]!.get(value) ?? 0) + counters[i]!(n, nodeInfo));
      }
    }
    state.write(PRE_FILTER_KEY, new PreFilterState(constraints, counts));
    return {};
  }

  preFilterExtensions(): PreFilterExtensions {
    return this;
  }

  addPod(
    state: CycleState,
    podToSchedule: Pod,
    podInfoToAdd: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | undefined {
    return this.#updateWithPod(state, podInfoToAdd.pod, podToSchedule, nodeInfo.node, 1);
  }

  removePod(
    state: CycleState,
    podToSchedule: Pod,
    podInfoToRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | undefined {
    return this.#updateWithPod(state, podInfoToRemove.pod, podToSchedule, nodeInfo.node, -1);
  }

  #updateWithPod(
    state: CycleState,
    updated: Pod,
    preemptor: Pod,
    node: Node | undefined,
    delta: number,
  ): Status | undefined {
    const s = state.read<PreFilterState>(PRE_FILTER_KEY);
    if (!s) return asStatus(new Error(`reading "${PRE_FILTER_KEY}" from cycleState: not found`));
    if (updated.metadata.namespace !== preemptor.metadata.namespace || !node) return undefined;
    if (!nodeHasAllTopologyKeys(node, s.constraints)) return undefined;
    const labels = node.metadata.labels ?? {};
    s.constraints.forEach((c, i) => {
      if (!c.selector.matches(updated.metadata.labels)) return;
      if (!matchesNodeInclusionPolicies(c, preemptor, node)) return;
      s.add(i, labels[c.topologyKey]!, delta);
    });
    return undefined;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const s = state.read<PreFilterState>(PRE_FILTER_KEY);
    if (!s) return asStatus(new Error(`reading "${PRE_FILTER_KEY}" from cycleState: not found`));
    if (s.constraints.length === 0) return undefined;
    const labels = nodeInfo.node?.metadata.labels ?? {};
    for (let i = 0; i < s.constraints.length; i++) {
      const c = s.constraints[i]!;
      if (!Object.hasOwn(labels, c.topologyKey)) {
        return newStatus('UnschedulableAndUnresolvable', ERR_REASON_NODE_LABEL_NOT_MATCH);
      }
      const self = c.selector.matches(pod.metadata.labels) ? 1 : 0;
      const matching = s.counts[i]!.get(labels[c.topologyKey]!) ?? 0;
      const skew = matching + self - s.minMatchNum(i);
      if (skew > c.maxSkew) return newStatus('Unschedulable', ERR_REASON_CONSTRAINTS_NOT_MATCH);
    }
    return undefined;
  }

  // ── PreScore / Score / NormalizeScore ─────────────────────────────────────────────────────

  preScore(state: CycleState, pod: Pod, filteredNodes: readonly NodeInfo[]): Status | undefined {
    const allNodes = this.#handle.snapshot().list();
    if (allNodes.length === 0) return newStatus('Skip');
    let constraints: SpreadConstraint[];
    try {
      constraints = this.constraintsOf(pod, 'ScheduleAnyway');
    } catch (error) {
      return asStatus(error);
    }
    if (constraints.length === 0) return newStatus('Skip');
    // With system defaults a node without a zone label can still be spread by hostname.
    const requireAll = (pod.spec.topologySpreadConstraints ?? []).length > 0 || !this.#systemDefaulted;
    const ignoredNodes = new Set<string>();
    const counts = constraints.map(() => new Map<string, number>());
    for (const nodeInfo of filteredNodes) {
      const node = nodeInfo.node;
      if (!node) continue;
      if (requireAll && !nodeHasAllTopologyKeys(node, constraints)) {
        ignoredNodes.add(nodeInfo.name);
        continue;
      }
      constraints.forEach((c, i) => {
        if (c.topologyKey === HOSTNAME) return;
        const value = node.metadata.labels?.[c.topologyKey] ?? '';
        if (!counts[i]!.has(value)) counts[i]!.set(value, 0);
      });
    }
    const weights = constraints.map((c, i) => {
      const size = c.topologyKey === HOSTNAME ? filteredNodes.length - ignoredNodes.size : counts[i]!.size;
      return Math.log(size + 2);
    });
    const counters = constraints.map((c) =>
      this.#podCounts.counter(allNodes.length, c.selector, pod.metadata.namespace),
    );
    for (let n = 0; n < allNodes.length; n++) {
      const nodeInfo = allNodes[n]!;
      const node = nodeInfo.node;
      if (!node) continue;
      if (requireAll && !nodeHasAllTopologyKeys(node, constraints)) continue;
      constraints.forEach((c, i) => {
        if (!matchesNodeInclusionPolicies(c, pod, node)) return;
        const value = node.metadata.labels?.[c.topologyKey] ?? '';
        const current = counts[i]!.get(value);
        if (current === undefined) return;
        counts[i]!.set(value, current + counters[i]!(n, nodeInfo));
      });
    }
    const s: PreScoreState = { constraints, ignoredNodes, counts, weights };
    state.write(PRE_SCORE_KEY, s);
    return undefined;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status {
    const s = state.read<PreScoreState>(PRE_SCORE_KEY);
    if (!s) return asStatus(new Error(`reading "${PRE_SCORE_KEY}" from cycleState: not found`));
    const node = nodeInfo.node;
    if (!node || s.ignoredNodes.has(nodeInfo.name)) return 0;
    const labels = node.metadata.labels ?? {};
    let score = 0;
    s.constraints.forEach((c, i) => {
      if (!Object.hasOwn(labels, c.topologyKey)) return;
      const count =
        c.topologyKey === HOSTNAME
          ? countPodsMatchingSelector(nodeInfo.pods, c.selector, pod.metadata.namespace)
          : (s.counts[i]!.get(labels[c.topologyKey]!) ?? 0);
      score += count * s.weights[i]! + (c.maxSkew - 1);
    });
    return Math.round(score);
  }

  normalizeScore(state: CycleState, _pod: Pod, scores: NodeScore[]): Status | undefined {
    const s = state.read<PreScoreState>(PRE_SCORE_KEY);
    if (!s) return undefined;
    let min = Number.MAX_SAFE_INTEGER;
    let max = 0;
    for (const entry of scores) {
      if (s.ignoredNodes.has(entry.name)) {
        entry.score = INVALID_SCORE;
        continue;
      }
      min = Math.min(min, entry.score);
      max = Math.max(max, entry.score);
    }
    for (const entry of scores) {
      if (entry.score === INVALID_SCORE) entry.score = 0;
      else if (max === 0) entry.score = MAX_NODE_SCORE;
      else entry.score = Math.trunc((MAX_NODE_SCORE * (max + min - entry.score)) / max);
    }
    return undefined;
  }

  // ── Queueing hints ──────────────────────────────────────────────────────────────────────────

  eventsToRegister(): readonly ClusterEventWithHint[] {
    return [
      {
        event: {
          resource: 'Pod',
          action:
            ActionType.Add | ActionType.UpdatePodLabel | ActionType.UpdatePodToleration | ActionType.Delete,
        },
        hint: (pod, oldObj, newObj) => this.isSchedulableAfterPodChange(pod, oldObj as Pod, newObj as Pod),
      },
      {
        event: {
          resource: 'Node',
          action:
            ActionType.Add | ActionType.Delete | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint,
        },
        hint: (pod, oldObj, newObj) => this.isSchedulableAfterNodeChange(pod, oldObj as Node, newObj as Node),
      },
    ];
  }

  /**
   * Queue when a change can move the counts: an assigned pod of the same namespace matching a
   * constraint's selector is added or deleted, or relabelled so that some selector's verdict flips; or
   * the pod itself gains tolerations while a constraint honours taints.
   */
  isSchedulableAfterPodChange(pod: Pod, oldPod: Pod | undefined, newPod: Pod | undefined): QueueingHint {
    const involved = (p: Pod) =>
      (p.metadata.uid !== undefined && p.metadata.uid === pod.metadata.uid) ||
      (Boolean(p.spec.nodeName) && p.metadata.namespace === pod.metadata.namespace);
    if ((newPod && !involved(newPod)) || (oldPod && !involved(oldPod))) return 'QueueSkip';
    const constraints = this.#hardConstraintsOrNone(pod);
    if (oldPod && newPod) {
      if (
        newPod.metadata.uid === pod.metadata.uid &&
        !sameJson(oldPod.spec.tolerations, newPod.spec.tolerations) &&
        constraints.some((c) => c.nodeTaintsPolicy === 'Honor')
      ) {
        return 'Queue';
      }
      if (sameJson(oldPod.metadata.labels ?? {}, newPod.metadata.labels ?? {})) return 'QueueSkip';
      return constraints.some(
        (c) => c.selector.matches(oldPod.metadata.labels) !== c.selector.matches(newPod.metadata.labels),
      )
        ? 'Queue'
        : 'QueueSkip';
    }
    const changed = (newPod ?? oldPod)!;
    return constraints.some((c) => c.selector.matches(changed.metadata.labels)) ? 'Queue' : 'QueueSkip';
  }

  /**
   * Queue when a node with every topology key is added or deleted, gains or loses one of the keys, or
   * (still having them all) changes a topology value or its taints.
   */
  isSchedulableAfterNodeChange(pod: Pod, oldNode: Node | undefined, newNode: Node | undefined): QueueingHint {
    const constraints = this.#hardConstraintsOrNone(pod);
    const oldMatching = oldNode ? nodeHasAllTopologyKeys(oldNode, constraints) : false;
    const newMatching = newNode ? nodeHasAllTopologyKeys(newNode, constraints) : false;
    if (oldNode && newNode) {
      if (oldMatching !== newMatching) return 'Queue';
      if (!newMatching) return 'QueueSkip';
      const valueChanged = constraints.some(
        (c) => oldNode.metadata.labels?.[c.topologyKey] !== newNode.metadata.labels?.[c.topologyKey],
      );
      return valueChanged || !sameJson(oldNode.spec?.taints, newNode.spec?.taints) ? 'Queue' : 'QueueSkip';
    }
    if (newNode) return newMatching ? 'Queue' : 'QueueSkip';
    return oldMatching ? 'Queue' : 'QueueSkip';
  }

  #hardConstraintsOrNone(pod: Pod): SpreadConstraint[] {
    try {
      return this.constraintsOf(pod, 'DoNotSchedule');
    } catch {
      return [];
    }
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** Builds the plugin from its args (`PodTopologySpreadArgs`) and the handle. */
export function newPodTopologySpread(
  args: PodTopologySpreadArgs | undefined,
  handle: FrameworkHandle,
  deps: PodTopologySpreadDeps = {},
): PodTopologySpread {
  return new PodTopologySpread(args ?? {}, handle, deps);
}

/** The registry entry: a PluginFactory that closes over the owner-selector lookup the assembly provides. */
export function podTopologySpreadFactory(deps: PodTopologySpreadDeps = {}): PluginFactory {
  return (args, handle) => newPodTopologySpread(args as PodTopologySpreadArgs | undefined, handle, deps);
}
