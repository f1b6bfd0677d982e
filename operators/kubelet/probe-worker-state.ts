// A probe worker's decisions as pure steps (prober/worker.go doProbe): when to probe, and when a run of results counts.
import type { ContainerStatus, Pod, PodStatus, Probe } from '../api/core-v1.ts';

export type ProbeType = 'liveness' | 'readiness' | 'startup';
/** A probe's verdict; `Unknown` is a startup probe's value before its first verdict. */
export type ProbeResult = 'Success' | 'Failure' | 'Unknown';

/** The value a new container starts with: not ready, alive, startup unknown. */
export function initialProbeResult(type: ProbeType): ProbeResult {
  return type === 'readiness' ? 'Failure' : type === 'liveness' ? 'Success' : 'Unknown';
}

/**
 * What one worker remembers between probes.
 * Invariants: `resultRun >= 0`; `resultRun` counts consecutive equal results `lastResult`; while
 * `onHold` (after a liveness/startup failure) nothing is probed until the container id changes.
 */
export interface ProbeWorkerState {
  containerId: string | undefined;
  onHold: boolean;
  lastResult: ProbeResult | undefined;
  resultRun: number;
}

export const INITIAL_PROBE_WORKER_STATE: ProbeWorkerState = Object.freeze({
  containerId: undefined,
  onHold: false,
  lastResult: undefined,
  resultRun: 0,
});

/** Effects on the results cache a step asks for. */
export interface ProbeWorkerEffects {
  /** Forget the previous container's result. */
  remove?: string;
  /** Set this container's result (published only if it differs). */
  set?: { containerId: string; result: ProbeResult };
}

/** The outcome of the check before a probe: probe now, wait for the next tick, or end the worker. */
export type ProbeWorkerDecision = {
  next: 'probe' | 'wait' | 'stop';
  state: ProbeWorkerState;
} & ProbeWorkerEffects;

/** What the worker sees before deciding to probe. */
export interface ProbeWorkerInput {
  type: ProbeType;
  pod: Pod;
  containerName: string;
  /** The pod's current status (the status manager's copy); undefined when it has none yet. */
  status: PodStatus | undefined;
  probe: Probe;
  /** Now, in ms. */
  now: number;
}

function findStatus(status: PodStatus, name: string): ContainerStatus | undefined {
  const app = status.containerStatuses?.find((c) => c.name === name);
  if (app?.containerID) return app;
  const init = status.initContainerStatuses?.find((c) => c.name === name);
  return init?.containerID ? init : undefined;
}

/**
 * Decides whether to probe now, as worker.go's doProbe does before calling the prober: no status →
 * wait; terminal pod → stop; no container yet → wait; a new container id resets the worker (and sets
 * the initial result); on hold → wait; a container not running fails (and a container that ended in a
 * RestartNever pod stops the worker); a pod being deleted ends liveness and startup workers with
 * Success; within initialDelaySeconds → wait; startup probes only until started, the others only after.
 */
export function probeWorkerDecide(state: ProbeWorkerState, input: ProbeWorkerInput): ProbeWorkerDecision {
  const { status, type } = input;
  if (!status) return { next: 'wait', state };
  if (status.phase === 'Succeeded' || status.phase === 'Failed') return { next: 'stop', state };
  const c = findStatus(status, input.containerName);
  if (!c) return { next: 'wait', state };
  const effects: ProbeWorkerEffects = {};
  let s = state;
  if (s.containerId !== c.containerID) {
    if (s.containerId) effects.remove = s.containerId;
    s = { ...s, containerId: c.containerID, onHold: false };
    effects.set = { containerId: c.containerID!, result: initialProbeResult(type) };
  }
  if (s.onHold) return { next: 'wait', state: s, ...effects };
  const id = s.containerId!;
  if (!c.state?.running) {
    effects.set = { containerId: id, result: 'Failure' };
    const ends = c.state?.terminated !== undefined && input.pod.spec.restartPolicy === 'Never';
    return { next: ends ? 'stop' : 'wait', state: s, ...effects };
  }
  if (input.pod.metadata.deletionTimestamp !== undefined && (type === 'liveness' || type === 'startup')) {
    effects.set = { containerId: id, result: 'Success' };
    return { next: 'stop', state: s, ...effects };
  }
  const startedAt = c.state.running.startedAt ? Date.parse(c.state.running.startedAt) : Number.NaN;
  const delay = input.probe.initialDelaySeconds ?? 0;
  if (!Number.isNaN(startedAt) && Math.trunc((input.now - startedAt) / 1000) < delay) {
    return { next: 'wait', state: s, ...effects };
  }
  const started = c.started === true;
  if (started && type === 'startup') return { next: 'wait', state: s, ...effects };
  if (!started && type !== 'startup') return { next: 'wait', state: s, ...effects };
  return { next: 'probe', state: s, ...effects };
}

/**
 * Counts a probe's result: a run of equal results reaches its threshold (failureThreshold, default 3;
 * successThreshold, default 1) before it is set; a liveness or startup failure that counts puts the
 * worker on hold until the container is replaced.
 */
export function probeWorkerRecord(
  state: ProbeWorkerState,
  type: ProbeType,
  probe: Probe,
  result: ProbeResult,
): { state: ProbeWorkerState } & ProbeWorkerEffects {
  const resultRun = state.lastResult === result ? state.resultRun + 1 : 1;
  let s: ProbeWorkerState = { ...state, lastResult: result, resultRun };
  const failureThreshold = probe.failureThreshold ?? 3;
  const successThreshold = probe.successThreshold ?? 1;
  if (
    (result === 'Failure' && resultRun < failureThreshold) ||
    (result === 'Success' && resultRun < successThreshold)
  ) {
    return { state: s };
  }
  const set = { containerId: s.containerId!, result };
  if ((type === 'liveness' || type === 'startup') && result === 'Failure') {
    s = { ...s, onHold: true, resultRun: 0 };
  }
  return { state: s, set };
}
