// generateApiPodStatus: the API pod status the kubelet reports, from the runtime's view, its reasons and the probes.
import type {
  Container,
  ContainerState,
  ContainerStatus,
  Pod,
  PodCondition,
  PodStatus,
} from '../api/core-v1.ts';
import { shouldContainerBeRestarted } from './compute-pod-actions.ts';
import { getPhase } from './get-phase.ts';
import {
  containersReadyCondition,
  KUBELET_POD_CONDITIONS,
  podInitializedCondition,
  podReadyCondition,
  podReadyToStartContainersCondition,
} from './pod-conditions.ts';
import type { RuntimeContainerStatus, RuntimePodStatus } from './runtime-pod-status.ts';

/** Why a container is waiting, as the kubelet's reason cache holds it (e.g. CrashLoopBackOff). */
export interface ContainerWaitingReason {
  reason: string;
  message: string;
}

/** Inputs of {@link generateApiPodStatus}. */
export interface GeneratePodStatusInput {
  pod: Pod;
  /** What the runtime runs for the pod (undefined: nothing yet). */
  runtime: RuntimePodStatus | undefined;
  /** The status last reported (the status manager's copy, else the pod's own). */
  oldStatus?: PodStatus;
  /** The runtime's name, the prefix of container ids (`process://<id>`). */
  runtimeName: string;
  /** Reasons of containers that wait (CrashLoopBackOff, CreateContainerConfigError, ...), by name. */
  waitingReasons?: ReadonlyMap<string, ContainerWaitingReason>;
  /** Readiness and startup results by runtime container id; absent probe → ready/started once running. */
  readiness?: (containerId: string) => boolean | undefined;
  startup?: (containerId: string) => boolean | undefined;
  /** The pod's workers have terminated it. */
  podIsTerminal: boolean;
  hostIP?: string;
  /** ISO time used for new transition times and a first startTime. */
  now: string;
}

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

function apiState(status: RuntimeContainerStatus, containerId: string): ContainerState {
  switch (status.state) {
    case 'running':
      return { running: { startedAt: iso(status.startedAt) } };
    case 'exited':
      return {
        terminated: {
          exitCode: status.exitCode ?? 0,
          reason: status.reason ?? (status.exitCode === 0 ? 'Completed' : 'Error'),
          ...(status.message ? { message: status.message } : {}),
          startedAt: iso(status.startedAt),
          finishedAt: iso(status.finishedAt),
          containerID: containerId,
        },
      };
    case 'created':
      return { waiting: { reason: 'ContainerCreating' } };
    default:
      return {
        terminated: {
          exitCode: 137,
          reason: 'ContainerStatusUnknown',
          message: 'The container could not be located when the pod was terminated',
          containerID: containerId,
        },
      };
  }
}

/**
 * Container statuses of one list (init or app containers), in spec order
 * (convertToAPIContainerStatuses): the newest runtime instance is `state`, the one before is
 * `lastState`; a container that will be restarted and has a waiting reason shows `waiting` with it
 * and its last termination as `lastState`; never-created containers wait with `ContainerCreating`
 * (`PodInitializing` for app containers of a pod with init containers).
 */
export function containerStatuses(
  input: GeneratePodStatusInput,
  containers: readonly Container[],
  isInit: boolean,
): ContainerStatus[] {
  const { pod, runtime } = input;
  const hasInits = (pod.spec.initContainers ?? []).length > 0;
  return containers.map((container) => {
    const instances = (runtime?.containers ?? []).filter((c) => c.name === container.name);
    const [current, previous] = instances;
    const status: ContainerStatus = {
      name: container.name,
      state: { waiting: { reason: !isInit && hasInits ? 'PodInitializing' : 'ContainerCreating' } },
      ready: false,
      restartCount: 0,
      image: container.image ?? '',
      imageID: '',
    };
    if (current) {
      const id = `${input.runtimeName}://${current.id}`;
      status.containerID = id;
      status.state = apiState(current, id);
      status.restartCount = current.attempt;
      status.imageID = current.image;
      if (previous && !status.state.terminated) {
        status.lastState = apiState(previous, `${input.runtimeName}://${previous.id}`);
      }
      const running = current.state === 'running';
      const started = running && (container.startupProbe ? input.startup?.(current.id) === true : true);
      status.started = started;
      status.ready =
        running && started && (container.readinessProbe ? input.readiness?.(current.id) === true : true);
    } else {
      const old = [
        ...(input.oldStatus?.initContainerStatuses ?? []),
        ...(input.oldStatus?.containerStatuses ?? []),
      ].find((s) => s.name === container.name);
      if (old?.lastState?.terminated) status.lastState = old.lastState;
    }
    const reason = input.waitingReasons?.get(container.name);
    if (
      reason &&
      current?.state !== 'running' &&
      (isInit || shouldContainerBeRestarted(container, pod, runtime))
    ) {
      if (status.state?.terminated) status.lastState = status.state;
      status.state = { waiting: { reason: reason.reason, message: reason.message } };
    }
    return status;
  });
}

