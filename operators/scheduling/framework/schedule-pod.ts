// The scheduling algorithm: PreFilter, Filter over sampled nodes, extenders, Score, and the host chosen with a random tie-break.
import type { Pod } from '../../api/core-v1.ts';
import { type Extender, MAX_EXTENDER_PRIORITY } from './extender.ts';
import { addPluginStatus, type Diagnosis, FitError, newDiagnosis } from './fit-error.ts';
import type { Framework, NodePluginScores } from './framework.ts';
import { type CycleState, MAX_NODE_SCORE } from './interface.ts';
import type { NodeInfo } from './node-info.ts';
import { asStatus, newStatus, type Status, statusMessage } from './status.ts';

/** The message of upstream's ErrNoNodesAvailable. */
export const NO_NODES_AVAILABLE_MSG = 'no nodes available to schedule pods';
/** The name an extender's rejection is recorded under in the diagnosis (upstream's ExtenderName). */
export const EXTENDER_NAME = 'Extender';
/** Below this many nodes every node is evaluated; never evaluate fewer than this. */
export const MIN_FEASIBLE_NODES_TO_FIND = 100;
/** The adaptive percentage never goes below this. */
export const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

/**
 * Round-robin state kept by the caller across cycles: where the next node search starts, so every node
 * gets the same chance of being examined. Invariant: 0 <= nextStartNodeIndex < node count (or 0).
 */
export interface SchedulingAlgorithmState {
  nextStartNodeIndex: number;
}

export function newSchedulingAlgorithmState(): SchedulingAlgorithmState {
  return { nextStartNodeIndex: 0 };
}

export interface SchedulePodOptions {
  readonly framework: Framework;
  readonly state: CycleState;
  readonly pod: Pod;
  /** The caller's round-robin state (mutated). */
  readonly algorithm: SchedulingAlgorithmState;
  readonly extenders?: readonly Extender[];
  /** The global percentageOfNodesToScore (0 = adaptive); the profile's value wins when set. Default 0. */
  readonly percentageOfNodesToScore?: number;
  /** Uniform in [0, 1); breaks score ties. Default Math.random. */
  readonly random?: () => number;
}

/**
 * The outcome of one attempt:
 * - `Scheduled`: the chosen node, how many nodes were evaluated (feasible + rejected) and found feasible;
 * - `FitError`: no node fits (its diagnosis says why, per node and per plugin);
 * - `Error`: a plugin or extender failed, or (code UnschedulableAndUnresolvable) there are no nodes at all.
 */
export type SchedulePodResult =
  | {
      readonly type: 'Scheduled';
      readonly suggestedHost: string;
      readonly evaluatedNodes: number;
      readonly feasibleNodes: number;
    }
  | { readonly type: 'FitError'; readonly error: FitError }
  | { readonly type: 'Error'; readonly status: Status };

/**
 * How many feasible nodes to find before the search stops: all below 100 nodes; otherwise the
 * percentage (profile's, else global; 0 = adaptive `50 - n/125`, at least 5) of n, at least 100.
 */
export function numFeasibleNodesToFind(
  profilePercentage: number | undefined,
  globalPercentage: number,
  numAllNodes: number,
): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
  let percentage = profilePercentage ?? globalPercentage;
  if (percentage === 0) {
    percentage = 50 - Math.trunc(numAllNodes / 125);
    if (percentage < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND)
      percentage = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
  }
  const n = Math.trunc((numAllNodes * percentage) / 100);
  return n < MIN_FEASIBLE_NODES_TO_FIND ? MIN_FEASIBLE_NODES_TO_FIND : n;
}

/**
 * The node with the highest total score; among equal totals each is chosen with equal probability
 * (reservoir sampling: the k-th tied node replaces the choice with probability 1/k).
 * @returns undefined for an empty list
 */
export function selectHost(
  scores: readonly NodePluginScores[],
  random: () => number = Math.random,
): string | undefined {
  if (scores.length === 0) return undefined;
  let best = scores[0]!.totalScore;
  let selected = scores[0]!.name;
  let ties = 1;
  for (let i = 1; i < scores.length; i++) {
    const s = scores[i]!;
    if (s.totalScore > best) {
      best = s.totalScore;
      selected = s.name;
      ties = 1;
    } else if (s.totalScore === best) {
      ties++;
      if (Math.floor(random() * ties) === 0) selected = s.name;
    }
  }
  return selected;
}

function hasExtenderFilters(extenders: readonly Extender[]): boolean {
  return extenders.some((e) => e.isFilter());
}

function hasScoring(framework: Framework, extenders: readonly Extender[]): boolean {
  return framework.hasScorePlugins() || extenders.some((e) => e.isPrioritizer());
}

/**
 * Filters `nodes` from the round-robin start until enough feasible nodes are found; rejected nodes get
 * their status in the diagnosis. Synchronous: bounded parallelism buys nothing on one JS thread.
 */
