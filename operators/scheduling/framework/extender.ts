// Extender: the port a scheduler extender (an HTTP webhook upstream) plugs into the scheduling algorithm through.
import type { Pod } from '../../api/core-v1.ts';
import type { NodeInfo } from './node-info.ts';

/** Extender scores are 0..MAX_EXTENDER_PRIORITY; the algorithm scales them to the 0..100 node score. */
export const MAX_EXTENDER_PRIORITY = 10;

/** An extender's filter answer: the nodes that pass, and why the others failed (node name → message). */
export interface ExtenderFilterResult {
  readonly feasible: readonly NodeInfo[];
  readonly failed: Readonly<Record<string, string>>;
  readonly failedAndUnresolvable: Readonly<Record<string, string>>;
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