function withTransition(condition: PodCondition, old: readonly PodCondition[], now: string): PodCondition {
  const previous = old.find((c) => c.type === condition.type);
  const lastTransitionTime =
    previous && previous.status === condition.status && previous.lastTransitionTime
      ? previous.lastTransitionTime
      : now;
  return { ...condition, lastProbeTime: null, lastTransitionTime };
}

/**
 * The pod status the kubelet hands to its status manager (generateAPIPodStatus): container statuses,
 * the phase (never back from a terminal one), the kubelet's conditions (others kept), PodScheduled
 * True if missing, hostIP/podIP and startTime (kept once set).
 *
 * @param input the pod, the runtime's view and what the kubelet knows about its containers
 * @returns a new status; the input is not changed
 */
export function generateApiPodStatus(input: GeneratePodStatusInput): PodStatus {
  const { pod, runtime, now } = input;
  const old = input.oldStatus ?? pod.status ?? {};
  const initContainerStatuses = containerStatuses(input, pod.spec.initContainers ?? [], true);
  const appStatuses = containerStatuses(input, pod.spec.containers, false);
  const all = [...initContainerStatuses, ...appStatuses];
  let phase: string = getPhase(pod, all, input.podIsTerminal);
  let reason = old.reason;
  let message = old.message;
  if ((old.phase === 'Failed' || old.phase === 'Succeeded') && phase !== old.phase) {
    phase = old.phase;
  } else if (phase !== 'Failed' && phase !== 'Succeeded') {
    reason = undefined;
    message = undefined;
  }
  const oldConditions = old.conditions ?? [];
  const kept = oldConditions.filter((c) => !(KUBELET_POD_CONDITIONS as readonly string[]).includes(c.type));
  const sandboxReady = runtime?.sandboxes[0]?.ready === true;
  const conditions: PodCondition[] = [
    ...kept,
    withTransition(podReadyToStartContainersCondition(sandboxReady), oldConditions, now),
    withTransition(podInitializedCondition(pod, initContainerStatuses, all, phase), oldConditions, now),
    withTransition(podReadyCondition(pod, kept, appStatuses, phase), oldConditions, now),
    withTransition(containersReadyCondition(pod, appStatuses, phase), oldConditions, now),
  ];
  if (!conditions.some((c) => c.type === 'PodScheduled')) {
    conditions.unshift({
      type: 'PodScheduled',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: now,
    });
  }
  const status: PodStatus = {
    ...old,
    phase,
    conditions,
    initContainerStatuses: initContainerStatuses.length > 0 ? initContainerStatuses : undefined,
    containerStatuses: appStatuses,
    startTime: old.startTime ?? now,
  };
  if (reason === undefined) delete status.reason;
  else status.reason = reason;
  if (message === undefined) delete status.message;
  else status.message = message;
  if (status.initContainerStatuses === undefined) delete status.initContainerStatuses;
  if (input.hostIP) {
    status.hostIP = input.hostIP;
    status.hostIPs = [{ ip: input.hostIP }];
  }
  const podIP = runtime?.ips[0] ?? (runtime?.sandboxes[0]?.ready ? runtime.sandboxes[0].ip : undefined);
  if (podIP) {
    status.podIP = podIP;
    status.podIPs = [{ ip: podIP }];
  }
  return status;
}
