// PodWorkers: the kubelet's per-pod state machine (sync → terminating → terminated), one pulled worker per pod UID.
import { asapScheduler, from, type SchedulerLike, type Subscription } from 'rxjs';
import type { Pod } from '../api/core-v1.ts';
import { jitter } from '../jitter.ts';
import { type Logger, silentLogger } from '../logger.ts';
import { effectiveGracePeriod } from './effective-grace-period.ts';
import type { KillPodOptions, PodSyncer, PodWorkerState, PodWorkerSync, UpdatePodOptions } from './types.ts';

/** Settings of {@link PodWorkers}; every field has the kubelet's default. */
export interface PodWorkersConfig {
  /** Requeue delay after a successful sync, jittered by 0.5 (syncFrequency); default 60 000 ms. */
  resyncIntervalMs?: number;
  /** Requeue delay after a failed sync, jittered by 0.5; default 10 000 ms. */
  backOffPeriodMs?: number;
  /** Requeue delay after a "network is not ready" error, jittered by 0.5; default 1 000 ms. */
  networkNotReadyBackOffMs?: number;
  /** Only `now()` is read: the workers keep no timers of their own. */
  scheduler?: SchedulerLike;
  /** Source of jitter; default Math.random. */
  random?: () => number;
  logger?: Logger;
}

/** The error text the kubelet treats as a transient network problem. */
export const NETWORK_NOT_READY_ERROR_MSG = 'network is not ready';

const RESYNC_JITTER = 0.5;
const BACKOFF_JITTER = 0.5;

/** Per-UID state (podSyncStatus). Invariant: terminatedAt set ⇒ terminatingAt set; finished ⇒ terminatedAt set. */
interface PodSyncStatus {
  fullname: string;
  abort?: AbortController;
  /** A pending update exists or a sync is in flight. */
  working: boolean;
  inFlight: boolean;
  hasWorker: boolean;
  pendingUpdate?: UpdatePodOptions;
  activeUpdate?: UpdatePodOptions;
  syncedAt: number;
  startedAt?: number;
  terminatingAt?: number;
  terminatedAt?: number;
  gracePeriod: number;
  notifyPostTerminating: (() => void)[];
  statusPostTerminating: ((pod: Pod) => void)[];
  startedTerminating: boolean;
  deleted: boolean;
  evicted: boolean;
  finished: boolean;
  restartRequested: boolean;
  observedRuntime: boolean;
  inflight?: Subscription;
}

/** True for a pod from a file or HTTP source (its config.source annotation is set and not `api`). */
export function isStaticPod(pod: Pod | undefined): boolean {
  const source = pod?.metadata?.annotations?.['kubernetes.io/config.source'];
  return source !== undefined && source !== 'api';
}

/** The kubelet's full name of a pod: `name_namespace`. */
export function podFullName(name: string, namespace: string): string {
  return `${name}_${namespace}`;
}

function workType(status: PodSyncStatus): PodWorkerState {
  if (status.terminatedAt !== undefined) return 'TerminatedPod';
  if (status.terminatingAt !== undefined) return 'TerminatingPod';
  return 'SyncPod';
}

/**
 * The pod workers: every pod the kubelet knows, by UID, moves through sync (SyncPod, repeatedly) →
 * terminating (SyncTerminatingPod, once it succeeds) → terminated (SyncTerminatedPod, once it
 * succeeds) → finished, and never back for that UID until {@link syncKnownPods} forgets it.
 *
 * Invariants:
 * - At most one sync function runs for a UID at a time; the next update is taken when it settles.
 * - Updates that arrive while a pod is busy replace its pending update: only the latest is guaranteed
 *   to be seen (memory is one pending update per pod, however fast updates arrive).
 * - Once termination is requested the grace period can only shrink; starting to terminate, or a
 *   shrink, aborts a running sync's signal.
 * - Two static pods with one full name never run at once: the later waits for the earlier to finish,
 *   in arrival order.
 * - After each sync the UID is put on the work queue: at once on a phase change, after
 *   jitter(resync, 0.5) on success, after jitter(10 s, 0.5) on error. {@link dueWork} hands out due UIDs
 *   (the kubelet's 1 s sync tick turns them into `sync` updates).
 *
 * ```
 * updatePod:  a----b-c-d------     (a, b, c, d: updates of one pod; syncPod takes 3 frames)
 * syncPod:    a--|-b--|d--|        (c is replaced by d while b runs)
 * ```
 *
 * @example
 * const workers = new PodWorkers(syncer, { scheduler });
 * workers.updatePod({ updateType: 'create', pod });
 *
 * Recovery/Teardown: a sync that errors is logged and requeued with backoff. {@link close} unsubscribes
 * every running sync and aborts its signal; the workers accept nothing afterwards.
 */
