// Pod importance for preemption: priority, start time, and the "more important" order victims are reprieved in.
import type { Pod } from '../../../api/core-v1.ts';

/** The pod's priority (spec.priority, 0 when unset). */
export function podPriority(pod: Pod): number {
  return pod.spec.priority ?? 0;
}

/** When the pod started (status.startTime) in ms, or `now` when it has not started. */
export function podStartTime(pod: Pod, now: number): number {
  const t = pod.status?.startTime ? Date.parse(pod.status.startTime) : Number.NaN;
  return Number.isNaN(t) ? now : t;
}

/** True when `a` is more important than `b`: higher priority, or equal priority and started earlier. */
export function moreImportantPod(a: Pod, b: Pod, now: number): boolean {
  const pa = podPriority(a);
  const pb = podPriority(b);
  if (pa !== pb) return pa > pb;
  return podStartTime(a, now) < podStartTime(b, now);
}

/** The earliest start time among the highest-priority pods (undefined for none). */
export function earliestStartTimeOfMostImportant(pods: readonly Pod[], now: number): number | undefined {
  if (pods.length === 0) return undefined;
  let maxPriority = podPriority(pods[0]!);
  let earliest = podStartTime(pods[0]!, now);
  for (const p of pods) {
    const priority = podPriority(p);
    if (priority === maxPriority) earliest = Math.min(earliest, podStartTime(p, now));
    else if (priority > maxPriority) {
      maxPriority = priority;
      earliest = podStartTime(p, now);
    }
  }
  return earliest;
}
