// Kubernetes' CEL regex functions: find and findAll.
import { describe, expect, it } from 'vitest';
import { I, listOf, objectOf, outcome } from './cel-harness.ts';

const SCHEMA = objectOf({ xs: listOf(I) });
const VALUE = { xs: [3, 1, 2] };

describe('the regex library', () => {
  it.each([
    "'abc 123 def 456'.find('[0-9]+') == '123'",
    "'abc'.find('[0-9]+') == ''",
    "'abc 123 def 456'.findAll('[0-9]+') == ['123', '456']",
    "'abc 123 def 456'.findAll('[0-9]+', 1) == ['123']",
    "'abc 123 def 456'.findAll('[0-9]+', 0) == []",
    "'abc 123 def 456'.findAll('[0-9]+', -1) == ['123', '456']",
    "'1a2b'.findAll('x').size() == 0",
  ])('%s holds', (rule) => {
    expect(outcome(SCHEMA, VALUE, rule)).toEqual([]);
  });

  it.each([["'x'.find(')') == ''", 'error parsing regexp']])('%s fails with "%s"', (rule, text) => {
    const out = outcome(SCHEMA, VALUE, rule);
    expect(out).toHaveLength(1);
    expect(out[0]).toContain(text);
  });
});
