// DefaultNormalizeScore: scales raw plugin scores to [0, maxPriority], optionally reversed, as upstream's helper.
import type { NodeScore } from '../../framework/interface.ts';
import type { Status } from '../../framework/status.ts';

/**
 * Rewrites `scores` in place: each becomes `maxPriority * score / max` (integer division), or
 * `maxPriority - that` when `reverse`. When every score is 0 they stay 0, or all become `maxPriority`
 * when `reverse`.
 */
export function defaultNormalizeScore(
  maxPriority: number,
  reverse: boolean,
  scores: NodeScore[],
): Status | undefined {
  let max = 0;
  for (const s of scores) if (s.score > max) max = s.score;
  if (max === 0) {
    if (reverse) for (const s of scores) s.score = maxPriority;
    return undefined;
  }
  for (const s of scores) {
    let v = Math.trunc((maxPriority * s.score) / max);
    if (reverse) v = maxPriority - v;
    s.score = v;
  }
  return undefined;
}
