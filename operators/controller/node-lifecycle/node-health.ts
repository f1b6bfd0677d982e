// observeNodeHealth: one node's health step of the node lifecycle controller (upstream's tryUpdateNodeHealth), pure.
import type { Node, NodeCondition } from '../../api/core-v1.ts';

/**
 * What the controller remembers about one node between passes (upstream's nodeHealthData).
 *
 * Invariants: `probeTimestamp` and `readyTransitionTimestamp` are on the controller's own clock (ms), never
 * the kubelet's; `probeTimestamp` moves forward only when the node's Ready heartbeat or its Lease's
 * renewTime changes.
 */
export interface NodeHealth {
  /** When the controller last saw the kubelet alive (a new Ready heartbeat or a renewed Lease). */
  readonly probeTimestamp: number;
  /** When the controller last saw the Ready condition change. */
  readonly readyTransitionTimestamp: number;
  /** The Ready condition as last seen (undefined: the kubelet never posted one). */
  readonly readyCondition: NodeCondition | undefined;
  /** The Lease's renewTime as last seen. */
  readonly leaseRenewTime: string | undefined;
}

/** Grace periods of {@link observeNodeHealth}, in ms. */
export interface NodeHealthConfig {
  /** `--node-monitor-grace-period`: 40 s in kube-rx (upstream's later default: 50 s). */
  readonly monitorGracePeriodMs: number;
  /** `--node-startup-grace-period`: 1 m, used while the node has never posted a Ready condition. */
  readonly startupGracePeriodMs: number;
}

/** One pass's outcome for a node. */
export interface NodeHealthStep {
  /** What to remember for the next pass. */
  readonly health: NodeHealth;
  /** The grace period that applied. */
  readonly gracePeriodMs: number;
  /** The Ready condition as read at the start of the pass (a stand-in Unknown one when missing). */
  readonly observedReady: NodeCondition;
  /** The Ready condition after this pass (undefined: never posted and not yet overdue). */
  readonly currentReady: NodeCondition | undefined;
  /** The node's new `status.conditions` to write with a status update, when they changed. */
  readonly conditions?: NodeCondition[];
}

/** The conditions the controller sets Unknown (NetworkUnavailable is left to the network provider). */
export const MONITORED_NODE_CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] as const;

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const parse = (t: string | undefined) => (t ? Date.parse(t) : Number.NaN);

function sameCondition(a: NodeCondition | undefined, b: NodeCondition | undefined): boolean {
  if (!a || !b) return a === b;
  return (
    a.status === b.status &&
    (a.reason ?? '') === (b.reason ?? '') &&
    (a.message ?? '') === (b.message ?? '') &&
    (a.lastHeartbeatTime ?? '') === (b.lastHeartbeatTime ?? '') &&
    (a.lastTransitionTime ?? '') === (b.lastTransitionTime ?? '')
  );
}

/**
 * Decides one node's health for this pass: refreshes the probe timestamp when the kubelet's Ready
 * heartbeat or the node's Lease renewTime moved since the last pass, and when nothing was heard for the
 * grace period (the startup grace while the kubelet never posted Ready) sets Ready, MemoryPressure,
 * DiskPressure and PIDPressure Unknown: a missing one with reason NodeStatusNeverUpdated ("Kubelet never
 * posted node status.", heartbeat = the node's creation), an existing known one with reason
 * NodeStatusUnknown ("Kubelet stopped posting node status.", transition = now).
 *
 * @param previous what the last pass remembered (undefined for a node seen the first time)
 * @param node the node as the informer has it
 * @param leaseRenewTime `spec.renewTime` of the node's Lease in kube-node-lease, if any
 * @param now the controller's clock, ms
 * @param config the grace periods
 * @returns what to remember, the observed and resulting Ready condition, and conditions to write
 */
export function observeNodeHealth(
  previous: NodeHealth | undefined,
  node: Node,
  leaseRenewTime: string | undefined,
  now: number,
  config: NodeHealthConfig,
): NodeHealthStep {
  const conditions = node.status?.conditions ?? [];
  const current = conditions.find((c) => c.type === 'Ready');
  const created = node.metadata.creationTimestamp;
  const createdMs = Number.isNaN(parse(created)) ? now : parse(created);
  let health = previous;
  let gracePeriodMs = config.monitorGracePeriodMs;
  let observedReady: NodeCondition;
  if (!current) {
    observedReady = {
      type: 'Ready',
      status: 'Unknown',
      ...(created ? { lastHeartbeatTime: created, lastTransitionTime: created } : {}),
    };
    gracePeriodMs = config.startupGracePeriodMs;
    health = previous
      ? { ...previous, readyCondition: undefined }
      : {
          probeTimestamp: createdMs,
          readyTransitionTimestamp: createdMs,
          readyCondition: undefined,
          leaseRenewTime: undefined,
        };
  } else {
    observedReady = current;
  }
  const saved = previous?.readyCondition;
  const fresh = (): NodeHealth => ({
    probeTimestamp: now,
    readyTransitionTimestamp: now,
    readyCondition: current,
    leaseRenewTime: health?.leaseRenewTime,
  });
  if (!health) health = fresh();
  else if (current && !saved) health = fresh();
  else if (current && saved && (saved.lastHeartbeatTime ?? '') !== (current.lastHeartbeatTime ?? '')) {
    const transitioned = (saved.lastTransitionTime ?? '') !== (current.lastTransitionTime ?? '');
    health = {
      probeTimestamp: now,
      readyTransitionTimestamp: transitioned ? now : health.readyTransitionTimestamp,
      readyCondition: current,
      leaseRenewTime: health.leaseRenewTime,
    };
  } else health = { ...health, readyCondition: current };
  if (leaseRenewTime && (!health.leaseRenewTime || parse(health.leaseRenewTime) < parse(leaseRenewTime))) {
    health = { ...health, leaseRenewTime, probeTimestamp: now };
  }

  if (!(now > health.probeTimestamp + gracePeriodMs)) {
    return { health, gracePeriodMs, observedReady, currentReady: current };
  }
  const stamp = iso(now);
  const next = conditions.map((c) => ({ ...c }));
  for (const type of MONITORED_NODE_CONDITIONS) {
    const existing = next.find((c) => c.type === type);
    if (!existing) {
      next.push({
        type,
        status: 'Unknown',
        reason: 'NodeStatusNeverUpdated',
        message: 'Kubelet never posted node status.',
        ...(created ? { lastHeartbeatTime: created } : {}),
        lastTransitionTime: stamp,
      });
    } else if (existing.status !== 'Unknown') {
      existing.status = 'Unknown';
      existing.reason = 'NodeStatusUnknown';
      existing.message = 'Kubelet stopped posting node status.';
      existing.lastTransitionTime = stamp;
    }
  }
  const currentReady = next.find((c) => c.type === 'Ready');
  if (sameCondition(currentReady, observedReady)) {
    return { health, gracePeriodMs, observedReady, currentReady: current };
  }
  return {
    health: { ...health, readyTransitionTimestamp: now, readyCondition: currentReady },
    gracePeriodMs,
    observedReady,
    currentReady,
    conditions: next,
  };
}
