// The framework runner: one profile's plugins instantiated once and run per extension point, as kube-scheduler's frameworkImpl.
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import type { Pod } from '../../api/core-v1.ts';
import { InvalidConfigError } from '../../errors.ts';
import { type Logger, silentLogger } from '../../logger.ts';
import {
  ActionType,
  type BindPlugin,
  type ClusterEventWithHint,
  type CycleState,
  type FilterPlugin,
  type FrameworkHandle,
  implementsPoint,
  MAX_NODE_SCORE,
  MIN_NODE_SCORE,
  type NodeInfoLister,
  type NodeScore,
  type NodeToStatus,
  type PermitPlugin,
  type Plugin,
  type PodDisruptionBudget,
  type PostBindPlugin,
  type PostFilterPlugin,
  type PostFilterResult,
  type PreBindPlugin,
  type PreEnqueuePlugin,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  type QueuedPodRef,
  type QueueSortPlugin,
  type Registry,
  type ReservePlugin,
  type SchedulerApi,
  type ScorePlugin,
} from './interface.ts';
import type { NodeInfo, PodInfo } from './node-info.ts';
import {
  asStatus,
  isRejected,
  isSkip,
  isSuccess,
  newStatus,
  type Status,
  statusMessage,
  withPlugin,
} from './status.ts';
import { WaitingPod, WaitingPodsMap } from './waiting-pods-map.ts';

/** The extension points a profile configures, spelled as in KubeSchedulerConfiguration's `plugins`. */
export type ExtensionPoint =
  | 'preEnqueue'
  | 'queueSort'
  | 'preFilter'
  | 'filter'
  | 'postFilter'
  | 'preScore'
  | 'score'
  | 'reserve'
  | 'permit'
  | 'preBind'
  | 'bind'
  | 'postBind';

export const EXTENSION_POINTS: readonly ExtensionPoint[] = [
  'preEnqueue',
  'queueSort',
  'preFilter',
  'filter',
  'postFilter',
  'preScore',
  'score',
  'reserve',
  'permit',
  'preBind',
  'bind',
  'postBind',
];

/** One enabled plugin at one extension point; `weight` matters for `score` only (0 or absent → 1). */
export interface PluginRef {
  readonly name: string;
  readonly weight?: number;
}

/**
 * A profile after the config's multiPoint/enable/disable merge: per extension point, the plugins in
 * run order, and each plugin's (defaulted, validated) args by plugin name.
 */
export interface ResolvedProfile {
  readonly schedulerName: string;
  /** The profile's percentageOfNodesToScore; undefined defers to the global value. */
  readonly percentageOfNodesToScore?: number;
  readonly plugins: Partial<Record<ExtensionPoint, readonly PluginRef[]>>;
  readonly pluginArgs: Readonly<Record<string, unknown>>;
}

/** What the assembly gives the framework (and through it, the plugins). Optional parts have inert defaults. */
export interface FrameworkDeps {
  /** The current cycle's snapshot. */
  snapshot(): NodeInfoLister;
  readonly api: SchedulerApi;
  /** Permit timers run on it; default asyncScheduler. */
  readonly scheduler?: SchedulerLike;
  readonly logger?: Logger;
  /** Default 16, as upstream (kept for the API: per-node loops run synchronously on one JS thread). */
  readonly parallelism?: number;
  nominatedPodsForNode?(nodeName: string): readonly PodInfo[];
  getPod?(namespace: string, name: string): Pod | undefined;
  podDisruptionBudgets?(): readonly PodDisruptionBudget[];
  activate?(pods: readonly Pod[]): void;
}

/** One plugin's score for a node (weighted). */
export interface PluginScore {
  readonly name: string;
  readonly score: number;
}

/** A node's weighted scores per plugin and their sum. */
export interface NodePluginScores {
  readonly name: string;
  readonly scores: PluginScore[];
  totalScore: number;
}

/** The registered events of one plugin, for the queue's hint table. */
export interface PluginEvents {
  readonly plugin: string;
  readonly events: readonly ClusterEventWithHint[];
}

