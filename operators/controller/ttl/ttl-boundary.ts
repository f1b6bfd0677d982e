// ttlBoundaryStep: the ttl controller's desired node TTL for a cluster size, moving one overlapping interval at a time.

/** The annotation the ttl controller keeps on every node: how long the kubelet may cache secrets and config maps. */
export const OBJECT_TTL_ANNOTATION = 'node.alpha.kubernetes.io/ttl';

/** Upstream's cluster-size intervals; neighbours overlap so a size that wobbles at a boundary does not flap. */
export const TTL_BOUNDARIES: readonly { sizeMin: number; sizeMax: number; ttlSeconds: number }[] = [
  { sizeMin: 0, sizeMax: 100, ttlSeconds: 0 },
  { sizeMin: 90, sizeMax: 500, ttlSeconds: 15 },
  { sizeMin: 450, sizeMax: 1000, ttlSeconds: 30 },
  { sizeMin: 900, sizeMax: 2000, ttlSeconds: 60 },
  { sizeMin: 1800, sizeMax: 10_000, ttlSeconds: 300 },
  { sizeMin: 9000, sizeMax: 2 ** 31 - 1, ttlSeconds: 600 },
];

/** The controller's state: the node count and the interval it is in. */
export interface TtlState {
  readonly nodeCount: number;
  readonly step: number;
}

export const INITIAL_TTL_STATE: TtlState = { nodeCount: 0, step: 0 };

/**
 * The state after a node is added (+1) or deleted (-1), as upstream's ttl controller counts: it steps up
 * when the count passes the interval's maximum and down when it falls below its minimum, one step per node.
 *
 * @param state the current state
 * @param delta +1 for a node added, -1 for a node deleted
 * @returns the next state
 */
export function nextTtlState(state: TtlState, delta: 1 | -1): TtlState {
  const nodeCount = state.nodeCount + delta;
  let step = state.step;
  if (delta > 0 && nodeCount > TTL_BOUNDARIES[step]!.sizeMax) step++;
  if (delta < 0 && nodeCount < TTL_BOUNDARIES[step]!.sizeMin && step > 0) step--;
  return { nodeCount, step };
}

/** The TTL in seconds every node should carry in `state`. */
export const desiredTtlSeconds = (state: TtlState): number => TTL_BOUNDARIES[state.step]!.ttlSeconds;
