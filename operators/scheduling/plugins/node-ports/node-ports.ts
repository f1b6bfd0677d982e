// NodePorts: the Filter plugin that rejects nodes where a requested host port (protocol, IP) is already in use.
import type { Pod } from '../../../api/core-v1.ts';
import type { KubeObject } from '../../../types.ts';
import {
  ActionType,
  type ClusterEventWithHint,
  type CycleState,
  type EnqueueExtensions,
  type FilterPlugin,
  type PluginFactory,
  type PreFilterPlugin,
  type QueueingHint,
} from '../../framework/interface.ts';
import { type HostPort, HostPortInfo, type NodeInfo, podHostPorts } from '../../framework/node-info.ts';
import { asStatus, newStatus, type Status } from '../../framework/status.ts';
import { PLUGIN_NAMES } from '../names.ts';

export const ERR_REASON_NODE_PORTS = "node(s) didn't have free ports for the requested pod ports";
const PRE_FILTER_KEY = `PreFilter${PLUGIN_NAMES.NodePorts}`;

/** True when none of `wanted` conflicts with `inUse`. */
export function fitsPorts(wanted: readonly HostPort[], inUse: HostPortInfo): boolean {
  for (const p of wanted) if (inUse.conflicts(p)) return false;
  return true;
}

/** Deleting an assigned (or nominated) pod that held one of the pod's host ports may help. */
export function isSchedulableAfterPodDeleted(pod: Pod, oldObj: KubeObject | undefined): QueueingHint {
  const deleted = oldObj as Pod | undefined;
  if (!deleted) return 'Queue';
  if (!deleted.spec?.nodeName && !deleted.status?.nominatedNodeName) return 'QueueSkip';
  const ports = podHostPorts(deleted);
  if (ports.length === 0) return 'QueueSkip';
  const inUse = new HostPortInfo();
  for (const p of ports) inUse.add(p);
  return fitsPorts(podHostPorts(pod), inUse) ? 'QueueSkip' : 'Queue';
}

export class NodePorts implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  readonly name = PLUGIN_NAMES.NodePorts;

  preFilter(state: CycleState, pod: Pod) {
    const ports = podHostPorts(pod);
    if (ports.length === 0) return { status: newStatus('Skip') };
    state.write(PRE_FILTER_KEY, ports);
    return undefined;
  }

  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const wanted = state.read<HostPort[]>(PRE_FILTER_KEY);
    if (!wanted) return asStatus(new Error(`reading "${PRE_FILTER_KEY}" from cycleState: not found`));
    return fitsPorts(wanted, nodeInfo.usedPorts)
      ? undefined
      : newStatus('Unschedulable', ERR_REASON_NODE_PORTS);
  }

  eventsToRegister(): readonly ClusterEventWithHint[] {
    return [
      { event: { resource: 'Pod', action: ActionType.Delete }, hint: isSchedulableAfterPodDeleted },
      { event: { resource: 'Node', action: ActionType.Add } },
    ];
  }
}

export const newNodePorts: PluginFactory = () => new NodePorts();
