// Pod status normalisation and the kubelet's equality: second-precision times, sorted container statuses, kubelet-owned conditions.
import type { ContainerState, ContainerStatus, Pod, PodStatus } from '../../../operators/api/core-v1.ts';
import { deepEqual } from '../../../operators/pod-config/deep-equal.ts';
import { KUBELET_POD_CONDITIONS, SHARED_POD_CONDITIONS } from './pod-conditions.ts';

/** The most a pod's termination messages may hold together (kubecontainer.MaxPodTerminationMessageLogLength). */
export const MAX_POD_TERMINATION_MESSAGE_LENGTH = 1024 * 12;

/** A time as the API server keeps it: RFC 3339 with whole seconds (`2026-11-24T21:50:11Z`). */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function truncateTime(t: string | null | undefined): string | null | undefined {
  if (typeof t !== 'string' || t === '') return t;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? t : rfc3339(ms);
}

function normalizeState(state: ContainerState | undefined, bytes: number): ContainerState | undefined {
  if (!state) return state;
  const out: ContainerState = { ...state };
  if (out.running)
    out.running = { ...out.running, startedAt: truncateTime(out.running.startedAt) ?? undefined };
  if (out.terminated) {
    const t = { ...out.terminated };
    if (t.startedAt !== undefined) t.startedAt = truncateTime(t.startedAt) ?? undefined;
    if (t.finishedAt !== undefined) t.finishedAt = truncateTime(t.finishedAt) ?? undefined;
    if (t.message !== undefined && t.message.length > bytes) t.message = t.message.slice(0, bytes);
    out.terminated = t;
  }
  return out;
}

function normalizeContainer(s: ContainerStatus, bytes: number): ContainerStatus {
  const out = { ...s };
  if (s.state) out.state = normalizeState(s.state, bytes);
  if (s.lastState) out.lastState = normalizeState(s.lastState, bytes);
  return out;
}

/**
 * A copy of `status` as the API server would store it: times truncated to seconds, termination
 * messages cut to their share of 12 KiB, container statuses sorted by name and init container statuses
 * in the pod's order, so comparisons ignore meaningless differences.
 */
export function normalizePodStatus(pod: Pod, status: PodStatus): PodStatus {
  const count = (pod.spec.containers?.length ?? 0) + (pod.spec.initContainers?.length ?? 0);
  const bytes =
    count > 0 ? Math.floor(MAX_POD_TERMINATION_MESSAGE_LENGTH / count) : MAX_POD_TERMINATION_MESSAGE_LENGTH;
  const out: PodStatus = { ...status };
  if (status.startTime !== undefined) out.startTime = truncateTime(status.startTime) ?? undefined;
  if (status.conditions) {
    out.conditions = status.conditions.map((c) => {
      const n = { ...c };
      if (c.lastProbeTime !== undefined) n.lastProbeTime = truncateTime(c.lastProbeTime);
      if (c.lastTransitionTime !== undefined)
        n.lastTransitionTime = truncateTime(c.lastTransitionTime) ?? undefined;
      return n;
    });
  }
  if (status.containerStatuses) {
    out.containerStatuses = status.containerStatuses
      .map((s) => normalizeContainer(s, bytes))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
  if (status.initContainerStatuses) {
    const order = new Map((pod.spec.initContainers ?? []).map((c, i) => [c.name, i]));
    out.initContainerStatuses = status.initContainerStatuses
      .map((s) => normalizeContainer(s, bytes))
      .sort((a, b) => (order.get(a.name) ?? 0) - (order.get(b.name) ?? 0));
  }
  return out;
}

/**
 * Whether two statuses are equal as far as the kubelet is concerned: every kubelet-owned (or shared)
 * condition of `next` has the same status, reason and message in `old` (transition and probe times
 * do not count), and everything else is deeply equal.
 */
export function isPodStatusByKubeletEqual(old: PodStatus, next: PodStatus): boolean {
  for (const c of next.conditions ?? []) {
    if (!KUBELET_POD_CONDITIONS.has(c.type) && !SHARED_POD_CONDITIONS.has(c.type)) continue;
    const o = old.conditions?.find((x) => x.type === c.type);
    if (!o || o.status !== c.status || o.message !== c.message || o.reason !== c.reason) return false;
  }
  return deepEqual({ ...old, conditions: next.conditions }, next);
}
