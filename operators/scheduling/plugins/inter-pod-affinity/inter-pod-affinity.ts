// InterPodAffinity: required pod affinity/anti-affinity in PreFilter/Filter, preferred terms in PreScore/Score.
import type { Node, Pod } from '../../../api/core-v1.ts';
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
import {
  type AffinityTerm,
  type NamespaceLabelsLookup,
  type PodAffinityTerms,
  podAffinityTerms,
  podMatchesAllTerms,
  termMatches,
} from './affinity-term.ts';
import {
  defaultInterPodAffinityArgs,
  type InterPodAffinityArgs,
  validateInterPodAffinityArgs,
} from './inter-pod-affinity-args.ts';
import { TopologyCounts } from './topology-counts.ts';

export const INTER_POD_AFFINITY = 'InterPodAffinity';
export const ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH =
  "node(s) didn't satisfy existing pods anti-affinity rules";
export const ERR_REASON_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod affinity rules";
export const ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod anti-affinity rules";

const PRE_FILTER_KEY = `PreFilter${INTER_POD_AFFINITY}`;
const PRE_SCORE_KEY = `PreScore${INTER_POD_AFFINITY}`;

/** What the plugin reads beyond the snapshot: namespaces' labels, for terms with a namespaceSelector. */
export interface InterPodAffinityDeps {
  namespaceLabels?: NamespaceLabelsLookup;
}

/**
 * PreFilter's counts. Invariants: `existingAntiAffinity` counts, per topology pair, existing pods'
 * required anti-affinity terms that select the incoming pod; `affinity` counts pairs where an existing
 * pod matches all the incoming pod's required affinity terms; `antiAffinity` pairs where an existing pod
 * matches one of its required anti-affinity terms.
 */
class PreFilterState {
  readonly pod: Pod;
  readonly terms: PodAffinityTerms;
  readonly namespaceLabels: Readonly<Record<string, string>> | undefined;
  readonly existingAntiAffinity: TopologyCounts;
  readonly affinity: TopologyCounts;
  readonly antiAffinity: TopologyCounts;

  constructor(
    pod: Pod,
    terms: PodAffinityTerms,
    namespaceLabels: Readonly<Record<string, string>> | undefined,
    existingAntiAffinity = new TopologyCounts(),
    affinity = new TopologyCounts(),
    antiAffinity = new TopologyCounts(),
  ) {
    this.pod = pod;
    this.terms = terms;
    this.namespaceLabels = namespaceLabels;
    this.existingAntiAffinity = existingAntiAffinity;
    this.affinity = affinity;
    this.antiAffinity = antiAffinity;
  }

  clone(): PreFilterState {
    return new PreFilterState(
      this.pod,
      this.terms,
      this.namespaceLabels,
      this.existingAntiAffinity.clone(),
      this.affinity.clone(),
      this.antiAffinity.clone(),
    );
  }
}

/** PreScore's result: topology key → value → summed weight. */
type TopologyScore = Map<string, Map<string, number>>;

function addScore(scores: TopologyScore, key: string, value: string, weight: number): void {
  let byValue = scores.get(key);
  if (!byValue) {
    byValue = new Map();
    scores.set(key, byValue);
  }
  byValue.set(value, (byValue.get(value) ?? 0) + weight);
}

/**
 * Adds `sign` × weight (each term's own, or `weight` for every term when given) in the node's domain of
 * every term of `list` that selects `target`.
 */
function scoreTerms(
  scores: TopologyScore,
  labels: Readonly<Record<string, string>>,
  list: readonly (AffinityTerm & { weight?: number })[],
  sign: number,
  weight: number | undefined,
  target: Pod,
  nsLabels: Readonly<Record<string, string>> | undefined,
): void {
  for (let i = 0; i < list.length; i++) {
    const t = list[i]!;
    if (!Object.hasOwn(labels, t.topologyKey) || !termMatches(t, target, nsLabels)) continue;
    addScore(scores, t.topologyKey, labels[t.topologyKey]!, (weight ?? t.weight ?? 0) * sign);
  }
}

