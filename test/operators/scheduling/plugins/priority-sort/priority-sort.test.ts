// PrioritySort tests ported in our own words from priority_sort_test.go.
import { describe, expect, it } from 'vitest';
import { PrioritySort } from '../../../../../operators/scheduling/plugins/priority-sort/priority-sort.ts';
import { makePod } from '../../framework/fixtures.ts';

describe('PrioritySort', () => {
  it.each<[string, number | undefined, number, number | undefined, number, boolean]>([
    ['p1 has lower priority than p2', 1, 0, 2, 0, false],
    ['p1 has higher priority than p2', 2, 0, 1, 0, true],
    ['equal priority, p1 queued before p2', 1, 10, 1, 20, true],
    ['equal priority, p2 queued before p1', 1, 20, 1, 10, false],
    ['no priority counts as 0', undefined, 20, 0, 10, false],
    ['a negative priority sorts after 0', -1, 0, undefined, 10, false],
    ['equal priority and timestamp: not less', 3, 5, 3, 5, false],
  ])('%s', (_name, prio1, t1, prio2, t2, want) => {
    const a = { pod: makePod('a', prio1 === undefined ? {} : { priority: prio1 }), timestamp: t1 };
    const b = { pod: makePod('b', prio2 === undefined ? {} : { priority: prio2 }), timestamp: t2 };
    expect(new PrioritySort().less(a, b)).toBe(want);
  });
});