/** What RunPreFilterPlugins returns: the merged node restriction, the status, and the plugins that restricted nodes. */
export interface PreFilterOutcome {
  readonly result: PreFilterResult | undefined;
  readonly status: Status | undefined;
  /** Plugins whose PreFilterResult restricted the nodes (upstream's third return value). */
  readonly pluginsWithNodes: ReadonlySet<string>;
}

export interface PostFilterOutcome {
  readonly result: PostFilterResult | undefined;
  readonly status: Status | undefined;
}

export interface ScoreOutcome {
  readonly scores: NodePluginScores[];
  readonly status: Status | undefined;
}

/**
 * A profile's framework. Invariants: each plugin is instantiated once per framework and shared by
 * every extension point it is enabled at; run functions never throw for a plugin's throw (it becomes
 * an Error status); rejections carry the plugin's name in `status.plugin`.
 */
export interface Framework extends FrameworkHandle {
  readonly profileName: string;
  readonly percentageOfNodesToScore: number | undefined;
  /** The plugin instance by name (any extension point). */
  plugin(name: string): Plugin | undefined;
  /** Plugin names enabled at an extension point, in run order. */
  listPlugins(point: ExtensionPoint): readonly string[];
  hasFilterPlugins(): boolean;
  hasScorePlugins(): boolean;
  hasPostFilterPlugins(): boolean;
  /** The QueueSort less function (true when `a` pops first). */
  queueSortLess(a: QueuedPodRef, b: QueuedPodRef): boolean;
  readonly preEnqueuePlugins: readonly PreEnqueuePlugin[];
  /** Runs the PreEnqueue plugins in order; the first non-success (plugin stamped) gates the pod. */
  runPreEnqueuePlugins(pod: Pod): Status | undefined;
  /** Per plugin, its registered events (a plugin without EnqueueExtensions: every resource, action All). */
  enqueueExtensions(): readonly PluginEvents[];
  runPreFilterPlugins(state: CycleState, pod: Pod): PreFilterOutcome;
  runFilterPlugins(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined;
  runPostFilterPlugins(state: CycleState, pod: Pod, statuses: NodeToStatus): Promise<PostFilterOutcome>;
  runPreScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status | undefined;
  runScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): ScoreOutcome;
  runReservePluginsReserve(state: CycleState, pod: Pod, nodeName: string): Status | undefined;
  runReservePluginsUnreserve(state: CycleState, pod: Pod, nodeName: string): void;
  /** Success, a rejection, an Error, or Wait (the pod is then in the waiting-pods map). */
  runPermitPlugins(state: CycleState, pod: Pod, nodeName: string): Status | undefined;
  willWaitOnPermit(pod: Pod): boolean;
  /** Resolves when the waiting pod is allowed (undefined) or rejected; undefined at once when not waiting. */
  waitOnPermit(pod: Pod): Promise<Status | undefined>;
  getWaitingPod(uid: string): WaitingPod | undefined;
  iterateOverWaitingPods(fn: (wp: WaitingPod) => void): void;
  runPreBindPlugins(
    state: CycleState,
    pod: Pod,
    nodeName: string,
    signal: AbortSignal,
  ): Promise<Status | undefined>;
  /** Skip when there is no bind plugin or every binder skipped. */
  runBindPlugins(
    state: CycleState,
    pod: Pod,
    nodeName: string,
    signal: AbortSignal,
  ): Promise<Status | undefined>;
  runPostBindPlugins(state: CycleState, pod: Pod, nodeName: string): void;
}

const EVERY_RESOURCE_EVENTS: readonly ClusterEventWithHint[] = Object.freeze([
  { event: { resource: '*', action: ActionType.All } },
]);

const NO_PODS: readonly PodInfo[] = Object.freeze([]);

function errorText(status: Status | undefined): string {
  return statusMessage(status);
}

function wrapError(message: string, cause: Status | undefined): Status {
  const err = new Error(message, { cause: cause?.error });
  return asStatus(err);
}

function podPriority(pod: Pod): number {
  return pod.spec.priority ?? 0;
}

