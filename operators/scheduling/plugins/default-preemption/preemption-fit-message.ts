// The FitError text preemption returns when no node is a candidate: "0/N nodes are available: <count> <reason>, ...".
import type { Status } from '../../framework/status.ts';

/**
 * Kubernetes' FitError wording over per-node statuses: every reason of every node is counted, the
 * "<count> <reason>" strings are sorted as strings and joined by ", ".
 */
export function preemptionFitMessage(numAllNodes: number, statuses: ReadonlyMap<string, Status>): string {
  const histogram = new Map<string, number>();
  for (const status of statuses.values()) {
    for (const reason of status.reasons) histogram.set(reason, (histogram.get(reason) ?? 0) + 1);
  }
  const parts = [...histogram].map(([reason, n]) => `${n} ${reason}`).sort();
  const head = `0/${numAllNodes} nodes are available:`;
  return parts.length > 0 ? `${head} ${parts.join(', ')}.` : head;
}
