// matchSuccessPolicy: whether an Indexed Job's succeeded indexes meet one of its successPolicy rules.
import { parseIndexes } from './completion-indexes.ts';

/**
 * The message of the first rule (in order) the succeeded indexes meet, as upstream's matchSuccessPolicy:
 * a rule with `succeededIndexes` needs all of them succeeded, or `succeededCount` of them when that is
 * set; a rule with only `succeededCount` needs that many succeeded indexes. Undefined when none matches.
 *
 * @example matchSuccessPolicy([{ succeededIndexes: '0' }], 3, new Set([0])) // "Matched rules at index 0"
 */
export function matchSuccessPolicy(
  rules: readonly { succeededIndexes?: string; succeededCount?: number }[],
  completions: number,
  succeeded: ReadonlySet<number>,
): string | undefined {
  if (succeeded.size === 0) return undefined;
  for (const [index, rule] of rules.entries()) {
    if (rule.succeededIndexes !== undefined) {
      const wanted = parseIndexes(rule.succeededIndexes, completions);
      const hit = [...wanted].filter((ix) => succeeded.has(ix)).length;
      const need = rule.succeededCount ?? wanted.size;
      if (hit >= need && (rule.succeededCount !== undefined || hit === wanted.size))
        return `Matched rules at index ${index}`;
    } else if (rule.succeededCount !== undefined && succeeded.size >= rule.succeededCount) {
      return `Matched rules at index ${index}`;
    }
  }
  return undefined;
}
