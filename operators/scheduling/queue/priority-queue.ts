// PriorityQueue: kube-scheduler's scheduling queue (activeQ, backoffQ, unschedulablePods, in-flight pods) as pure state.

import type { SchedulerLike } from 'rxjs';
import { asyncScheduler } from 'rxjs';
import type { Pod, PodAffinityTerm } from '../../api/core-v1.ts';
import { KubeRxError } from '../../errors.ts';
import { type LabelSelector, labelSelectorFromObject } from '../../label-selector.ts';
import { type Logger, silentLogger } from '../../logger.ts';
import { deepEqual } from '../../pod-config/deep-equal.ts';
import type { KubeObject } from '../../types.ts';
import {
  ActionType,
  type ClusterEvent,
  type ClusterEventWithHint,
  FORCE_ACTIVATE,
  type NominatingInfo,
  type PreEnqueuePlugin,
  type QueuedPodRef,
  type QueueingHintFn,
  UNSCHEDULABLE_TIMEOUT,
} from '../framework/interface.ts';
import { newPodInfo, type PodInfo } from '../framework/node-info.ts';
import { asStatus, isSuccess, type Status } from '../framework/status.ts';
import { BackoffQueue } from './backoff-queue.ts';
import {
  clusterEventIsWildCard,
  clusterEventLabel,
  EVENT_ASSIGNED_POD_ADD,
  EVENT_UNSCHEDULED_POD_ADD,
  EVENT_UNSCHEDULED_POD_UPDATE,
  matchAnyClusterEvent,
  matchClusterEvents,
  QueueEventLabel,
} from './cluster-events.ts';
import { KeyedHeap } from './keyed-heap.ts';
import { Nominator } from './nominator.ts';
import { podSchedulingPropertiesChange } from './pod-scheduling-properties-change.ts';
import { podKey, QueuedPodInfo } from './queued-pod-info.ts';

/** The sub-queues, as the `queue` label of scheduler_pending_pods names them. */
export type PendingQueueLabel = 'active' | 'backoff' | 'unschedulable' | 'gated';

/** Where a pod went: the `queue` label of scheduler_queue_incoming_pods_total. */
export type IncomingQueueLabel = 'active' | 'backoff' | 'unschedulable';

/**
 * The queue's metrics sink; `src/` implements it with upstream's names. Every method is optional.
 */
export interface SchedulingQueueMetrics {
  /** scheduler_pending_pods{queue}: called with the new count whenever a count changes. */
  pendingPods?(queue: PendingQueueLabel, count: number): void;
  /** scheduler_queue_incoming_pods_total{queue,event}: one pod entered `queue` because of `event`. */
  incomingPod?(queue: IncomingQueueLabel, event: string): void;
  /** scheduler_unschedulable_pods{plugin,profile} deltas as pods are rejected by / popped past a plugin. */
  unschedulableReason?(plugin: string, profile: string, delta: number): void;
}

/** How a cluster event should requeue a pod (queueSkip < queueAfterBackoff < queueImmediately). */
export type QueueingStrategy = 'queueSkip' | 'queueAfterBackoff' | 'queueImmediately';

/** Limits `moveAllToActiveOrBackoffQueue` to some pods (e.g. priority no higher than a deleted pod's). */
export type PreEnqueueCheck = (pod: Pod) => boolean;

export interface PriorityQueueConfig {
  /**
   * activeQ's order (the profile's QueueSort `less`). Default: PrioritySort (higher
   * `spec.priority` first, then the older timestamp).
   */
  less?: (a: QueuedPodRef, b: QueuedPodRef) => boolean;
  /** PreEnqueue plugins per profile (scheduler name), run in order. Default none. */
  preEnqueuePlugins?: Readonly<Record<string, readonly PreEnqueuePlugin[]>>;
  /**
   * Events each plugin registered, per profile: profile → plugin name → events with hints. The
   * framework registers a plugin without EnqueueExtensions for every event (`*`/All, no hint).
   */
  queueingHints?: Readonly<Record<string, Readonly<Record<string, readonly ClusterEventWithHint[]>>>>;
  /** Backoff after the first failure (ms). Default 1000 (podInitialBackoffSeconds: 1). */
  podInitialBackoffMs?: number;
  /** Cap of the doubling backoff (ms); 0 turns backoff off. Default 10000 (podMaxBackoffSeconds: 10). */
  podMaxBackoffMs?: number;
  /** How long a pod may stay unschedulable before the leftover flush moves it (ms). Default 5 minutes. */
  podMaxInUnschedulablePodsDurationMs?: number;
  /** The clock. Default `asyncScheduler`. */
  scheduler?: SchedulerLike;
  logger?: Logger;
  metrics?: SchedulingQueueMetrics;
  /** The informer's current pod, for the nominator (a gone or bound pod is not nominated). */
  podLister?: (namespace: string, name: string) => Pod | undefined;
  /** A namespace's labels, for affinity terms with a namespaceSelector. Default: no labels. */
  namespaceLabels?: (namespace: string) => Readonly<Record<string, string>> | undefined;
  /** SchedulerQueueingHints. Default true (GA, locked on from 1.34). */
  queueingHintsEnabled?: boolean;
  /** SchedulerPopFromBackoffQ. Default true (beta, on from 1.33). */
  popFromBackoffQEnabled?: boolean;
}