export function findNodesThatPassFilters(
  framework: Framework,
  state: CycleState,
  pod: Pod,
  diagnosis: Diagnosis,
  nodes: readonly NodeInfo[],
  startIndex: number,
  extenders: readonly Extender[] = [],
  globalPercentage = 0,
): { feasible: NodeInfo[]; error?: Status } {
  const numAllNodes = nodes.length;
  let toFind = numFeasibleNodesToFind(framework.percentageOfNodesToScore, globalPercentage, numAllNodes);
  if (!hasExtenderFilters(extenders) && !hasScoring(framework, extenders)) toFind = 1;
  const feasible: NodeInfo[] = [];
  if (numAllNodes === 0) return { feasible };
  if (!framework.hasFilterPlugins()) {
    for (let i = 0; i < toFind && i < numAllNodes; i++) feasible.push(nodes[(startIndex + i) % numAllNodes]!);
    return { feasible };
  }
  const statuses = diagnosis.nodeToStatus.statuses;
  for (let i = 0; i < numAllNodes; i++) {
    const nodeInfo = nodes[(startIndex + i) % numAllNodes]!;
    const status = framework.runFilterPluginsWithNominatedPods(state, pod, nodeInfo);
    if (status === undefined || status.code === 'Success') {
      feasible.push(nodeInfo);
      if (feasible.length >= toFind) break;
    } else if (status.code === 'Error') {
      return { feasible, error: status };
    } else {
      statuses.set(nodeInfo.name, status);
      addPluginStatus(diagnosis, status);
    }
  }
  return { feasible };
}

/** Runs the interested extenders' filters in turn over the feasible nodes, recording their rejections. */
export async function findNodesThatPassExtenders(
  extenders: readonly Extender[],
  pod: Pod,
  feasible: readonly NodeInfo[],
  diagnosis: Diagnosis,
): Promise<{ feasible: readonly NodeInfo[]; error?: Status }> {
  let nodes = feasible;
  for (const ext of extenders) {
    if (nodes.length === 0) break;
    if (!ext.isFilter() || !ext.isInterested(pod)) continue;
    let out: Awaited<ReturnType<Extender['filter']>>;
    try {
      out = await ext.filter(pod, nodes);
    } catch (e) {
      if (ext.isIgnorable()) continue;
      return { feasible: [], error: asStatus(e) };
    }
    for (const [node, msg] of Object.entries(out.failedAndUnresolvable)) {
      diagnosis.nodeToStatus.statuses.set(node, newStatus('UnschedulableAndUnresolvable', msg));
    }
    for (const [node, msg] of Object.entries(out.failed)) {
      if (Object.hasOwn(out.failedAndUnresolvable, node)) continue;
      diagnosis.nodeToStatus.statuses.set(node, newStatus('Unschedulable', msg));
    }
    nodes = out.feasible;
  }
  return { feasible: nodes };
}

/**
 * PreFilter, then the nominated node alone when the pod has one, else Filter over the (possibly
 * PreFilter-restricted) nodes from the round-robin start, then the extenders. Updates the caller's
 * round-robin index by the number of nodes processed.
 */
export async function findNodesThatFitPod(
  opts: SchedulePodOptions,
): Promise<{ feasible: readonly NodeInfo[]; diagnosis: Diagnosis; error?: Status }> {
  const { framework, state, pod, algorithm } = opts;
  const extenders = opts.extenders ?? [];
  const diagnosis = newDiagnosis();
  const snapshot = framework.snapshot();
  const allNodes = snapshot.list();
  const pre = framework.runPreFilterPlugins(state, pod);
  for (const p of pre.pluginsWithNodes) diagnosis.unschedulablePlugins.add(p);
  if (pre.status !== undefined && pre.status.code !== 'Success') {
    const code = pre.status.code;
    if (code !== 'Unschedulable' && code !== 'UnschedulableAndUnresolvable' && code !== 'Pending') {
      return { feasible: [], diagnosis, error: pre.status };
    }
    diagnosis.nodeToStatus.absent = pre.status;
    diagnosis.preFilterMsg = statusMessage(pre.status);
    addPluginStatus(diagnosis, pre.status);
    return { feasible: [], diagnosis };
  }

  const nominated = pod.status?.nominatedNodeName;
  if (nominated) {
    const nodeInfo = snapshot.get(nominated);
    if (nodeInfo) {
      const passed = findNodesThatPassFilters(
        framework,
        state,
        pod,
        diagnosis,
        [nodeInfo],
        0,
        extenders,
        opts.percentageOfNodesToScore,
      );
      if (!passed.error && passed.feasible.length > 0) {
        const ext = await findNodesThatPassExtenders(extenders, pod, passed.feasible, diagnosis);
        if (!ext.error && ext.feasible.length > 0) return { feasible: ext.feasible, diagnosis };
      }
    }
  }

  let nodes: readonly NodeInfo[] = allNodes;
  const restricted = pre.result?.nodeNames;
  if (restricted) {
    const list: NodeInfo[] = [];
    for (const name of restricted) {
      const ni = snapshot.get(name);
      if (ni) list.push(ni);
    }
    nodes = list;
    diagnosis.nodeToStatus.absent = newStatus(
      'UnschedulableAndUnresolvable',
      `node(s) didn't satisfy plugin(s) [${[...pre.pluginsWithNodes].sort().join(' ')}]`,
    );
  }
  const start = algorithm.nextStartNodeIndex;
  const passed = findNodesThatPassFilters(
    framework,
    state,
    pod,
    diagnosis,
    nodes,
    nodes.length > 0 ? start % nodes.length : 0,
    extenders,
    opts.percentageOfNodesToScore,
  );
  const processed = passed.feasible.length + diagnosis.nodeToStatus.statuses.size;
  algorithm.nextStartNodeIndex = allNodes.length > 0 ? (start + processed) % allNodes.length : 0;
  if (passed.error) return { feasible: [], diagnosis, error: passed.error };

  const ext = await findNodesThatPassExtenders(extenders, pod, passed.feasible, diagnosis);
  if (ext.error) return { feasible: [], diagnosis, error: ext.error };
  if (ext.feasible.length !== passed.feasible.length) diagnosis.unschedulablePlugins.add(EXTENDER_NAME);
  return { feasible: ext.feasible, diagnosis };
}