export class PodWorkers {
  private readonly statuses = new Map<string, PodSyncStatus>();
  private readonly startedStaticPodsByFullname = new Map<string, string>();
  private readonly waitingToStartStaticPodsByFullname = new Map<string, string[]>();
  /** The work queue: UID → due time (ms). */
  private readonly workQueue = new Map<string, number>();
  private podsSynced = false;
  private closed = false;
  private readonly signals = new Set<string>();
  private draining = false;
  private readonly scheduler: SchedulerLike;
  private readonly random: () => number;
  private readonly logger: Logger;
  private readonly resyncIntervalMs: number;
  private readonly backOffPeriodMs: number;
  private readonly networkNotReadyBackOffMs: number;

  /**
   * @param syncer the sync functions each worker calls
   * @param config timing, jitter source and logger
   */
  private readonly syncer: PodSyncer;

  constructor(syncer: PodSyncer, config: PodWorkersConfig = {}) {
    this.syncer = syncer;
    this.scheduler = config.scheduler ?? asapScheduler;
    this.random = config.random ?? Math.random;
    this.logger = config.logger ?? silentLogger;
    this.resyncIntervalMs = config.resyncIntervalMs ?? 60_000;
    this.backOffPeriodMs = config.backOffPeriodMs ?? 10_000;
    this.networkNotReadyBackOffMs = config.networkNotReadyBackOffMs ?? 1_000;
  }

  /**
   * Tells the pod's worker about a change (UpdatePod). Runtime-only pods (`runningPod` without `pod`)
   * accept only `kill`. A `create` for a pod already terminating is remembered as a restart request and
   * otherwise ignored; a finished pod ignores everything.
   *
   * @param input the update; its kill options' `completed` is called once the pod has terminated
   */
  updatePod(input: UpdatePodOptions): void {
    if (this.closed) return;
    const options: UpdatePodOptions = { ...input };
    if (options.killPodOptions) options.killPodOptions = { ...options.killPodOptions };
    let isRuntimePod = false;
    let uid: string;
    let name: string;
    let namespace: string;
    if (options.runningPod && !options.pod) {
      if (options.updateType !== 'kill') {
        this.logger.info(
          { podUID: options.runningPod.uid },
          'Pod update is ignored, runtime pods can only be killed',
        );
        return;
      }
      ({ uid, name, namespace } = options.runningPod);
      isRuntimePod = true;
    } else if (options.pod) {
      options.runningPod = undefined;
      uid = options.pod.metadata.uid ?? '';
      name = options.pod.metadata.name ?? '';
      namespace = options.pod.metadata.namespace ?? '';
    } else {
      return;
    }

    const now = this.scheduler.now();
    let status = this.statuses.get(uid);
    let firstTime = false;
    if (!status) {
      firstTime = true;
      status = newStatus(podFullName(name, namespace), now);
      const phase = options.pod?.status?.phase;
      if (phase === 'Succeeded' || phase === 'Failed') {
        // A pod that is terminal in its config and that we never ran: only SyncTerminatedPod remains.
        status.terminatingAt = now;
        status.terminatedAt = now;
        status.startedTerminating = true;
      }
      this.statuses.set(uid, status);
    }

    let pod = options.pod;
    if (isRuntimePod) {
      status.observedRuntime = true;
      const known = status.pendingUpdate?.pod ?? status.activeUpdate?.pod;
      if (known) {
        pod = known;
        options.pod = known;
        options.runningPod = undefined;
      }
    }

    if (!firstTime && status.terminatingAt !== undefined && options.updateType === 'create') {
      status.restartRequested = true;
      this.logger.debug(
        { podUID: uid },
        'Pod is terminating but has been requested to restart with same UID',
      );
      return;
    }
    if (status.finished) return;

    let becameTerminating = false;
    if (status.terminatingAt === undefined) {
      if (isRuntimePod && !options.pod) {
        status.deleted = true;
        becameTerminating = true;
      } else if (pod?.metadata?.deletionTimestamp) {
        status.deleted = true;
        becameTerminating = true;
      } else if (pod?.status?.phase === 'Failed' || pod?.status?.phase === 'Succeeded') {
        becameTerminating = true;
      } else if (options.updateType === 'kill') {
        if (options.killPodOptions?.evict) status.evicted = true;
        becameTerminating = true;
      }
      if (becameTerminating) status.terminatingAt = now;
    }

    let shortened = false;
    if (status.terminatedAt !== undefined) {
      if (isRuntimePod && !options.pod) return;
      options.killPodOptions?.completed?.();
      options.killPodOptions = undefined;
    } else if (status.terminatingAt !== undefined) {
      options.killPodOptions ??= {};
      const kill = options.killPodOptions;
      if (kill.completed) status.notifyPostTerminating.push(kill.completed);
      if (kill.podStatusFunc) status.statusPostTerminating.push(kill.podStatusFunc);
      const computed = effectiveGracePeriod(
        status.gracePeriod,
        pod,
        kill.podTerminationGracePeriodSecondsOverride,
      );
      shortened = computed.shortened;
      status.gracePeriod = computed.gracePeriod;
      options.killPodOptions = {
        evict: kill.evict,
        podTerminationGracePeriodSecondsOverride: computed.gracePeriod,
      };
    } else if (options.killPodOptions) {
      options.killPodOptions.completed?.();
      options.killPodOptions = undefined;
    }

    if (!status.hasWorker) {
      status.hasWorker = true;
      if (isStaticPod(pod)) {
        const waiting = this.waitingToStartStaticPodsByFullname.get(status.fullname) ?? [];
        waiting.push(uid);
        this.waitingToStartStaticPodsByFullname.set(status.fullname, waiting);
      }
    }

    const previousStart = status.pendingUpdate?.startTime;
    if (
      previousStart !== undefined &&
      (options.startTime === undefined || previousStart < options.startTime)
    ) {
      options.startTime = previousStart;
    }
    status.pendingUpdate = options;
    status.working = true;
    if ((becameTerminating || shortened) && status.abort && status.inFlight) {
      this.logger.debug({ podUID: uid }, 'Cancelling current pod sync');
      status.abort.abort();
    }
    this.signal(uid);
  }

