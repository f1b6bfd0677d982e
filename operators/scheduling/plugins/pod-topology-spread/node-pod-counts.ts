// NodePodCounts: each node's count of pods matching a constraint's selector, kept across cycles until the node changes.
import type { LabelSelector } from '../../../label-selector.ts';
import type { NodeInfo } from '../../framework/node-info.ts';
import { countPodsMatchingSelector } from './spread-constraint.ts';

/** Selector/namespace pairs remembered at once; more than this starts over (each costs two arrays per node). */
const MAX_KEYS = 16;

interface Counts {
  /** Per list position: the generation of the NodeInfo counted there (-1: none yet). */
  generations: Float64Array;
  counts: Uint32Array;
}

/**
 * The matching-pod counts of a node list, remembered by list position and checked against the NodeInfo's
 * generation. A generation names one state of a node's pods (every change takes a fresh one from a
 * process-wide counter; a clone shares it only while equal), so an equal generation means an equal count,
 * whatever list the NodeInfo is in. A cycle therefore recounts only the nodes changed since the last one,
 * reading one number per unchanged node instead of walking its pods.
 *
 * Memory: two typed arrays of the list's length per remembered (namespace, selector), at most {@link MAX_KEYS}.
 */
export class NodePodCounts {
  readonly #byKey = new Map<string, Counts>();

  /**
   * A counter for one cycle over `length` nodes: `count(i, nodeInfo)` is the number of pods on `nodeInfo`
   * (at position i of the cycle's list) in `namespace`, not terminating, matching `selector`.
   */
  counter(
    length: number,
    selector: LabelSelector,
    namespace: string | undefined,
  ): (i: number, nodeInfo: NodeInfo) => number {
    const key = `${namespace ?? ''}\u0000${selector.matchesNothing ? '\u0000nothing' : selector.toString()}`;
    let entry = this.#byKey.get(key);
    if (!entry || entry.generations.length !== length) {
      if (!entry && this.#byKey.size >= MAX_KEYS) this.#byKey.clear();
      entry = { generations: new Float64Array(length).fill(-1), counts: new Uint32Array(length) };
      this.#byKey.set(key, entry);
    }
    const { generations, counts } = entry;
    return (i, nodeInfo) => {
      if (generations[i] === nodeInfo.generation) return counts[i]!;
      const n = countPodsMatchingSelector(nodeInfo.pods, selector, namespace);
      generations[i] = nodeInfo.generation;
      counts[i] = n;
      return n;
    };
  }
}
