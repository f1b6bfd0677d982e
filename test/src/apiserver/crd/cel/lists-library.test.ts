// Kubernetes' CEL list functions: isSorted, sum, min, max, indexOf, lastIndexOf (after upstream's library tests).
import { describe, expect, it } from 'vitest';
import { I, listOf, objectOf, outcome } from './cel-harness.ts';

const SCHEMA = objectOf({ xs: listOf(I) });
const VALUE = { xs: [3, 1, 2] };

describe('the list library', () => {
  it.each([
    '[1, 2, 3].isSorted()',
    '!([1, 3, 2].isSorted())',
    "['a', 'b', 'b'].isSorted()",
    '[].isSorted()',
    '[1, 2, 3].sum() == 6',
    '[1.5, 2.5].sum() == 4.0',
    '[].sum() == 0',
    '[3, 1, 2].min() == 1',
    '[3, 1, 2].max() == 3',
    "['b', 'a'].min() == 'a'",
    '[1.5, 0.5].max() == 1.5',
    '[1, 2, 1].indexOf(1) == 0',
    '[1, 2, 1].lastIndexOf(1) == 2',
    '[1, 2].indexOf(9) == -1',
    "['a', 'b'].lastIndexOf('b') == 1",
    'self.xs.sum() == 6 && self.xs.min() == 1',
  ])('%s holds', (rule) => {
    expect(outcome(SCHEMA, VALUE, rule)).toEqual([]);
  });

  it.each([
    ['[].min() == 0', 'min called on empty list evaluating rule'],
    ['[].max() == 0', 'max called on empty list evaluating rule'],
  ])('%s fails with "%s"', (rule, text) => {
    const out = outcome(SCHEMA, VALUE, rule);
    expect(out).toHaveLength(1);
    expect(out[0]).toContain(text);
  });
});
