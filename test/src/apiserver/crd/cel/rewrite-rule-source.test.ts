// rewriteRuleSource: has() below an index and matches() rewritten to forms the evaluator runs as cel-go does.
import { describe, expect, it } from 'vitest';
import { celBaseEnvironment } from '../../../../../src/apiserver/crd/cel/cel-base-environment.ts';
import { rewriteRuleSource } from '../../../../../src/apiserver/crd/cel/rewrite-rule-source.ts';

const env = celBaseEnvironment();
env.registerVariable('self', 'dyn').registerVariable('oldSelf', 'dyn');

describe('rewriteRuleSource', () => {
  it.each([
    ['has(self.a.b)', 'has(self.a.b)'],
    ['has(self.l[0].f)', '_has(self.l[0], "f")'],
    ['has(self[0].matches) ? 1 : 0', '_has(self[0], "matches") ? 1 : 0'],
    ['has(self.l[0].f.g)', '_has(self.l[0].f, "g")'],
    ["self.s.matches('^a+$')", "_re2Matches(self.s, '^a+$')"],
    ["matches(self.s, 'x')", "_re2Matches(self.s, 'x')"],
    [
      "self.l.all(x, has(x.m[0].f) && x.s.matches('(?i)a'))",
      'self.l.all(x, _has(x.m[0], "f") && _re2Matches(x.s, \'(?i)a\'))',
    ],
    ['self.a >', 'self.a >'],
  ])('%s → %s', (source, want) => {
    expect(rewriteRuleSource(env, source)).toBe(want);
  });

  it('keeps the meaning: has() below an index, null fields absent, and RE2 flags', () => {
    const run = (rule: string, self: unknown) => env.evaluate(rewriteRuleSource(env, rule), { self });
    expect(run('has(self.l[0].f)', { l: [{ f: 1n }] })).toBe(true);
    expect(run('has(self.l[0].g)', { l: [{ f: 1n }] })).toBe(false);
    expect(run("self.s.matches('^(?i)abc$')", { s: 'ABC' })).toBe(true);
    expect(() => run('has(self.l[0].f)', { l: [3n] })).toThrow('invalid type for field selection');
  });
});
