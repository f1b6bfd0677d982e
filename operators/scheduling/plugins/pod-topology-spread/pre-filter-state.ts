// PodTopologySpread's PreFilter state: per constraint, matching pods per domain and the two least-loaded domains.
import type { SpreadConstraint } from './spread-constraint.ts';

/**
 * The two domains with the fewest matching pods seen so far. Invariant: after every domain was fed
 * once, `paths[0].count` is the minimum over all domains as long as later changes touch one domain
 * only (`paths[1]` holds some domain with a count >= it, not always the second minimum). That is what
 * a cycle needs: each preemption dry run and each node's nominated pods change one node's domain, on
 * their own clone of the state.
 */
export class CriticalPaths {
  readonly paths: [{ value: string; count: number }, { value: string; count: number }] = [
    { value: '', count: Number.MAX_SAFE_INTEGER },
    { value: '', count: Number.MAX_SAFE_INTEGER },
  ];

  update(value: string, count: number): void {
    const [p0, p1] = this.paths;
    const existing = value === p0.value ? p0 : value === p1.value ? p1 : undefined;
    if (existing) {
      existing.count = count;
      if (this.paths[0].count > this.paths[1].count) this.paths.reverse();
      return;
    }
    if (count < p0.count) {
      this.paths[1] = { ...p0 };
      this.paths[0] = { value, count };
    } else if (count < p1.count) {
      this.paths[1] = { value, count };
    }
  }

  clone(): CriticalPaths {
    const copy = new CriticalPaths();
    copy.paths[0] = { ...this.paths[0] };
    copy.paths[1] = { ...this.paths[1] };
    return copy;
  }
}

/**
 * What Filter needs: the hard constraints, per constraint the matching pod count per topology value
 * of the eligible nodes, and the critical paths. Invariant: `counts[i]`'s keys are exactly the eligible
 * domains of constraint i. `clone()` copies the counts (preemption changes them per node).
 */
export class PreFilterState {
  readonly constraints: readonly SpreadConstraint[];
  readonly counts: Map<string, number>[];
  readonly criticalPaths: CriticalPaths[];

  constructor(
    constraints: readonly SpreadConstraint[],
    counts: Map<string, number>[],
    criticalPaths?: CriticalPaths[],
  ) {
    this.constraints = constraints;
    this.counts = counts;
    this.criticalPaths =
      criticalPaths ??
      counts.map((byValue) => {
        const paths = new CriticalPaths();
        for (const [value, n] of byValue) paths.update(value, n);
        return paths;
      });
  }

  /** The global minimum for constraint i: 0 when fewer than minDomains domains are eligible. */
  minMatchNum(i: number): number {
    const c = this.constraints[i]!;
    if (this.counts[i]!.size < c.minDomains) return 0;
    return this.criticalPaths[i]!.paths[0].count;
  }

  /** Adds `delta` matching pods to the domain `value` of constraint i. */
  add(i: number, value: string, delta: number): void {
    const n = (this.counts[i]!.get(value) ?? 0) + delta;
    this.counts[i]!.set(value, n);
    this.criticalPaths[i]!.update(value, n);
  }

  clone(): PreFilterState {
    return new PreFilterState(
      this.constraints,
      this.counts.map((m) => new Map(m)),
      this.criticalPaths.map((p) => p.clone()),
    );
  }
}