  /**
   * Reconciles the workers with the pods the kubelet wants (SyncKnownPods): finished workers of pods no
   * longer wanted (or asked to restart) are forgotten; running orphans start terminating.
   *
   * @param desired the pods the configuration holds
   * @returns every worker still known, with its state
   */
  syncKnownPods(desired: readonly Pod[]): Map<string, PodWorkerSync> {
    const known = new Set(desired.map((pod) => pod.metadata.uid ?? ''));
    this.podsSynced = true;
    const workers = new Map<string, PodWorkerSync>();
    for (const [uid, status] of [...this.statuses]) {
      const orphan = !known.has(uid);
      if ((status.restartRequested || orphan) && this.removeTerminatedWorker(uid, status, orphan)) continue;
      const config = status.activeUpdate ?? status.pendingUpdate;
      workers.set(uid, {
        state: workType(status),
        orphan,
        hasConfig: config?.pod !== undefined,
        static: isStaticPod(config?.pod),
      });
    }
    return workers;
  }

  /** Takes the UIDs whose requeue time has come off the work queue (the kubelet's sync tick). */
  dueWork(): string[] {
    const now = this.scheduler.now();
    const due: string[] = [];
    for (const [uid, at] of this.workQueue) {
      if (at <= now) {
        due.push(uid);
        this.workQueue.delete(uid);
      }
    }
    return due;
  }

  /** When the UID is due on the work queue (ms), if queued. */
  queuedAt(uid: string): number | undefined {
    return this.workQueue.get(uid);
  }

  /** The pod has finished terminating (its containers are stopped); unknown UIDs are not. */
  isPodKnownTerminated(uid: string): boolean {
    return this.statuses.get(uid)?.terminatedAt !== undefined;
  }

  /** Containers may still run: known → not terminated; unknown → until the first syncKnownPods. */
  couldHaveRunningContainers(uid: string): boolean {
    const status = this.statuses.get(uid);
    return status ? status.terminatedAt === undefined : !this.podsSynced;
  }

  /** The pod's worker is done: known → finished; unknown → after the first syncKnownPods. */
  shouldPodBeFinished(uid: string): boolean {
    const status = this.statuses.get(uid);
    return status ? status.finished : this.podsSynced;
  }

