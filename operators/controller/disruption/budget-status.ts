// budgetStatus: a PodDisruptionBudget's status (expected and healthy pods, disruptions allowed, disruptedPods, the DisruptionAllowed condition) as the disruption controller computes it.
import type { KubeObject } from '../../types.ts';
import { getControllerOf } from '../controller-ref.ts';
import { scaledValue } from '../deployment/rolling-fenceposts.ts';

type Obj = Record<string, unknown>;

/** How long an eviction's entry in status.disruptedPods waits for the pod's deletion (upstream's DeletionTimeout). */
export const DELETION_TIMEOUT_MS = 2 * 60 * 1000;
/** The condition the controller keeps. */
export const DISRUPTION_ALLOWED_CONDITION = 'DisruptionAllowed';
export const SUFFICIENT_PODS_REASON = 'SufficientPods';
export const INSUFFICIENT_PODS_REASON = 'InsufficientPods';
export const SYNC_FAILED_REASON = 'SyncFailed';

/** A controller's scale as the finders see it: its uid and spec.replicas. */
export interface ControllerScale {
  uid: string;
  scale: number;
}

/**
 * Looks a pod's controller up by kind and name in the pod's namespace (Deployment, ReplicaSet, StatefulSet,
 * ReplicationController, or anything with a scale subresource); undefined when it does not exist.
 */
export type ControllerLookup = (kind: string, apiVersion: string, name: string) => KubeObject | undefined;

/** An Event the sync asks for. */
export interface BudgetEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** What one sync decides. */
export interface BudgetSync {
  /** The whole new status. */
  status: Obj;
  /** Warnings to record on the budget. */
  events: BudgetEvent[];
  /** When (ms since the epoch) a disruptedPods entry expires, to look again then. */
  recheckAtMs?: number;
}

function isReady(pod: KubeObject): boolean {
  const conditions = ((pod.status as Obj | undefined)?.conditions ?? []) as Obj[];
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

function replicasOf(object: KubeObject): number {
  const replicas = (object.spec as Obj | undefined)?.replicas;
  return typeof replicas === 'number' ? replicas : 1;
}

/**
 * The controller whose scale a pod counts against (upstream's finders in order): a ReplicationController;
 * a Deployment through its ReplicaSet; a ReplicaSet no (existing) Deployment controls; a StatefulSet; else
 * any object with spec.replicas (the scale subresource). Uids must match the pod's references.
 */
function findScale(
  ref: { kind: string; apiVersion: string; name: string; uid: string },
  lookup: ControllerLookup,
): ControllerScale | undefined {
  const owner = lookup(ref.kind, ref.apiVersion, ref.name);
  if (!owner || owner.metadata?.uid !== ref.uid) return undefined;
  if (ref.kind === 'ReplicaSet') {
    const parent = getControllerOf(owner);
    const deployment =
      parent?.kind === 'Deployment' ? lookup('Deployment', parent.apiVersion, parent.name) : undefined;
    if (parent && deployment && deployment.metadata?.uid === parent.uid)
      return { uid: parent.uid, scale: replicasOf(deployment) };
    // a ReplicaSet whose Deployment is gone still has its own scale (upstream's scale-subresource finder)
  }
  return { uid: ref.uid, scale: replicasOf(owner) };
}

/** Sum of the pods' controllers' scales, each controller once; pods without a controller are listed apart. */
function expectedScale(
  pods: readonly KubeObject[],
  lookup: ControllerLookup,
): { count: number; unmanaged: string[] } {
  const scales = new Map<string, number>();
  const unmanaged: string[] = [];
  for (const pod of pods) {
    const ref = getControllerOf(pod);
    if (!ref) {
      unmanaged.push(pod.metadata?.name ?? '');
      continue;
    }
    if (scales.has(ref.uid)) continue;
    const found = findScale(ref, lookup);
    if (!found) throw new Error(`found no controllers for pod "${pod.metadata?.name}"`);
    scales.set(found.uid, found.scale);
  }
  let count = 0;
  for (const s of scales.values()) count += s;
  return { count, unmanaged };
}

function expectedAndDesired(
  spec: Obj,
  pods: readonly KubeObject[],
  lookup: ControllerLookup,
): { expected: number; desired: number; unmanaged: string[] } {
  const max = spec.maxUnavailable as number | string | undefined;
  const min = spec.minAvailable as number | string | undefined;
  if (max !== undefined && max !== null) {
    const { count, unmanaged } = expectedScale(pods, lookup);
    const unavailable = scaledValue(max, count, true, 'spec.maxUnavailable');
    return { expected: count, desired: Math.max(0, count - unavailable), unmanaged };
  }
  if (typeof min === 'number') return { expected: pods.length, desired: min, unmanaged: [] };
  if (typeof min === 'string') {
    const { count, unmanaged } = expectedScale(pods, lookup);
    return { expected: count, desired: scaledValue(min, count, true, 'spec.minAvailable'), unmanaged };
  }
  return { expected: 0, desired: 0, unmanaged: [] };
}

/** status.disruptedPods kept: entries of live, not-yet-deleted pods whose 2 minutes have not run out. */
function keptDisruptions(
  previous: Obj,
  pods: readonly KubeObject[],
  nowMs: number,
): { kept: Record<string, string>; recheckAtMs?: number } {
  const kept: Record<string, string> = {};
  let recheckAtMs: number | undefined;
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    const name = pod.metadata?.name ?? '';
    const at = previous[name];
    if (typeof at !== 'string') continue;
    const expires = Date.parse(at) + DELETION_TIMEOUT_MS;
    if (!(expires > nowMs)) continue;
    kept[name] = at;
    recheckAtMs = recheckAtMs === undefined ? expires : Math.min(recheckAtMs, expires);
  }
  return recheckAtMs === undefined ? { kept } : { kept, recheckAtMs };
}

