// DefaultNormalizeScore tests ported in our own words from helper/normalize_score_test.go.
import { describe, expect, it } from 'vitest';
import { defaultNormalizeScore } from '../../../../../operators/scheduling/plugins/helpers/normalize-score.ts';

describe('defaultNormalizeScore', () => {
  it.each<[number[], boolean, number[]]>([
    [[1, 2, 3, 4, 5], false, [20, 40, 60, 80, 100]],
    [[1, 2, 3, 4, 5], true, [80, 60, 40, 20, 0]],
    [[1000, 10, 20, 30, 40], false, [100, 1, 2, 3, 4]],
    [[1000, 10, 20, 30, 40], true, [0, 99, 98, 97, 96]],
    [[1, 1, 1, 1], false, [100, 100, 100, 100]],
    [[1, 1, 1, 1], true, [0, 0, 0, 0]],
    [[0, 1, 1, 1], false, [0, 100, 100, 100]],
    [[0, 1, 1, 1], true, [100, 0, 0, 0]],
    [[0, 0, 0, 0], false, [0, 0, 0, 0]],
    [[0, 0, 0, 0], true, [100, 100, 100, 100]],
    [[], false, []],
  ])('%j reverse=%s → %j', (raw, reverse, want) => {
    const scores = raw.map((score, i) => ({ name: `n${i}`, score }));
    expect(defaultNormalizeScore(100, reverse, scores)).toBeUndefined();
    expect(scores.map((s) => s.score)).toEqual(want);
  });
});