  /** Termination has been asked for (deletion, terminal phase, kill). */
  isPodTerminationRequested(uid: string): boolean {
    return this.statuses.get(uid)?.terminatingAt !== undefined;
  }

  /** SyncTerminatingPod has started (or the pod is unknown after the first syncKnownPods). */
  shouldPodContainersBeTerminating(uid: string): boolean {
    const status = this.statuses.get(uid);
    return status ? status.startedTerminating : this.podsSynced;
  }

  /** The runtime's sandbox may go: terminated (or unknown after the first syncKnownPods). */
  shouldPodRuntimeBeRemoved(uid: string): boolean {
    const status = this.statuses.get(uid);
    return status ? status.terminatedAt !== undefined : this.podsSynced;
  }

  /** The pod's volumes and directories may go: evicted, or deleted and terminated. */
  shouldPodContentBeRemoved(uid: string): boolean {
    const status = this.statuses.get(uid);
    return status ? status.evicted || (status.deleted && status.terminatedAt !== undefined) : this.podsSynced;
  }

  /** The started static pod of this full name is terminating and not yet terminated. */
  isPodForMirrorPodTerminatingByFullName(fullname: string): boolean {
    const uid = this.startedStaticPodsByFullname.get(fullname);
    if (uid === undefined) return false;
    const status = this.statuses.get(uid);
    return status !== undefined && status.terminatingAt !== undefined && status.terminatedAt === undefined;
  }

  /** The pod's current state, if known (for status generation and tests). */
  stateOf(uid: string): PodWorkerState | undefined {
    const status = this.statuses.get(uid);
    return status ? workType(status) : undefined;
  }

  /** The grace period chosen for a terminating pod (0 if none). */
  gracePeriodOf(uid: string): number {
    return this.statuses.get(uid)?.gracePeriod ?? 0;
  }

  /** How many UIDs the workers hold state for. */
  get size(): number {
    return this.statuses.size;
  }

  /** Stops every worker: running syncs are aborted and unsubscribed; later updates are ignored. */
  close(): void {
    this.closed = true;
    for (const status of this.statuses.values()) {
      status.abort?.abort();
      status.inflight?.unsubscribe();
    }
    this.signals.clear();
  }

