// TriggerTimeTracker: the endpoints.kubernetes.io/last-change-trigger-time of a Service's next write — the earliest pod or Service change not yet written (upstream's endpointutil.TriggerTimeTracker).
import type { Pod } from '../../api/core-v1.ts';
import type { Service } from './endpoint-slice-types.ts';

/** A time as Go's RFC3339Nano writes it: UTC, trailing zeros of the fraction (and an empty fraction) dropped. */
export function formatRFC3339Nano(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/\.(\d*?)0+Z$/, '.$1Z')
    .replace(/\.Z$/, 'Z');
}

const parse = (t: string | undefined): number | undefined => {
  if (!t) return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
};

/** When the pod's readiness last changed: its Ready condition's lastTransitionTime. */
const podTriggerTime = (pod: Pod): number | undefined =>
  parse(pod.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime);

interface State {
  pods: Map<string, number>;
  service: number | undefined;
}

/**
 * Per Service, the trigger times seen at its last sync. Invariant: `compute` returns the Service's
 * creation time on its first sync, afterwards the earliest trigger time (a pod's Ready transition, the
 * Service's creation) newer than at the previous sync, or undefined when nothing changed; each call
 * records the current times.
 */
export class TriggerTimeTracker {
  private readonly states = new Map<string, State>();

  /** The trigger time of this sync of `service` over its selected `pods` (RFC 3339), if any. */
  compute(serviceKey: string, service: Service, pods: readonly Pod[]): string | undefined {
    const before = this.states.get(serviceKey);
    let min: number | undefined;
    const seen = new Map<string, number>();
    for (const pod of pods) {
      const t = podTriggerTime(pod);
      if (t === undefined) continue;
      seen.set(pod.metadata.name ?? '', t);
      const last = before?.pods.get(pod.metadata.name ?? '');
      if (last === undefined || t > last) min = min === undefined ? t : Math.min(min, t);
    }
    const serviceTime = parse(service.metadata.creationTimestamp);
    if (serviceTime !== undefined && (before?.service === undefined || serviceTime > before.service)) {
      min = min === undefined ? serviceTime : Math.min(min, serviceTime);
    }
    this.states.set(serviceKey, { pods: seen, service: serviceTime });
    if (!before) return serviceTime === undefined ? undefined : formatRFC3339Nano(serviceTime);
    return min === undefined ? undefined : formatRFC3339Nano(min);
  }

  /** Forgets a deleted Service. */
  deleteService(serviceKey: string): void {
    this.states.delete(serviceKey);
  }
}