function podUid(pod: Pod): string {
  return pod.metadata.uid ?? `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
}

/** Go's `%v` of a sorted string set: "[a b]". */
function goList(names: Iterable<string>): string {
  return `[${[...names].sort().join(' ')}]`;
}

const POINT_GUARD: Record<ExtensionPoint, (p: Plugin) => boolean> = {
  preEnqueue: implementsPoint.preEnqueue,
  queueSort: implementsPoint.queueSort,
  preFilter: implementsPoint.preFilter,
  filter: implementsPoint.filter,
  postFilter: implementsPoint.postFilter,
  preScore: implementsPoint.preScore,
  score: implementsPoint.score,
  reserve: implementsPoint.reserve,
  permit: implementsPoint.permit,
  preBind: implementsPoint.preBind,
  bind: implementsPoint.bind,
  postBind: implementsPoint.postBind,
};

const POINT_NAMES: Record<ExtensionPoint, string> = {
  preEnqueue: 'PreEnqueuePlugin',
  queueSort: 'QueueSortPlugin',
  preFilter: 'PreFilterPlugin',
  filter: 'FilterPlugin',
  postFilter: 'PostFilterPlugin',
  preScore: 'PreScorePlugin',
  score: 'ScorePlugin',
  reserve: 'ReservePlugin',
  permit: 'PermitPlugin',
  preBind: 'PreBindPlugin',
  bind: 'BindPlugin',
  postBind: 'PostBindPlugin',
};

/** Calls a plugin, turning a throw into an Error status. */
function guard<T>(fn: () => T): T | Status {
  try {
    return fn();
  } catch (e) {
    return asStatus(e);
  }
}

function isStatus(v: unknown): v is Status {
  return typeof v === 'object' && v !== null && 'code' in v && 'reasons' in v;
}

/**
 * Builds the framework of one profile: instantiates every plugin named at any extension point once
 * (with `profile.pluginArgs[name]`), checks each implements the points it is enabled at, and wires the
 * handle methods plugins call.
 * @throws InvalidConfigError naming `plugins.<point>[i]` for an unknown plugin, a plugin that does not
 *   extend the point, a duplicate, a bad score weight, or a score-weight sum that could overflow.
 */
export function newFramework(profile: ResolvedProfile, registry: Registry, deps: FrameworkDeps): Framework {
  return new FrameworkImpl(profile, registry, deps);
}

class FrameworkImpl implements Framework {
  readonly profileName: string;
  readonly percentageOfNodesToScore: number | undefined;
  readonly scheduler: SchedulerLike;
  readonly logger: Logger;
  readonly api: SchedulerApi;
  readonly parallelism: number;
  readonly #deps: FrameworkDeps;
  readonly #instances = new Map<string, Plugin>();
  readonly #byPoint = new Map<ExtensionPoint, Plugin[]>();
  readonly #scoreWeight = new Map<string, number>();
  readonly #enqueue: PluginEvents[] = [];
  readonly #waiting = new WaitingPodsMap();
  readonly preEnqueuePlugins: PreEnqueuePlugin[];
  readonly #queueSort: QueueSortPlugin[];
  readonly #preFilter: PreFilterPlugin[];
  readonly #filter: FilterPlugin[];
  readonly #postFilter: PostFilterPlugin[];
  readonly #preScore: PreScorePlugin[];
  readonly #score: ScorePlugin[];
  readonly #reserve: ReservePlugin[];
  readonly #permit: PermitPlugin[];
  readonly #preBind: PreBindPlugin[];
  readonly #bind: BindPlugin[];
  readonly #postBind: PostBindPlugin[];

  constructor(profile: ResolvedProfile, registry: Registry, deps: FrameworkDeps) {
    this.profileName = profile.schedulerName;
    this.percentageOfNodesToScore = profile.percentageOfNodesToScore;
    this.scheduler = deps.scheduler ?? asyncScheduler;
    this.logger = (deps.logger ?? silentLogger).child({ profile: profile.schedulerName });
    this.api = deps.api;
    this.parallelism = deps.parallelism ?? 16;
    this.#deps = deps;

    // Instantiate every plugin named anywhere once, in first-appearance order.
    for (const point of EXTENSION_POINTS) {
      (profile.plugins[point] ?? []).forEach((ref, i) => {
        if (this.#instances.has(ref.name)) return;
        const factory = registry[ref.name];
        if (!factory) {
          throw new InvalidConfigError(`plugins.${point}[${i}].name`, `plugin "${ref.name}" does not exist`);
        }
        let instance: Plugin;
        try {
          instance = factory(profile.pluginArgs[ref.name], this);
        } catch (e) {
          if (e instanceof InvalidConfigError) throw e;
          throw new InvalidConfigError(
            `plugins.${point}[${i}].name`,
            `initializing plugin "${ref.name}": ${e instanceof Error ? e.message : String(e)}`,
            { cause: e },
          );
        }
        this.#instances.set(ref.name, instance);
        this.#enqueue.push({
          plugin: ref.name,
          events: implementsPoint.enqueueExtensions(instance)
            ? instance.eventsToRegister()
            : EVERY_RESOURCE_EVENTS,
        });
      });
    }

    let maxTotal = 0;
    for (const point of EXTENSION_POINTS) {
      const list: Plugin[] = [];
      const seen = new Set<string>();
      (profile.plugins[point] ?? []).forEach((ref, i) => {
        const field = `plugins.${point}[${i}]`;
        if (seen.has(ref.name)) {
          throw new InvalidConfigError(
            `${field}.name`,
            `plugin "${ref.name}" already registered as "${point}"`,
          );
        }
        seen.add(ref.name);
        const instance = this.#instances.get(ref.name)!;
        if (!POINT_GUARD[point](instance)) {
          throw new InvalidConfigError(
            `${field}.name`,
            `plugin "${ref.name}" does not extend ${POINT_NAMES[point]} plugin`,
          );
        }
        if (point === 'score') {
          const w = ref.weight ?? 0;
          if (!Number.isInteger(w) || w < 0) {
            throw new InvalidConfigError(`${field}.weight`, `must be a non-negative integer, got ${w}`);
          }
          const weight = w === 0 ? 1 : w;
          this.#scoreWeight.set(ref.name, weight);
          maxTotal += weight * MAX_NODE_SCORE;
          if (maxTotal > Number.MAX_SAFE_INTEGER) {
            throw new InvalidConfigError(`${field}.weight`, 'total score of Score plugins could overflow');
          }
        }
        list.push(instance);
      });
      this.#byPoint.set(point, list);
    }
    const at = <T>(p: ExtensionPoint) => (this.#byPoint.get(p) ?? []) as unknown as T[];
    this.preEnqueuePlugins = at<PreEnqueuePlugin>('preEnqueue');
    this.#queueSort = at<QueueSortPlugin>('queueSort');
    this.#preFilter = at<PreFilterPlugin>('preFilter');
    this.#filter = at<FilterPlugin>('filter');
    this.#postFilter = at<PostFilterPlugin>('postFilter');
    this.#preScore = at<PreScorePlugin>('preScore');
    this.#score = at<ScorePlugin>('score');
    this.#reserve = at<ReservePlugin>('reserve');
    this.#permit = at<PermitPlugin>('permit');
    this.#preBind = at<PreBindPlugin>('preBind');
    this.#bind = at<BindPlugin>('bind');
    this.#postBind = at<PostBindPlugin>('postBind');
    if (this.#queueSort.length > 1) {
      throw new InvalidConfigError('plugins.queueSort', 'only one queue sort plugin can be enabled');
    }
  }

  // ── handle ───────────────────────────────────────────────────────────────────────────────────

  snapshot(): NodeInfoLister {
    return this.#deps.snapshot();
  }

  nominatedPodsForNode(nodeName: string): readonly PodInfo[] {
    return this.#deps.nominatedPodsForNode?.(nodeName) ?? NO_PODS;
  }

  getPod(namespace: string, name: string): Pod | undefined {
    return this.#deps.getPod?.(namespace, name);
  }

  podDisruptionBudgets(): readonly PodDisruptionBudget[] {
    return this.#deps.podDisruptionBudgets?.() ?? [];
  }

  activate(pods: readonly Pod[]): void {
    this.#deps.activate?.(pods);
  }

  plugin(name: string): Plugin | undefined {
    return this.#instances.get(name);
  }

  listPlugins(point: ExtensionPoint): readonly string[] {
    return (this.#byPoint.get(point) ?? []).map((p) => p.name);
  }

  hasFilterPlugins(): boolean {
    return this.#filter.length > 0;
  }

  hasScorePlugins(): boolean {
    return this.#score.length > 0;
  }

  hasPostFilterPlugins(): boolean {
    return this.#postFilter.length > 0;
  }

  // ── queue-facing ─────────────────────────────────────────────────────────────────────────────

  queueSortLess(a: QueuedPodRef, b: QueuedPodRef): boolean {
    const qs = this.#queueSort[0];
    if (!qs) throw new InvalidConfigError('plugins.queueSort', 'no queue sort plugin is enabled');
    return qs.less(a, b);
  }

  runPreEnqueuePlugins(pod: Pod): Status | undefined {
    for (const pl of this.preEnqueuePlugins) {
      const r = guard(() => pl.preEnqueue(pod));
      if (!isSuccess(r as Status | undefined)) {
        const s = r as Status;
        if (isRejected(s)) return withPlugin(s, pl.name);
        return withPlugin(wrapError(`running PreEnqueue plugin "${pl.name}": ${errorText(s)}`, s), pl.name);
      }
    }
    return undefined;
  }

  enqueueExtensions(): readonly PluginEvents[] {
    return this.#enqueue;
  }

  // ── scheduling cycle ─────────────────────────────────────────────────────────────────────────

  runPreFilterPlugins(state: CycleState, pod: Pod): PreFilterOutcome {
    const skip = new Set<string>();
    const pluginsWithNodes = new Set<string>();
    let merged: Set<string> | undefined;
    let returnStatus: Status | undefined;
    const nodes = this.snapshot().list();
    try {
      for (const pl of this.#preFilter) {
        const out = guard(() => pl.preFilter(state, pod, nodes));
        const r = isStatus(out) ? undefined : out?.result;
        const s = isStatus(out) ? out : out?.status;
        if (isSkip(s)) {
          skip.add(pl.name);
          continue;
        }
        if (!isSuccess(s)) {
          const st = withPlugin(s!, pl.name);
          if (st.code === 'UnschedulableAndUnresolvable') {
            return { result: undefined, status: st, pluginsWithNodes: new Set() };
          }
          if (st.code === 'Unschedulable') {
            returnStatus = st;
            continue;
          }
          return {
            result: undefined,
            status: withPlugin(
              wrapError(`running PreFilter plugin "${pl.name}": ${errorText(st)}`, st),
              pl.name,
            ),
            pluginsWithNodes: new Set(),
          };
        }
        if (r?.nodeNames) {
          pluginsWithNodes.add(pl.name);
          if (merged === undefined) merged = new Set(r.nodeNames);
          else for (const n of merged) if (!r.nodeNames.has(n)) merged.delete(n);
          if (merged.size === 0) {
            const names = [...pluginsWithNodes].sort();
            const msg =
              names.length === 1
                ? `node(s) didn't satisfy plugin ${names[0]}`
                : `node(s) didn't satisfy plugin(s) ${goList(names)} simultaneously`;
            return {
              result: { nodeNames: merged },
              status: newStatus('UnschedulableAndUnresolvable', msg),
              pluginsWithNodes,
            };
          }
        }
      }
      return { result: merged ? { nodeNames: merged } : undefined, status: returnStatus, pluginsWithNodes };
    } finally {
      state.skipFilterPlugins = skip;
    }
  }

  runPreFilterExtensionAddPod(
    state: CycleState,
    pod: Pod,
    toAdd: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | undefined {
    for (const pl of this.#preFilter) {
      if (state.skipFilterPlugins.has(pl.name)) continue;
      const ext = pl.preFilterExtensions?.();
      if (!ext) continue;
      const s = guard(() => ext.addPod(state, pod, toAdd, nodeInfo));
      if (!isSuccess(s)) {
        return wrapError(`running AddPod on PreFilter plugin "${pl.name}": ${errorText(s)}`, s);
      }
    }
    return undefined;
  }

  runPreFilterExtensionRemovePod(
    state: CycleState,
    pod: Pod,
    toRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | undefined {
    for (const pl of this.#preFilter) {
      if (state.skipFilterPlugins.has(pl.name)) continue;
      const ext = pl.preFilterExtensions?.();
      if (!ext) continue;
      const s = guard(() => ext.removePod(state, pod, toRemove, nodeInfo));
      if (!isSuccess(s)) {
        return wrapError(`running RemovePod on PreFilter plugin "${pl.name}": ${errorText(s)}`, s);
      }
    }
    return undefined;
  }

  runFilterPlugins(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const skip = state.skipFilterPlugins;
    const filters = this.#filter;
    for (let i = 0; i < filters.length; i++) {
      const pl = filters[i]!;
      if (skip.size > 0 && skip.has(pl.name)) continue;
      let s: Status | undefined;
      try {
        s = pl.filter(state, pod, nodeInfo);
      } catch (e) {
        s = asStatus(e);
      }
      if (s !== undefined && s.code !== 'Success') {
        if (!isRejected(s)) {
          s = wrapError(`running "${pl.name}" filter plugin: ${errorText(s)}`, s);
        }
        return withPlugin(s, pl.name);
      }
    }
    return undefined;
  }

  runFilterPluginsWithNominatedPods(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const nominated = this.nominatedPodsForNode(nodeInfo.name);
    if (nominated.length === 0) return this.runFilterPlugins(state, pod, nodeInfo);
    // Pass 1: with the nominated pods of priority >= the pod's treated as running.
    let added = false;
    const stateOut = state.clone();
    const nodeOut = nodeInfo.clone();
    const prio = podPriority(pod);
    const uid = podUid(pod);
    for (const pi of nominated) {
      if (podPriority(pi.pod) >= prio && podUid(pi.pod) !== uid) {
        nodeOut.addPodInfo(pi);
        const s = this.runPreFilterExtensionAddPod(stateOut, pod, pi, nodeOut);
        if (!isSuccess(s)) return asStatus(s!.error ?? new Error(statusMessage(s)));
        added = true;
      }
    }
    const first = added
      ? this.runFilterPlugins(stateOut, pod, nodeOut)
      : this.runFilterPlugins(state, pod, nodeInfo);
    if (!isSuccess(first) || !added) return first;
    // Pass 2: without them (filters like pod affinity may need them absent).
    return this.runFilterPlugins(state, pod, nodeInfo);
  }

  async runPostFilterPlugins(
    state: CycleState,
    pod: Pod,
    statuses: NodeToStatus,
  ): Promise<PostFilterOutcome> {
    let result: PostFilterResult | undefined;
    const reasons: string[] = [];
    let rejector = '';
    for (const pl of this.#postFilter) {
      let r: PostFilterResult | undefined;
      let s: Status | undefined;
      try {
        const out = await pl.postFilter(state, pod, statuses);
        r = out.result;
        s = out.status;
      } catch (e) {
        s = asStatus(e);
      }
      if (isSuccess(s)) return { result: r, status: s };
      if (s!.code === 'UnschedulableAndUnresolvable') return { result: r, status: withPlugin(s!, pl.name) };
      if (!isRejected(s)) {
        return {
          result: undefined,
          status: withPlugin(asStatus(s!.error ?? new Error(statusMessage(s))), pl.name),
        };
      }
      if (r?.nominatingInfo && r.nominatingInfo.mode !== 'Noop') result = r;
      reasons.push(...s!.reasons);
      if (rejector === '') rejector = pl.name;
    }
    const status: Status = { code: 'Unschedulable', reasons };
    return { result, status: rejector ? { ...status, plugin: rejector } : status };
  }

  runPreScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status | undefined {
    const skip = new Set<string>();
    try {
      for (const pl of this.#preScore) {
        const s = guard(() => pl.preScore(state, pod, nodes));
        if (isSkip(s)) {
          skip.add(pl.name);
          continue;
        }
        if (!isSuccess(s)) return wrapError(`running PreScore plugin "${pl.name}": ${errorText(s)}`, s);
      }
      return undefined;
    } finally {
      state.skipScorePlugins = skip;
    }
  }

  runScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): ScoreOutcome {
    const plugins: ScorePlugin[] = [];
    for (const pl of this.#score) if (!state.skipScorePlugins.has(pl.name)) plugins.push(pl);
    const n = nodes.length;
    // Raw scores per plugin in one flat array (plugin-major); NodeScore lists only for NormalizeScore.
    const raw = new Float64Array(plugins.length * n);
    for (let i = 0; i < n; i++) {
      const nodeInfo = nodes[i]!;
      for (let p = 0; p < plugins.length; p++) {
        const pl = plugins[p]!;
        let s: number | Status;
        try {
          s = pl.score(state, pod, nodeInfo);
        } catch (e) {
          s = asStatus(e);
        }
        if (typeof s !== 'number') {
          if (isSuccess(s)) s = 0;
          else {
            return {
              scores: [],
              status: wrapError(`running Score plugins: plugin "${pl.name}" failed with: ${errorText(s)}`, s),
            };
          }
        }
        raw[p * n + i] = s;
      }
    }
    for (let p = 0; p < plugins.length; p++) {
      const pl = plugins[p]!;
      if (!pl.normalizeScore) continue;
      const list: NodeScore[] = new Array(n);
      for (let i = 0; i < n; i++) list[i] = { name: nodes[i]!.name, score: raw[p * n + i]! };
      const s = guard(() => pl.normalizeScore!(state, pod, list));
      if (!isSuccess(s)) {
        return {
          scores: [],
          status: wrapError(
            `running Normalize on Score plugins: plugin "${pl.name}" failed with: ${errorText(s)}`,
            s,
          ),
        };
      }
      for (let i = 0; i < n; i++) raw[p * n + i] = list[i]!.score;
    }
    const weights = plugins.map((pl) => this.#scoreWeight.get(pl.name)!);
    const out: NodePluginScores[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const scores: PluginScore[] = new Array(plugins.length);
      let total = 0;
      for (let p = 0; p < plugins.length; p++) {
        const score = raw[p * n + i]!;
        if (score > MAX_NODE_SCORE || score < MIN_NODE_SCORE) {
          return {
            scores: [],
            status: asStatus(
              new Error(
                `applying score defaultWeights on Score plugins: plugin "${plugins[p]!.name}" returns an invalid score ${score}, it should in the range of [${MIN_NODE_SCORE}, ${MAX_NODE_SCORE}] after normalizing`,
              ),
            ),
          };
        }
        const weighted = score * weights[p]!;
        scores[p] = { name: plugins[p]!.name, score: weighted };
        total += weighted;
      }
      out[i] = { name: nodes[i]!.name, scores, totalScore: total };
    }
    return { scores: out, status: undefined };
  }

  runReservePluginsReserve(state: CycleState, pod: Pod, nodeName: string): Status | undefined {
    for (const pl of this.#reserve) {
      const s = guard(() => pl.reserve(state, pod, nodeName));
      if (!isSuccess(s)) {
        if (isRejected(s)) return withPlugin(s!, pl.name);
        return wrapError(`running Reserve plugin "${pl.name}": ${errorText(s)}`, s);
      }
    }
    return undefined;
  }

  runReservePluginsUnreserve(state: CycleState, pod: Pod, nodeName: string): void {
    for (let i = this.#reserve.length - 1; i >= 0; i--) {
      const pl = this.#reserve[i]!;
      try {
        pl.unreserve(state, pod, nodeName);
      } catch (e) {
        this.logger.error({ err: e, plugin: pl.name }, 'Unreserve plugin failed');
      }
    }
  }

  runPermitPlugins(state: CycleState, pod: Pod, nodeName: string): Status | undefined {
    const waits = new Map<string, number>();
    for (const pl of this.#permit) {
      let s: Status | undefined;
      let timeoutMs = 0;
      try {
        const out = pl.permit(state, pod, nodeName);
        s = out.status;
        timeoutMs = out.timeoutMs ?? 0;
      } catch (e) {
        s = asStatus(e);
      }
      if (isSuccess(s)) continue;
      if (isRejected(s)) return withPlugin(s!, pl.name);
      if (s!.code === 'Wait') {
        waits.set(pl.name, timeoutMs);
        continue;
      }
      return withPlugin(wrapError(`running Permit plugin "${pl.name}": ${errorText(s)}`, s), pl.name);
    }
    if (waits.size > 0) {
      this.#waiting.add(podUid(pod), new WaitingPod(pod, waits, this.scheduler));
      return newStatus(
        'Wait',
        `one or more plugins asked to wait and no plugin rejected pod "${pod.metadata.name ?? ''}"`,
      );
    }
    return undefined;
  }

  willWaitOnPermit(pod: Pod): boolean {
    return this.#waiting.get(podUid(pod)) !== undefined;
  }

  async waitOnPermit(pod: Pod): Promise<Status | undefined> {
    const uid = podUid(pod);
    const wp = this.#waiting.get(uid);
    if (!wp) return undefined;
    try {
      const s = await wp.done;
      if (isSuccess(s)) return undefined;
      if (isRejected(s)) return s;
      const err = asStatus(new Error(`waiting on permit for pod: ${statusMessage(s)}`));
      return s.plugin ? withPlugin(err, s.plugin) : err;
    } finally {
      this.#waiting.remove(uid);
    }
  }

  getWaitingPod(uid: string): WaitingPod | undefined {
    return this.#waiting.get(uid);
  }

  iterateOverWaitingPods(fn: (wp: WaitingPod) => void): void {
    this.#waiting.forEach(fn);
  }

  rejectWaitingPod(uid: string, plugin: string, message: string): boolean {
    const wp = this.#waiting.get(uid);
    if (!wp) return false;
    wp.reject(plugin, message);
    return true;
  }

  // ── binding cycle ────────────────────────────────────────────────────────────────────────────

  async runPreBindPlugins(
    state: CycleState,
    pod: Pod,
    nodeName: string,
    signal: AbortSignal,
  ): Promise<Status | undefined> {
    for (const pl of this.#preBind) {
      let s: Status | undefined;
      try {
        s = await pl.preBind(state, pod, nodeName, signal);
      } catch (e) {
        s = asStatus(e);
      }
      if (isSuccess(s)) continue;
      if (isRejected(s)) return withPlugin(s!, pl.name);
      return wrapError(`running PreBind plugin "${pl.name}": ${errorText(s)}`, s);
    }
    return undefined;
  }

  async runBindPlugins(
    state: CycleState,
    pod: Pod,
    nodeName: string,
    signal: AbortSignal,
  ): Promise<Status | undefined> {
    if (this.#bind.length === 0) return newStatus('Skip', '');
    let s: Status | undefined;
    for (const pl of this.#bind) {
      try {
        s = await pl.bind(state, pod, nodeName, signal);
      } catch (e) {
        s = asStatus(e);
      }
      if (isSkip(s)) continue;
      if (isSuccess(s)) return s;
      if (isRejected(s)) return withPlugin(s!, pl.name);
      return wrapError(`running Bind plugin "${pl.name}": ${errorText(s)}`, s);
    }
    return s;
  }

  runPostBindPlugins(state: CycleState, pod: Pod, nodeName: string): void {
    for (const pl of this.#postBind) {
      try {
        pl.postBind(state, pod, nodeName);
      } catch (e) {
        this.logger.error({ err: e, plugin: pl.name }, 'PostBind plugin failed');
      }
    }
  }
}
