// planZoneDisruption: the node lifecycle controller's per-zone eviction rates from the zones' disruption states (upstream's handleDisruption and setLimiterInZone), pure.
import type { NodeCondition } from '../../api/core-v1.ts';
import { computeZoneState, type ZoneState } from './zone-state.ts';

/** A zone's state as the controller keeps it: `Initial` until its first pass. */
export type KnownZoneState = ZoneState | 'Initial';

/** The eviction rates and thresholds (kube-controller-manager's flags, upstream's defaults). */
export interface ZoneEvictionRates {
  /** `--node-eviction-rate`: nodes tainted per second in a healthy zone; default 0.1. */
  readonly evictionQPS: number;
  /** `--secondary-node-eviction-rate`: per second in a partially disrupted large zone; default 0.01. */
  readonly secondaryEvictionQPS: number;
  /** `--large-cluster-size-threshold`: above this many nodes a zone is large; default 50. */
  readonly largeClusterThreshold: number;
  /** `--unhealthy-zone-threshold`: the not-Ready share that makes a zone PartialDisruption; default 0.55. */
  readonly unhealthyZoneThreshold: number;
}

/** Upstream's defaults of {@link ZoneEvictionRates}. */
export const DEFAULT_ZONE_EVICTION_RATES: ZoneEvictionRates = {
  evictionQPS: 0.1,
  secondaryEvictionQPS: 0.01,
  largeClusterThreshold: 50,
  unhealthyZoneThreshold: 0.55,
};

/**
 * The rate of a zone's NoExecute tainter in a state: Normal the eviction rate; PartialDisruption the
 * secondary rate when the zone has more than `largeClusterThreshold` nodes, else 0 (no evictions: in a small
 * zone that is mostly down, the fault is more likely the zone's than the nodes'); FullDisruption the eviction
 * rate again (upstream's HealthyQPSFunc: one zone down while others live is treated as real node failure).
 *
 * @param state the zone's new state
 * @param zoneSize the zone's nodes (excluded ones not counted)
 * @param rates the flags
 * @returns tokens per second
 */
export function zoneEvictionQPS(state: ZoneState, zoneSize: number, rates: ZoneEvictionRates): number {
  if (state === 'PartialDisruption') {
    return zoneSize > rates.largeClusterThreshold ? rates.secondaryEvictionQPS : 0;
  }
  return rates.evictionQPS;
}

/** What {@link planZoneDisruption} decided. */
export interface ZoneDisruptionPlan {
  /** Every zone's state after this pass (zones with no node left are gone). */
  readonly states: ReadonlyMap<string, KnownZoneState>;
  /** The zones whose tainter gets a new rate, and the rate (tokens per second). */
  readonly limiters: ReadonlyMap<string, number>;
  /**
   * `enter`: every zone just became FullDisruption — the controller assumes it is itself cut off, removes
   * the NoExecute taints of every node and stops all tainting (every rate 0). `exit`: some node is Ready
   * again after that — the controller forgets how long nodes went unheard and resets every zone's rate.
   */
  readonly mode?: 'enter' | 'exit';
}

/**
 * Compares the zones' new states (from this pass's Ready conditions, {@link computeZoneState}) with the
 * previous ones and decides the tainters' rates: while some zone is not fully disrupted (now or before), a
 * zone whose state changed gets {@link zoneEvictionQPS} of its new state; when all zones become fully
 * disrupted every rate goes to 0 (`enter`); when that ends every zone's rate is reset (`exit`); while all stay
 * fully disrupted nothing changes. A zone seen for the first time starts `Initial`, so the first pass always
 * sets rates by state.
 *
 * @param previous the zones' states from the last pass (the tainters that exist)
 * @param zoneConditions per zone, one Ready condition per node of this pass (undefined: never posted)
 * @param rates the flags
 * @returns the new states, the rate swaps and the mode change
 */
export function planZoneDisruption(
  previous: ReadonlyMap<string, KnownZoneState>,
  zoneConditions: ReadonlyMap<string, readonly (NodeCondition | undefined)[]>,
  rates: ZoneEvictionRates,
): ZoneDisruptionPlan {
  const next = new Map<string, ZoneState>();
  for (const [zone, conditions] of zoneConditions) {
    next.set(zone, computeZoneState(conditions, rates.unhealthyZoneThreshold).state);
  }
  const allAreFullyDisrupted = [...next.values()].every((s) => s === 'FullDisruption');
  const states = new Map<string, KnownZoneState>();
  for (const [zone, state] of previous) if (next.has(zone)) states.set(zone, state);
  for (const zone of next.keys()) if (!states.has(zone)) states.set(zone, 'Initial');
  const allWereFullyDisrupted = [...states.values()].every((s) => s === 'FullDisruption');
  const limiters = new Map<string, number>();
  if (allAreFullyDisrupted && allWereFullyDisrupted) return { states, limiters };
  const size = (zone: string) => zoneConditions.get(zone)?.length ?? 0;
  if (allAreFullyDisrupted) {
    for (const zone of states.keys()) {
      limiters.set(zone, 0);
      states.set(zone, 'FullDisruption');
    }
    return { states, limiters, mode: 'enter' };
  }
  const exiting = allWereFullyDisrupted;
  for (const [zone, state] of states) {
    const now = next.get(zone) ?? 'Normal';
    if (!exiting && state === now) continue;
    limiters.set(zone, zoneEvictionQPS(now, size(zone), rates));
    states.set(zone, now);
  }
  return exiting ? { states, limiters, mode: 'exit' } : { states, limiters };
}
