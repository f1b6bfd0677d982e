// TopologyCounts: counts per (topology key, value) pair, the currency of InterPodAffinity's filter state.
import type { Node, Pod } from '../../../api/core-v1.ts';
import { type AffinityTerm, podMatchesAllTerms, termMatches } from './affinity-term.ts';

/** Counts keyed by topology pair. Invariant: no entry holds 0 (it is deleted instead). */
export class TopologyCounts {
  readonly #counts = new Map<string, number>();

  static #key(key: string, value: string): string {
    return `${key}\u0000${value}`;
  }

  get(key: string, value: string): number {
    return this.#counts.get(TopologyCounts.#key(key, value)) ?? 0;
  }

  add(key: string, value: string, delta: number): void {
    const k = TopologyCounts.#key(key, value);
    const n = (this.#counts.get(k) ?? 0) + delta;
    if (n === 0) this.#counts.delete(k);
    else this.#counts.set(k, n);
  }

  get size(): number {
    return this.#counts.size;
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
    for (const [k, v] of this.#counts) copy.#counts.set(k, v);
    return copy;
  }
}
