// re2Pattern: RE2 patterns (flag groups, named groups, \A and \z, POSIX classes) read as JavaScript regular expressions.
import { describe, expect, it } from 'vitest';
import { re2Pattern } from '../../../../../src/apiserver/crd/cel/re2-pattern.ts';

describe('re2Pattern', () => {
  it.each<[string, string, boolean]>([
    ['(?i)^abc$', 'ABC', true],
    ['^(?i)\\.?[a-z_][a-z_0-9]*(\\.[a-z_][a-z_0-9]*)*$', '.Foo.Bar_1', true],
    ['^(?i)[a-z]+$', 'abc1', false],
    ['(?s)a.b', 'a\nb', true],
    ['a.b', 'a\nb', false],
    ['(?P<year>\\d{4})-\\d{2}', '2024-01', true],
    ['\\Aab', 'ab', true],
    ['\\Aab', 'cab', false],
    ['ab\\z', 'ab', true],
    ['ab\\z', 'ab\n', false],
    ['^[[:alpha:]]+$', 'abcXYZ', true],
    ['^[[:digit:]]+$', '12a', false],
    ['^[[:alnum:]_]+$', 'a_1', true],
    ['^\\-x$', '-x', true],
    ['^.$', '👑', true],
  ])('%s on %j: %s', (pattern, text, want) => {
    expect(re2Pattern(pattern).test(text)).toBe(want);
  });

  it('compiles a pattern once', () => {
    expect(re2Pattern('^x+$')).toBe(re2Pattern('^x+$'));
  });

  it.each([')', '(?U)a+', '[z-a]'])('refuses %s', (pattern) => {
    expect(() => re2Pattern(pattern)).toThrow();
  });
});
