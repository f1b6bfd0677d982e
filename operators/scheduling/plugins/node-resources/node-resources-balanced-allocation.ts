// NodeResourcesBalancedAllocation: scores nodes whose cpu/memory utilization would be most even with the pod.
import type { Pod } from '../../../api/core-v1.ts';
import type { CycleState, PluginFactory, PreScorePlugin, ScorePlugin } from '../../framework/interface.ts';
import type { NodeInfo } from '../../framework/node-info.ts';
import { asStatus, newStatus, type Status } from '../../framework/status.ts';
import { PLUGIN_NAMES } from '../names.ts';
import {
  defaultNodeResourcesBalancedAllocationArgs,
  type NodeResourcesBalancedAllocationArgs,
  validateNodeResourcesBalancedAllocationArgs,
} from './node-resources-balanced-allocation-args.ts';
import { balancedResourceScorer, ResourceAllocationScorer } from './resource-allocation-scorer.ts';

const PRE_SCORE_KEY = `PreScore${PLUGIN_NAMES.NodeResourcesBalancedAllocation}`;

export class NodeResourcesBalancedAllocation implements PreScorePlugin, ScorePlugin {
  readonly name = PLUGIN_NAMES.NodeResourcesBalancedAllocation;
  readonly scorer: ResourceAllocationScorer;

  constructor(args: NodeResourcesBalancedAllocationArgs) {
    this.scorer = new ResourceAllocationScorer(this.name, balancedResourceScorer, args.resources ?? [], true);
  }

  /** Skip for best-effort pods (no requests at all), so they do not pile onto one node. */
  preScore(state: CycleState, pod: Pod): Status | undefined {
    const list = this.scorer.podRequestList(pod);
    if (list.every((v) => v === 0)) return newStatus('Skip');
    state.write(PRE_SCORE_KEY, list);
    return undefined;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status {
    if (this.scorer.resources.length === 0) return asStatus(new Error('resources not found'));
    const list = state.read<number[]>(PRE_SCORE_KEY) ?? this.scorer.podRequestList(pod);
    return this.scorer.score(nodeInfo, list);
  }
}

export const newNodeResourcesBalancedAllocation: PluginFactory = (args) => {
  const a = defaultNodeResourcesBalancedAllocationArgs(args);
  validateNodeResourcesBalancedAllocationArgs(a, 'args');
  return new NodeResourcesBalancedAllocation(a);
};
