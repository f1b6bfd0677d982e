// The pod conditions the kubelet owns: PodReadyToStartContainers, Initialized, ContainersReady and Ready.
import type { ContainerStatus, Pod, PodCondition } from '../api/core-v1.ts';
import { hasAnyRegularContainerStarted } from './get-phase.ts';

/** Condition types the kubelet writes; others (PodScheduled, DisruptionTarget, readiness gates) are kept as they are. */
export const KUBELET_POD_CONDITIONS = [
  'PodReadyToStartContainers',
  'Initialized',
  'ContainersReady',
  'Ready',
] as const;

/** Go's %s of a string slice: `[a b]`. */
function goList(names: readonly string[]): string {
  return `[${names.join(' ')}]`;
}

/**
 * ContainersReady: True when every app container is ready; False with reason `PodCompleted` for a
 * succeeded pod, else `ContainersNotReady` naming unknown and unready containers.
 */
export function containersReadyCondition(
  pod: Pod,
  statuses: readonly ContainerStatus[] | undefined,
  phase: string,
): PodCondition {
  if (!statuses) return { type: 'ContainersReady', status: 'False', reason: 'UnknownContainerStatuses' };
  const unknown: string[] = [];
  const unready: string[] = [];
  for (const container of pod.spec.initContainers ?? []) {
    if (container.restartPolicy !== 'Always') continue;
    const s = statuses.find((x) => x.name === container.name);
    if (!s) unknown.push(container.name);
    else if (!s.ready) unready.push(container.name);
  }
  for (const container of pod.spec.containers) {
    const s = statuses.find((x) => x.name === container.name);
    if (!s) unknown.push(container.name);
    else if (!s.ready) unready.push(container.name);
  }
  if (phase === 'Succeeded' && unknown.length === 0)
    return { type: 'ContainersReady', status: 'False', reason: 'PodCompleted' };
  const messages: string[] = [];
  if (unknown.length > 0) messages.push(`containers with unknown status: ${goList(unknown)}`);
  if (unready.length > 0) messages.push(`containers with unready status: ${goList(unready)}`);
  if (messages.length > 0)
    return {
      type: 'ContainersReady',
      status: 'False',
      reason: 'ContainersNotReady',
      message: messages.join(', '),
    };
  return { type: 'ContainersReady', status: 'True' };
}

/** Ready: as ContainersReady (readiness gates must also be True; missing gates make it False). */
export function podReadyCondition(
  pod: Pod,
  conditions: readonly PodCondition[],
  statuses: readonly ContainerStatus[] | undefined,
  phase: string,
): PodCondition {
  const containersReady = containersReadyCondition(pod, statuses, phase);
  if (containersReady.status !== 'True') return { ...containersReady, type: 'Ready' };
  const gates = (pod.spec.readinessGates as { conditionType: string }[] | undefined) ?? [];
  const missing: string[] = [];
  const notTrue: string[] = [];
  for (const gate of gates) {
    const c = conditions.find((x) => x.type === gate.conditionType);
    if (!c) missing.push(gate.conditionType);
    else if (c.status !== 'True') notTrue.push(gate.conditionType);
  }
  const messages: string[] = [];
  if (missing.length > 0)
    messages.push(
      `corresponding condition of pod readiness gate ${goList(missing.map((m) => JSON.stringify(m)))} does not exist.`,
    );
  if (notTrue.length > 0)
    messages.push(
      `the status of pod readiness gate ${goList(notTrue.map((m) => JSON.stringify(m)))} is not "True", but False`,
    );
  if (messages.length > 0)
    return { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: messages.join(', ') };
  return { type: 'Ready', status: 'True' };
}

/**
 * Initialized: True without init containers, after every init container succeeded, or once an app
 * container has started; else False, reason `ContainersNotInitialized`.
 */
export function podInitializedCondition(
  pod: Pod,
  initStatuses: readonly ContainerStatus[] | undefined,
  allStatuses: readonly ContainerStatus[],
  phase: string,
): PodCondition {
  const inits = pod.spec.initContainers ?? [];
  if (inits.length === 0) return { type: 'Initialized', status: 'True' };
  const unknown: string[] = [];
  const incomplete: string[] = [];
  for (const container of inits) {
    const s = initStatuses?.find((x) => x.name === container.name);
    if (!s) {
      unknown.push(container.name);
      continue;
    }
    if (container.restartPolicy === 'Always') {
      if (!s.started) incomplete.push(container.name);
    } else if (s.state?.terminated?.exitCode !== 0) incomplete.push(container.name);
  }
  if (phase === 'Succeeded' && unknown.length === 0)
    return { type: 'Initialized', status: 'True', reason: 'PodCompleted' };
  if (hasAnyRegularContainerStarted(pod, allStatuses)) return { type: 'Initialized', status: 'True' };
  const messages: string[] = [];
  if (unknown.length > 0) messages.push(`containers with unknown status: ${goList(unknown)}`);
  if (incomplete.length > 0) messages.push(`containers with incomplete status: ${goList(incomplete)}`);
  if (messages.length > 0)
    return {
      type: 'Initialized',
      status: 'False',
      reason: 'ContainersNotInitialized',
      message: messages.join(', '),
    };
  return { type: 'Initialized', status: 'True' };
}

/** PodReadyToStartContainers: True once the pod has a ready sandbox. */
export function podReadyToStartContainersCondition(sandboxReady: boolean): PodCondition {
  return { type: 'PodReadyToStartContainers', status: sandboxReady ? 'True' : 'False' };
}
