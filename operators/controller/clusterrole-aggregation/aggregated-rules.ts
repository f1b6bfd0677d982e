// aggregatedRules: an aggregated ClusterRole's rules — those of every ClusterRole its aggregationRule selects, by selector then name, each rule once.
import { type LabelSelectorObject, labelSelectorFromObject } from '../../label-selector.ts';
import type { KubeObject } from '../../types.ts';

/** An RBAC PolicyRule. */
export interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** The fields of a ClusterRole aggregation reads. */
export interface ClusterRole extends KubeObject {
  rules?: PolicyRule[] | null;
  aggregationRule?: { clusterRoleSelectors?: LabelSelectorObject[] | null } | null;
}

const FIELDS = ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const;

/** Semantic equality of two rules: each list compared in order, a missing list equal to an empty one. */
export function sameRule(a: PolicyRule, b: PolicyRule): boolean {
  return FIELDS.every((f) => {
    const x = a[f] ?? [];
    const y = b[f] ?? [];
    return x.length === y.length && x.every((v, i) => v === y[i]);
  });
}

/** Semantic equality of two rule lists (order matters; a missing list equals an empty one). */
export function sameRules(
  a: readonly PolicyRule[] | null | undefined,
  b: readonly PolicyRule[] | null | undefined,
) {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((r, i) => sameRule(r, y[i]!));
}

/**
 * The rules upstream's aggregation controller writes: for each of `role`'s selectors in order, the other
 * ClusterRoles it matches sorted by name, their rules appended unless an equal rule is already there.
 * @param role a ClusterRole with an aggregationRule
 * @param all every ClusterRole in the cache
 * @returns the rules, or undefined when `role` has no aggregationRule
 * @throws InvalidInputError from the selector parser when a selector is invalid
 */
export function aggregatedRules(role: ClusterRole, all: readonly ClusterRole[]): PolicyRule[] | undefined {
  if (!role.aggregationRule) return undefined;
  const out: PolicyRule[] = [];
  for (const object of role.aggregationRule.clusterRoleSelectors ?? []) {
    const selector = labelSelectorFromObject(object);
    const matched = all
      .filter((r) => r.metadata?.name !== role.metadata?.name && selector.matches(r.metadata?.labels))
      .sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
    for (const r of matched)
      for (const rule of r.rules ?? []) if (!out.some((o) => sameRule(o, rule))) out.push(rule);
  }
  return out;
}
