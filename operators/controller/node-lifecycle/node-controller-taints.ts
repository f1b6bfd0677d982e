// nodeControllerTaints: the taints the node lifecycle controller wants on a node (NoSchedule by condition, NoExecute by readiness) and the NoExecute swap of its rate-limited tainter, pure.
import type { Node, NodeCondition, Taint } from '../../api/core-v1.ts';

/** Well-known taint keys the node lifecycle controller owns. */
export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_NODE_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
export const TAINT_NODE_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure';
export const TAINT_NODE_PID_PRESSURE = 'node.kubernetes.io/pid-pressure';
export const TAINT_NODE_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable';
export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

/** Condition type and status → the NoSchedule taint key (upstream's nodeConditionToTaintKeyStatusMap). */
const CONDITION_TAINTS: readonly [type: string, status: NodeCondition['status'], key: string][] = [
  ['Ready', 'False', TAINT_NODE_NOT_READY],
  ['Ready', 'Unknown', TAINT_NODE_UNREACHABLE],
  ['MemoryPressure', 'True', TAINT_NODE_MEMORY_PRESSURE],
  ['DiskPressure', 'True', TAINT_NODE_DISK_PRESSURE],
  ['NetworkUnavailable', 'True', TAINT_NODE_NETWORK_UNAVAILABLE],
  ['PIDPressure', 'True', TAINT_NODE_PID_PRESSURE],
];
const NO_SCHEDULE_KEYS = new Set([...CONDITION_TAINTS.map(([, , key]) => key), TAINT_NODE_UNSCHEDULABLE]);
const NO_EXECUTE_KEYS = new Set([TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE]);

const owned = (t: Taint) =>
  (t.effect === 'NoSchedule' && NO_SCHEDULE_KEYS.has(t.key)) ||
  (t.effect === 'NoExecute' && NO_EXECUTE_KEYS.has(t.key));

/**
 * The node's taints as the controller wants them, or undefined when they are already right.
 *
 * - NoSchedule (taint-by-condition, from the node's current conditions): not-ready for Ready False,
 *   unreachable for Ready Unknown, memory-/disk-/pid-pressure and network-unavailable for those conditions
 *   True, unschedulable for `spec.unschedulable`.
 * - NoExecute (from the Ready condition the pass observed): not-ready for False, unreachable for Unknown
 *   (one replaces the other), none for True.
 *
 * Taints the controller does not own are kept in place; a kept owned taint keeps its `timeAdded`; an added
 * one gets `timeAdded` = now.
 *
 * @param node the node (its conditions after this pass's update)
 * @param observedReady the Ready condition the pass read before updating it
 * @param now the controller's clock, ms
 * @param noExecute true: NoExecute from `observedReady` as above; false: none (every NoExecute taint of the
 *   controller removed); `'keep'`: the node's NoExecute taints left as they are (the controller's rate-limited
 *   tainter owns them, see {@link swapNoExecuteTaint})
 * @returns the full new `spec.taints`, or undefined for no change
 */
export function nodeControllerTaints(
  node: Node,
  observedReady: NodeCondition | undefined,
  now: number,
  noExecute: boolean | 'keep' = true,
): Taint[] | undefined {
  const conditions = node.status?.conditions ?? [];
  const wanted: Taint[] = [];
  for (const [type, status, key] of CONDITION_TAINTS) {
    if (conditions.some((c) => c.type === type && c.status === status))
      wanted.push({ key, effect: 'NoSchedule' });
  }
  if (node.spec?.unschedulable) wanted.push({ key: TAINT_NODE_UNSCHEDULABLE, effect: 'NoSchedule' });
  if (noExecute === 'keep') {
    for (const t of node.spec?.taints ?? []) {
      if (t.effect === 'NoExecute' && NO_EXECUTE_KEYS.has(t.key))
        wanted.push({ key: t.key, effect: t.effect });
    }
  } else if (noExecute === true && observedReady?.status === 'False')
    wanted.push({ key: TAINT_NODE_NOT_READY, effect: 'NoExecute' });
  if (noExecute === true && observedReady?.status === 'Unknown') {
    wanted.push({ key: TAINT_NODE_UNREACHABLE, effect: 'NoExecute' });
  }

  const existing = node.spec?.taints ?? [];
  const have = existing.filter(owned);
  const same = (a: Taint, b: Taint) => a.key === b.key && a.effect === b.effect;
  if (have.length === wanted.length && wanted.every((w) => have.some((h) => same(h, w)))) return undefined;
  const stamp = new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return [
    ...existing.filter((t) => !owned(t) || wanted.some((w) => same(t, w))),
    ...wanted.filter((w) => !have.some((h) => same(h, w))).map((w) => ({ ...w, timeAdded: stamp })),
  ];
}

/** The NoExecute taint a Ready condition status calls for: not-ready for False, unreachable for Unknown. */
export function noExecuteTaintKey(status: NodeCondition['status'] | undefined): string | undefined {
  if (status === 'False') return TAINT_NODE_NOT_READY;
  if (status === 'Unknown') return TAINT_NODE_UNREACHABLE;
  return undefined;
}

/**
 * The node's taints with the controller's NoExecute taint set to `key` (not-ready and unreachable are
 * mutually exclusive, as the Ready condition they mirror) or removed (`key` undefined), as upstream's
 * SwapNodeControllerTaint and RemoveTaintOffNode; other taints are kept in place, an added taint gets
 * `timeAdded` = now.
 *
 * @param taints the node's `spec.taints`
 * @param key TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE, or undefined for neither
 * @param now the controller's clock, ms
 * @returns the full new `spec.taints`, or undefined for no change
 */
export function swapNoExecuteTaint(
  taints: readonly Taint[] | undefined,
  key: string | undefined,
  now: number,
): Taint[] | undefined {
  const existing = taints ?? [];
  const ours = (t: Taint) => t.effect === 'NoExecute' && NO_EXECUTE_KEYS.has(t.key);
  const kept = existing.filter((t) => !ours(t) || t.key === key);
  const has = key !== undefined && kept.some((t) => ours(t) && t.key === key);
  if (kept.length === existing.length && (key === undefined || has)) return undefined;
  if (key === undefined || has) return kept;
  const stamp = new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return [...kept, { key, effect: 'NoExecute', timeAdded: stamp }];
}
