// Kubernetes' CEL regex library: find and findAll on strings.
import { type Environment, EvaluationError } from '@marcbachmann/cel-js';
import { compilePattern } from '../validate-custom-resource.ts';

function regex(pattern: string): RegExp {
  const re = compilePattern(pattern);
  if (!re) throw new EvaluationError(`error parsing regexp: ${pattern}`);
  return new RegExp(re.source, 'gu');
}

function findAll(s: string, pattern: string, limit: bigint): string[] {
  if (limit === 0n) return [];
  const out: string[] = [];
  for (const m of s.matchAll(regex(pattern))) {
    out.push(m[0]);
    if (limit > 0n && BigInt(out.length) >= limit) break;
  }
  return out;
}

/**
 * Registers the regex functions of k8s.io/apiserver/pkg/cel/library (regex.go): `s.find(re)` (the
 * first match, or ""), `s.findAll(re)` and `s.findAll(re, n)` (at most n matches; negative: all).
 * Patterns run as JavaScript Unicode regular expressions, close to RE2 for the patterns rules use.
 * @param env the environment (not yet cloned)
 */
export function registerRegexLibrary(env: Environment): void {
  env
    .registerFunction('string.find(string): string', (s: string, p: string) => regex(p).exec(s)?.[0] ?? '')
    .registerFunction('string.findAll(string): list<string>', (s: string, p: string) => findAll(s, p, -1n))
    .registerFunction('string.findAll(string, int): list<string>', findAll);
}
