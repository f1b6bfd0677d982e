// computePodActions: what SyncPod must do to a pod's sandbox and containers, given its spec and what the runtime runs.
import type { Container, Pod } from '../api/core-v1.ts';
import { containerHash } from './container-hash.ts';
import {
  findContainerStatus,
  type RuntimeContainerStatus,
  type RuntimePodStatus,
} from './runtime-pod-status.ts';

/** Why a container is killed (the kubelet's containerKillReason). */
export type ContainerKillReason = 'StartupProbe' | 'LivenessProbe' | 'FailedPostStartHook' | 'Unknown' | '';

/** A container to stop, with the message the kubelet logs and records. */
export interface ContainerToKill {
  name: string;
  container: Container | undefined;
  message: string;
  reason: ContainerKillReason;
}

/**
 * The plan of one SyncPod (podActions). Invariants: `initContainersToStart` is in spec order and holds
 * at most one regular (run-to-completion) init container; `containersToStart` is empty while the pod
 * is not initialized; `killPod` with `createSandbox` means "start over in a new sandbox".
 */
export interface PodActions {
  /** Stop the whole pod (sandbox and every container) first. */
  killPod: boolean;
  createSandbox: boolean;
  /** The ready sandbox to use (or the old one, if a new one is created). */
  sandboxId: string;
  /** The sandbox attempt to create. */
  attempt: number;
  /**
   * Indexes in spec.initContainers to start, in order: the next init container, and sidecars
   * (restartPolicy Always) that exited or must restart.
   */
  initContainersToStart: number[];
  /** Indexes in spec.containers to start, in order. */
  containersToStart: number[];
  /** Runtime container id → what to kill. */
  containersToKill: Map<string, ContainerToKill>;
}

/**
 * Probe results the plan needs: a failed liveness or startup probe restarts a running container; a
 * sidecar with a startup probe counts as started only once it succeeded (undefined: not run yet).
 */
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

/** A sidecar: an init container with restartPolicy Always (KEP-753), kept running beside the app. */
export function isRestartableInitContainer(container: Container | undefined): boolean {
  return container?.restartPolicy === 'Always';
}

/**
 * Whether any app container was created, runs or has exited (HasAnyRegularContainerCreated): then
 * the pod was initialized in some earlier sandbox.
 */
export function hasAnyRegularContainerCreated(pod: Pod, status: RuntimePodStatus | undefined): boolean {
  return pod.spec.containers.some((c) => {
    const state = findContainerStatus(status, c.name)?.state;
    return state === 'created' || state === 'running' || state === 'exited';
  });
}

function unknownKill(current: RuntimeContainerStatus, container: Container, what: string): ContainerToKill {
  return {
    name: current.name,
    container,
    message: `${what} is in "${current.state}" state, try killing it before restart`,
    reason: 'Unknown',
  };
}

/**
 * The init containers' part of the plan (computeInitContainerActions, sidecars on as upstream's
 * default): walking the init containers from the last, start the first one not yet run, restart
 * sidecars that exited, were created but not started, changed, or failed a liveness or startup
 * probe, and never rerun a regular init container once the pod has initialized. A failed regular
 * init container is retried unless the pod's restartPolicy is Never, which kills the pod.
 *
 * @returns whether the pod has initialized (every init container done, each sidecar started)
 */
