// The scheduling framework's contract: extension points as small interfaces, cluster events, CycleState, the handle.
import type { SchedulerLike } from 'rxjs';
import type { Node, Pod } from '../../api/core-v1.ts';
import type { Logger } from '../../logger.ts';
import type { KubeObject } from '../../types.ts';
import type { NodeInfo, PodInfo } from './node-info.ts';
import type { Status } from './status.ts';

// ── Cycle state ────────────────────────────────────────────────────────────────────────────────

/**
 * Per-cycle scratch space shared by one pod's plugins (PreFilter writes, Filter reads, ...).
 * Invariants: lives for one scheduling cycle; `clone()` gives preemption's dry runs their own copy
 * (values that plugins change in place must be cloned by them: store values with a `clone()` method).
 */
export class CycleState {
  readonly #data = new Map<string, unknown>();
  /** Plugins whose PreFilter returned Skip: their Filter and PreFilterExtensions are not run. */
  skipFilterPlugins = new Set<string>();
  /** Plugins whose PreScore returned Skip: their Score is not run. */
  skipScorePlugins = new Set<string>();
  /** Pods that plugins ask to be activated after this cycle (PodsToActivate). */
  readonly podsToActivate = new Map<string, Pod>();

  read<T>(key: string): T | undefined {
    return this.#data.get(key) as T | undefined;
  }

  write(key: string, value: unknown): void {
    this.#data.set(key, value);
  }

  delete(key: string): void {
    this.#data.delete(key);
  }

  clone(): CycleState {
    const copy = new CycleState();
    for (const [k, v] of this.#data) {
      const c = v as { clone?: () => unknown } | null;
      copy.#data.set(k, c && typeof c === 'object' && typeof c.clone === 'function' ? c.clone() : v);
    }
    copy.skipFilterPlugins = new Set(this.skipFilterPlugins);
    copy.skipScorePlugins = new Set(this.skipScorePlugins);
    return copy;
  }
}

// ── Cluster events and queueing hints ──────────────────────────────────────────────────────────

/** The resources a cluster event can be about; `AssignedPod`/`UnschedulablePod` narrow `Pod`. */
export type EventResource =
  | 'Pod'
  | 'AssignedPod'
  | 'UnschedulablePod'
  | 'Node'
  | 'PersistentVolume'
  | 'PersistentVolumeClaim'
  | 'CSINode'
  | 'CSIDriver'
  | 'CSIStorageCapacity'
  | 'StorageClass'
  | 'VolumeAttachment'
  | 'ResourceClaim'
  | 'ResourceSlice'
  | 'DeviceClass'
  | '*';

/** Action bits, as kube-scheduler's framework.ActionType. */
export const ActionType = {
  None: 0,
  Add: 1 << 0,
  Delete: 1 << 1,
  UpdateNodeAllocatable: 1 << 2,
  UpdateNodeLabel: 1 << 3,
  UpdateNodeTaint: 1 << 4,
  UpdateNodeCondition: 1 << 5,
  UpdateNodeAnnotation: 1 << 6,
  UpdatePodLabel: 1 << 7,
  UpdatePodScaleDown: 1 << 8,
  UpdatePodToleration: 1 << 9,
  UpdatePodSchedulingGatesEliminated: 1 << 10,
  UpdatePodGeneratedResourceClaim: 1 << 11,
  /** Any other pod update (internal bit). */
  UpdatePodOther: 1 << 12,
  /** Every update bit. */
  Update: (1 << 13) - 1 - (1 << 0) - (1 << 1),
  /** Add | Delete | Update. */
  All: (1 << 13) - 1,
} as const;

/**
 * A change in the cluster that may make an unschedulable pod schedulable. `label` names it in
 * metrics and logs (e.g. `NodeAdd`, `AssignedPodDelete`, `UnschedulableTimeout`).
 */
export interface ClusterEvent {
  readonly resource: EventResource;
  readonly action: number;
  readonly label?: string;
}

/** The two wildcard events: every pod may move (after backoff). */
export const UNSCHEDULABLE_TIMEOUT: ClusterEvent = {
  resource: '*',
  action: ActionType.All,
  label: 'UnschedulableTimeout',
};
export const FORCE_ACTIVATE: ClusterEvent = { resource: '*', action: ActionType.All, label: 'ForceActivate' };

export type QueueingHint = 'Queue' | 'QueueSkip';

/**
 * Whether `event` may make `pod` schedulable for the plugin that registered it. A throw counts as
 * `Queue` (the queue logs it).
 */
export type QueueingHintFn = (
  pod: Pod,
  oldObj: KubeObject | undefined,
  newObj: KubeObject | undefined,
) => QueueingHint;

export interface ClusterEventWithHint {
  readonly event: ClusterEvent;
  /** Without a hint function every matching event queues the pod. */
  readonly hint?: QueueingHintFn;
}

// ── Plugins ────────────────────────────────────────────────────────────────────────────────────

export interface Plugin {
  readonly name: string;
}

