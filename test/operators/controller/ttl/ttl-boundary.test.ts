// nextTtlState: the ttl controller's cluster-size intervals, stepped one node at a time (upstream's ttl_controller_test cases in our words).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  desiredTtlSeconds,
  INITIAL_TTL_STATE,
  nextTtlState,
  TTL_BOUNDARIES,
  type TtlState,
} from '../../../../operators/controller/ttl/ttl-boundary.ts';

const grow = (n: number, from: TtlState = INITIAL_TTL_STATE) => {
  let s = from;
  for (let i = 0; i < n; i++) s = nextTtlState(s, 1);
  return s;
};
const shrink = (n: number, from: TtlState) => {
  let s = from;
  for (let i = 0; i < n; i++) s = nextTtlState(s, -1);
  return s;
};

describe('nextTtlState', () => {
  it.each([
    [1, 0],
    [100, 0],
    [101, 15],
    [500, 15],
    [501, 30],
    [1001, 60],
    [2001, 300],
    [10_001, 600],
  ])('growing to %i nodes gives a TTL of %i s', (nodes, ttl) => {
    expect(desiredTtlSeconds(grow(nodes))).toBe(ttl);
  });

  it('steps down only below the lower bound of the overlapping interval', () => {
    const at101 = grow(101);
    expect(desiredTtlSeconds(shrink(11, at101))).toBe(15); // 90 nodes: still in [90, 500]
    expect(desiredTtlSeconds(shrink(12, at101))).toBe(0); // 89 nodes
  });

  it('keeps the count inside its interval for any sequence of adds and deletes (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 3000 }), (moves) => {
        let s = INITIAL_TTL_STATE;
        for (const add of moves) {
          if (!add && s.nodeCount === 0) continue;
          s = nextTtlState(s, add ? 1 : -1);
          const b = TTL_BOUNDARIES[s.step]!;
          expect(s.nodeCount).toBeGreaterThanOrEqual(b.sizeMin);
          expect(s.nodeCount).toBeLessThanOrEqual(b.sizeMax);
        }
      }),
      { numRuns: 100 },
    );
  });
});
