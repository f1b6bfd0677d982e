// One probe worker: probes one container of one pod for one probe type on its period, until told to stop.
import { from, type ObservableInput, type SchedulerLike, type Subscription } from 'rxjs';
import type { Container, Pod, PodStatus, Probe } from '../../../operators/api/core-v1.ts';
import {
  INITIAL_PROBE_WORKER_STATE,
  type ProbeResult,
  type ProbeType,
  type ProbeWorkerEffects,
  type ProbeWorkerState,
  probeWorkerDecide,
  probeWorkerRecord,
} from '../../../operators/kubelet/probe-worker-state.ts';
import type { Logger } from '../../../operators/logger.ts';
import type { ProbeResultsCache } from './probe-results-cache.ts';

/**
 * Runs one probe. Resolves with the verdict; a rejection is a probe error, whose result is thrown away
 * (the worker tries again on its next tick), as upstream's prober errors are.
 */
export type ProbeFn = (
  probeType: ProbeType,
  pod: Pod,
  status: PodStatus,
  container: Container,
  containerId: string,
) => ObservableInput<ProbeResult>;

export interface ProbeWorkerConfig {
  type: ProbeType;
  pod: Pod;
  container: Container;
  probe: Probe;
  getPodStatus: (uid: string) => PodStatus | undefined;
  prober: ProbeFn;
  results: ProbeResultsCache;
  scheduler: SchedulerLike;
  logger: Logger;
  /** Called once when the worker ends (stopped, or the pod or container is done). */
  onExit: () => void;
}

/** A running worker: `trigger()` probes at once (if idle), `stop()` ends it. */
export interface ProbeWorker {
  readonly type: ProbeType;
  trigger(): void;
  stop(): void;
  /** The worker's remembered state, for tests and debugging. */
  readonly state: ProbeWorkerState;
  /** True once the worker has ended. */
  readonly stopped: boolean;
}

/**
 * Starts a worker (worker.go run): probes at once, then every periodSeconds (a tick that falls while a
 * probe is still running is kept, one at most) or when triggered, until a step says stop or `stop()`.
 * On exit the container's result is removed from the cache.
 */
export function startProbeWorker(config: ProbeWorkerConfig): ProbeWorker {
  const { type, pod, container, probe, scheduler, results } = config;
  const podUid = pod.metadata.uid ?? '';
  const periodMs = (probe.periodSeconds ?? 10) * 1000;
  let state = INITIAL_PROBE_WORKER_STATE;
  let running = true;
  let inFlight: Subscription | undefined;
  let pendingTick = false;
  let tick: Subscription | undefined;

  const apply = (effects: ProbeWorkerEffects) => {
    if (effects.remove) results.remove(effects.remove);
    if (effects.set) results.set(effects.set.containerId, effects.set.result, podUid, container.name);
  };

  const finish = () => {
    if (!running) return;
    running = false;
    tick?.unsubscribe();
    inFlight?.unsubscribe();
    if (state.containerId) results.remove(state.containerId);
    config.onExit();
  };

  const afterStep = () => {
    inFlight = undefined;
    if (running && pendingTick) {
      pendingTick = false;
      step();
    }
  };

  const step = () => {
    if (!running) return;
    if (inFlight) {
      pendingTick = true;
      return;
    }
    const status = config.getPodStatus(podUid);
    const decision = probeWorkerDecide(state, {
      type,
      pod,
      containerName: container.name,
      status,
      probe,
      now: scheduler.now(),
    });
    state = decision.state;
    apply(decision);
    if (decision.next === 'stop') {
      finish();
      return;
    }
    if (decision.next === 'wait' || !status) return;
    const containerId = state.containerId!;
    let done = false;
    const sub = from(config.prober(type, pod, status, container, containerId)).subscribe({
      next: (result) => {
        if (done || !running || state.containerId !== containerId) return;
        done = true;
        const recorded = probeWorkerRecord(state, type, probe, result);
        state = recorded.state;
        apply(recorded);
      },
      error: (error: unknown) => {
        done = true;
        config.logger.debug(
          {
            pod: `${pod.metadata.namespace}/${pod.metadata.name}`,
            container: container.name,
            probeType: type,
            err: String(error),
          },
          'Probe errored; result thrown away',
        );
        afterStep();
      },
      complete: () => afterStep(),
    });
    if (!sub.closed) inFlight = sub;
  };

  step();
  if (running) {
    tick = scheduler.schedule(function (this: { schedule(state?: unknown, delay?: number): void }) {
      step();
      if (running) this.schedule(undefined, periodMs);
    }, periodMs);
  }

  return {
    type,
    trigger: () => step(),
    stop: finish,
    get state() {
      return state;
    },
    get stopped() {
      return !running;
    },
  };
}