  private signal(uid: string): void {
    this.signals.add(uid);
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.signals.size > 0 && !this.closed) {
        const next = this.signals.values().next().value as string;
        this.signals.delete(next);
        this.runWorker(next);
      }
    } finally {
      this.draining = false;
    }
  }

  /** One turn of a pod's worker loop: take the pending update, decide, call one sync function. */
  private runWorker(uid: string): void {
    const status = this.statuses.get(uid);
    if (!status || status.inFlight || !status.pendingUpdate) return;
    const update = status.pendingUpdate;
    status.pendingUpdate = undefined;
    const state = workType(status);
    if (!status.abort || status.abort.signal.aborted) status.abort = new AbortController();

    if (status.startedAt === undefined) {
      if (update.runningPod && state === 'TerminatingPod') {
        // a runtime-only pod "starts" straight into termination
      } else if (!update.pod) {
        mergeLastUpdate(status, update);
        status.working = false;
        return;
      } else {
        const { canStart, canEverStart } = this.allowPodStart(uid, status, update.pod);
        if (!canEverStart) {
          this.cleanupUnstartedPod(uid, status);
          return;
        }
        if (!canStart) {
          status.pendingUpdate ??= update;
          status.working = false;
          this.enqueue(uid, jitter(this.backOffPeriodMs, BACKOFF_JITTER, this.random));
          return;
        }
        status.startedAt = this.scheduler.now();
      }
    }
    mergeLastUpdate(status, update);

    const signal = status.abort.signal;
    let input: ReturnType<PodSyncer['syncPod']> | ReturnType<PodSyncer['syncTerminatedPod']>;
    try {
      if (state === 'TerminatedPod') {
        input = this.syncer.syncTerminatedPod(signal, update.pod as Pod);
      } else if (state === 'TerminatingPod') {
        status.startedTerminating = true;
        const statusFn = status.statusPostTerminating.at(-1);
        if (update.runningPod) {
          input = this.syncer.syncTerminatingRuntimePod(signal, update.runningPod);
        } else {
          const grace =
            status.gracePeriod > 0
              ? status.gracePeriod
              : effectiveGracePeriod(
                  0,
                  update.pod,
                  update.killPodOptions?.podTerminationGracePeriodSecondsOverride,
                ).gracePeriod;
          status.gracePeriod = grace;
          input = this.syncer.syncTerminatingPod(signal, update.pod as Pod, grace, statusFn);
        }
      } else {
        input = this.syncer.syncPod(signal, update.updateType, update.pod as Pod, update.mirrorPod);
      }
    } catch (error) {
      this.settle(uid, status, state, update, false, error, signal);
      return;
    }

    status.inFlight = true;
    let result = false;
    let settled = false;
    const subscription = from(input).subscribe({
      next: (value) => {
        if (value === true) result = true;
      },
      error: (error: unknown) => {
        settled = true;
        this.settle(uid, status, state, update, false, error ?? new Error('sync failed'), signal);
      },
      complete: () => {
        settled = true;
        this.settle(uid, status, state, update, result, undefined, signal);
      },
    });
    if (!settled) status.inflight = subscription;
  }

  private settle(
    uid: string,
    status: PodSyncStatus,
    state: PodWorkerState,
    update: UpdatePodOptions,
    isTerminal: boolean,
    error: unknown,
    signal: AbortSignal,
  ): void {
    status.inFlight = false;
    status.inflight = undefined;
    if (this.closed || this.statuses.get(uid) !== status) return;
    let phaseTransition = false;
    if (signal.aborted) {
      this.logger.debug({ podUID: uid, state }, 'Sync exited with context cancellation');
      error ??= new Error('context canceled');
    } else if (error !== undefined) {
      this.logger.error({ podUID: uid, state, err: String(error) }, 'Error syncing pod, skipping');
    } else if (state === 'TerminatedPod') {
      this.completeTerminated(uid, status);
      return;
    } else if (state === 'TerminatingPod') {
      if (update.runningPod) {
        this.completeTerminatingRuntimePod(uid, status);
        return;
      }
      this.completeTerminating(status);
      phaseTransition = true;
    } else if (isTerminal) {
      status.terminatingAt ??= this.scheduler.now();
      this.requeueLastPodUpdate(status);
      phaseTransition = true;
    }
    this.completeWork(uid, status, phaseTransition, error);
  }

  private completeWork(uid: string, status: PodSyncStatus, phaseTransition: boolean, error: unknown): void {
    if (phaseTransition) this.enqueue(uid, 0);
    else if (error === undefined)
      this.enqueue(uid, jitter(this.resyncIntervalMs, RESYNC_JITTER, this.random));
    else if (String(error).includes(NETWORK_NOT_READY_ERROR_MSG))
      this.enqueue(uid, jitter(this.networkNotReadyBackOffMs, BACKOFF_JITTER, this.random));
    else this.enqueue(uid, jitter(this.backOffPeriodMs, BACKOFF_JITTER, this.random));
    if (status.pendingUpdate) this.signal(uid);
    else status.working = false;
  }

  private enqueue(uid: string, delayMs: number): void {
    this.workQueue.set(uid, this.scheduler.now() + delayMs);
  }

  private completeTerminating(status: PodSyncStatus): void {
    status.terminatedAt = this.scheduler.now();
    const notify = status.notifyPostTerminating;
    status.notifyPostTerminating = [];
    status.statusPostTerminating = [];
    for (const done of notify) done();
    this.requeueLastPodUpdate(status);
  }

  private completeTerminated(uid: string, status: PodSyncStatus): void {
    status.hasWorker = false;
    status.finished = true;
    status.working = false;
    status.pendingUpdate = undefined;
    this.releaseStatic(uid, status.fullname);
  }

  private completeTerminatingRuntimePod(uid: string, status: PodSyncStatus): void {
    status.terminatedAt = this.scheduler.now();
    status.finished = true;
    status.working = false;
    this.statuses.delete(uid);
    this.workQueue.delete(uid);
    this.releaseStatic(uid, status.fullname);
  }

  private cleanupUnstartedPod(uid: string, status: PodSyncStatus): void {
    status.hasWorker = false;
    status.finished = true;
    status.working = false;
    status.pendingUpdate = undefined;
    status.terminatedAt = this.scheduler.now();
    for (const done of status.notifyPostTerminating) done();
    status.notifyPostTerminating = [];
    this.releaseStatic(uid, status.fullname);
  }

  private requeueLastPodUpdate(status: PodSyncStatus): void {
    if (status.pendingUpdate || !status.activeUpdate) return;
    status.pendingUpdate = { ...status.activeUpdate };
    status.working = true;
  }

  private removeTerminatedWorker(uid: string, status: PodSyncStatus, orphan: boolean): boolean {
    if (!status.finished) {
      if (!orphan) return false;
      status.deleted = true;
      if (status.startedAt !== undefined || status.observedRuntime) {
        if (status.terminatingAt === undefined) {
          status.terminatingAt = this.scheduler.now();
          const pod = status.activeUpdate?.pod;
          status.gracePeriod = pod ? effectiveGracePeriod(status.gracePeriod, pod).gracePeriod : 1;
        }
        this.requeueLastPodUpdate(status);
        if (status.pendingUpdate) this.signal(uid);
        return false;
      }
    }
    status.abort?.abort();
    status.inflight?.unsubscribe();
    for (const done of status.notifyPostTerminating) done();
    this.statuses.delete(uid);
    this.workQueue.delete(uid);
    this.releaseStatic(uid, status.fullname);
    return true;
  }

  /** Whether a pod may start now and whether it ever can (allowPodStart). */
  private allowPodStart(
    uid: string,
    status: PodSyncStatus,
    pod: Pod,
  ): { canStart: boolean; canEverStart: boolean } {
    if (!isStaticPod(pod)) return { canStart: true, canEverStart: true };
    if (status.terminatingAt !== undefined) return { canStart: false, canEverStart: false };
    return { canStart: this.allowStaticPodStart(status.fullname, uid), canEverStart: true };
  }

  private allowStaticPodStart(fullname: string, uid: string): boolean {
    const started = this.startedStaticPodsByFullname.get(fullname);
    if (started !== undefined) return started === uid;
    const waiting = this.waitingToStartStaticPodsByFullname.get(fullname) ?? [];
    while (waiting.length > 0) {
      const head = waiting[0] as string;
      const headStatus = this.statuses.get(head);
      if (!headStatus || headStatus.terminatingAt !== undefined || headStatus.finished) {
        waiting.shift();
        continue;
      }
      if (head !== uid) return false;
      waiting.shift();
      if (waiting.length === 0) this.waitingToStartStaticPodsByFullname.delete(fullname);
      this.startedStaticPodsByFullname.set(fullname, uid);
      return true;
    }
    this.waitingToStartStaticPodsByFullname.delete(fullname);
    return false;
  }

  /** Frees a static pod's full name and wakes the next pod waiting for it. */
  private releaseStatic(uid: string, fullname: string): void {
    if (this.startedStaticPodsByFullname.get(fullname) === uid)
      this.startedStaticPodsByFullname.delete(fullname);
    const waiting = this.waitingToStartStaticPodsByFullname.get(fullname);
    if (!waiting) return;
    const index = waiting.indexOf(uid);
    if (index >= 0) waiting.splice(index, 1);
    if (waiting.length === 0) {
      this.waitingToStartStaticPodsByFullname.delete(fullname);
      return;
    }
    for (const next of waiting) {
      const status = this.statuses.get(next);
      if (status?.pendingUpdate) {
        status.working = true;
        this.signal(next);
      }
    }
  }
}