/** The default order: PrioritySort's (priority, then the older timestamp). */
export function prioritySortLess(a: QueuedPodRef, b: QueuedPodRef): boolean {
  const pa = a.pod.spec.priority ?? 0;
  const pb = b.pod.spec.priority ?? 0;
  return pa > pb || (pa === pb && a.timestamp < b.timestamp);
}

interface RecordedEvent {
  readonly event: ClusterEvent;
  readonly oldObj: KubeObject | undefined;
  readonly newObj: KubeObject | undefined;
}

/** A node of the in-flight list: either a popped pod's marker or an event seen while pods were in flight. */
interface InFlightNode {
  readonly pod?: Pod;
  readonly event?: RecordedEvent;
  prev: InFlightNode | undefined;
  next: InFlightNode | undefined;
}

interface RegisteredHint {
  readonly event: ClusterEvent;
  readonly plugin: string;
  readonly hint?: QueueingHintFn;
}

interface UnschedulableEntry {
  readonly info: QueuedPodInfo;
  /** Whether it was counted as gated when it entered (decides the gauge it leaves). */
  gated: boolean;
}

const POD_TOPOLOGY_SPREAD = 'PodTopologySpread';

/**
 * kube-scheduler's PriorityQueue (1.33+: queueing hints on, pop from backoffQ on, backoff counted
 * from UnschedulableCount / ConsecutiveErrorsCount), single-threaded, with a non-blocking `pop`.
 *
 * Invariants:
 * - Every pod the queue knows of is in exactly one of activeQ, backoffQ (one of its two heaps),
 *   unschedulablePods or in flight (popped, `done` not yet called); the first three are keyed
 *   `namespace/name`, in-flight pods by uid. A pod is never popped while it is in flight.
 * - activeQ is ordered by `less`; backoffQ by backoff expiry (see {@link BackoffQueue}).
 * - The queue holds one entry per pod: an update of a queued pod replaces it in place; events seen
 *   while pods are in flight are kept only until every pod popped before them is done.
 * - `schedulingCycle` counts pops; `moveRequestCycle` is the cycle of the last move request.
 *
 * Time comes from `scheduler.now()`; the queue sets no timer itself (the periodic flushes are run by
 * {@link schedulingQueue}). Whenever activeQ (or, popping from backoffQ, backoffQ) gains pods the
 * listeners given to `onReady` are called, after the operation that added them has finished.
 */
export class PriorityQueue {
  readonly scheduler: SchedulerLike;
  readonly podMaxInUnschedulablePodsDurationMs: number;
  readonly queueingHintsEnabled: boolean;
  readonly popFromBackoffQEnabled: boolean;
  readonly backoffQ: BackoffQueue;
  readonly nominator: Nominator;
  private readonly less: (a: QueuedPodRef, b: QueuedPodRef) => boolean;
  private readonly activeQ: KeyedHeap<QueuedPodInfo>;
  private readonly unschedulable = new Map<string, UnschedulableEntry>();
  private gatedCount = 0;
  private readonly inFlight = new Map<string, InFlightNode>();
  private inFlightHead: InFlightNode | undefined;
  private inFlightTail: InFlightNode | undefined;
  private inFlightEventCount = 0;
  private cycle = 0;
  private moveRequest = -1;
  private closed = false;
  private readonly logger: Logger;
  private readonly metrics: SchedulingQueueMetrics | undefined;
  private readonly preEnqueue: Readonly<Record<string, readonly PreEnqueuePlugin[]>>;
  private readonly hintsByProfile = new Map<string, RegisteredHint[]>();
  private readonly allRegistered: ClusterEvent[] = [];
  private readonly pluginEvents = new Map<string, ClusterEvent[]>();
  private readonly namespaceLabels: (ns: string) => Readonly<Record<string, string>> | undefined;
  private readonly podLister: ((namespace: string, name: string) => Pod | undefined) | undefined;
  private readonly selectorCache = new WeakMap<object, LabelSelector>();
  private readonly listeners = new Set<() => void>();
  private depth = 0;
  private wake = false;
  private readonly lastCounts: Record<PendingQueueLabel, number> = {
    active: 0,
    backoff: 0,
    unschedulable: 0,
    gated: 0,
  };

  constructor(config: PriorityQueueConfig = {}) {
    this.scheduler = config.scheduler ?? asyncScheduler;
    this.logger = (config.logger ?? silentLogger).child({ component: 'scheduling-queue' });
    this.metrics = config.metrics;
    this.less = config.less ?? prioritySortLess;
    this.queueingHintsEnabled = config.queueingHintsEnabled ?? true;
    this.popFromBackoffQEnabled = config.popFromBackoffQEnabled ?? true;
    this.podMaxInUnschedulablePodsDurationMs = config.podMaxInUnschedulablePodsDurationMs ?? 5 * 60_000;
    this.preEnqueue = config.preEnqueuePlugins ?? {};
    this.namespaceLabels = config.namespaceLabels ?? (() => undefined);
    this.podLister = config.podLister;
    this.activeQ = new KeyedHeap((p: QueuedPodInfo) => podKey(p.pod), this.less);
    this.backoffQ = new BackoffQueue({
      now: () => this.scheduler.now(),
      podInitialBackoffMs: config.podInitialBackoffMs,
      podMaxBackoffMs: config.podMaxBackoffMs,
      less: this.less,
      popFromBackoffQ: this.popFromBackoffQEnabled,
    });
    this.nominator = new Nominator(config.podLister);
    for (const [profile, plugins] of Object.entries(config.queueingHints ?? {})) {
      const list: RegisteredHint[] = [];
      for (const [plugin, events] of Object.entries(plugins)) {
        for (const { event, hint } of events) {
          list.push({ event, plugin, hint });
          this.allRegistered.push(event);
          const forPlugin = this.pluginEvents.get(plugin) ?? [];
          forPlugin.push(event);
          this.pluginEvents.set(plugin, forPlugin);
        }
      }
      this.hintsByProfile.set(profile, list);
    }
  }

