// SchedulingGates: the PreEnqueue plugin that holds a pod out of activeQ while spec.schedulingGates is non-empty.
import type { Pod } from '../../../api/core-v1.ts';
import type { KubeObject } from '../../../types.ts';
import {
  ActionType,
  type ClusterEventWithHint,
  type EnqueueExtensions,
  type PluginFactory,
  type PreEnqueuePlugin,
  type QueueingHint,
} from '../../framework/interface.ts';
import { newStatus, type Status } from '../../framework/status.ts';
import { PLUGIN_NAMES } from '../names.ts';

/** Only the gated pod's own update (gates removed) can make it schedulable. */
export function isSchedulableAfterUpdatePodSchedulingGatesEliminated(
  pod: Pod,
  _oldObj: KubeObject | undefined,
  newObj: KubeObject | undefined,
): QueueingHint {
  return newObj?.metadata?.uid === pod.metadata.uid ? 'Queue' : 'QueueSkip';
}

/** SchedulingGates: UnschedulableAndUnresolvable "waiting for scheduling gates: [a b]" while gated. */
export class SchedulingGates implements PreEnqueuePlugin, EnqueueExtensions {
  readonly name = PLUGIN_NAMES.SchedulingGates;

  preEnqueue(pod: Pod): Status | undefined {
    const gates = pod.spec.schedulingGates;
    if (!gates || gates.length === 0) return undefined;
    return newStatus(
      'UnschedulableAndUnresolvable',
      `waiting for scheduling gates: [${gates.map((g) => g.name).join(' ')}]`,
    );
  }

  eventsToRegister(): readonly ClusterEventWithHint[] {
    return [
      {
        event: { resource: 'Pod', action: ActionType.UpdatePodSchedulingGatesEliminated },
        hint: isSchedulableAfterUpdatePodSchedulingGatesEliminated,
      },
    ];
  }
}

export const newSchedulingGates: PluginFactory = () => new SchedulingGates();