/**
 * The InterPodAffinity plugin. Invariant: Filter accepts a node only when no existing pod's required
 * anti-affinity selects the pod in the node's domains, none of the pod's required anti-affinity terms
 * selects a pod in the node's domains, and every required affinity term is met there (or the pod is the
 * first of a group that selects itself and no pod anywhere matches).
 */
export class InterPodAffinity
  implements
    PreFilterPlugin,
    FilterPlugin,
    PreScorePlugin,
    ScorePlugin,
    EnqueueExtensions,
    PreFilterExtensions
{
  readonly name = INTER_POD_AFFINITY;
  readonly #handle: FrameworkHandle;
  readonly #args: Required<InterPodAffinityArgs>;
  readonly #nsLabels: NamespaceLabelsLookup;

  constructor(args: InterPodAffinityArgs, handle: FrameworkHandle, deps: InterPodAffinityDeps = {}) {
    validateInterPodAffinityArgs(args);
    this.#args = defaultInterPodAffinityArgs(args);
    this.#handle = handle;
    this.#nsLabels = deps.namespaceLabels ?? (() => undefined);
  }

  #labelsOf(pod: Pod): Readonly<Record<string, string>> | undefined {
    return this.#nsLabels(pod.metadata.namespace ?? '');
  }

  /**
   * The namespace labels of pods matched against `terms`, for one cycle: read once per namespace, and
   * never when no term has a namespace selector (a term without one ignores the labels).
   */
  #labelsFor(
    ...terms: (readonly AffinityTerm[])[]
  ): (pod: Pod) => Readonly<Record<string, string>> | undefined {
    if (!terms.some((list) => list.some((t) => !t.namespaceSelector.matchesNothing))) return () => undefined;
    const byNamespace = new Map<string, Readonly<Record<string, string>> | undefined>();
    return (pod) => {
      const ns = pod.metadata.namespace ?? '';
      if (!byNamespace.has(ns)) byNamespace.set(ns, this.#nsLabels(ns));
      return byNamespace.get(ns);
    };
  }

  // ── PreFilter / Filter ──────────────────────────────────────────────────────────────────────

  preFilter(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): { status?: Status } {
    let terms: PodAffinityTerms;
    try {
      terms = podAffinityTerms(pod);
    } catch (error) {
      return { status: asStatus(error) };
    }
    // The snapshot keeps this list, so the common case (nobody has required anti-affinity) costs nothing.
    const withRequiredAnti = this.#handle.snapshot().havePodsWithRequiredAntiAffinityList();
    const hasRequired = terms.requiredAffinity.length > 0 || terms.requiredAntiAffinity.length > 0;
    if (withRequiredAnti.length === 0 && !hasRequired) return { status: newStatus('Skip') };
    const s = new PreFilterState(pod, terms, this.#labelsOf(pod));
    try {
      for (const nodeInfo of withRequiredAnti) {
        const node = nodeInfo.node;
        if (!node) continue;
        for (const existing of nodeInfo.podsWithRequiredAntiAffinity) {
          const anti = podAffinityTerms(existing.pod).requiredAntiAffinity;
          s.existingAntiAffinity.updateWithAntiAffinityTerms(anti, pod, s.namespaceLabels, node, 1);
        }
      }
    } catch (error) {
      return { status: asStatus(error) };
    }
    if (hasRequired) {
      const labelsOf = this.#labelsFor(terms.requiredAffinity, terms.requiredAntiAffinity);
      for (const nodeInfo of nodes) {
        const node = nodeInfo.node;
        if (!node) continue;
        for (const { pod: existing } of nodeInfo.pods) {
          const nsLabels = labelsOf(existing);
          s.affinity.updateWithAffinityTerms(terms.requiredAffinity, existing, nsLabels, node, 1);
          s.antiAffinity.updateWithAntiAffinityTerms(terms.requiredAntiAffinity, existing, nsLabels, node, 1);
        }
      }
    }
    state.write(PRE_FILTER_KEY, s);
    return {};
  }

  preFilterExtensions(): PreFilterExtensions {
    return this;
  }

  addPod(
    state: CycleState,
    _podToSchedule: Pod,
    podInfoToAdd: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | undefined {
    return this.#updateWithPod(state, podInfoToAdd.pod, nodeInfo.node, 1);
  }

  removePod(
    state: CycleState,
    _podToSchedule: Pod,
    podInfoToRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | undefined {
    return this.#updateWithPod(state, podInfoToRemove.pod, nodeInfo.node, -1);
  }

  #updateWithPod(state: CycleState, updated: Pod, node: Node | undefined, delta: number): Status | undefined {
    const s = state.read<PreFilterState>(PRE_FILTER_KEY);
    if (!s) return asStatus(new Error(`reading "${PRE_FILTER_KEY}" from cycleState: not found`));
    if (!node) return undefined;
    try {
      const anti = podAffinityTerms(updated).requiredAntiAffinity;
      if (anti.length > 0)
        s.existingAntiAffinity.updateWithAntiAffinityTerms(anti, s.pod, s.namespaceLabels, node, delta);
    } catch (error) {
      return asStatus(error);
    }
    const nsLabels = this.#labelsOf(updated);
    if (s.terms.requiredAffinity.length > 0) {
      s.affinity.updateWithAffinityTerms(s.terms.requiredAffinity, updated, nsLabels, node, delta);
    }
    if (s.terms.requiredAntiAffinity.length > 0) {
      s.antiAffinity.updateWithAntiAffinityTerms(
        s.terms.requiredAntiAffinity,
        updated,
        nsLabels,
        node,
        delta,
      );
    }
    return undefined;
  }

  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const s = state.read<PreFilterState>(PRE_FILTER_KEY);
    if (!s) return asStatus(new Error(`reading "${PRE_FILTER_KEY}" from cycleState: not found`));
    const labels = nodeInfo.node?.metadata.labels ?? {};
    if (!this.#satisfiesAffinity(s, labels)) {
      return newStatus('UnschedulableAndUnresolvable', ERR_REASON_AFFINITY_RULES_NOT_MATCH);
    }
    if (!satisfiesAntiAffinity(s, labels))
      return newStatus('Unschedulable', ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH);
    if (!satisfiesExistingAntiAffinity(s, labels)) {
      return newStatus('Unschedulable', ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH);
    }
    return undefined;
  }

  #satisfiesAffinity(s: PreFilterState, labels: Record<string, string>): boolean {
    let podsExist = true;
    for (const t of s.terms.requiredAffinity) {
      if (!Object.hasOwn(labels, t.topologyKey)) return false; // every topology label must be on the node
      if (s.affinity.get(t.topologyKey, labels[t.topologyKey]!) <= 0) podsExist = false;
    }
    if (podsExist) return true;
    // The first pod of a group that selects itself: allowed when no pod anywhere matches the terms.
    return s.affinity.size === 0 && podMatchesAllTerms(s.terms.requiredAffinity, s.pod, s.namespaceLabels);
  }

  // ── PreScore / Score / NormalizeScore ─────────────────────────────────────────────────────

  preScore(state: CycleState, pod: Pod, _filteredNodes: readonly NodeInfo[]): Status | undefined {
    let terms: PodAffinityTerms;
    try {
      terms = podAffinityTerms(pod);
    } catch (error) {
      return asStatus(error);
    }
    const hasConstraints = terms.preferredAffinity.length > 0 || terms.preferredAntiAffinity.length > 0;
    if (this.#args.ignorePreferredTermsOfExistingPods && !hasConstraints) return newStatus('Skip');
    const snapshot = this.#handle.snapshot();
    const nodes = hasConstraints ? snapshot.list() : snapshot.havePodsWithAffinityList();
    const scores: TopologyScore = new Map();
    const podNsLabels = this.#labelsOf(pod);
    const labelsOf = this.#labelsFor(terms.preferredAffinity, terms.preferredAntiAffinity);
    try {
      for (const nodeInfo of nodes) {
        const node = nodeInfo.node;
        if (!node || Object.keys(node.metadata.labels ?? {}).length === 0) continue;
        const existingPods = hasConstraints ? nodeInfo.pods : nodeInfo.podsWithAffinity;
        for (const existing of existingPods) {
          this.#scoreExistingPod(scores, terms, pod, podNsLabels, existing.pod, labelsOf, node);
        }
      }
    } catch (error) {
      return asStatus(error);
    }
    if (scores.size === 0) return newStatus('Skip');
    state.write(PRE_SCORE_KEY, scores);
    return undefined;
  }

  #scoreExistingPod(
    scores: TopologyScore,
    terms: PodAffinityTerms,
    pod: Pod,
    podNsLabels: Readonly<Record<string, string>> | undefined,
    existing: Pod,
    labelsOf: (pod: Pod) => Readonly<Record<string, string>> | undefined,
    node: Node,
  ): void {
    const labels = node.metadata.labels ?? {};
    // The incoming pod's preferred terms that the existing pod matches.
    if (terms.preferredAffinity.length > 0 || terms.preferredAntiAffinity.length > 0) {
      const existingNsLabels = labelsOf(existing);
      scoreTerms(scores, labels, terms.preferredAffinity, 1, undefined, existing, existingNsLabels);
      scoreTerms(scores, labels, terms.preferredAntiAffinity, -1, undefined, existing, existingNsLabels);
    }
    // The existing pod's terms that the incoming pod matches.
    const theirs = podAffinityTerms(existing);
    const hard = this.#args.hardPodAffinityWeight;
    if (hard > 0) scoreTerms(scores, labels, theirs.requiredAffinity, 1, hard, pod, podNsLabels);
    scoreTerms(scores, labels, theirs.preferredAffinity, 1, undefined, pod, podNsLabels);
    scoreTerms(scores, labels, theirs.preferredAntiAffinity, -1, undefined, pod, podNsLabels);
  }

  score(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): number | Status {
    const scores = state.read<TopologyScore>(PRE_SCORE_KEY);
    if (!scores) return asStatus(new Error(`reading "${PRE_SCORE_KEY}" from cycleState: not found`));
    const labels = nodeInfo.node?.metadata.labels ?? {};
    let total = 0;
    for (const [key, byValue] of scores) {
      if (Object.hasOwn(labels, key)) total += byValue.get(labels[key]!) ?? 0;
    }
    return total;
  }

  normalizeScore(state: CycleState, _pod: Pod, scores: NodeScore[]): Status | undefined {
    const s = state.read<TopologyScore>(PRE_SCORE_KEY);
    if (!s || s.size === 0) return undefined;
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (const { score } of scores) {
      min = Math.min(min, score);
      max = Math.max(max, score);
    }
    const diff = max - min;
    for (const entry of scores) {
      entry.score = diff > 0 ? Math.trunc((MAX_NODE_SCORE * (entry.score - min)) / diff) : 0;
    }
    return undefined;
  }

  // ── Queueing hints ──────────────────────────────────────────────────────────────────────────

  eventsToRegister(): readonly ClusterEventWithHint[] {
    return [
      {
        event: { resource: 'Pod', action: ActionType.Add | ActionType.UpdatePodLabel | ActionType.Delete },
        hint: (pod, oldObj, newObj) => this.isSchedulableAfterPodChange(pod, oldObj as Pod, newObj as Pod),
      },
      {
        // UpdateNodeTaint too: a node added while not ready may only show up later as a taint change.
        event: {
          resource: 'Node',
          action: ActionType.Add | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint,
        },
        hint: (pod, _oldObj, newObj) => this.isSchedulableAfterNodeChange(pod, newObj as Node),
      },
    ];
  }

  /**
   * Queue when an assigned pod's change can help: an added pod, or a relabelled one that did not
   * before, matches all the pod's required affinity terms; a relabelled pod stops matching its
   * anti-affinity terms; a deleted pod matched them. Beyond upstream (which waits for the periodic
   * flush there): a deleted pod whose own required anti-affinity selected the pod also queues it.
   */
  isSchedulableAfterPodChange(pod: Pod, oldPod: Pod | undefined, newPod: Pod | undefined): QueueingHint {
    if ((newPod && !newPod.spec.nodeName) || (oldPod && !oldPod.spec.nodeName)) return 'QueueSkip';
    let terms: PodAffinityTerms;
    try {
      terms = podAffinityTerms(pod);
    } catch {
      return 'Queue';
    }
    const affine = (p: Pod) => podMatchesAllTerms(terms.requiredAffinity, p, this.#labelsOf(p));
    const allAnti = (p: Pod) => podMatchesAllTerms(terms.requiredAntiAffinity, p, this.#labelsOf(p));
    const anyAnti = (p: Pod) => terms.requiredAntiAffinity.some((t) => termMatches(t, p, this.#labelsOf(p)));
    if (oldPod && newPod) {
      if (!affine(oldPod) && affine(newPod)) return 'Queue';
      if (allAnti(oldPod) && !allAnti(newPod)) return 'Queue';
      if (anyAnti(oldPod) && !anyAnti(newPod)) return 'Queue';
      return 'QueueSkip';
    }
    if (newPod) return affine(newPod) ? 'Queue' : 'QueueSkip';
    if (!oldPod) return 'QueueSkip';
    if (anyAnti(oldPod)) return 'Queue';
    try {
      const theirAnti = podAffinityTerms(oldPod).requiredAntiAffinity;
      return theirAnti.some((t) => termMatches(t, pod, this.#labelsOf(pod))) ? 'Queue' : 'QueueSkip';
    } catch {
      return 'Queue';
    }
  }

  /** Queue when the added or updated node has the topology key of any required (anti-)affinity term. */
  isSchedulableAfterNodeChange(pod: Pod, newNode: Node | undefined): QueueingHint {
    if (!newNode) return 'QueueSkip';
    let terms: PodAffinityTerms;
    try {
      terms = podAffinityTerms(pod);
    } catch {
      return 'Queue';
    }
    const labels = newNode.metadata.labels ?? {};
    const hasKey = (t: AffinityTerm) => Object.hasOwn(labels, t.topologyKey);
    return terms.requiredAffinity.some(hasKey) || terms.requiredAntiAffinity.some(hasKey)
      ? 'Queue'
      : 'QueueSkip';
  }
}

function satisfiesAntiAffinity(s: PreFilterState, labels: Record<string, string>): boolean {
  if (s.antiAffinity.size === 0) return true;
  for (const t of s.terms.requiredAntiAffinity) {
    if (
      Object.hasOwn(labels, t.topologyKey) &&
      s.antiAffinity.get(t.topologyKey, labels[t.topologyKey]!) > 0
    ) {
      return false;
    }
  }
  return true;
}

function satisfiesExistingAntiAffinity(s: PreFilterState, labels: Record<string, string>): boolean {
  if (s.existingAntiAffinity.size === 0) return true;
  return !s.existingAntiAffinity.anyPositiveFor(labels);
}

/** Builds the plugin from its args (`InterPodAffinityArgs`) and the handle. */
export function newInterPodAffinity(
  args: InterPodAffinityArgs | undefined,
  handle: FrameworkHandle,
  deps: InterPodAffinityDeps = {},
): InterPodAffinity {
  return new InterPodAffinity(args ?? {}, handle, deps);
}

/** The registry entry: a PluginFactory that closes over the namespace-labels lookup the assembly provides. */
export function interPodAffinityFactory(deps: InterPodAffinityDeps = {}): PluginFactory {
  return (args, handle) => newInterPodAffinity(args as InterPodAffinityArgs | undefined, handle, deps);
}