/** Plugins that can reject a pod say which events may change their mind. Without it: every event. */
export interface EnqueueExtensions {
  eventsToRegister(): readonly ClusterEventWithHint[];
}

export interface PreEnqueuePlugin extends Plugin {
  preEnqueue(pod: Pod): Status | undefined;
}

/** The minimum the queue sort sees of a queued pod. */
export interface QueuedPodRef {
  readonly pod: Pod;
  /** When it last entered the queue (scheduler time, ms). */
  readonly timestamp: number;
}

export interface QueueSortPlugin extends Plugin {
  /** True when `a` should pop before `b`. */
  less(a: QueuedPodRef, b: QueuedPodRef): boolean;
}

/** PreFilter may restrict the nodes worth filtering; `undefined` node names means all nodes. */
export interface PreFilterResult {
  readonly nodeNames?: ReadonlySet<string>;
}

export interface PreFilterExtensions {
  /** Called when a pod is added to `nodeInfo` in a what-if (nominated pods, preemption). */
  addPod(
    state: CycleState,
    podToSchedule: Pod,
    podInfoToAdd: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | undefined;
  removePod(
    state: CycleState,
    podToSchedule: Pod,
    podInfoToRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | undefined;
}

export interface PreFilterPlugin extends Plugin {
  preFilter(
    state: CycleState,
    pod: Pod,
    nodes: readonly NodeInfo[],
  ): { result?: PreFilterResult; status?: Status } | undefined;
  preFilterExtensions?(): PreFilterExtensions | undefined;
}

export interface FilterPlugin extends Plugin {
  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined;
}

/** Why each node was rejected in this cycle; nodes not in `statuses` carry `absent`. */
export interface NodeToStatus {
  readonly statuses: ReadonlyMap<string, Status>;
  /** The status of nodes never filtered (PreFilterResult excluded them); usually UnschedulableAndUnresolvable. */
  readonly absent?: Status;
}

export interface NominatingInfo {
  readonly nominatedNodeName: string;
  /** Override sets (or, with '', clears) the nomination; Noop leaves it. */
  readonly mode: 'Override' | 'Noop';
}

export interface PostFilterResult {
  readonly nominatingInfo?: NominatingInfo;
  /** How many pods the plugin evicted (preemption victims), for scheduler_preemption_victims. */
  readonly victims?: number;
}

export interface PostFilterPlugin extends Plugin {
  postFilter(
    state: CycleState,
    pod: Pod,
    filteredNodeStatuses: NodeToStatus,
  ): Promise<{ result?: PostFilterResult; status?: Status }>;
}

export interface PreScorePlugin extends Plugin {
  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status | undefined;
}

export interface NodeScore {
  readonly name: string;
  score: number;
}

export const MAX_NODE_SCORE = 100;
export const MIN_NODE_SCORE = 0;

export interface ScorePlugin extends Plugin {
  /** The node's raw score, or a non-Success Status on failure. */
  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status;
  /** Rewrites `scores` in place to [0, 100]. */
  normalizeScore?(state: CycleState, pod: Pod, scores: NodeScore[]): Status | undefined;
}

export interface ReservePlugin extends Plugin {
  reserve(state: CycleState, pod: Pod, nodeName: string): Status | undefined;
  /** Must be idempotent; runs in reverse order over every reserve plugin when any later step fails. */
  unreserve(state: CycleState, pod: Pod, nodeName: string): void;
}

export interface PermitPlugin extends Plugin {
  /** Wait with `timeoutMs` (capped at 15 minutes) to hold the pod until allowed or rejected. */
  permit(state: CycleState, pod: Pod, nodeName: string): { status?: Status; timeoutMs?: number };
}

export interface PreBindPlugin extends Plugin {
  preBind(state: CycleState, pod: Pod, nodeName: string, signal: AbortSignal): Promise<Status | undefined>;
}

export interface BindPlugin extends Plugin {
  /** Skip means "not mine, try the next binder". */
  bind(state: CycleState, pod: Pod, nodeName: string, signal: AbortSignal): Promise<Status | undefined>;
}

export interface PostBindPlugin extends Plugin {
  postBind(state: CycleState, pod: Pod, nodeName: string): void;
}

// ── What plugins get from the scheduler ────────────────────────────────────────────────────────

/** The cycle's view of the cluster: every node, in the scheduler's order. Read-only for plugins. */
export interface NodeInfoLister {
  list(): readonly NodeInfo[];
  get(nodeName: string): NodeInfo | undefined;
  /** Nodes with at least one pod that declares pod (anti-)affinity. */
  havePodsWithAffinityList(): readonly NodeInfo[];
  /** Nodes with at least one pod that declares required pod anti-affinity. */
  havePodsWithRequiredAntiAffinityList(): readonly NodeInfo[];
}

/** A PodDisruptionBudget as preemption reads it. */
export interface PodDisruptionBudget extends KubeObject {
  spec?: {
    selector?: import('../../api/core-v1.ts').LabelSelector;
    minAvailable?: number | string;
    maxUnavailable?: number | string;
  };
  status?: { disruptionsAllowed?: number; disruptedPods?: Record<string, string> };
}

/** The writes plugins may make (DefaultBinder binds; DefaultPreemption deletes victims and patches status). */
export interface SchedulerApi {
  bind(pod: Pod, nodeName: string, signal: AbortSignal): Promise<void>;
  /** Deletes a pod with its grace period (a victim). */
  deletePod(pod: Pod, signal: AbortSignal): Promise<void>;
  /** Adds or replaces a condition on the pod's status (e.g. DisruptionTarget). */
  patchPodCondition(
    pod: Pod,
    condition: import('../../api/core-v1.ts').PodCondition,
    signal: AbortSignal,
  ): Promise<void>;
  /** Sets (or with '' clears) status.nominatedNodeName. */
  setNominatedNodeName(pod: Pod, nodeName: string, signal: AbortSignal): Promise<void>;
  /**
   * Records a core/v1 Event about a pod, reported by `reportingController` (the profile's scheduler
   * name), e.g. DefaultPreemption's `Preempted` on a victim. Optional: without it no Event is written.
   */
  recordEvent?(
    pod: Pod,
    type: 'Normal' | 'Warning',
    reason: string,
    action: string,
    message: string,
    reportingController: string,
    signal?: AbortSignal,
  ): Promise<void>;
}

/**
 * The framework handle a plugin factory receives. Everything is read at call time, so plugins always
 * see the current cycle's snapshot.
 */
export interface FrameworkHandle {
  /** The current cycle's snapshot of nodes. */
  snapshot(): NodeInfoLister;
  /** The scheduler's clock (virtual in tests). */
  readonly scheduler: SchedulerLike;
  readonly logger: Logger;
  readonly api: SchedulerApi;
  /** The profile's parallelism for per-node work. */
  readonly parallelism: number;
  /** Pods nominated to a node (by earlier preemptions), in nomination order. */
  nominatedPodsForNode(nodeName: string): readonly PodInfo[];
  /** The current state of a pod (from the informer), or undefined when it is gone. */
  getPod(namespace: string, name: string): Pod | undefined;
  /** Every PodDisruptionBudget (preemption). */
  podDisruptionBudgets(): readonly PodDisruptionBudget[];
  /** Runs the profile's Filter plugins, with nominated pods as upstream's RunFilterPluginsWithNominatedPods. */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined;
  /** Runs every PreFilterExtensions.addPod / removePod of the profile (preemption's what-ifs). */
  runPreFilterExtensionAddPod(
    state: CycleState,
    pod: Pod,
    toAdd: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | undefined;
  runPreFilterExtensionRemovePod(
    state: CycleState,
    pod: Pod,
    toRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | undefined;
  /** Rejects a pod waiting at Permit (preemption of a waiting victim); false when it is not waiting. */
  rejectWaitingPod(uid: string, plugin: string, message: string): boolean;
  /** Activates pods (moves them to activeQ). */
  activate(pods: readonly Pod[]): void;
}

/** Builds a plugin from its args (already defaulted and validated) and the handle. */
export type PluginFactory = (args: unknown, handle: FrameworkHandle) => Plugin;

/** Plugin name → factory. The in-tree registry holds the default plugins; users merge their own. */
export type Registry = Readonly<Record<string, PluginFactory>>;

/** Type guards for the extension points a plugin implements. */
export const implementsPoint = {
  preEnqueue: (p: Plugin): p is PreEnqueuePlugin => typeof (p as PreEnqueuePlugin).preEnqueue === 'function',
  queueSort: (p: Plugin): p is QueueSortPlugin => typeof (p as QueueSortPlugin).less === 'function',
  preFilter: (p: Plugin): p is PreFilterPlugin => typeof (p as PreFilterPlugin).preFilter === 'function',
  filter: (p: Plugin): p is FilterPlugin => typeof (p as FilterPlugin).filter === 'function',
  postFilter: (p: Plugin): p is PostFilterPlugin => typeof (p as PostFilterPlugin).postFilter === 'function',
  preScore: (p: Plugin): p is PreScorePlugin => typeof (p as PreScorePlugin).preScore === 'function',
  score: (p: Plugin): p is ScorePlugin => typeof (p as ScorePlugin).score === 'function',
  reserve: (p: Plugin): p is ReservePlugin => typeof (p as ReservePlugin).reserve === 'function',
  permit: (p: Plugin): p is PermitPlugin => typeof (p as PermitPlugin).permit === 'function',
  preBind: (p: Plugin): p is PreBindPlugin => typeof (p as PreBindPlugin).preBind === 'function',
  bind: (p: Plugin): p is BindPlugin => typeof (p as BindPlugin).bind === 'function',
  postBind: (p: Plugin): p is PostBindPlugin => typeof (p as PostBindPlugin).postBind === 'function',
  enqueueExtensions: (p: Plugin): p is Plugin & EnqueueExtensions =>
    typeof (p as unknown as EnqueueExtensions).eventsToRegister === 'function',
} as const;

export type { Node, Pod };