/**
 * Scores the feasible nodes: every node 1 without score plugins and extenders; otherwise PreScore,
 * Score (weighted) and each interested prioritizing extender's score × weight × (100 / 10).
 */
export async function prioritizeNodes(
  framework: Framework,
  state: CycleState,
  pod: Pod,
  nodes: readonly NodeInfo[],
  extenders: readonly Extender[] = [],
): Promise<{ scores: NodePluginScores[]; error?: Status }> {
  if (extenders.length === 0 && !framework.hasScorePlugins()) {
    return { scores: nodes.map((n) => ({ name: n.name, scores: [], totalScore: 1 })) };
  }
  const pre = framework.runPreScorePlugins(state, pod, nodes);
  if (pre !== undefined && pre.code !== 'Success') return { scores: [], error: pre };
  const scored = framework.runScorePlugins(state, pod, nodes);
  if (scored.status !== undefined && scored.status.code !== 'Success')
    return { scores: [], error: scored.status };
  const scores = scored.scores;
  const prioritizers = extenders.filter((e) => e.isPrioritizer() && e.isInterested(pod));
  if (prioritizers.length > 0 && nodes.length > 0) {
    const byNode = new Map<string, { name: string; score: number }[]>();
    const results = await Promise.all(
      prioritizers.map((e) =>
        e.prioritize(pod, nodes).then(
          (r) => ({ e, r }),
          () => undefined,
        ),
      ),
    );
    for (const item of results) {
      if (!item) continue; // prioritize errors are ignored, as upstream
      const { e, r } = item;
      for (const hp of r.scores) {
        const final = hp.score * r.weight * (MAX_NODE_SCORE / MAX_EXTENDER_PRIORITY);
        let list = byNode.get(hp.host);
        if (!list) {
          list = [];
          byNode.set(hp.host, list);
        }
        list.push({ name: e.name(), score: final });
      }
    }
    for (const ns of scores) {
      const extra = byNode.get(ns.name);
      if (!extra) continue;
      for (const s of extra) {
        ns.scores.push(s);
        ns.totalScore += s.score;
      }
    }
  }
  return { scores };
}

/**
 * upstream's schedulePod: no nodes → an UnschedulableAndUnresolvable "no nodes available to schedule
 * pods"; no feasible node → a FitError; one feasible node → it, without scoring; otherwise the best
 * scored node, ties broken at random.
 */
export async function schedulePod(opts: SchedulePodOptions): Promise<SchedulePodResult> {
  const { framework, state, pod } = opts;
  const numNodes = framework.snapshot().list().length;
  if (numNodes === 0) {
    const err = new Error(NO_NODES_AVAILABLE_MSG);
    return {
      type: 'Error',
      status: { code: 'UnschedulableAndUnresolvable', reasons: [NO_NODES_AVAILABLE_MSG], error: err },
    };
  }
  const fit = await findNodesThatFitPod(opts);
  if (fit.error) return { type: 'Error', status: fit.error };
  const feasible = fit.feasible;
  if (feasible.length === 0) return { type: 'FitError', error: new FitError(pod, numNodes, fit.diagnosis) };
  const failed = fit.diagnosis.nodeToStatus.statuses.size;
  if (feasible.length === 1) {
    return {
      type: 'Scheduled',
      suggestedHost: feasible[0]!.name,
      evaluatedNodes: 1 + failed,
      feasibleNodes: 1,
    };
  }
  const prioritized = await prioritizeNodes(framework, state, pod, feasible, opts.extenders ?? []);
  if (prioritized.error) return { type: 'Error', status: prioritized.error };
  const host = selectHost(prioritized.scores, opts.random ?? Math.random)!;
  return {
    type: 'Scheduled',
    suggestedHost: host,
    evaluatedNodes: feasible.length + failed,
    feasibleNodes: feasible.length,
  };
}
