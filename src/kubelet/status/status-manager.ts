// The kubelet's status manager: caches each pod's status and writes it to the API server when it changes.
import {
  asyncScheduler,
  catchError,
  concatMap,
  defer,
  EMPTY,
  from,
  interval,
  map,
  merge,
  type Observable,
  of,
  retry,
  type SchedulerLike,
  Subject,
  switchMap,
  throwError,
  timer,
} from 'rxjs';
import type { ContainerStatus, Pod, PodStatus } from '../../../operators/api/core-v1.ts';
import { ApiError } from '../../../operators/errors.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { PODS } from '../../../streams/resources.ts';
import { mergePatchDiff } from './merge-patch-diff.ts';
import { mergePodStatus } from './merge-pod-status.ts';
import { isPodStatusByKubeletEqual, normalizePodStatus, rfc3339 } from './normalize-pod-status.ts';
import {
  generateContainersReadyCondition,
  generatePodReadyCondition,
  isPodPhaseTerminal,
  withPodCondition,
} from './pod-conditions.ts';

const CONFIG_SOURCE = 'kubernetes.io/config.source';
const CONFIG_HASH = 'kubernetes.io/config.hash';
const CONFIG_MIRROR = 'kubernetes.io/config.mirror';

/** The status manager's sync period: every status is checked against the API server this often. */
export const STATUS_SYNC_PERIOD_MS = 10_000;

/** How often a PATCH that meets a conflict is tried again at once, before waiting for the next sync. */
const CONFLICT_RETRIES = 3;

