// Node conditions as the kubelet's setters keep them: the heartbeat moves on every update, the transition only on change.
import type { NodeCondition } from '../api/core-v1.ts';

/** What the kubelet observed for one condition this round. */
export interface ObservedNodeCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

/**
 * The node's conditions after one status update (nodestatus/setters.go): each observed condition
 * gets `lastHeartbeatTime = now`; its `lastTransitionTime` is `now` when it is new or its status
 * changed, and kept otherwise. Conditions the kubelet does not observe (set by others) are kept as
 * they are, in place; new ones are appended in the order observed.
 *
 * @param previous the node's current conditions
 * @param observed this round's observations
 * @param now RFC 3339 time of this update
 * @returns the new conditions (a new array; `previous` is not changed)
 */
export function updateNodeConditions(
  previous: readonly NodeCondition[] | undefined,
  observed: readonly ObservedNodeCondition[],
  now: string,
): NodeCondition[] {
  const out: NodeCondition[] = (previous ?? []).map((c) => ({ ...c }));
  for (const o of observed) {
    const i = out.findIndex((c) => c.type === o.type);
    const old = i >= 0 ? out[i] : undefined;
    const transitioned = !old || old.status !== o.status || !old.lastTransitionTime;
    const next: NodeCondition = {
      type: o.type,
      status: o.status,
      lastHeartbeatTime: now,
      lastTransitionTime: transitioned ? now : old.lastTransitionTime!,
      reason: o.reason,
      message: o.message,
    };
    if (i >= 0) out[i] = next;
    else out.push(next);
  }
  return out;
}

/** The kubelet's reasons and messages for its four conditions. */
export const NODE_CONDITION_TEXTS = Object.freeze({
  MemoryPressure: {
    False: { reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
    True: { reason: 'KubeletHasInsufficientMemory', message: 'kubelet has insufficient memory available' },
  },
  DiskPressure: {
    False: { reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
    True: { reason: 'KubeletHasDiskPressure', message: 'kubelet has disk pressure' },
  },
  PIDPressure: {
    False: { reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available' },
    True: { reason: 'KubeletHasInsufficientPID', message: 'kubelet has insufficient PID available' },
  },
  Ready: {
    True: { reason: 'KubeletReady', message: 'kubelet is posting ready status' },
    False: { reason: 'KubeletNotReady', message: '' },
  },
});

/** The four observations from pressure flags and the runtime's errors (empty = ready). */
export function observeNodeConditions(input: {
  memoryPressure: boolean;
  diskPressure: boolean;
  pidPressure: boolean;
  /** Why the node is not ready (runtime down, network not ready, ...); none means Ready. */
  notReadyErrors: readonly string[];
}): ObservedNodeCondition[] {
  const pressure = (
    type: 'MemoryPressure' | 'DiskPressure' | 'PIDPressure',
    on: boolean,
  ): ObservedNodeCondition => ({
    type,
    status: on ? 'True' : 'False',
    ...NODE_CONDITION_TEXTS[type][on ? 'True' : 'False'],
  });
  const ready: ObservedNodeCondition =
    input.notReadyErrors.length === 0
      ? { type: 'Ready', status: 'True', ...NODE_CONDITION_TEXTS.Ready.True }
      : {
          type: 'Ready',
          status: 'False',
          reason: NODE_CONDITION_TEXTS.Ready.False.reason,
          message: input.notReadyErrors.join(', '),
        };
  return [
    pressure('MemoryPressure', input.memoryPressure),
    pressure('DiskPressure', input.diskPressure),
    pressure('PIDPressure', input.pidPressure),
    ready,
  ];
}

const EVENT_REASONS: Record<string, { True: string; False: string }> = {
  MemoryPressure: { True: 'NodeHasInsufficientMemory', False: 'NodeHasSufficientMemory' },
  DiskPressure: { True: 'NodeHasDiskPressure', False: 'NodeHasNoDiskPressure' },
  PIDPressure: { True: 'NodeHasInsufficientPID', False: 'NodeHasSufficientPID' },
  Ready: { True: 'NodeReady', False: 'NodeNotReady' },
};

/**
 * The Normal events the kubelet records when its conditions change (recordNodeStatusEvent): one per
 * condition that is new or changed status, reason e.g. `NodeReady`, message
 * `Node <name> status is now: <reason>`.
 *
 * @param nodeName the node's name
 * @param previous the conditions before the update
 * @param next the conditions after it
 * @returns the events to record, in condition order
 */
export function nodeConditionEvents(
  nodeName: string,
  previous: readonly NodeCondition[] | undefined,
  next: readonly NodeCondition[],
): { reason: string; message: string }[] {
  const out: { reason: string; message: string }[] = [];
  for (const c of next) {
    const reasons = EVENT_REASONS[c.type];
    if (!reasons || (c.status !== 'True' && c.status !== 'False')) continue;
    const old = previous?.find((p) => p.type === c.type);
    if (old && old.status === c.status) continue;
    const reason = reasons[c.status];
    out.push({ reason, message: `Node ${nodeName} status is now: ${reason}` });
  }
  return out;
}
