// The kubelet's prober manager (prober/prober_manager.go): one worker per pod, container and probe type, and their results.
import { asyncScheduler, type Observable, type SchedulerLike, Subject } from 'rxjs';
import type { Container, ContainerStatus, Pod, PodStatus } from '../../../operators/api/core-v1.ts';
import type { ProbeType } from '../../../operators/kubelet/probe-worker-state.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { ProbeResultsCache, type ProbeUpdate } from './probe-results-cache.ts';
import { type ProbeFn, type ProbeWorker, startProbeWorker } from './probe-worker.ts';

export type { ProbeResult, ProbeType } from '../../../operators/kubelet/probe-worker-state.ts';
export type { ProbeUpdate } from './probe-results-cache.ts';
export type { ProbeFn } from './probe-worker.ts';

export interface ProberManagerConfig {
  /** Runs one probe (see `prober()` for the real exec/HTTP/TCP one; tests pass a fake). */
  prober: ProbeFn;
  /** The pod's current status, as the status manager has it (`statusManager.getPodStatus`). */
  getPodStatus: (uid: string) => PodStatus | undefined;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/**
 * The prober manager.
 *
 * Invariants:
 * - At most one worker per (pod uid, container name, probe type); workers exist only for probes the
 *   container declares, from `addPod` until `removePod`/`cleanupPods`/`stop`, or until the pod is
 *   terminal.
 * - `results$` emits a container's result only when it changes; liveness, readiness and startup
 *   results are kept apart.
 */
export interface ProberManager {
  /** Starts workers for every probe of the pod's containers (and sidecars); known ones are kept. */
  addPod(pod: Pod): void;
  /** Stops the pod's workers. */
  removePod(pod: Pod): void;
  /** Stops liveness and startup workers (the pod is terminating; readiness keeps going). */
  stopLivenessAndStartup(pod: Pod): void;
  /** Stops the workers of every pod not in `desiredUids`. */
  cleanupPods(desiredUids: Iterable<string>): void;
  /**
   * Sets `started` and `ready` on the status's container statuses from the probe results, as upstream's
   * UpdatePodStatus: started when running and the startup probe succeeded (or there is none); ready
   * when started, running and the readiness probe succeeded (or there is none); a completed init
   * container is ready. Changes `status` in place and returns it. A readiness worker that has not
   * produced a result yet is triggered at once.
   */
  updatePodStatus(pod: Pod, status: PodStatus): PodStatus;
  /** Every result change: liveness failures restart containers, readiness and startup feed the status. */
  readonly results$: Observable<ProbeUpdate>;
  /** Number of running workers. */
  readonly workerCount: number;
  /** Stops every worker and completes `results$`. */
  stop(): void;
}

const PROBE_FIELDS: [ProbeType, 'livenessProbe' | 'readinessProbe' | 'startupProbe'][] = [
  ['startup', 'startupProbe'],
  ['readiness', 'readinessProbe'],
  ['liveness', 'livenessProbe'],
];

/**
 * Creates the prober manager. Workers run on `scheduler` (virtual time in tests).
 *
 * ```
 * addPod(p) with a readiness probe (period 10 s, success threshold 1), container running and started:
 * results$:  F-S----------   (F = initial Failure for the new container, S = the first successful probe)
 * ```
 *
 * Teardown: `stop()` cancels every worker's timer and probe in flight.
 *
 * @param config the probe function, the status source and the clock
 * @returns the manager
 */
export function proberManager(config: ProberManagerConfig): ProberManager {
  const scheduler = config.scheduler ?? asyncScheduler;
  const log = (config.logger ?? silentLogger).child({ component: 'proberManager' });
  const results$ = new Subject<ProbeUpdate>();
  const publish = (u: ProbeUpdate) => results$.next(u);
  const caches: Record<ProbeType, ProbeResultsCache> = {
    liveness: new ProbeResultsCache('liveness', publish),
    readiness: new ProbeResultsCache('readiness', publish),
    startup: new ProbeResultsCache('startup', publish),
  };
  const workers = new Map<string, ProbeWorker>();
  const key = (uid: string, container: string, type: ProbeType) => `${uid}\u0000${container}\u0000${type}`;

  const probedContainers = (pod: Pod): Container[] => [
    ...(pod.spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'),
    ...(pod.spec.containers ?? []),
  ];

  const stopWhere = (pred: (uid: string, type: ProbeType) => boolean) => {
    for (const [k, w] of [...workers]) {
      const [uid] = k.split('\u0000');
      if (pred(uid!, w.type)) w.stop();
    }
  };

  const isStarted = (pod: Pod, c: ContainerStatus): boolean => {
    if (!c.state?.running) return false;
    const result = c.containerID ? caches.startup.get(c.containerID) : undefined;
    if (result !== undefined) return result === 'Success';
    return !workers.has(key(pod.metadata.uid ?? '', c.name, 'startup'));
  };

  const readiness = (pod: Pod, c: ContainerStatus): boolean => {
    if (!c.state?.running) return false;
    if (c.containerID && caches.readiness.get(c.containerID) === 'Success') return true;
    const w = workers.get(key(pod.metadata.uid ?? '', c.name, 'readiness'));
    if (!w) return true;
    w.trigger();
    return false;
  };

  return {
    addPod(pod) {
      const uid = pod.metadata.uid ?? '';
      for (const container of probedContainers(pod)) {
        for (const [type, field] of PROBE_FIELDS) {
          const probe = container[field];
          if (!probe) continue;
          const k = key(uid, container.name, type);
          if (workers.has(k)) {
            log.debug(
              { pod: `${pod.metadata.namespace}/${pod.metadata.name}`, container: container.name, type },
              'Probe already exists for container',
            );
            continue;
          }
          const worker = startProbeWorker({
            type,
            pod,
            container,
            probe,
            getPodStatus: config.getPodStatus,
            prober: config.prober,
            results: caches[type],
            scheduler,
            logger: log,
            onExit: () => {
              if (workers.get(k) === worker) workers.delete(k);
            },
          });
          // A worker can end during its first step (terminal pod); only a live one is kept.
          if (worker.stopped) continue;
          workers.set(k, worker);
        }
      }
    },

    removePod(pod) {
      const uid = pod.metadata.uid ?? '';
      stopWhere((u) => u === uid);
    },

    stopLivenessAndStartup(pod) {
      const uid = pod.metadata.uid ?? '';
      stopWhere((u, type) => u === uid && type !== 'readiness');
    },

    cleanupPods(desiredUids) {
      const desired = new Set(desiredUids);
      stopWhere((u) => !desired.has(u));
    },

    updatePodStatus(pod, status) {
      for (const c of status.containerStatuses ?? []) {
        const started = isStarted(pod, c);
        c.started = started;
        if (!started) continue;
        c.ready = readiness(pod, c);
      }
      const init = pod.spec.initContainers ?? [];
      for (const c of status.initContainerStatuses ?? []) {
        const started = isStarted(pod, c);
        c.started = started;
        const spec = init.find((x) => x.name === c.name);
        if (!spec) continue;
        if (spec.restartPolicy !== 'Always') {
          if (c.state?.terminated && c.state.terminated.exitCode === 0) c.ready = true;
          continue;
        }
        if (!started) continue;
        c.ready = readiness(pod, c);
      }
      return status;
    },

    results$: results$.asObservable(),

    get workerCount() {
      return workers.size;
    },

    stop() {
      for (const w of [...workers.values()]) w.stop();
      results$.complete();
    },
  };
}
