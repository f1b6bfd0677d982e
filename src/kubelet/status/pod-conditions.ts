// Pod conditions the kubelet owns: which they are, terminal phases, and the Ready / ContainersReady generators (status/generate.go).
import type { ContainerStatus, Pod, PodCondition, PodStatus } from '../../../operators/api/core-v1.ts';

/** Conditions only the kubelet writes (kubetypes.PodConditionByKubelet). */
export const KUBELET_POD_CONDITIONS: ReadonlySet<string> = new Set([
  'PodScheduled',
  'Ready',
  'Initialized',
  'ContainersReady',
  'PodReadyToStartContainers',
  'PodResizePending',
  'PodResizeInProgress',
]);

/** Conditions the kubelet shares with other writers (kubetypes.PodConditionSharedByKubelet). */
export const SHARED_POD_CONDITIONS: ReadonlySet<string> = new Set(['DisruptionTarget']);

/** Reasons of the generated conditions. */
export const CONDITION_REASONS = Object.freeze({
  unknownContainerStatuses: 'UnknownContainerStatuses',
  podCompleted: 'PodCompleted',
  podFailed: 'PodFailed',
  containersNotReady: 'ContainersNotReady',
  containersNotInitialized: 'ContainersNotInitialized',
  readinessGatesNotReady: 'ReadinessGatesNotReady',
});

/** Succeeded and Failed are terminal: a pod never leaves them. */
export function isPodPhaseTerminal(phase: string | undefined): boolean {
  return phase === 'Succeeded' || phase === 'Failed';
}

/** Go's `%s` of a string slice: `[a b]`. */
function goList(names: string[]): string {
  return `[${names.join(' ')}]`;
}

function terminalCondition(type: string, phase: string | undefined): PodCondition {
  const condition: PodCondition = { type, status: 'False' };
  if (phase === 'Failed') condition.reason = CONDITION_REASONS.podFailed;
  else if (phase === 'Succeeded') condition.reason = CONDITION_REASONS.podCompleted;
  return condition;
}

/**
 * The ContainersReady condition: True when every app container (and every sidecar) is ready; False
 * with `ContainersNotReady` naming the unknown and unready ones; `PodCompleted`/`PodFailed` in a
 * terminal phase.
 */
export function generateContainersReadyCondition(
  pod: Pod,
  containerStatuses: readonly ContainerStatus[] | undefined,
  phase: string | undefined,
): PodCondition {
  if (containerStatuses === undefined) {
    return { type: 'ContainersReady', status: 'False', reason: CONDITION_REASONS.unknownContainerStatuses };
  }
  const byName = new Map(containerStatuses.map((s) => [s.name, s]));
  const unknown: string[] = [];
  const unready: string[] = [];
  const containers = [
    ...(pod.spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'),
    ...(pod.spec.containers ?? []),
  ];
  for (const c of containers) {
    const s = byName.get(c.name);
    if (!s) unknown.push(c.name);
    else if (!s.ready) unready.push(c.name);
  }
  if ((phase === 'Succeeded' && unknown.length === 0) || phase === 'Failed') {
    return terminalCondition('ContainersReady', phase);
  }
  const messages: string[] = [];
  if (unknown.length) messages.push(`containers with unknown status: ${goList(unknown)}`);
  if (unready.length) messages.push(`containers with unready status: ${goList(unready)}`);
  if (messages.length) {
    return {
      type: 'ContainersReady',
      status: 'False',
      reason: CONDITION_REASONS.containersNotReady,
      message: messages.join(', '),
    };
  }
  return { type: 'ContainersReady', status: 'True' };
}

/**
 * The Ready condition: ContainersReady's verdict, then every readiness gate's condition must be True
 * (`ReadinessGatesNotReady` otherwise).
 */
export function generatePodReadyCondition(
  pod: Pod,
  conditions: readonly PodCondition[] | undefined,
  containerStatuses: readonly ContainerStatus[] | undefined,
  phase: string | undefined,
): PodCondition {
  const containersReady = generateContainersReadyCondition(pod, containerStatuses, phase);
  if (containersReady.status !== 'True') {
    const ready: PodCondition = { type: 'Ready', status: containersReady.status };
    if (containersReady.reason !== undefined) ready.reason = containersReady.reason;
    if (containersReady.message !== undefined) ready.message = containersReady.message;
    return ready;
  }
  const gates = (pod.spec.readinessGates as { conditionType: string }[] | undefined) ?? [];
  const messages: string[] = [];
  for (const gate of gates) {
    const c = conditions?.find((x) => x.type === gate.conditionType);
    if (!c)
      messages.push(`corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`);
    else if (c.status !== 'True')
      messages.push(
        `the status of pod readiness gate "${gate.conditionType}" is not "True", but ${c.status}`,
      );
  }
  if (messages.length) {
    return {
      type: 'Ready',
      status: 'False',
      reason: CONDITION_REASONS.readinessGatesNotReady,
      message: messages.join(', '),
    };
  }
  return { type: 'Ready', status: 'True' };
}

/** Replaces the condition of the same type, or appends it. Returns a new status. */
export function withPodCondition(status: PodStatus, condition: PodCondition): PodStatus {
  const conditions = [...(status.conditions ?? [])];
  const i = conditions.findIndex((c) => c.type === condition.type);
  if (i >= 0) conditions[i] = condition;
  else conditions.push(condition);
  return { ...status, conditions };
}

/** Ready and ContainersReady forced False (with PodCompleted / PodFailed) for a terminal phase. */
export function terminalReadyConditions(phase: string | undefined): PodCondition[] {
  return [terminalCondition('ContainersReady', phase), terminalCondition('Ready', phase)];
}
