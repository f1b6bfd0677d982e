// NodeAffinity: Filter on nodeSelector, required node affinity and the profile's addedAffinity; Score by preferred terms.
import type { Node, Pod } from '../../../api/core-v1.ts';
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
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  type QueueingHint,
  type ScorePlugin,
} from '../../framework/interface.ts';
import type { NodeInfo } from '../../framework/node-info.ts';
import { asStatus, newStatus, type Status } from '../../framework/status.ts';
import {
  CompiledNodeSelector,
  NODE_NAME_FIELD,
  PreferredSchedulingTerms,
  RequiredNodeAffinity,
} from '../helpers/node-selector.ts';
import { defaultNormalizeScore } from '../helpers/normalize-score.ts';
import { PLUGIN_NAMES } from '../names.ts';
import {
  defaultNodeAffinityArgs,
  type NodeAffinityArgs,
  validateNodeAffinityArgs,
} from './node-affinity-args.ts';

export const ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";
export const ERR_REASON_ENFORCED = "node(s) didn't match scheduler-enforced node affinity";
export const ERR_REASON_CONFLICT = 'pod affinity terms conflict';

const PRE_FILTER_KEY = `PreFilter${PLUGIN_NAMES.NodeAffinity}`;
const PRE_SCORE_KEY = `PreScore${PLUGIN_NAMES.NodeAffinity}`;

function preferredOf(pod: Pod): PreferredSchedulingTerms | undefined {
  const terms = pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution;
  return terms ? new PreferredSchedulingTerms(terms) : undefined;
}

export class NodeAffinityPlugin
  implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions
{
  readonly name = PLUGIN_NAMES.NodeAffinity;
  readonly #addedSelector: CompiledNodeSelector | undefined;
  readonly #addedPreferred: PreferredSchedulingTerms | undefined;

  constructor(args: NodeAffinityArgs = {}) {
    const req = args.addedAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    this.#addedSelector = req ? new CompiledNodeSelector(req) : undefined;
    const pref = args.addedAffinity?.preferredDuringSchedulingIgnoredDuringExecution;
    this.#addedPreferred = pref?.length ? new PreferredSchedulingTerms(pref) : undefined;
  }

  preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status?: Status } | undefined {
    const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    if (!required && !this.#addedSelector && !pod.spec.nodeSelector) return { status: newStatus('Skip') };
    state.write(PRE_FILTER_KEY, new RequiredNodeAffinity(pod));
    const terms = required?.nodeSelectorTerms ?? [];
    if (terms.length === 0) return undefined;
    let nodeNames: Set<string> | undefined;
    for (const t of terms) {
      let termNames: Set<string> | undefined;
      for (const r of t.matchFields ?? []) {
        if (r.key !== NODE_NAME_FIELD || r.operator !== 'In') continue;
        const s = new Set(r.values ?? []);
        if (termNames === undefined) termNames = s;
        else for (const n of termNames) if (!s.has(n)) termNames.delete(n);
      }
      // A term without a metadata.name field requirement admits every node (terms are ORed).
      if (termNames === undefined) return undefined;
      nodeNames ??= new Set();
      for (const n of termNames) nodeNames.add(n);
    }
    if (nodeNames !== undefined && nodeNames.size === 0) {
      return { status: newStatus('UnschedulableAndUnresolvable', ERR_REASON_CONFLICT) };
    }
    return nodeNames ? { result: { nodeNames } } : undefined;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const node = nodeInfo.node;
    if (this.#addedSelector && !this.#addedSelector.match(node)) {
      return newStatus('UnschedulableAndUnresolvable', ERR_REASON_ENFORCED);
    }
    const required = state.read<RequiredNodeAffinity>(PRE_FILTER_KEY) ?? new RequiredNodeAffinity(pod);
    if (!required.match(node)) return newStatus('UnschedulableAndUnresolvable', ERR_REASON_POD);
    return undefined;
  }

  preScore(state: CycleState, pod: Pod): Status | undefined {
    const preferred = preferredOf(pod);
    const problem = preferred?.problems[0];
    if (problem) return asStatus(new Error(`${problem.field}: ${problem.message}`));
    if (!preferred && !this.#addedPreferred) return newStatus('Skip');
    state.write(PRE_SCORE_KEY, preferred ?? null);
    return undefined;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status {
    const node = nodeInfo.node;
    let count = this.#addedPreferred?.score(node) ?? 0;
    let preferred = state.read<PreferredSchedulingTerms | null>(PRE_SCORE_KEY);
    if (preferred === undefined) {
      preferred = preferredOf(pod) ?? null;
      const problem = preferred?.problems[0];
      if (problem) return asStatus(new Error(`${problem.field}: ${problem.message}`));
    }
    if (preferred) count += preferred.score(node);
    return count;
  }

  normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): Status | undefined {
    return defaultNormalizeScore(MAX_NODE_SCORE, false, scores);
  }

  /** A node added or relabelled so that it newly matches the pod's required affinity (and addedAffinity) may help. */
  isSchedulableAfterNodeChange = (
    pod: Pod,
    oldObj: KubeObject | undefined,
    newObj: KubeObject | undefined,
  ): QueueingHint => {
    const modified = newObj as Node | undefined;
    if (this.#addedSelector && !this.#addedSelector.match(modified)) return 'QueueSkip';
    const required = new RequiredNodeAffinity(pod);
    if (!required.match(modified)) return 'QueueSkip';
    if (!oldObj) return 'Queue';
    return required.match(oldObj as Node) ? 'QueueSkip' : 'Queue';
  };

  eventsToRegister(): readonly ClusterEventWithHint[] {
    return [
      {
        event: { resource: 'Node', action: ActionType.Add | ActionType.UpdateNodeLabel },
        hint: this.isSchedulableAfterNodeChange,
      },
    ];
  }
}

/** Builds NodeAffinity from its args (defaulted and validated here too). */
export const newNodeAffinity: PluginFactory = (args) => {
  const a = defaultNodeAffinityArgs(args);
  validateNodeAffinityArgs(a, 'args');
  return new NodeAffinityPlugin(a);
};
