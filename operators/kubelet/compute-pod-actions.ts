// computePodActions: what SyncPod must do to a pod's sandbox and containers, given its spec and what the runtime runs.
import type { Container, Pod } from '../api/core-v1.ts';
import { containerHash } from './container-hash.ts';
import {
  findContainerStatus,
  type RuntimeContainerStatus,
  type RuntimePodStatus,
} from './runtime-pod-status.ts';

/** Why a container is killed (the kubelet's containerKillReason). */
export type ContainerKillReason = 'StartupProbe' | 'LivenessProbe' | 'FailedPostStartHook' | '';

/** A container to stop, with the message the kubelet logs and records. */
export interface ContainerToKill {
  name: string;
  container: Container | undefined;
  message: string;
  reason: ContainerKillReason;
}

/** The plan of one SyncPod (podActions). */
export interface PodActions {
  /** Stop the whole pod (sandbox and every container) first. */
  killPod: boolean;
  createSandbox: boolean;
  /** The ready sandbox to use (or the old one, if a new one is created). */
  sandboxId: string;
  /** The sandbox attempt to create. */
  attempt: number;
  /** The index in spec.initContainers of the next init container to start, if any. */
  nextInitContainerToStart: number | undefined;
  /** Indexes in spec.containers to start, in order. */
  containersToStart: number[];
  /** Runtime container id → what to kill. */
  containersToKill: Map<string, ContainerToKill>;
}

/** Probe results the plan needs: a failed liveness or startup probe restarts a running container. */
export interface ProbeLookup {
  liveness?: (containerId: string) => 'Success' | 'Failure' | undefined;
  startup?: (containerId: string) => 'Success' | 'Failure' | undefined;
}

/** The pod's restart policy, defaulted as the API server does. */
export function restartPolicyOf(pod: Pod): 'Always' | 'OnFailure' | 'Never' {
  return pod.spec.restartPolicy ?? 'Always';
}

/** Whether failed containers are restarted (restartPolicy is not Never). */
export function shouldRestartOnFailure(pod: Pod): boolean {
  return restartPolicyOf(pod) !== 'Never';
}

/**
 * Whether a sandbox must be (re)created (PodSandboxChanged): none exists, more than one is ready, or
 * the newest is not ready.
 *
 * @returns whether to create one, the attempt to create, and the newest sandbox's id
 */
export function podSandboxChanged(status: RuntimePodStatus | undefined): {
  changed: boolean;
  attempt: number;
  sandboxId: string;
} {
  const sandboxes = status?.sandboxes ?? [];
  const newest = sandboxes[0];
  if (!newest) return { changed: true, attempt: 0, sandboxId: '' };
  const ready = sandboxes.filter((s) => s.ready).length;
  if (ready > 1 || !newest.ready) return { changed: true, attempt: newest.attempt + 1, sandboxId: newest.id };
  return { changed: false, attempt: newest.attempt, sandboxId: newest.id };
}

/** A finished init container failed (non-zero exit) or is in an unknown state. */
export function isInitContainerFailed(status: RuntimeContainerStatus): boolean {
  if (status.state === 'exited' && status.exitCode !== 0) return true;
  return status.state === 'unknown';
}

/**
 * Whether a container that is not running should be started again (ShouldContainerBeRestarted):
 * never for a pod being deleted; always if it never ran or is created/unknown; otherwise by the
 * restart policy (Never: no; OnFailure: only after a non-zero exit; Always: yes).
 */
export function shouldContainerBeRestarted(
  container: Container,
  pod: Pod,
  status: RuntimePodStatus | undefined,
): boolean {
  if (pod.metadata.deletionTimestamp) return false;
  const current = findContainerStatus(status, container.name);
  if (!current) return true;
  if (current.state === 'running') return false;
  if (current.state === 'unknown' || current.state === 'created') return true;
  const policy = restartPolicyOf(pod);
  if (policy === 'Never') return false;
  if (policy === 'OnFailure' && current.exitCode === 0) return false;
  return true;
}

function containerSucceeded(container: Container, status: RuntimePodStatus | undefined): boolean {
  const current = findContainerStatus(status, container.name);
  return current !== undefined && current.state === 'exited' && current.exitCode === 0;
}

/**
 * The next init container to run (findNextInitContainerToRun): the last failed one's status if any
 * failed, else the one after the newest that exited; `done` once every init container succeeded or
 * any app container runs.
 */