  // ── Reading ──────────────────────────────────────────────────────────────────────────────────

  /** The number of pops so far. */
  schedulingCycle(): number {
    return this.cycle;
  }

  /** The scheduling cycle of the last move request (-1 before any). */
  moveRequestCycle(): number {
    return this.moveRequest;
  }

  /** Pods in activeQ (heap order). */
  podsInActiveQ(): Pod[] {
    return this.activeQ.list().map((p) => p.pod);
  }

  /** Pods in backoffQ (podBackoffQ's, then podErrorBackoffQ's). */
  podsInBackoffQ(): Pod[] {
    return this.backoffQ.list().map((p) => p.pod);
  }

  /** Pods in unschedulablePods, gated ones included. */
  unschedulablePods(): Pod[] {
    return [...this.unschedulable.values()].map((e) => e.info.pod);
  }

  /** Pods popped and not yet done. */
  inFlightPods(): Pod[] {
    return [...this.inFlight.values()].map((n) => n.pod!);
  }

  /**
   * The in-flight list in order: popped pods (`{ pod }`) interleaved with the events recorded while
   * pods were in flight (`{ event }`), for inspection and tests.
   */
  inFlightEntries(): ({ pod: Pod } | { event: ClusterEvent })[] {
    const out: ({ pod: Pod } | { event: ClusterEvent })[] = [];
    for (let n = this.inFlightHead; n; n = n.next)
      out.push(n.pod ? { pod: n.pod } : { event: n.event!.event });
    return out;
  }

  /** Number of events recorded while pods are in flight (bounded: pruned as pods are done). */
  inFlightEventsCount(): number {
    return this.inFlightEventCount;
  }

  /** Where the pod with this key is: a sub-queue, or undefined (in flight or unknown). */
  whereIs(namespace: string, name: string): 'active' | 'backoff' | 'unschedulable' | undefined {
    const key = `${namespace}/${name}`;
    if (this.activeQ.has(key)) return 'active';
    if (this.backoffQ.has(key)) return 'backoff';
    if (this.unschedulable.has(key)) return 'unschedulable';
    return undefined;
  }

  /** Every queued pod and the summary `activeQ:%d; backoffQ:%d; unschedulablePods:%d`. */
  pendingPods(): { pods: Pod[]; summary: string } {
    const active = this.podsInActiveQ();
    const backoff = this.podsInBackoffQ();
    const unsched = this.unschedulablePods();
    return {
      pods: [...active, ...backoff, ...unsched],
      summary: `activeQ:${active.length}; backoffQ:${backoff.length}; unschedulablePods:${unsched.length}`,
    };
  }

  /** The queued info of a pod, looked up in backoffQ, then unschedulablePods, then activeQ. */
  getPod(name: string, namespace: string): QueuedPodInfo | undefined {
    const key = `${namespace}/${name}`;
    return this.backoffQ.get(key) ?? this.unschedulable.get(key)?.info ?? this.activeQ.get(key);
  }

  /**
   * The pods nominated to `nodeName`, in nomination order: their queued version when queued, else
   * the pod lister's (an in-flight pod), else a bare pod with only its name, namespace and uid.
   */
  nominatedPodsForNode(nodeName: string): PodInfo[] {
    return this.nominator.podsForNode(nodeName).map((ref) => {
      const key = `${ref.namespace}/${ref.name}`;
      const queued = this.activeQ.get(key) ?? this.unschedulable.get(key)?.info ?? this.backoffQ.get(key);
      if (queued) return queued.podInfo;
      const current = this.podLister?.(ref.namespace, ref.name);
      if (current && current.metadata.uid === ref.uid) return newPodInfo(current);
      return newPodInfo({
        metadata: { name: ref.name, namespace: ref.namespace, uid: ref.uid },
        spec: { containers: [] },
      } as Pod);
    });
  }

