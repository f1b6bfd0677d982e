// TaintToleration: Filter on untolerated NoSchedule/NoExecute taints; Score by untolerated PreferNoSchedule taints (fewer is better).
import type { Node, Pod, Toleration } from '../../../api/core-v1.ts';
import type { KubeObject } from '../../../types.ts';
import {
  ActionType,
  type ClusterEventWithHint,
  type CycleState,
  type EnqueueExtensions,
  type FilterPlugin,
  MAX_NODE_SCORE,
  type NodeScore,
  type PluginFactory,
  type PreScorePlugin,
  type QueueingHint,
  type ScorePlugin,
} from '../../framework/interface.ts';
import type { NodeInfo } from '../../framework/node-info.ts';
import { newStatus, type Status } from '../../framework/status.ts';
import { defaultNormalizeScore } from '../helpers/normalize-score.ts';
import { findMatchingUntoleratedTaint, tolerationsTolerateTaint } from '../helpers/toleration.ts';
import { PLUGIN_NAMES } from '../names.ts';

const PRE_SCORE_KEY = `PreScore${PLUGIN_NAMES.TaintToleration}`;

/** Tolerations that can tolerate a PreferNoSchedule taint (effect empty or PreferNoSchedule). */
export function tolerationsPreferNoSchedule(tolerations: readonly Toleration[] | undefined): Toleration[] {
  return (tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
}

/** How many PreferNoSchedule taints of the node none of `tolerations` tolerates. */
export function countIntolerableTaintsPreferNoSchedule(
  node: Node | undefined,
  tolerations: readonly Toleration[],
): number {
  let n = 0;
  for (const taint of node?.spec?.taints ?? []) {
    if (taint.effect !== 'PreferNoSchedule') continue;
    if (!tolerationsTolerateTaint(tolerations, taint)) n++;
  }
  return n;
}

/** A node whose taints went from untolerated (or absent) to tolerated may help. */
export function isSchedulableAfterNodeChange(
  pod: Pod,
  oldObj: KubeObject | undefined,
  newObj: KubeObject | undefined,
): QueueingHint {
  const tolerations = pod.spec.tolerations;
  const wasUntolerated = oldObj
    ? findMatchingUntoleratedTaint((oldObj as Node).spec?.taints, tolerations) !== undefined
    : true;
  const isUntolerated =
    findMatchingUntoleratedTaint((newObj as Node | undefined)?.spec?.taints, tolerations) !== undefined;
  return wasUntolerated && !isUntolerated ? 'Queue' : 'QueueSkip';
}

/** The pod's own toleration change may help. */
export function isSchedulableAfterPodTolerationChange(
  pod: Pod,
  _old: KubeObject | undefined,
  newObj: KubeObject | undefined,
): QueueingHint {
  return newObj?.metadata?.uid === pod.metadata.uid ? 'Queue' : 'QueueSkip';
}

export class TaintToleration implements FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions {
  readonly name = PLUGIN_NAMES.TaintToleration;

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const taint = findMatchingUntoleratedTaint(nodeInfo.node?.spec?.taints, pod.spec.tolerations);
    if (!taint) return undefined;
    return newStatus(
      'UnschedulableAndUnresolvable',
      `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`,
    );
  }

  preScore(state: CycleState, pod: Pod): Status | undefined {
    state.write(PRE_SCORE_KEY, tolerationsPreferNoSchedule(pod.spec.tolerations));
    return undefined;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status {
    const tolerations =
      state.read<Toleration[]>(PRE_SCORE_KEY) ?? tolerationsPreferNoSchedule(pod.spec.tolerations);
    return countIntolerableTaintsPreferNoSchedule(nodeInfo.node, tolerations);
  }

  normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): Status | undefined {
    return defaultNormalizeScore(MAX_NODE_SCORE, true, scores);
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

export const newTaintToleration: PluginFactory = () => new TaintToleration();