export interface StatusManagerConfig {
  client: ApiClient;
  /**
   * Whether the pod could still have running containers (the pod workers' answer); while true, a move
   * to a terminal phase is held back. Default: never.
   */
  podCouldHaveRunningContainers?: (pod: Pod) => boolean;
  /**
   * The kubelet's own copy of a pod (its pod manager), to notice when the API server's status drifts
   * from the cached one on the periodic sync. Optional; without it only version changes are synced.
   */
  getPod?: (uid: string) => Pod | undefined;
  /** Full resync period; default 10 s. */
  syncPeriodMs?: number;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/** What one pod's sync did. */
export type StatusSyncOutcome =
  | 'patched'
  | 'unchanged'
  | 'deleted'
  | 'notFound'
  | 'recreated'
  | 'noMirror'
  | 'failed';

/** One pod's sync, emitted by {@link StatusManager.run}. */
export interface StatusSyncEvent {
  uid: string;
  namespace: string;
  name: string;
  version: number;
  outcome: StatusSyncOutcome;
  error?: unknown;
}

/**
 * The status manager (pkg/kubelet/status).
 *
 * Invariants:
 * - The cache holds, per pod UID, the latest status the kubelet set, with a version that grows on
 *   every change; a status equal (as the kubelet sees it) to the cached one is no change.
 * - A phase the pod had as Succeeded or Failed is never replaced by another phase, in the cache or on
 *   the API server; a terminated container of a pod that does not restart it never becomes running.
 * - Condition transition times move only when the condition's status changes; the start time never
 *   changes once set.
 * - The API server is written only while `run()` is subscribed, one pod at a time, and only with what
 *   differs.
 */
export interface StatusManager {
  /** Caches a new status for the pod (forced when the pod is being deleted) and signals a sync. */
  setPodStatus(pod: Pod, status: PodStatus): void;
  /** The cached status of a pod. */
  getPodStatus(uid: string): PodStatus | undefined;
  /** Records a readiness probe result on the container and recomputes Ready and ContainersReady. */
  setContainerReadiness(podUid: string, containerId: string, ready: boolean): void;
  /** Records a startup probe result on the container. */
  setContainerStartup(podUid: string, containerId: string, started: boolean): void;
  /**
   * The pod's containers are all gone: every container not yet terminated is marked terminated
   * (exit 137, `ContainerStatusUnknown`), a pod that is not static gets a terminal phase (Failed
   * unless already terminal), and the pod counts as finished, so a pod being deleted is removed from
   * the API server once its terminal status is written.
   */
  terminatePod(pod: Pod): void;
  /** Forgets the statuses of pods not in `keepUids`. */
  removeOrphanedStatuses(keepUids: Iterable<string>): void;
  /**
   * Syncs statuses with the API server while subscribed: at once after changes (batched), and every
   * sync period all of them. Emits one event per pod synced; never errors (failures are retried on the
   * next sync). Unsubscribe to stop; a request in flight is aborted.
   */
  run(): Observable<StatusSyncEvent>;
}

interface Entry {
  pod: Pod;
  status: PodStatus;
  version: number;
  podIsFinished: boolean;
  /** The uid of the API object written last (the mirror pod's for a static pod). */
  apiUid?: string;
}

function isStaticPod(pod: Pod): boolean {
  const source = pod.metadata.annotations?.[CONFIG_SOURCE];
  return source !== undefined && source !== 'api';
}

function isMirrorPod(pod: Pod): boolean {
  return pod.metadata.annotations?.[CONFIG_MIRROR] !== undefined;
}

const UNKNOWN_TERMINATED = {
  terminated: {
    exitCode: 137,
    reason: 'ContainerStatusUnknown',
    message: 'The container could not be located when the pod was terminated',
  },
};

/** Whether any regular container of the pod has ever started (status_manager.go hasPodInitialized). */
function hasPodInitialized(pod: Pod): boolean {
  if ((pod.spec.initContainers ?? []).length === 0) return true;
  for (const s of pod.status?.containerStatuses ?? []) {
    if (s.lastState?.terminated || !s.state?.waiting) return true;
  }
  const init = pod.status?.initContainerStatuses ?? [];
  const last = init[init.length - 1];
  if (last?.lastState?.terminated?.exitCode === 0 || last?.state?.terminated?.exitCode === 0) return true;
  return false;
}

/** How many init containers have tried to start (all but a trailing run of waiting ones; at least one). */
function initializedCount(statuses: readonly ContainerStatus[]): number {
  for (let i = statuses.length - 1; i >= 0; i--) {
    const s = statuses[i]!;
    if (!s.state?.waiting || s.lastState?.terminated) return i + 1;
  }
  return statuses.length > 0 ? 1 : 0;
}

/** The container that may not leave its terminated state, if the new statuses try to. */
function illegalTransition(
  old: readonly ContainerStatus[] | undefined,
  next: readonly ContainerStatus[] | undefined,
  restartPolicy: string | undefined,
): string | undefined {
  if ((restartPolicy ?? 'Always') === 'Always') return undefined;
  for (const o of old ?? []) {
    const t = o.state?.terminated;
    if (!t) continue;
    if (t.exitCode !== 0 && restartPolicy === 'OnFailure') continue;
    for (const n of next ?? []) if (n.name === o.name && !n.state?.terminated) return n.name;
  }
  return undefined;
}

function copyStatus(status: PodStatus): PodStatus {
  return structuredClone(status);
}

/**
 * Creates a status manager. Nothing is written to the API server until `run()` is subscribed.
 *
 * ```
 * setPodStatus:  --a--b-------c----
 * run():         --p--p-------p----   (p = one PATCH of what changed; every 10 s a full check)
 * ```
 *
 * Teardown: unsubscribing `run()` stops the timers and aborts the request in flight; the cache stays,
 * so a later `run()` carries on.
 *
 * @param config the API client, the pod workers' "could have running containers", the clock
 * @returns the status manager
 */
export function statusManager(config: StatusManagerConfig): StatusManager {
  const scheduler = config.scheduler ?? asyncScheduler;
  const log = (config.logger ?? silentLogger).child({ component: 'statusManager' });
  const couldRun = config.podCouldHaveRunningContainers ?? (() => false);
  const statuses = new Map<string, Entry>();
  const apiVersions = new Map<string, number>();
  const signal$ = new Subject<void>();
  let signalPending = false;
  const now = () => rfc3339(scheduler.now());

  const signal = () => {
    if (signalPending) return;
    signalPending = true;
    // On the next turn, so that statuses set together go out in one batch.
    scheduler.schedule(() => signal$.next());
  };

  const updateStatusInternal = (pod: Pod, input: PodStatus, force: boolean, podIsFinished: boolean) => {
    const uid = pod.metadata.uid ?? '';
    const cached = statuses.get(uid);
    if (cached && !isStaticPod(pod) && cached.podIsFinished && !podIsFinished) {
      log.info(
        { pod: `${pod.metadata.namespace}/${pod.metadata.name}` },
        'Got unexpected podIsFinished=false',
      );
      podIsFinished = true;
    }
    const old: PodStatus = cached?.status ?? pod.status ?? {};
    const status = copyStatus(input);
    const policy = pod.spec.restartPolicy;
    const illegal =
      illegalTransition(old.containerStatuses, status.containerStatuses, policy) ??
      illegalTransition(old.initContainerStatuses, status.initContainerStatuses, policy);
    if (illegal !== undefined) {
      log.error(
        { pod: `${pod.metadata.namespace}/${pod.metadata.name}`, container: illegal },
        `Status update on pod aborted: terminated container ${illegal} attempted illegal transition to non-terminated state`,
      );
      return;
    }
    if (isPodPhaseTerminal(old.phase) && !isPodPhaseTerminal(status.phase)) {
      log.info(
        { pod: `${pod.metadata.namespace}/${pod.metadata.name}`, oldPhase: old.phase, phase: status.phase },
        'Pod is in a terminal phase; keeping it',
      );
      status.phase = old.phase;
    }
    const stamp = now();
    for (const type of [
      'ContainersReady',
      'Ready',
      'Initialized',
      'PodReadyToStartContainers',
      'PodScheduled',
      'DisruptionTarget',
    ]) {
      const c = status.conditions?.find((x) => x.type === type);
      if (!c) continue;
      const o = old.conditions?.find((x) => x.type === type);
      c.lastTransitionTime =
        o && o.status === c.status && o.lastTransitionTime ? o.lastTransitionTime : stamp;
    }
    if (old.startTime) status.startTime = old.startTime;
    else if (!status.startTime) status.startTime = stamp;
    const normalized = normalizePodStatus(pod, status);
    if (cached && !force && isPodStatusByKubeletEqual(cached.status, normalized)) return;
    statuses.set(uid, {
      pod,
      status: normalized,
      version: (cached?.version ?? 0) + 1,
      podIsFinished,
      ...(cached?.apiUid ? { apiUid: cached.apiUid } : {}),
    });
    signal();
  };

  const findContainer = (status: PodStatus, containerId: string): ContainerStatus | undefined =>
    status.containerStatuses?.find((c) => c.containerID === containerId) ??
    status.initContainerStatuses?.find((c) => c.containerID === containerId);

  const podFor = (uid: string): Pod | undefined => config.getPod?.(uid) ?? statuses.get(uid)?.pod;

  const canBeDeleted = (apiPod: Pod, podIsFinished: boolean): boolean =>
    apiPod.metadata.deletionTimestamp !== undefined &&
    !isMirrorPod(apiPod) &&
    isPodPhaseTerminal(apiPod.status?.phase) &&
    podIsFinished;

  const event = (
    uid: string,
    entry: Entry,
    outcome: StatusSyncOutcome,
    error?: unknown,
  ): StatusSyncEvent => ({
    uid,
    namespace: entry.pod.metadata.namespace ?? '',
    name: entry.pod.metadata.name ?? '',
    version: entry.version,
    outcome,
    ...(error === undefined ? {} : { error }),
  });

  const isNotFound = (e: unknown) => e instanceof ApiError && e.statusCode === 404;
  const isConflict = (e: unknown) => e instanceof ApiError && e.statusCode === 409;

  /** GET, merge, PATCH what differs; a conflict re-reads and tries again. */
  const writeStatus = (uid: string, entry: Entry): Observable<{ outcome: StatusSyncOutcome; pod?: Pod }> =>
    defer(() => {
      const ns = entry.pod.metadata.namespace ?? '';
      const name = entry.pod.metadata.name ?? '';
      return config.client.get<Pod>(PODS, name, { namespace: ns }).pipe(
        switchMap((apiPod): Observable<{ outcome: StatusSyncOutcome; pod?: Pod }> => {
          const staticPod = isStaticPod(entry.pod);
          if (staticPod) {
            const hash = entry.pod.metadata.annotations?.[CONFIG_HASH] ?? entry.pod.metadata.uid;
            if (!isMirrorPod(apiPod) || apiPod.metadata.annotations?.[CONFIG_MIRROR] !== hash) {
              return of({ outcome: 'noMirror' });
            }
          } else if (apiPod.metadata.uid !== uid) {
            return of({ outcome: 'recreated' });
          }
          const serverStatus = apiPod.status ?? {};
          const merged = mergePodStatus(serverStatus, entry.status, couldRun(entry.pod), now());
          const patch = mergePatchDiff(serverStatus, merged);
          if (!patch) return of({ outcome: 'unchanged', pod: apiPod });
          return config.client
            .patch<Pod>(PODS, name, { metadata: { uid: apiPod.metadata.uid }, status: patch }, 'merge', {
              namespace: ns,
              subresource: 'status',
            })
            .pipe(map((pod) => ({ outcome: 'patched' as const, pod })));
        }),
      );
    }).pipe(retry({ count: CONFLICT_RETRIES, delay: (e) => (isConflict(e) ? of(0) : throwError(() => e)) }));

  const syncPod = (uid: string, entry: Entry): Observable<StatusSyncEvent> =>
    writeStatus(uid, entry).pipe(
      switchMap(({ outcome, pod }): Observable<StatusSyncEvent> => {
        if (outcome === 'recreated') {
          log.info({ uid }, 'Pod was deleted and then recreated, skipping status update');
          if (statuses.get(uid) === entry) statuses.delete(uid);
          return of(event(uid, entry, outcome));
        }
        if (!pod) return of(event(uid, entry, outcome));
        const apiUid = pod.metadata.uid ?? uid;
        apiVersions.set(apiUid, Math.max(apiVersions.get(apiUid) ?? 0, entry.version));
        const current = statuses.get(uid);
        if (current) current.apiUid = apiUid;
        if (!canBeDeleted(pod, entry.podIsFinished)) return of(event(uid, entry, outcome));
        return config.client
          .delete(PODS, pod.metadata.name ?? '', {
            namespace: pod.metadata.namespace ?? '',
            gracePeriodSeconds: 0,
            preconditions: { uid: apiUid },
          })
          .pipe(
            map(() => {
              log.debug({ uid }, 'Pod fully terminated and removed from etcd');
              statuses.delete(uid);
              return event(uid, entry, 'deleted');
            }),
          );
      }),
      catchError((error: unknown) => {
        if (isNotFound(error)) return of(event(uid, entry, 'notFound'));
        log.info(
          { uid, err: error instanceof Error ? error.message : String(error) },
          'Failed to update status for pod',
        );
        return of(event(uid, entry, 'failed', error));
      }),
    );

  const needsReconcile = (uid: string, entry: Entry): boolean => {
    const pod = config.getPod?.(uid);
    if (!pod || isStaticPod(pod)) return false;
    return !isPodStatusByKubeletEqual(normalizePodStatus(pod, pod.status ?? {}), entry.status);
  };

  const syncBatch = (all: boolean): Observable<StatusSyncEvent> =>
    defer(() => {
      if (all) {
        const live = new Set<string>();
        for (const [uid, e] of statuses) {
          live.add(uid);
          if (e.apiUid) live.add(e.apiUid);
        }
        for (const uid of apiVersions.keys()) if (!live.has(uid)) apiVersions.delete(uid);
      }
      const due: [string, Entry][] = [];
      for (const [uid, entry] of statuses) {
        const synced = apiVersions.get(entry.apiUid ?? uid);
        const stale = synced === undefined || synced < entry.version;
        if (stale) due.push([uid, entry]);
        else if (all && entry.podIsFinished && podFor(uid)?.metadata.deletionTimestamp !== undefined)
          due.push([uid, entry]);
        else if (all && needsReconcile(uid, entry)) {
          apiVersions.delete(entry.apiUid ?? uid);
          due.push([uid, entry]);
        }
      }
      return from(due).pipe(concatMap(([uid, entry]) => syncPod(uid, entry)));
    });

  return {
    setPodStatus(pod, status) {
      updateStatusInternal(pod, status, pod.metadata.deletionTimestamp !== undefined, false);
    },

    getPodStatus(uid) {
      const s = statuses.get(uid)?.status;
      return s ? copyStatus(s) : undefined;
    },

    setContainerReadiness(podUid, containerId, ready) {
      const pod = podFor(podUid);
      const entry = statuses.get(podUid);
      if (!pod || !entry) {
        log.debug({ podUid, containerId }, 'Container readiness changed before pod has synced');
        return;
      }
      const current = findContainer(entry.status, containerId);
      if (!current) {
        log.info({ podUid, containerId }, 'Container readiness changed for unknown container');
        return;
      }
      if (current.ready === ready) return;
      let status = copyStatus(entry.status);
      findContainer(status, containerId)!.ready = ready;
      status = withPodCondition(
        status,
        generatePodReadyCondition(pod, status.conditions, status.containerStatuses, status.phase),
      );
      status = withPodCondition(
        status,
        generateContainersReadyCondition(pod, status.containerStatuses, status.phase),
      );
      updateStatusInternal(pod, status, false, false);
    },

    setContainerStartup(podUid, containerId, started) {
      const pod = podFor(podUid);
      const entry = statuses.get(podUid);
      if (!pod || !entry) {
        log.debug({ podUid, containerId }, 'Container startup changed before pod has synced');
        return;
      }
      const current = findContainer(entry.status, containerId);
      if (!current) {
        log.info({ podUid, containerId }, 'Container startup changed for unknown container');
        return;
      }
      if (current.started === started) return;
      const status = copyStatus(entry.status);
      findContainer(status, containerId)!.started = started;
      updateStatusInternal(pod, status, false, false);
    },

    terminatePod(pod) {
      const uid = pod.metadata.uid ?? '';
      const cached = statuses.get(uid);
      const status = copyStatus(cached?.status ?? pod.status ?? {});
      if (hasPodInitialized(pod)) {
        for (const c of status.containerStatuses ?? []) {
          if (!c.state?.terminated) c.state = structuredClone(UNKNOWN_TERMINATED);
        }
      }
      const init = status.initContainerStatuses ?? [];
      for (let i = 0; i < initializedCount(init); i++) {
        const c = init[i]!;
        if (!c.state?.terminated) c.state = structuredClone(UNKNOWN_TERMINATED);
      }
      if (!isStaticPod(pod) && !isPodPhaseTerminal(status.phase)) {
        if (status.phase === 'Running' && cached) {
          log.info(
            { uid },
            'Terminal running pod should have already been marked as failed, programmer error',
          );
        }
        status.phase = 'Failed';
      }
      updateStatusInternal(pod, status, true, true);
    },

    removeOrphanedStatuses(keepUids) {
      const keep = new Set(keepUids);
      for (const uid of [...statuses.keys()]) if (!keep.has(uid)) statuses.delete(uid);
    },

    run() {
      const period = config.syncPeriodMs ?? STATUS_SYNC_PERIOD_MS;
      let tickPending = false;
      const changed$ = signal$.pipe(map(() => false));
      const ticks$ = interval(period, scheduler).pipe(
        switchMap(() => {
          if (tickPending) return EMPTY;
          tickPending = true;
          return of(true);
        }),
      );
      return defer(() => {
        // Anything set before subscription is synced at once.
        const initial$ = signalPending ? timer(0, scheduler).pipe(map(() => false)) : EMPTY;
        return merge(initial$, changed$, ticks$).pipe(
          concatMap((all) => {
            if (all) tickPending = false;
            else signalPending = false;
            return syncBatch(all);
          }),
        );
      });
    },
  };
}
