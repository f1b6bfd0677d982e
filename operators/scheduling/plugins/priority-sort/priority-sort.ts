// PrioritySort: the QueueSort plugin — higher priority first, then the older queue timestamp.
import type { PluginFactory, QueuedPodRef, QueueSortPlugin } from '../../framework/interface.ts';
import { PLUGIN_NAMES } from '../names.ts';

/** PrioritySort: `a` pops before `b` when its priority is higher, or equal with an earlier timestamp. */
export class PrioritySort implements QueueSortPlugin {
  readonly name = PLUGIN_NAMES.PrioritySort;

  less(a: QueuedPodRef, b: QueuedPodRef): boolean {
    const p1 = a.pod.spec.priority ?? 0;
    const p2 = b.pod.spec.priority ?? 0;
    return p1 > p2 || (p1 === p2 && a.timestamp < b.timestamp);
  }
}

export const newPrioritySort: PluginFactory = () => new PrioritySort();
