// aggregatedRules: upstream's clusterroleaggregation_controller_test.go cases (no aggregation, none selected, one, two sorted, duplicates folded, self skipped, no change), as a table.
import { describe, expect, it } from 'vitest';
import {
  aggregatedRules,
  type ClusterRole,
  type PolicyRule,
  sameRules,
} from '../../../../operators/controller/clusterrole-aggregation/aggregated-rules.ts';

const role = (name: string, labels: Record<string, string>, rules: PolicyRule[]): ClusterRole => ({
  metadata: { name, labels },
  rules,
});
const aggregated = (
  name: string,
  selectors: ClusterRole['aggregationRule'],
  rules: PolicyRule[] = [],
): ClusterRole => ({
  metadata: { name, labels: { 'rbac.example/aggregate-to-admin': 'true' } },
  aggregationRule: selectors,
  rules,
});
const ruleA: PolicyRule = { verbs: ['get'], apiGroups: [''], resources: ['pods'] };
const ruleB: PolicyRule = { verbs: ['list'], apiGroups: ['apps'], resources: ['deployments'] };
const ruleC: PolicyRule = { verbs: ['*'], nonResourceURLs: ['/healthz'] };
const toAdmin = { matchLabels: { 'rbac.example/aggregate-to-admin': 'true' } };
const toView = { matchLabels: { 'rbac.example/aggregate-to-view': 'true' } };

describe('aggregatedRules', () => {
  it.each<[string, ClusterRole, ClusterRole[], PolicyRule[] | undefined]>([
    ['no aggregationRule: nothing to do', role('plain', {}, [ruleA]), [], undefined],
    [
      'no role selected: no rules',
      aggregated('admin', { clusterRoleSelectors: [toAdmin] }, [ruleA]),
      [role('x', {}, [ruleB])],
      [],
    ],
    [
      'an empty aggregationRule: no rules',
      aggregated('admin', {}),
      [role('x', { 'rbac.example/aggregate-to-admin': 'true' }, [ruleA])],
      [],
    ],
    [
      'one role selected',
      aggregated('admin', { clusterRoleSelectors: [toAdmin] }),
      [role('child', { 'rbac.example/aggregate-to-admin': 'true' }, [ruleA])],
      [ruleA],
    ],
    [
      'two roles, in name order',
      aggregated('admin', { clusterRoleSelectors: [toAdmin] }),
      [
        role('zeta', { 'rbac.example/aggregate-to-admin': 'true' }, [ruleB]),
        role('alpha', { 'rbac.example/aggregate-to-admin': 'true' }, [ruleA]),
      ],
      [ruleA, ruleB],
    ],
    [
      'the same rule from two roles, once; a missing list equals an empty one',
      aggregated('admin', { clusterRoleSelectors: [toAdmin] }),
      [
        role('a', { 'rbac.example/aggregate-to-admin': 'true' }, [ruleA]),
        role('b', { 'rbac.example/aggregate-to-admin': 'true' }, [{ ...ruleA, resourceNames: [] }, ruleC]),
      ],
      [ruleA, ruleC],
    ],
    [
      'selectors in order, each one by name',
      aggregated('admin', { clusterRoleSelectors: [toView, toAdmin] }),
      [
        role('a', { 'rbac.example/aggregate-to-admin': 'true' }, [ruleA]),
        role('v', { 'rbac.example/aggregate-to-view': 'true' }, [ruleB]),
      ],
      [ruleB, ruleA],
    ],
    [
      'the aggregated role never selects itself',
      aggregated('admin', { clusterRoleSelectors: [toAdmin] }, [ruleC]),
      [
        aggregated('admin', { clusterRoleSelectors: [toAdmin] }, [ruleC]),
        role('a', { 'rbac.example/aggregate-to-admin': 'true' }, [ruleA]),
      ],
      [ruleA],
    ],
  ])('%s', (_name, r, all, want) => {
    expect(aggregatedRules(r, all)).toEqual(want);
  });

  it.each<[string, PolicyRule[] | undefined, PolicyRule[] | undefined, boolean]>([
    ['missing and empty', undefined, [], true],
    ['equal lists', [ruleA, ruleB], [ruleA, ruleB], true],
    ['another order', [ruleA, ruleB], [ruleB, ruleA], false],
    ['one more', [ruleA], [ruleA, ruleB], false],
  ])('sameRules: %s → %s', (_name, a, b, same) => {
    expect(sameRules(a, b)).toBe(same);
  });
});
