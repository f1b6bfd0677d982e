// syncLoop: the kubelet's main loop as a merge of pod config updates, the sync and housekeeping ticks, runtime events and probe results.
import {
  asyncScheduler,
  defer,
  EMPTY,
  exhaustMap,
  from,
  ignoreElements,
  interval,
  merge,
  type Observable,
  type SchedulerLike,
  tap,
} from 'rxjs';
import type { Pod } from '../../operators/api/core-v1.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import type { PodUpdate } from '../../operators/pod-config/types.ts';

/** A probe result change, as the prober manager publishes it. */
export interface ProbeResultUpdate {
  probeType: 'liveness' | 'readiness' | 'startup';
  podUid: string;
  containerName: string;
  containerId: string;
  result: string;
}

/** What the loop dispatches to (the kubelet's Handle* methods). Handlers do not throw; a throw is logged. */
export interface SyncHandler {
  handlePodAdditions(pods: Pod[]): void;
  handlePodUpdates(pods: Pod[]): void;
  handlePodRemoves(pods: Pod[]): void;
  handlePodReconcile(pods: Pod[]): void;
  handlePodSyncs(pods: Pod[]): void;
  /** Housekeeping; the next tick is skipped while it runs. */
  handlePodCleanups(): Promise<void>;
  /** The desired pod with this UID (the pod manager's). */
  podByUid(uid: string): Pod | undefined;
  /** UIDs whose requeue time has come (the pod workers' work queue). */
  dueWork(): string[];
  /** A readiness or startup result to record before the pod syncs. */
  recordProbeResult(update: ProbeResultUpdate): void;
}

/** Settings of {@link syncLoop}. */
export interface SyncLoopConfig {
  /** The pod configuration's updates. */
  updates$: Observable<PodUpdate>;
  /** The sources the configuration has; housekeeping waits until each has been heard from. */
  sources: readonly string[];
  /** PLEG: pod UIDs whose containers changed in the runtime. */
  podLifecycleEvents$?: Observable<{ podUid: string }>;
  probeResults$?: Observable<ProbeResultUpdate>;
  /** default 1 000 ms */
  syncPeriodMs?: number;
  /** default 2 000 ms */
  housekeepingPeriodMs?: number;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/**
 * The kubelet's syncLoop/syncLoopIteration: every input is one branch of a merge, dispatched as
 * upstream does. Config ADD → additions, UPDATE and DELETE → updates, REMOVE → removes, RECONCILE →
 * reconcile, SET → ignored ("Kubelet does not support snapshot update"); each update marks its source
 * seen. The 1 s tick syncs the pods whose work is due; the 2 s tick runs housekeeping once every
 * source has been seen (never two at once). A runtime event syncs its pod if known; a liveness failure
 * syncs the pod; readiness and startup results are recorded, then the pod syncs.
 *
 * ```
 * updates:  -a-----u------   a = ADD [p1]  u = UPDATE [p1']
 * sync tick: ----t----t----   (1 s)
 * handlers: -A--S--U-S----   A = additions, U = updates, S = syncs of due pods
 * ```
 *
 * Teardown: unsubscribing stops every input; a housekeeping pass in flight is not awaited.
 *
 * @param handler the kubelet's handlers
 * @param config the inputs and periods
 * @returns an observable that never emits; subscribe to run the loop
 */
export function syncLoop(handler: SyncHandler, config: SyncLoopConfig): Observable<never> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = (config.logger ?? silentLogger).child({ component: 'sync-loop' });
  return defer(() => {
    const seen = new Set<string>();
    const allSourcesReady = () => config.sources.every((s) => seen.has(s));
    const guard = (what: string, fn: () => void) => {
      try {
        fn();
      } catch (error) {
        logger.error({ err: String(error), what }, 'sync loop handler failed');
      }
    };
    const syncUids = (uids: Iterable<string>) => {
      const pods: Pod[] = [];
      for (const uid of new Set(uids)) {
        const pod = handler.podByUid(uid);
        if (pod) pods.push(pod);
      }
      if (pods.length > 0) guard('syncs', () => handler.handlePodSyncs(pods));
    };

    const config$ = config.updates$.pipe(
      tap((update) => {
        const pods = update.pods as Pod[];
        switch (update.op) {
          case 'ADD':
            guard('additions', () => handler.handlePodAdditions(pods));
            break;
          case 'UPDATE':
          case 'DELETE':
            guard('updates', () => handler.handlePodUpdates(pods));
            break;
          case 'REMOVE':
            guard('removes', () => handler.handlePodRemoves(pods));
            break;
          case 'RECONCILE':
            guard('reconcile', () => handler.handlePodReconcile(pods));
            break;
          case 'SET':
            logger.error({ source: update.source }, 'Kubelet does not support snapshot update');
            break;
        }
        seen.add(update.source);
      }),
    );
    const sync$ = interval(config.syncPeriodMs ?? 1_000, scheduler).pipe(
      tap(() => syncUids(handler.dueWork())),
    );
    const housekeeping$ = interval(config.housekeepingPeriodMs ?? 2_000, scheduler).pipe(
      exhaustMap(() => {
        if (!allSourcesReady()) return EMPTY;
        return from(
          handler
            .handlePodCleanups()
            .catch((error: unknown) => logger.error({ err: String(error) }, 'Failed cleaning pods')),
        );
      }),
    );
    const pleg$ = (config.podLifecycleEvents$ ?? EMPTY).pipe(tap((event) => syncUids([event.podUid])));
    const probes$ = (config.probeResults$ ?? EMPTY).pipe(
      tap((update) => {
        if (update.probeType === 'liveness') {
          if (update.result === 'Failure') syncUids([update.podUid]);
          return;
        }
        guard('probe', () => handler.recordProbeResult(update));
        syncUids([update.podUid]);
      }),
    );
    return merge(config$, sync$, housekeeping$, pleg$, probes$).pipe(ignoreElements());
  });
}
