// Extender: the port a scheduler extender (an HTTP webhook upstream) plugs into the scheduling algorithm through.
import type { Pod } from '../../api/core-v1.ts';
import type { CycleState, NodeInfoLister } from './interface.ts';
import type { NodeInfo } from './node-info.ts';

/** Extender scores are 0..MAX_EXTENDER_PRIORITY; the algorithm scales them to the 0..100 node score. */
export const MAX_EXTENDER_PRIORITY = 10;

/** An extender's filter answer: the nodes that pass, and why the others failed (node name → message). */
export interface ExtenderFilterResult {
  readonly feasible: readonly NodeInfo[];
  readonly failed: Readonly<Record<string, string>>;
  readonly failedAndUnresolvable: Readonly<Record<string, string>>;
}

/** The pods preemption would evict on one node, and how many PodDisruptionBudgets that violates (upstream's Victims). */
export interface Victims {
  readonly pods: readonly Pod[];
  readonly numPDBViolations: number;
}

export interface HostPriority {
  readonly host: string;
  readonly score: number;
}

/**
 * A scheduler extender, as kube-scheduler's framework.Extender. The algorithm calls `filter` after the
 * Filter plugins, `prioritize` beside the Score plugins (score × weight × 100/10 added to the total), and
 * `bind` before the Bind plugins. Errors from an ignorable extender are skipped.
 */
export interface Extender {
  /** A name for logs and the extender's score entry (upstream: its URL prefix). */
  name(): string;
  /** True when the extender filters (has a filterVerb). */
  isFilter(): boolean;
  /** True when the extender prioritizes (has a prioritizeVerb). */
  isPrioritizer(): boolean;
  /** True when the extender binds (has a bindVerb). */
  isBinder(): boolean;
  /** True when the extender cares about this pod (managedResources, if set). */
  isInterested(pod: Pod): boolean;
  /** Errors from it are skipped, not fatal. */
  isIgnorable(): boolean;
  filter(pod: Pod, nodes: readonly NodeInfo[]): Promise<ExtenderFilterResult>;
  /** Scores in 0..10, and the extender's weight. */
  prioritize(
    pod: Pod,
    nodes: readonly NodeInfo[],
  ): Promise<{ scores: readonly HostPriority[]; weight: number }>;
  bind(pod: Pod, nodeName: string, signal: AbortSignal): Promise<void>;
  /** True when the extender takes part in preemption (has a preemptVerb). Absent: false. */
  supportsPreemption?(): boolean;
  /**
   * Upstream's ProcessPreemption: given the candidate nodes and their victims, returns the nodes (and
   * victims, which may differ) the extender agrees to; pods are resolved against `nodeInfos`.
   */
  processPreemption?(
    pod: Pod,
    nodeNameToVictims: ReadonlyMap<string, Victims>,
    nodeInfos: NodeInfoLister,
  ): Promise<Map<string, Victims>>;
}

/** The CycleState key under which a scheduling cycle carries the scheduler's extenders (for PostFilter). */
export const EXTENDERS_STATE_KEY = 'kube-rx/extenders';

/**
 * Records the scheduler's extenders in the cycle's state, so PostFilter plugins (DefaultPreemption) can
 * consult them as upstream's handle.Extenders(). Cloned states share the list.
 */
export function writeExtenders(state: CycleState, extenders: readonly Extender[]): void {
  if (extenders.length > 0) state.write(EXTENDERS_STATE_KEY, extenders);
}

/** The extenders of this cycle (none when the scheduler has none). */
export function extendersOf(state: CycleState): readonly Extender[] {
  return state.read<readonly Extender[]>(EXTENDERS_STATE_KEY) ?? [];
}

/**
 * Binds through the first interested binder extender, as upstream's extendersBinding: returns
 * `{ bound: false }` when none took it (the Bind plugins run next), or `{ bound: true, error? }`.
 */
export async function extendersBinding(
  extenders: readonly Extender[],
  pod: Pod,
  nodeName: string,
  signal: AbortSignal,
): Promise<{ bound: boolean; error?: Error }> {
  for (const ext of extenders) {
    if (!ext.isBinder() || !ext.isInterested(pod)) continue;
    try {
      await ext.bind(pod, nodeName, signal);
      return { bound: true };
    } catch (e) {
      if (ext.isIgnorable()) continue;
      return { bound: true, error: e instanceof Error ? e : new Error(String(e)) };
    }
  }
  return { bound: false };
}