export function computeInitContainerActions(
  pod: Pod,
  status: RuntimePodStatus | undefined,
  actions: PodActions,
  probes: ProbeLookup = {},
): boolean {
  const inits = pod.spec.initContainers ?? [];
  if (inits.length === 0) return true;
  // a created or running app container means every init container ran in the past (an exited one
  // may be left from a sandbox before a reboot, so it does not count)
  let podHasInitialized = pod.spec.containers.some((c) => {
    const state = findContainerStatus(status, c.name)?.state;
    return state === 'created' || state === 'running';
  });
  let previouslyInitialized = podHasInitialized;
  const restartOnFailure = shouldRestartOnFailure(pod);
  const toStart: number[] = [];

  for (let i = inits.length - 1; i >= 0; i--) {
    const container = inits[i] as Container;
    const sidecar = isRestartableInitContainer(container);
    const current = findContainerStatus(status, container.name);
    if (!current) {
      // ran before but its record is gone: only a sidecar needs to come back
      if (previouslyInitialized && sidecar) toStart.push(i);
      continue;
    }
    if (previouslyInitialized && !sidecar) continue;

    if (current.state === 'created') {
      // created but never started: the runtime failed to start it, so start it again
      toStart.push(i);
    } else if (current.state === 'running') {
      if (sidecar) sidecarRunning(i, container, current);
    } else if (current.state === 'exited') {
      if (sidecar) toStart.push(i);
      else if (current.exitCode !== 0) {
        if (!restartOnFailure) {
          actions.killPod = true;
          actions.initContainersToStart = [];
          return false;
        }
        toStart.push(i);
      } else if (i === inits.length - 1) podHasInitialized = true;
      else toStart.push(i + 1);
    } else if (sidecar) {
      actions.containersToKill.set(current.id, unknownKill(current, container, 'Init container'));
      toStart.push(i);
    } else {
      if (!restartOnFailure) {
        actions.killPod = true;
        actions.initContainersToStart = [];
        return false;
      }
      actions.containersToKill.set(current.id, unknownKill(current, container, 'Init container'));
      toStart.push(i);
    }
    previouslyInitialized = true;
  }
  if (!previouslyInitialized) toStart.push(0);
  actions.initContainersToStart = toStart.reverse();
  return podHasInitialized;

  function sidecarRunning(i: number, container: Container, current: RuntimeContainerStatus): void {
    if (container.startupProbe) {
      const startup = probes.startup?.(current.id);
      if (startup === undefined) return; // not probed yet: wait for it
      if (startup === 'Failure') {
        actions.containersToKill.set(current.id, {
          name: container.name,
          container,
          message: `Init container ${container.name} failed startup probe`,
          reason: 'StartupProbe',
        });
        toStart.push(i);
      }
      if (startup !== 'Success') return;
    }
    if (i === inits.length - 1) podHasInitialized = true;
    else if (!previouslyInitialized) toStart.push(i + 1); // started for the first time: the next one
    if (current.hash !== undefined && current.hash !== containerHash(container)) {
      actions.containersToKill.set(current.id, {
        name: container.name,
        container,
        message: `Init container ${container.name} definition changed`,
        reason: '',
      });
      toStart.push(i);
      return;
    }
    // a sidecar's liveness does not hold back the next init container, but a failure restarts it
    if (container.livenessProbe && probes.liveness?.(current.id) === 'Failure') {
      actions.containersToKill.set(current.id, {
        name: container.name,
        container,
        message: `Init container ${container.name} failed liveness probe`,
        reason: 'LivenessProbe',
      });
      toStart.push(i);
    }
  }
}

/**
 * Plans one SyncPod (computePodActions): create the sandbox when it is missing or not ready (then the
 * first init container, or every app container that should run); otherwise the init containers'
 * actions ({@link computeInitContainerActions}: next init container, sidecars to keep running), and
 * once initialized the app containers the restart policy wants, killing running ones whose
 * definition changed or whose liveness/startup probe failed. With no app container to keep and
 * none to start, the whole pod is killed and no sidecar restarted.
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
    initContainersToStart: [],
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
    // nothing left to run in a pod that was initialized: no new sandbox
    if (toStart.length === 0 && hasAnyRegularContainerCreated(pod, status)) {
      actions.createSandbox = false;
      return actions;
    }
    if (inits.length > 0) {
      actions.initContainersToStart = [0];
      return actions;
    }
    actions.containersToStart = toStart;
    return actions;
  }

  const initialized = computeInitContainerActions(pod, status, actions, probes);
  if (actions.killPod || !initialized) return actions;

  let keepCount = 0;
  containers.forEach((container, index) => {
    const current = findContainerStatus(status, container.name);
    if (current?.state !== 'running') {
      if (shouldContainerBeRestarted(container, pod, status)) {
        actions.containersToStart.push(index);
        if (current?.state === 'unknown') {
          actions.containersToKill.set(current.id, unknownKill(current, container, 'Container'));
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

  if (keepCount === 0 && actions.containersToStart.length === 0) {
    actions.killPod = true;
    // sidecars must not keep a finished pod alive
    actions.initContainersToStart = [];
  }
  return actions;
}