export function findNextInitContainerToRun(
  pod: Pod,
  status: RuntimePodStatus | undefined,
): { lastStatus: RuntimeContainerStatus | undefined; next: number | undefined; done: boolean } {
  const inits = pod.spec.initContainers ?? [];
  if (inits.length === 0) return { lastStatus: undefined, next: undefined, done: true };
  for (const container of pod.spec.containers) {
    if (findContainerStatus(status, container.name)?.state === 'running')
      return { lastStatus: undefined, next: undefined, done: true };
  }
  for (let i = inits.length - 1; i >= 0; i--) {
    const current = findContainerStatus(status, (inits[i] as Container).name);
    if (current && isInitContainerFailed(current)) return { lastStatus: current, next: i, done: false };
  }
  for (let i = inits.length - 1; i >= 0; i--) {
    const current = findContainerStatus(status, (inits[i] as Container).name);
    if (!current) continue;
    if (current.state === 'running') return { lastStatus: undefined, next: undefined, done: false };
    if (current.state === 'exited') {
      if (i === inits.length - 1) return { lastStatus: undefined, next: undefined, done: true };
      return { lastStatus: undefined, next: i + 1, done: false };
    }
  }
  return { lastStatus: undefined, next: 0, done: false };
}

/**
 * Plans one SyncPod (computePodActions): create the sandbox when it is missing or not ready (then the
 * first init container, or every app container that should run); otherwise run init containers in
 * order, then start the app containers the restart policy wants and kill running ones whose
 * definition changed or whose liveness/startup probe failed. With nothing to keep and nothing to
 * start, the whole pod is killed.
 *
 * @example computePodActions(pod, undefined) // { createSandbox: true, containersToStart: [0, ...], ... }
 * @param pod the pod as configured
 * @param status what the runtime runs for it (undefined = nothing)
 * @param probes failed liveness and startup probes
 * @returns the plan
 */
export function computePodActions(
  pod: Pod,
  status: RuntimePodStatus | undefined,
  probes: ProbeLookup = {},
): PodActions {
  const sandbox = podSandboxChanged(status);
  const actions: PodActions = {
    killPod: sandbox.changed,
    createSandbox: sandbox.changed,
    sandboxId: sandbox.sandboxId,
    attempt: sandbox.attempt,
    nextInitContainerToStart: undefined,
    containersToStart: [],
    containersToKill: new Map(),
  };
  const containers = pod.spec.containers;
  const inits = pod.spec.initContainers ?? [];

  if (sandbox.changed) {
    if (!shouldRestartOnFailure(pod) && sandbox.attempt !== 0 && (status?.containers.length ?? 0) !== 0) {
      actions.createSandbox = false;
      return actions;
    }
    const toStart: number[] = [];
    containers.forEach((container, index) => {
      if (restartPolicyOf(pod) === 'OnFailure' && containerSucceeded(container, status)) return;
      toStart.push(index);
    });
    if (toStart.length === 0 && inits.length === 0) {
      actions.createSandbox = false;
      return actions;
    }
    if (inits.length > 0) {
      actions.nextInitContainerToStart = 0;
      return actions;
    }
    actions.containersToStart = toStart;
    return actions;
  }

  const init = findNextInitContainerToRun(pod, status);
  if (!init.done) {
    if (init.next !== undefined) {
      const failed = init.lastStatus !== undefined && isInitContainerFailed(init.lastStatus);
      if (failed && !shouldRestartOnFailure(pod)) {
        actions.killPod = true;
      } else {
        if (init.lastStatus?.state === 'unknown') {
          actions.containersToKill.set(init.lastStatus.id, {
            name: init.lastStatus.name,
            container: inits[init.next],
            message: 'Init container is in unknown state, try killing it before restart',
            reason: '',
          });
        }
        actions.nextInitContainerToStart = init.next;
      }
    }
    return actions;
  }

  let keepCount = 0;
  containers.forEach((container, index) => {
    const current = findContainerStatus(status, container.name);
    if (current?.state !== 'running') {
      if (shouldContainerBeRestarted(container, pod, status)) {
        actions.containersToStart.push(index);
        if (current?.state === 'unknown') {
          actions.containersToKill.set(current.id, {
            name: container.name,
            container,
            message: 'Container is in unknown state, try killing it before restart',
            reason: '',
          });
        }
      }
      return;
    }
    let message: string;
    let reason: ContainerKillReason = '';
    let restart = shouldRestartOnFailure(pod);
    if (current.hash !== undefined && current.hash !== containerHash(container)) {
      message = `Container ${container.name} definition changed`;
      restart = true;
    } else if (probes.liveness?.(current.id) === 'Failure') {
      message = `Container ${container.name} failed liveness probe`;
      reason = 'LivenessProbe';
    } else if (probes.startup?.(current.id) === 'Failure') {
      message = `Container ${container.name} failed startup probe`;
      reason = 'StartupProbe';
    } else {
      keepCount++;
      return;
    }
    if (restart) {
      message = `${message}, will be restarted`;
      actions.containersToStart.push(index);
    }
    actions.containersToKill.set(current.id, { name: container.name, container, message, reason });
  });

  if (keepCount === 0 && actions.containersToStart.length === 0) actions.killPod = true;
  return actions;
}
