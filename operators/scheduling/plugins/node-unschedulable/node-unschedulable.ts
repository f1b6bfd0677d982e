// NodeUnschedulable: the Filter plugin that rejects cordoned nodes (spec.unschedulable) unless the pod tolerates the unschedulable taint.
import { type Node, type Pod, TAINT_NODE_UNSCHEDULABLE, type Taint } from '../../../api/core-v1.ts';
import type { KubeObject } from '../../../types.ts';
import {
  ActionType,
  type ClusterEventWithHint,
  type CycleState,
  type EnqueueExtensions,
  type FilterPlugin,
  type PluginFactory,
  type QueueingHint,
} from '../../framework/interface.ts';
import type { NodeInfo } from '../../framework/node-info.ts';
import { newStatus, type Status } from '../../framework/status.ts';
import { tolerationsTolerateTaint } from '../helpers/toleration.ts';
import { PLUGIN_NAMES } from '../names.ts';

export const ERR_REASON_UNSCHEDULABLE = 'node(s) were unschedulable';

const UNSCHEDULABLE_TAINT: Taint = { key: TAINT_NODE_UNSCHEDULABLE, effect: 'NoSchedule' };

/** A node that went from unschedulable (or absent) to schedulable may help. */
export function isSchedulableAfterNodeChange(
  _pod: Pod,
  oldObj: KubeObject | undefined,
  newObj: KubeObject | undefined,
): QueueingHint {
  const before = oldObj ? !(oldObj as Node).spec?.unschedulable : false;
  const after = newObj ? !(newObj as Node).spec?.unschedulable : false;
  return !before && after ? 'Queue' : 'QueueSkip';
}

/** The pod itself gaining the unschedulable toleration may help. */
export function isSchedulableAfterPodTolerationChange(
  pod: Pod,
  _old: KubeObject | undefined,
  newObj: KubeObject | undefined,
): QueueingHint {
  const modified = newObj as Pod | undefined;
  if (modified && modified.metadata.uid === pod.metadata.uid) {
    if (tolerationsTolerateTaint(modified.spec?.tolerations, UNSCHEDULABLE_TAINT)) return 'Queue';
  }
  return 'QueueSkip';
}

export class NodeUnschedulable implements FilterPlugin, EnqueueExtensions {
  readonly name = PLUGIN_NAMES.NodeUnschedulable;

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    if (!nodeInfo.node?.spec?.unschedulable) return undefined;
    if (tolerationsTolerateTaint(pod.spec.tolerations, UNSCHEDULABLE_TAINT)) return undefined;
    return newStatus('UnschedulableAndUnresolvable', ERR_REASON_UNSCHEDULABLE);
  }

  eventsToRegister(): readonly ClusterEventWithHint[] {
    return [
      {
        event: { resource: 'Node', action: ActionType.Add | ActionType.UpdateNodeTaint },
        hint: isSchedulableAfterNodeChange,
      },
      {
        event: { resource: 'Pod', action: ActionType.UpdatePodToleration },
        hint: isSchedulableAfterPodTolerationChange,
      },
    ];
  }
}

export const newNodeUnschedulable: PluginFactory = () => new NodeUnschedulable();