function newStatus(fullname: string, now: number): PodSyncStatus {
  return {
    fullname,
    working: false,
    inFlight: false,
    hasWorker: false,
    syncedAt: now,
    gracePeriod: 0,
    notifyPostTerminating: [],
    statusPostTerminating: [],
    startedTerminating: false,
    deleted: false,
    evicted: false,
    finished: false,
    restartRequested: false,
    observedRuntime: false,
  };
}

/** Folds an update into the one replayed on a phase change: the latest pod, mirror and kill options. */
function mergeLastUpdate(status: PodSyncStatus, other: UpdatePodOptions): void {
  const active: UpdatePodOptions = status.activeUpdate ?? { updateType: 'sync' };
  status.activeUpdate = active;
  active.updateType = 'sync';
  if (!active.pod || !other.runningPod) active.pod = other.pod;
  active.runningPod = other.runningPod;
  if (other.mirrorPod) active.mirrorPod = other.mirrorPod;
  if (other.killPodOptions) {
    const kill: KillPodOptions = {};
    if (other.killPodOptions.evict) kill.evict = true;
    if (other.killPodOptions.podTerminationGracePeriodSecondsOverride !== undefined)
      kill.podTerminationGracePeriodSecondsOverride =
        other.killPodOptions.podTerminationGracePeriodSecondsOverride;
    active.killPodOptions = kill;
  }
  active.startTime = undefined;
}
