// getPhase: a pod's phase from its spec and container statuses, with the kubelet's rules.
import type { ContainerStatus, Pod } from '../api/core-v1.ts';

function statusOf(statuses: readonly ContainerStatus[], name: string): ContainerStatus | undefined {
  return statuses.find((s) => s.name === name);
}

/** Whether any app container has run (running, terminated, or waiting after a termination). */
export function hasAnyRegularContainerStarted(pod: Pod, statuses: readonly ContainerStatus[]): boolean {
  return pod.spec.containers.some((c) => {
    const s = statusOf(statuses, c.name);
    return (
      s !== undefined &&
      (s.state?.running !== undefined ||
        s.state?.terminated !== undefined ||
        s.lastState?.terminated !== undefined)
    );
  });
}

/**
 * The pod phase (getPhase): Pending while init containers (a sidecar until it has started) or app
 * containers have not all started;
 * Failed when an init container failed under restartPolicy Never; Running while one runs and all are
 * known; when all have stopped: Succeeded/Failed if the pod is terminal (non-static) or by the
 * restart policy (Always → Running; all succeeded → Succeeded; Never → Failed; OnFailure → Running).
 *
 * @example getPhase(pod, [{ name: 'c', state: { running: {} }, ... }], false) // 'Running'
 * @param pod the pod
 * @param statuses init and app container statuses together
 * @param podIsTerminal the pod's workers have terminated it
 * @returns the phase
 */
export function getPhase(
  pod: Pod,
  statuses: readonly ContainerStatus[],
  podIsTerminal: boolean,
): 'Pending' | 'Running' | 'Succeeded' | 'Failed' {
  let pendingInitialization = 0;
  let runningInitialization = 0;
  let failedInitialization = 0;
  for (const container of pod.spec.initContainers ?? []) {
    if (container.restartPolicy === 'Always') continue;
    const s = statusOf(statuses, container.name);
    if (!s) {
      pendingInitialization++;
      continue;
    }
    // a regular init container still running holds the pod in Pending whatever else runs
    if (s.state?.running) runningInitialization++;
    else if (s.state?.terminated) {
      if (s.state.terminated.exitCode !== 0) failedInitialization++;
    } else if (s.state?.waiting) {
      if (s.lastState?.terminated) {
        if (s.lastState.terminated.exitCode !== 0) failedInitialization++;
      } else pendingInitialization++;
    } else pendingInitialization++;
  }

  let unknown = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  // sidecars: running counts (pending until started); a terminated one does not count for the phase
  for (const container of pod.spec.initContainers ?? []) {
    if (container.restartPolicy !== 'Always') continue;
    const s = statusOf(statuses, container.name);
    if (!s) {
      unknown++;
      continue;
    }
    if (s.state?.running) {
      if (!s.started) pendingInitialization++;
      running++;
    } else if (s.state?.terminated) {
      // not counted
    } else if (s.state?.waiting) {
      if (!s.lastState?.terminated) {
        pendingInitialization++;
        waiting++;
      }
    } else unknown++;
  }
  for (const container of pod.spec.containers) {
    const s = statusOf(statuses, container.name);
    if (!s) {
      unknown++;
      continue;
    }
    if (s.state?.running) running++;
    else if (s.state?.terminated) {
      stopped++;
      if (s.state.terminated.exitCode === 0) succeeded++;
    } else if (s.state?.waiting) {
      if (s.lastState?.terminated) stopped++;
      else waiting++;
    } else unknown++;
  }

  const policy = pod.spec.restartPolicy ?? 'Always';
  if (failedInitialization > 0 && policy === 'Never') return 'Failed';
  if (
    runningInitialization > 0 ||
    (pendingInitialization > 0 && !hasAnyRegularContainerStarted(pod, statuses)) ||
    waiting > 0
  )
    return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    const source = pod.metadata.annotations?.['kubernetes.io/config.source'];
    const isStatic = source !== undefined && source !== 'api';
    if (podIsTerminal && !isStatic) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (policy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (policy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}
