// The eviction manager's admission (eviction_manager.go Admit): under node pressure, refuse what the node cannot afford.
import type { Pod, Taint } from '../api/core-v1.ts';
import { toleratesTaint } from '../scheduling/plugins/helpers/toleration.ts';

/** The reason the eviction manager refuses (and evicts) pods with. */
export const EVICTION_REASON = 'Evicted';

/** priority at or above which a pod is critical (scheduling.SystemCriticalPriority). */
export const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

const PRESSURE_CONDITIONS = new Set(['MemoryPressure', 'DiskPressure', 'PIDPressure']);
const MEMORY_PRESSURE_TAINT: Taint = { key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' };

/** Static, mirror, or system-critical priority pods are critical (kubelettypes.IsCriticalPod). */
export function isCriticalPod(pod: Pod): boolean {
  const annotations = pod.metadata.annotations ?? {};
  const source = annotations['kubernetes.io/config.source'];
  if (source !== undefined && source !== 'api') return true;
  if (annotations['kubernetes.io/config.mirror'] !== undefined) return true;
  return (pod.spec.priority ?? 0) >= SYSTEM_CRITICAL_PRIORITY;
}

/** BestEffort: no container (init included) requests or limits cpu or memory. */
export function isBestEffort(pod: Pod): boolean {
  for (const c of [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? [])]) {
    for (const list of [c.resources?.requests, c.resources?.limits]) {
      if (list && ('cpu' in list || 'memory' in list)) return false;
    }
  }
  return true;
}

/**
 * Whether the eviction manager admits the pod given the node's pressure conditions: no pressure, or
 * a critical pod → admitted; memory pressure alone admits pods that are not BestEffort and BestEffort
 * pods tolerating the memory-pressure taint; anything else is refused with `Evicted` and
 * `The node had condition: [MemoryPressure]. `.
 *
 * @param pod the pod to admit
 * @param pressure the node's pressure conditions that are True (`MemoryPressure`, `DiskPressure`, `PIDPressure`)
 * @returns admitted, or refused with the eviction manager's reason and message
 */
export function admitUnderNodePressure(
  pod: Pod,
  pressure: readonly string[],
): { admit: true } | { admit: false; reason: string; message: string } {
  const conditions = pressure.filter((c) => PRESSURE_CONDITIONS.has(c));
  if (conditions.length === 0 || isCriticalPod(pod)) return { admit: true };
  if (conditions.length === 1 && conditions[0] === 'MemoryPressure') {
    if (!isBestEffort(pod)) return { admit: true };
    if ((pod.spec.tolerations ?? []).some((t) => toleratesTaint(t, MEMORY_PRESSURE_TAINT)))
      return { admit: true };
  }
  return {
    admit: false,
    reason: EVICTION_REASON,
    message: `The node had condition: [${conditions.join(' ')}]. `,
  };
}