  /** Calls `listener` (after the current operation) whenever pods become available to pop; returns the remover. */
  onReady(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** True after `close()`. */
  isClosed(): boolean {
    return this.closed;
  }

  /** A new QueuedPodInfo stamped with the current time (tests and the failure handler use it). */
  newQueuedPodInfo(pod: Pod, ...unschedulablePlugins: string[]): QueuedPodInfo {
    return new QueuedPodInfo(pod, this.now(), unschedulablePlugins);
  }

  // ── Nominations ──────────────────────────────────────────────────────────────────────────────

  /** Nominates `pod` (see {@link Nominator.add}). */
  addNominatedPod(pod: Pod, nominatingInfo?: NominatingInfo): void {
    this.nominator.add(pod, nominatingInfo);
  }

  /** Removes the pod's nomination (on delete and when the pod is assumed). */
  deleteNominatedPodIfExists(pod: Pod): void {
    this.nominator.delete(pod);
  }

  // ── Writing ──────────────────────────────────────────────────────────────────────────────────

  /** A new pending pod: into activeQ (or unschedulablePods when a PreEnqueue plugin gates it). */
  add(pod: Pod): void {
    this.op(() => {
      const p = this.newQueuedPodInfo(pod);
      if (this.moveToActiveQ(p, clusterEventLabel(EVENT_UNSCHEDULED_POD_ADD), false)) this.wake = true;
    });
  }

  /**
   * A pending pod changed. In flight: the update is recorded as events for its requeue. In activeQ
   * or backoffQ: replaced in place. In unschedulablePods: replaced, then moved if a hint (hints off:
   * a real change) says the update may help. Unknown: added as new.
   */
  update(oldPod: Pod | undefined, newPod: Pod): void {
    this.op(() => {
      const events = this.queueingHintsEnabled && oldPod ? podSchedulingPropertiesChange(newPod, oldPod) : [];
      if (this.queueingHintsEnabled && this.recordIfInFlight(oldPod, newPod, events)) return;
      if (oldPod) {
        const oldKey = podKey(oldPod);
        const inActive = this.activeQ.get(oldKey);
        if (inActive) {
          inActive.update(newPod);
          this.activeQ.addOrUpdate(inActive);
          this.nominator.update(oldPod, newPod);
          return;
        }
        const inBackoff = this.backoffQ.update(oldKey, newPod);
        if (inBackoff) {
          this.nominator.update(oldPod, newPod);
          return;
        }
      }
      const entry = this.unschedulable.get(podKey(newPod));
      if (entry) {
        const p = entry.info;
        p.update(newPod);
        this.nominator.update(oldPod, newPod);
        if (this.queueingHintsEnabled) {
          for (const event of events.length ? events : [EVENT_UNSCHEDULED_POD_UPDATE]) {
            const hint = this.isPodWorthRequeuing(p, event, oldPod, newPod);
            const queue = this.requeue(p, hint, clusterEventLabel(event));
            if (queue !== 'unschedulable') {
              if (queue === 'active' || this.popFromBackoffQEnabled) this.wake = true;
              break;
            }
          }
          return;
        }
        if (oldPod === undefined || isPodUpdated(oldPod, newPod)) {
          const label = clusterEventLabel(EVENT_UNSCHEDULED_POD_UPDATE);
          if (this.backoffQ.isPodBackingoff(p)) {
            if (this.moveToBackoffQ(p, label) && this.popFromBackoffQEnabled) this.wake = true;
          } else if (this.moveToActiveQ(p, label, false)) {
            this.wake = true;
          }
        }
        return;
      }
      const p = this.newQueuedPodInfo(newPod);
      if (this.moveToActiveQ(p, clusterEventLabel(EVENT_UNSCHEDULED_POD_UPDATE), false)) this.wake = true;
    });
  }

  /** A pending pod was deleted: its nomination goes, and it leaves whichever sub-queue holds it. */
  delete(pod: Pod): void {
    this.op(() => {
      this.nominator.delete(pod);
      const key = podKey(pod);
      if (this.activeQ.delete(key)) return;
      if (this.backoffQ.delete(key)) return;
      this.deleteUnschedulable(key);
    });
  }

  /**
   * Moves the pods to activeQ (event ForceActivate) from unschedulablePods or backoffQ. A pod in
   * flight gets a ForceActivate event aimed at it, so it is requeued when it comes back; an unknown
   * pod, or one already in activeQ, is left alone.
   */
  activate(pods: Iterable<Pod>): void {
    this.op(() => {
      for (const pod of pods) {
        const key = podKey(pod);
        let p = this.unschedulable.get(key)?.info;
        let fromBackoff = false;
        if (!p) {
          p = this.backoffQ.delete(key);
          fromBackoff = p !== undefined;
        }
        if (p) {
          if (this.moveToActiveQ(p, QueueEventLabel.ForceActivate, fromBackoff)) this.wake = true;
          continue;
        }
        this.recordIfInFlight(undefined, pod, [FORCE_ACTIVATE]);
        this.moveRequest = this.cycle;
      }
    });
  }

  /**
   * Takes the head of activeQ (or, when activeQ is empty and popping from backoffQ is on, the head
   * of podBackoffQ even if still backing off): attempts += 1, the scheduling cycle advances and
   * the pod is in flight until `done`. Never waits.
   *
   * @returns the pod, or undefined when there is none (or the queue is closed)
   */
  pop(): QueuedPodInfo | undefined {
    if (this.closed) return undefined;
    let result: QueuedPodInfo | undefined;
    this.op(() => {
      for (;;) {
        let p = this.activeQ.pop();
        if (!p && this.popFromBackoffQEnabled && this.backoffQ.lenBackoff() > 0) {
          p = this.backoffQ.popBackoff();
          if (p) this.metrics?.incomingPod?.('active', QueueEventLabel.PopFromBackoffQ);
        }
        if (!p) return;
        p.attempts++;
        if (this.queueingHintsEnabled) {
          if (this.inFlight.has(p.uid)) {
            this.logger.error(
              { pod: podKey(p.pod) },
              'the same pod is tracked in multiple places in the scheduler; discarding the popped entry',
            );
            continue;
          }
          this.inFlight.set(p.uid, this.pushInFlight({ pod: p.pod }));
        }
        this.cycle++;
        for (const plugin of [...p.unschedulablePlugins, ...p.pendingPlugins]) {
          this.metrics?.unschedulableReason?.(plugin, p.schedulerName, -1);
        }
        result = p;
        return;
      }
    });
    return result;
  }

  /**
   * The scheduling (or binding) of a popped pod is over: it leaves the in-flight set, and events
   * no longer needed by any pod still in flight are dropped. A second call does nothing.
   */
  done(uid: string): void {
    if (!this.queueingHintsEnabled) return;
    const node = this.inFlight.get(uid);
    if (!node) return;
    this.inFlight.delete(uid);
    this.unlink(node);
    while (this.inFlightHead?.event) this.unlink(this.inFlightHead);
  }

  /**
   * Requeues a popped pod that failed (the loop has set its rejecting plugins), then calls
   * `done`. A rejection counts against UnschedulableCount and clears the error count; no rejector
   * (an error) counts against ConsecutiveErrorsCount. With hints, the events seen while it was in
   * flight decide: any worth requeuing moves it to backoffQ or activeQ, else it waits in
   * unschedulablePods.
   *
   * @returns an error value when the pod is already queued (it is then left where it is)
   */
  addUnschedulableIfNotPresent(p: QueuedPodInfo, podSchedulingCycle: number): KubeRxError | undefined {
    let error: KubeRxError | undefined;
    this.op(() => {
      try {
        const key = podKey(p.pod);
        const where = this.unschedulable.has(key)
          ? 'unschedulable queue'
          : this.activeQ.has(key)
            ? 'the active queue'
            : this.backoffQ.has(key)
              ? 'the backoff queue'
              : undefined;
        if (where) {
          error = new KubeRxError('KUBE_RX_POD_ALREADY_QUEUED', `Pod ${key} is already present in ${where}`);
          return;
        }
        const rejectors = new Set([...p.unschedulablePlugins, ...p.pendingPlugins]);
        if (rejectors.size === 0) {
          p.consecutiveErrorsCount++;
        } else {
          p.unschedulableCount++;
          p.consecutiveErrorsCount = 0;
        }
        p.timestamp = this.now();
        p.backoffExpiration = undefined;
        p.wasFlushedFromUnschedulable = false;
        for (const plugin of rejectors) this.metrics?.unschedulableReason?.(plugin, p.schedulerName, 1);
        const label = QueueEventLabel.ScheduleAttemptFailure;
        if (!this.queueingHintsEnabled) {
          if (this.moveRequest >= podSchedulingCycle || rejectors.size === 0) {
            if (this.moveToBackoffQ(p, label) && this.popFromBackoffQEnabled) this.wake = true;
          } else {
            this.addUnschedulable(p, label);
          }
          return;
        }
        const hint = this.hintForInFlightPod(p);
        const queue = this.requeue(p, hint, label);
        this.logger.debug(
          { pod: key, event: label, queue, schedulingCycle: podSchedulingCycle, hint },
          'Pod moved to an internal scheduling queue',
        );
        if (queue === 'active' || (this.popFromBackoffQEnabled && queue === 'backoff')) this.wake = true;
      } finally {
        this.done(p.uid);
      }
    });
    return error;
  }

  /**
   * A cluster event may make unschedulable pods schedulable: every pod in unschedulablePods that
   * passes `preCheck` and whose hints say the event may help moves to backoffQ or activeQ. Returns at
   * once (no preCheck call) when no plugin registered a matching event.
   */
  moveAllToActiveOrBackoffQueue(
    event: ClusterEvent,
    oldObj?: KubeObject,
    newObj?: KubeObject,
    preCheck?: PreEnqueueCheck,
  ): void {
    this.op(() => {
      if (!this.isEventOfInterest(event)) return;
      const candidates: QueuedPodInfo[] = [];
      for (const { info } of this.unschedulable.values()) {
        if (!preCheck || preCheck(info.pod)) candidates.push(info);
      }
      this.movePods(candidates, event, oldObj, newObj);
    });
  }

  /** A bound pod appeared: only pods it may help (affinity terms matching it, PodTopologySpread in its namespace) are considered. */
  assignedPodAdded(pod: Pod): void {
    this.op(() => {
      this.movePods(this.podsWithCrossTopologyTerm(pod), EVENT_ASSIGNED_POD_ADD, undefined, pod);
    });
  }

  /**
   * A bound pod changed: a scale-down may help any pod (every unschedulable pod is considered);
   * other changes only the pods with a cross-topology term matching it.
   */
  assignedPodUpdated(oldPod: Pod | undefined, newPod: Pod, event: ClusterEvent): void {
    this.op(() => {
      if (matchClusterEvents({ resource: 'Pod', action: ActionType.UpdatePodScaleDown }, event)) {
        if (!this.isEventOfInterest(event)) return;
        this.movePods(
          [...this.unschedulable.values()].map((e) => e.info),
          event,
          oldPod,
          newPod,
        );
      } else {
        this.movePods(this.podsWithCrossTopologyTerm(newPod), event, oldPod, newPod);
      }
    });
  }

  /** Moves every pod whose backoff is done to activeQ (BackoffComplete). Run each second by the flush. */
  flushBackoffQCompleted(): void {
    this.op(() => {
      for (const p of this.backoffQ.popAllBackoffCompleted()) {
        if (this.moveToActiveQ(p, QueueEventLabel.BackoffComplete, true)) this.wake = true;
      }
    });
  }

  /** Moves pods unschedulable for longer than the limit (UnschedulableTimeout). Run every 30 s by the flush. */
  flushUnschedulablePodsLeftover(): void {
    this.op(() => {
      const now = this.now();
      const old: QueuedPodInfo[] = [];
      for (const { info } of this.unschedulable.values()) {
        if (now - info.timestamp > this.podMaxInUnschedulablePodsDurationMs) old.push(info);
      }
      if (old.length > 0) this.movePods(old, UNSCHEDULABLE_TIMEOUT, undefined, undefined);
    });
  }

  /** Closes the queue: in-flight pods are done, `pop` returns undefined, ready listeners are called. */
  close(): void {
    if (this.closed) return;
    for (const uid of [...this.inFlight.keys()]) this.done(uid);
    this.closed = true;
    for (const l of [...this.listeners]) l();
  }

  // ── Decisions ────────────────────────────────────────────────────────────────────────────────

  /**
   * How `event` should requeue `p`, from the hints of the plugins that rejected it: none rejected →
   * queueAfterBackoff; a wildcard event → queueAfterBackoff unless aimed (newObj) at another pod;
   * else a Queue from a Pending plugin → queueImmediately, from an Unschedulable one →
   * queueAfterBackoff; nothing matching or every hint QueueSkip → queueSkip. A throwing hint counts
   * as Queue.
   */
  isPodWorthRequeuing(
    p: QueuedPodInfo,
    event: ClusterEvent,
    oldObj: KubeObject | undefined,
    newObj: KubeObject | undefined,
  ): QueueingStrategy {
    if (p.unschedulablePlugins.size === 0 && p.pendingPlugins.size === 0) return 'queueAfterBackoff';
    if (clusterEventIsWildCard(event)) {
      if (newObj !== undefined && newObj.metadata?.uid !== p.pod.metadata.uid) return 'queueSkip';
      return 'queueAfterBackoff';
    }
    const hints = this.hintsByProfile.get(p.schedulerName);
    if (!hints) {
      this.logger.error(
        { profile: p.schedulerName, pod: podKey(p.pod) },
        'No QueueingHintMap is registered for this profile',
      );
      return 'queueAfterBackoff';
    }
    let strategy: QueueingStrategy = 'queueSkip';
    for (const h of hints) {
      if (!(p.unschedulablePlugins.has(h.plugin) || p.pendingPlugins.has(h.plugin))) continue;
      if (!matchClusterEvents(h.event, event)) continue;
      let queue = true;
      if (h.hint && this.queueingHintsEnabled) {
        try {
          queue = h.hint(p.pod, oldObj, newObj) === 'Queue';
        } catch (err) {
          this.logger.error(
            { err, event: clusterEventLabel(event), plugin: h.plugin, pod: podKey(p.pod) },
            'QueueingHintFn returns error',
          );
          queue = true;
        }
      }
      if (!queue) continue;
      if (p.pendingPlugins.has(h.plugin)) return 'queueImmediately';
      if (p.pendingPlugins.size === 0) return 'queueAfterBackoff';
      strategy = 'queueAfterBackoff';
    }
    return strategy;
  }

  // ── Internals ────────────────────────────────────────────────────────────────────────────────

  private now(): number {
    return this.scheduler.now();
  }

  /** Runs a state change; at the outermost level reports counts and wakes the listeners. */
  private op(fn: () => void): void {
    this.depth++;
    try {
      fn();
    } finally {
      this.depth--;
      if (this.depth === 0) {
        this.reportCounts();
        if (this.wake) {
          this.wake = false;
          for (const l of [...this.listeners]) l();
        }
      }
    }
  }

  private reportCounts(): void {
    const m = this.metrics?.pendingPods;
    if (!m) return;
    const counts: Record<PendingQueueLabel, number> = {
      active: this.activeQ.length,
      backoff: this.backoffQ.length,
      unschedulable: this.unschedulable.size - this.gatedCount,
      gated: this.gatedCount,
    };
    for (const q of ['active', 'backoff', 'unschedulable', 'gated'] as const) {
      if (counts[q] !== this.lastCounts[q]) {
        this.lastCounts[q] = counts[q];
        m.call(this.metrics, q, counts[q]);
      }
    }
  }

  private isEventOfInterest(event: ClusterEvent): boolean {
    if (clusterEventIsWildCard(event)) return true;
    for (const registered of this.allRegistered) if (matchClusterEvents(registered, event)) return true;
    this.logger.trace(
      { event: clusterEventLabel(event) },
      "receive an event that isn't interested by any enabled plugins",
    );
    return false;
  }

  private hintForInFlightPod(p: QueuedPodInfo): QueueingStrategy {
    if (p.unschedulablePlugins.size === 0 && p.pendingPlugins.size === 0) return 'queueAfterBackoff';
    const node = this.inFlight.get(p.uid);
    if (!node) {
      this.logger.error({ pod: podKey(p.pod) }, "in flight entity isn't found in the scheduling queue");
      return 'queueAfterBackoff';
    }
    if (this.inFlightEventCount === 0) return 'queueSkip';
    let strategy: QueueingStrategy = 'queueSkip';
    for (let n = node.next; n; n = n.next) {
      if (!n.event) continue;
      const s = this.isPodWorthRequeuing(p, n.event.event, n.event.oldObj, n.event.newObj);
      if (s === 'queueImmediately') return s;
      if (s === 'queueAfterBackoff') {
        strategy = s;
        if (p.pendingPlugins.size === 0) return s;
      }
    }
    return strategy;
  }

  private movePods(
    pods: readonly QueuedPodInfo[],
    event: ClusterEvent,
    oldObj: KubeObject | undefined,
    newObj: KubeObject | undefined,
  ): void {
    if (!this.isEventOfInterest(event)) return;
    const label = clusterEventLabel(event);
    const timeout = event === UNSCHEDULABLE_TIMEOUT || label === QueueEventLabel.UnschedulableTimeout;
    for (const p of pods) {
      if (p.gated && !matchAnyClusterEvent(event, p.gatingPluginEvents)) continue;
      const hint = this.isPodWorthRequeuing(p, event, oldObj, newObj);
      if (hint === 'queueSkip') continue;
      this.deleteUnschedulable(podKey(p.pod));
      const queue = this.requeue(p, hint, label);
      if (timeout && queue !== 'unschedulable') p.wasFlushedFromUnschedulable = true;
      if (queue === 'active' || (this.popFromBackoffQEnabled && queue === 'backoff')) this.wake = true;
    }
    this.moveRequest = this.cycle;
    if (this.queueingHintsEnabled && this.inFlight.size > 0) {
      this.pushInFlight({ event: { event, oldObj, newObj } });
    }
  }

  private requeue(p: QueuedPodInfo, strategy: QueueingStrategy, event: string): IncomingQueueLabel {
    if (strategy === 'queueSkip') {
      this.addUnschedulable(p, event);
      return 'unschedulable';
    }
    if (strategy === 'queueAfterBackoff' && this.backoffQ.isPodBackingoff(p)) {
      return this.moveToBackoffQ(p, event) ? 'backoff' : 'unschedulable';
    }
    return this.moveToActiveQ(p, event, false) ? 'active' : 'unschedulable';
  }

  private moveToActiveQ(p: QueuedPodInfo, event: string, fromBackoffQ: boolean): boolean {
    if (!(this.popFromBackoffQEnabled && fromBackoffQ)) this.runPreEnqueuePlugins(p);
    const key = podKey(p.pod);
    if (p.gated) {
      if (this.activeQ.has(key) || this.backoffQ.has(key) || this.unschedulable.has(key)) return false;
      this.addUnschedulable(p, event);
      this.logger.debug(
        { pod: key, event },
        'Pod moved to an internal scheduling queue, because the pod is gated',
      );
      return false;
    }
    if (p.initialAttemptTimestamp === undefined) p.initialAttemptTimestamp = this.now();
    this.deleteUnschedulable(key);
    this.backoffQ.delete(key);
    this.activeQ.addOrUpdate(p);
    this.metrics?.incomingPod?.('active', event);
    if (
      event === clusterEventLabel(EVENT_UNSCHEDULED_POD_ADD) ||
      event === clusterEventLabel(EVENT_UNSCHEDULED_POD_UPDATE)
    ) {
      this.nominator.add(p.pod);
    }
    return true;
  }

  private moveToBackoffQ(p: QueuedPodInfo, event: string): boolean {
    const key = podKey(p.pod);
    if (this.popFromBackoffQEnabled) {
      this.runPreEnqueuePlugins(p);
      if (p.gated) {
        if (!this.unschedulable.has(key)) this.addUnschedulable(p, event);
        return false;
      }
    }
    this.deleteUnschedulable(key);
    this.activeQ.delete(key);
    this.backoffQ.add(p);
    this.metrics?.incomingPod?.('backoff', event);
    return true;
  }

  private addUnschedulable(p: QueuedPodInfo, event: string): void {
    const key = podKey(p.pod);
    const existing = this.unschedulable.get(key);
    if (existing) {
      this.unschedulable.set(key, { info: p, gated: existing.gated });
      return;
    }
    this.unschedulable.set(key, { info: p, gated: p.gated });
    if (p.gated) this.gatedCount++;
    this.metrics?.incomingPod?.('unschedulable', event);
  }

  private deleteUnschedulable(key: string): QueuedPodInfo | undefined {
    const entry = this.unschedulable.get(key);
    if (!entry) return undefined;
    this.unschedulable.delete(key);
    if (entry.gated) this.gatedCount--;
    return entry.info;
  }

  private runPreEnqueuePlugins(p: QueuedPodInfo): void {
    const plugins = this.preEnqueue[p.schedulerName] ?? [];
    const gating = p.gatingPlugin;
    if (gating !== undefined) {
      const first = plugins.find((pl) => pl.name === gating);
      if (first && !this.runPreEnqueuePlugin(first, p)) return;
    }
    for (const pl of plugins) {
      if (pl.name === gating) continue;
      if (!this.runPreEnqueuePlugin(pl, p)) return;
    }
    p.gatingPlugin = undefined;
  }

  private runPreEnqueuePlugin(pl: PreEnqueuePlugin, p: QueuedPodInfo): boolean {
    let status: Status | undefined;
    try {
      status = pl.preEnqueue(p.pod);
    } catch (err) {
      status = asStatus(err);
    }
    if (isSuccess(status)) return true;
    p.unschedulablePlugins.add(pl.name);
    this.metrics?.unschedulableReason?.(pl.name, p.schedulerName, 1);
    p.gatingPlugin = pl.name;
    p.gatingPluginEvents = this.pluginEvents.get(pl.name) ?? [];
    if (status?.code === 'Error') {
      this.logger.error(
        { err: status.error, pod: podKey(p.pod), plugin: pl.name },
        'Unexpected error running PreEnqueue plugin',
      );
    } else {
      this.logger.debug(
        { pod: podKey(p.pod), plugin: pl.name, status: status?.reasons },
        'Status after running PreEnqueue plugin',
      );
    }
    return false;
  }

  private podsWithCrossTopologyTerm(pod: Pod): QueuedPodInfo[] {
    const ns = pod.metadata.namespace ?? '';
    let nsLabels: Readonly<Record<string, string>> | undefined | null = null;
    const out: QueuedPodInfo[] = [];
    for (const { info } of this.unschedulable.values()) {
      if (info.unschedulablePlugins.has(POD_TOPOLOGY_SPREAD) && info.pod.metadata.namespace === ns) {
        out.push(info);
        continue;
      }
      const terms = info.requiredAffinityTerms;
      if (terms.length === 0) continue;
      if (nsLabels === null) nsLabels = this.namespaceLabels(ns);
      for (const term of terms) {
        if (this.termMatches(term, info.pod.metadata.namespace ?? '', pod, nsLabels)) {
          out.push(info);
          break;
        }
      }
    }
    return out;
  }

  private selector(obj: object | undefined | null): LabelSelector | undefined {
    if (!obj) return undefined;
    let s = this.selectorCache.get(obj);
    if (!s) {
      try {
        s = labelSelectorFromObject(obj as Parameters<typeof labelSelectorFromObject>[0]);
      } catch {
        return undefined;
      }
      this.selectorCache.set(obj, s);
    }
    return s;
  }

  private termMatches(
    term: PodAffinityTerm,
    ownerNamespace: string,
    pod: Pod,
    nsLabels: Readonly<Record<string, string>> | undefined,
  ): boolean {
    const ns = pod.metadata.namespace ?? '';
    const namespaces = term.namespaces ?? [];
    let nsOk: boolean;
    if (namespaces.length === 0 && !term.namespaceSelector) nsOk = ns === ownerNamespace;
    else {
      nsOk = namespaces.includes(ns);
      if (!nsOk && term.namespaceSelector)
        nsOk = this.selector(term.namespaceSelector)?.matches(nsLabels) ?? false;
    }
    if (!nsOk) return false;
    const sel = this.selector(term.labelSelector);
    return sel ? sel.matches(pod.metadata.labels) : false;
  }

  private recordIfInFlight(oldPod: Pod | undefined, newPod: Pod, events: readonly ClusterEvent[]): boolean {
    if (!this.queueingHintsEnabled || !this.inFlight.has(newPod.metadata.uid ?? '')) return false;
    for (const event of events) this.pushInFlight({ event: { event, oldObj: oldPod, newObj: newPod } });
    return true;
  }

  private pushInFlight(value: { pod?: Pod; event?: RecordedEvent }): InFlightNode {
    const node: InFlightNode = { ...value, prev: this.inFlightTail, next: undefined };
    if (this.inFlightTail) this.inFlightTail.next = node;
    else this.inFlightHead = node;
    this.inFlightTail = node;
    if (node.event) this.inFlightEventCount++;
    return node;
  }

  private unlink(node: InFlightNode): void {
    if (node.prev) node.prev.next = node.next;
    else this.inFlightHead = node.next;
    if (node.next) node.next.prev = node.prev;
    else this.inFlightTail = node.prev;
    node.prev = undefined;
    node.next = undefined;
    if (node.event) this.inFlightEventCount--;
  }
}

function strippedForUpdate(pod: Pod): unknown {
  const {
    resourceVersion: _rv,
    generation: _g,
    managedFields: _m,
    finalizers: _f,
    ...metadata
  } = pod.metadata;
  const status: Record<string, unknown> = {};
  if (pod.status?.resourceClaimStatuses !== undefined)
    status.resourceClaimStatuses = pod.status.resourceClaimStatuses;
  if (pod.status?.extendedResourceClaimStatus !== undefined) {
    status.extendedResourceClaimStatus = pod.status.extendedResourceClaimStatus;
  }
  return { ...pod, metadata, status };
}

/**
 * Whether an update may have made the pod schedulable (hints off): any change other than
 * resourceVersion, generation, managedFields, finalizers and status (resource-claim statuses aside).
 */
export function isPodUpdated(oldPod: Pod, newPod: Pod): boolean {
  return !deepEqual(strippedForUpdate(oldPod), strippedForUpdate(newPod));
}
