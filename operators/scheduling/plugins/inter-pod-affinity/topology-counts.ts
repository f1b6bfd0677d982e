// TopologyCounts: counts per (topology key, value) pair, the currency of InterPodAffinity's filter state.
import type { Node, Pod } from '../../../api/core-v1.ts';
import { type AffinityTerm, podMatchesAllTerms, termMatches } from './affinity-term.ts';

/**
 * Counts keyed by topology pair (key, then value). Invariants: no entry holds 0 (it is deleted
 * instead); `size` is the number of pairs with a count.
 */
export class TopologyCounts {
  readonly #byKey = new Map<string, Map<string, number>>();
  #size = 0;

  get(key: string, value: string): number {
    return this.#byKey.get(key)?.get(value) ?? 0;
  }

  add(key: string, value: string, delta: number): void {
    let byValue = this.#byKey.get(key);
    if (!byValue) {
      byValue = new Map();
      this.#byKey.set(key, byValue);
    }
    const before = byValue.get(value);
    const n = (before ?? 0) + delta;
    if (n === 0) {
      if (before !== undefined) {
        byValue.delete(value);
        this.#size--;
        if (byValue.size === 0) this.#byKey.delete(key);
      }
      return;
    }
    if (before === undefined) this.#size++;
    byValue.set(value, n);
  }

  get size(): number {
    return this.#size;
  }

  /** True when some label of the node is a pair with a positive count. */
  anyPositiveFor(labels: Readonly<Record<string, string>>): boolean {
    for (const [key, byValue] of this.#byKey) {
      const value = labels[key];
      if (value !== undefined && (byValue.get(value) ?? 0) > 0) return true;
    }
    return false;
  }

  /** `delta` per term when `target` matches ALL the terms, for each term whose key the node has. */
  updateWithAffinityTerms(
    terms: readonly AffinityTerm[],
    target: Pod,
    targetNsLabels: Readonly<Record<string, string>> | undefined,
    node: Node,
    delta: number,
  ): void {
    if (!podMatchesAllTerms(terms, target, targetNsLabels)) return;
    const labels = node.metadata.labels ?? {};
    for (const t of terms) {
      if (Object.hasOwn(labels, t.topologyKey)) this.add(t.topologyKey, labels[t.topologyKey]!, delta);
    }
  }

  /** `delta` for each term that matches `target`, when the node has its key. */
  updateWithAntiAffinityTerms(
    terms: readonly AffinityTerm[],
    target: Pod,
    targetNsLabels: Readonly<Record<string, string>> | undefined,
    node: Node,
    delta: number,
  ): void {
    const labels = node.metadata.labels ?? {};
    for (const t of terms) {
      if (Object.hasOwn(labels, t.topologyKey) && termMatches(t, target, targetNsLabels)) {
        this.add(t.topologyKey, labels[t.topologyKey]!, delta);
      }
    }
  }

  clone(): TopologyCounts {
    const copy = new TopologyCounts();
    for (const [k, byValue] of this.#byKey) copy.#byKey.set(k, new Map(byValue));
    copy.#size = this.#size;
    return copy;
  }
}
