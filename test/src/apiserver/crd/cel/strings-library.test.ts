// The strings extension functions added to the evaluator: charAt, replace, reverse, format.
import { describe, expect, it } from 'vitest';
import { I, listOf, objectOf, outcome } from './cel-harness.ts';

const SCHEMA = objectOf({ xs: listOf(I) });
const VALUE = { xs: [3, 1, 2] };

describe('the strings library', () => {
  it.each([
    "'hello'.charAt(1) == 'e'",
    "'hello'.charAt(5) == ''",
    "'aXbXc'.replace('X', '-') == 'a-b-c'",
    "'aXbXc'.replace('X', '-', 1) == 'a-bXc'",
    "'abc'.replace('', '_') == '_a_b_c_'",
    "'abc'.reverse() == 'cba'",
    "'👑ab'.reverse() == 'ba👑'",
    "'%s has %d items, %.2f%%'.format(['list', 3, 12.5]) == 'list has 3 items, 12.50%'",
    "'%x %X %o %b'.format([255, 255, 8, 5]) == 'ff FF 10 101'",
    "'%s'.format([[1, 2]]) == '[1, 2]'",
  ])('%s holds', (rule) => {
    expect(outcome(SCHEMA, VALUE, rule)).toEqual([]);
  });

  it.each([
    ["'hello'.charAt(9) == ''", 'index out of range: 9'],
    ["'%d'.format(['x']) == ''", '%d format requires an integer argument'],
  ])('%s fails with "%s"', (rule, text) => {
    const out = outcome(SCHEMA, VALUE, rule);
    expect(out).toHaveLength(1);
    expect(out[0]).toContain(text);
  });
});
