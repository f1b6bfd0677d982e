// NodeName: the Filter plugin that keeps a pod with spec.nodeName to that node.
import type { Node, Pod } from '../../../api/core-v1.ts';
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
import { PLUGIN_NAMES } from '../names.ts';

export const ERR_REASON_NODE_NAME = "node(s) didn't match the requested node name";

/** True when the pod names no node, or names this one. */
export function fitsNodeName(pod: Pod, node: Node | undefined): boolean {
  const wanted = pod.spec.nodeName;
  return !wanted || wanted === node?.metadata.name;
}

/** A node added with the requested name may make the pod schedulable. */
export function isSchedulableAfterNodeAdd(
  pod: Pod,
  _old: KubeObject | undefined,
  newObj: KubeObject | undefined,
): QueueingHint {
  return fitsNodeName(pod, newObj as Node | undefined) ? 'Queue' : 'QueueSkip';
}

export class NodeName implements FilterPlugin, EnqueueExtensions {
  readonly name = PLUGIN_NAMES.NodeName;

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    if (fitsNodeName(pod, nodeInfo.node)) return undefined;
    return newStatus('UnschedulableAndUnresolvable', ERR_REASON_NODE_NAME);
  }

  eventsToRegister(): readonly ClusterEventWithHint[] {
    return [{ event: { resource: 'Node', action: ActionType.Add }, hint: isSchedulableAfterNodeAdd }];
  }
}

export const newNodeName: PluginFactory = () => new NodeName();