function condition(
  previous: Obj,
  status: 'True' | 'False',
  reason: string,
  message: string,
  generation: number,
  now: string,
): Obj {
  const old = ((previous.conditions ?? []) as Obj[]).find((c) => c.type === DISRUPTION_ALLOWED_CONDITION);
  return {
    type: DISRUPTION_ALLOWED_CONDITION,
    status,
    observedGeneration: generation,
    lastTransitionTime: old && old.status === status ? old.lastTransitionTime : now,
    reason,
    message,
  };
}

function withCondition(previous: Obj, c: Obj): Obj[] {
  const others = ((previous.conditions ?? []) as Obj[]).filter(
    (x) => x.type !== DISRUPTION_ALLOWED_CONDITION,
  );
  return [...others, c];
}

/**
 * A budget's new status from the pods its selector picks (upstream's trySync): expectedPods and
 * desiredHealthy from minAvailable (a number: the pods present; a percentage: the controllers' scale,
 * rounded up) or maxUnavailable (the scale less the rounded-up allowance); currentHealthy counts Ready
 * pods that are not being deleted nor recently evicted; disruptionsAllowed = currentHealthy − desiredHealthy,
 * never below 0. When the expected count cannot be worked out the budget fails safe: no disruptions,
 * DisruptionAllowed False with reason SyncFailed.
 *
 * @param pdb the budget
 * @param pods the pods its selector picks in its namespace
 * @param lookup the pods' controllers by kind and name
 * @param nowMs the current time
 * @returns the status, warnings and when to look again
 */
export function budgetStatus(
  pdb: KubeObject,
  pods: readonly KubeObject[],
  lookup: ControllerLookup,
  nowMs: number,
): BudgetSync {
  const spec = (pdb.spec ?? {}) as Obj;
  const previous = (pdb.status ?? {}) as Obj;
  const generation = pdb.metadata?.generation ?? 0;
  const now = new Date(nowMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const events: BudgetEvent[] = [];
  if (pods.length === 0) events.push({ type: 'Normal', reason: 'NoPods', message: 'No matching pods found' });
  let counts: ReturnType<typeof expectedAndDesired>;
  try {
    counts = expectedAndDesired(spec, pods, lookup);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    events.push({
      type: 'Warning',
      reason: 'CalculateExpectedPodCountFailed',
      message: `Failed to calculate the number of expected pods: ${message}`,
    });
    return {
      status: {
        ...previous,
        disruptionsAllowed: 0,
        observedGeneration: generation,
        conditions: withCondition(
          previous,
          condition(previous, 'False', SYNC_FAILED_REASON, message, generation, now),
        ),
      },
      events,
    };
  }
  if (counts.unmanaged.length > 0) {
    events.push({
      type: 'Warning',
      reason: 'UnmanagedPods',
      message:
        'Pods selected by this PodDisruptionBudget were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.',
    });
  }
  const { kept, recheckAtMs } = keptDisruptions((previous.disruptedPods ?? {}) as Obj, pods, nowMs);
  let currentHealthy = 0;
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    if (kept[pod.metadata?.name ?? ''] !== undefined) continue;
    if (isReady(pod)) currentHealthy++;
  }
  const allowed =
    counts.expected <= 0 || currentHealthy - counts.desired <= 0 ? 0 : currentHealthy - counts.desired;
  const c =
    allowed > 0
      ? condition(previous, 'True', SUFFICIENT_PODS_REASON, '', generation, now)
      : condition(previous, 'False', INSUFFICIENT_PODS_REASON, '', generation, now);
  const status: Obj = {
    ...previous,
    observedGeneration: generation,
    disruptionsAllowed: allowed,
    currentHealthy,
    desiredHealthy: counts.desired,
    expectedPods: counts.expected,
    conditions: withCondition(previous, c),
  };
  if (Object.keys(kept).length > 0) status.disruptedPods = kept;
  else delete status.disruptedPods;
  return recheckAtMs === undefined ? { status, events } : { status, events, recheckAtMs };
}
