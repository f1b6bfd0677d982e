// Kubernetes' CEL regex library (find, findAll) and matches, all reading patterns as RE2 does.
import { type Environment, EvaluationError } from '@marcbachmann/cel-js';
import { re2Pattern } from './re2-pattern.ts';

function regex(pattern: string, global = false): RegExp {
  try {
    return re2Pattern(pattern, global);
  } catch (err) {
    throw new EvaluationError(`error parsing regexp: ${(err as Error).message}`);
  }
}

function findAll(s: string, pattern: string, limit: bigint): string[] {
  if (limit === 0n) return [];
  const out: string[] = [];
  for (const m of s.matchAll(regex(pattern, true))) {
    out.push(m[0]);
    if (limit > 0n && BigInt(out.length) >= limit) break;
  }
  return out;
}

/** The function rewriteRuleSource puts in place of matches(), so patterns are read as RE2. */
export const RE2_MATCHES = '_re2Matches';

/**
 * Registers the regex functions of k8s.io/apiserver/pkg/cel/library (regex.go): `s.find(re)` (the
 * first match, or ""), `s.findAll(re)` and `s.findAll(re, n)` (at most n matches; negative: all), and
 * the RE2 reading of `matches` (see re2Pattern).
 * @param env the environment (not yet cloned)
 */
export function registerRegexLibrary(env: Environment): void {
  env
    .registerFunction('string.find(string): string', (s: string, p: string) => regex(p).exec(s)?.[0] ?? '')
    .registerFunction('string.findAll(string): list<string>', (s: string, p: string) => findAll(s, p, -1n))
    .registerFunction('string.findAll(string, int): list<string>', findAll)
    .registerFunction(`${RE2_MATCHES}(string, string): bool`, (s: string, p: string) => regex(p).test(s));
}
