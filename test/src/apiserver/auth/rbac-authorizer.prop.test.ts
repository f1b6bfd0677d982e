// Properties of RBAC: the authorizer agrees with the rules review, and more bindings never take access away.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Binding,
  type PolicyRule,
  rbacAuthorize,
  ruleAllows,
  rulesFor,
} from '../../../../src/apiserver/auth/rbac-authorizer.ts';
import type { RequestAttributes } from '../../../../src/apiserver/auth/request-attributes.ts';
import { type RbacWorld, rbacSource } from './rbac-fixtures.ts';

const word = (options: string[]) => fc.constantFrom(...options);
const VERBS = ['get', 'list', 'watch', 'create', 'delete', '*'];
const GROUPS = ['', 'apps', '*'];
const RESOURCES = ['pods', 'pods/log', 'secrets', 'deployments', '*', '*/status'];
const NAMES = ['a', 'b'];
const NAMESPACES = ['ns1', 'ns2'];
const USERS = ['alice', 'bob', 'system:serviceaccount:ns1:sa'];
const GROUP_NAMES = ['devs', 'ops'];

const policyRule: fc.Arbitrary<PolicyRule> = fc.oneof(
  fc.record({
    verbs: fc.uniqueArray(word(VERBS), { minLength: 1, maxLength: 2 }),
    apiGroups: fc.uniqueArray(word(GROUPS), { minLength: 1, maxLength: 2 }),
    resources: fc.uniqueArray(word(RESOURCES), { minLength: 1, maxLength: 2 }),
    resourceNames: fc.uniqueArray(word(NAMES), { maxLength: 1 }),
  }),
  fc.record({
    verbs: fc.uniqueArray(word(['get', 'post', '*']), { minLength: 1, maxLength: 2 }),
    nonResourceURLs: fc.uniqueArray(word(['/healthz', '/metrics', '/apis/*', '*']), {
      minLength: 1,
      maxLength: 2,
    }),
  }),
);

const subject = fc.oneof(
  fc.record({ kind: fc.constant('User'), name: word(USERS) }),
  fc.record({ kind: fc.constant('Group'), name: word(GROUP_NAMES) }),
  fc.record({ kind: fc.constant('ServiceAccount'), name: fc.constant('sa'), namespace: word(NAMESPACES) }),
);

const world: fc.Arbitrary<RbacWorld> = fc
  .record({
    roleRules: fc.array(fc.tuple(word(NAMESPACES), fc.array(policyRule, { maxLength: 3 })), { maxLength: 3 }),
    clusterRoleRules: fc.array(fc.array(policyRule, { maxLength: 3 }), { maxLength: 3 }),
    roleBindings: fc.array(
      fc.tuple(word(NAMESPACES), fc.boolean(), fc.nat(3), fc.array(subject, { minLength: 1, maxLength: 2 })),
      { maxLength: 4 },
    ),
    clusterRoleBindings: fc.array(fc.tuple(fc.nat(3), fc.array(subject, { minLength: 1, maxLength: 2 })), {
      maxLength: 3,
    }),
  })
  .map((w) => ({
    roles: w.roleRules.map(([namespace, rules], i) => ({ metadata: { name: `r${i}`, namespace }, rules })),
    clusterRoles: w.clusterRoleRules.map((rules, i) => ({ metadata: { name: `c${i}` }, rules })),
    roleBindings: w.roleBindings.map(
      ([namespace, toCluster, n, subjects], i): Binding => ({
        metadata: { name: `rb${i}`, namespace },
        roleRef: { kind: toCluster ? 'ClusterRole' : 'Role', name: toCluster ? `c${n}` : `r${n}` },
        subjects,
      }),
    ),
    clusterRoleBindings: w.clusterRoleBindings.map(
      ([n, subjects], i): Binding => ({
        metadata: { name: `crb${i}` },
        roleRef: { kind: 'ClusterRole', name: `c${n}` },
        subjects,
      }),
    ),
  }));

const attributes: fc.Arbitrary<RequestAttributes> = fc.oneof(
  fc
    .record({
      username: word(USERS),
      groups: fc.uniqueArray(word(GROUP_NAMES), { maxLength: 2 }),
      verb: word(VERBS.filter((v) => v !== '*')),
      apiGroup: word(['', 'apps']),
      resource: word(['pods', 'secrets', 'deployments']),
      subresource: word(['', 'log', 'status']),
      namespace: word(['', ...NAMESPACES]),
      name: word(['', ...NAMES]),
    })
    .map((a) => ({
      user: { username: a.username, groups: a.groups },
      verb: a.verb,
      resourceRequest: true,
      apiGroup: a.apiGroup,
      apiVersion: 'v1',
      resource: a.resource,
      subresource: a.subresource,
      namespace: a.namespace,
      name: a.name,
      path: '',
    })),
  fc
    .record({
      username: word(USERS),
      groups: fc.uniqueArray(word(GROUP_NAMES), { maxLength: 2 }),
      verb: word(['get', 'post']),
      path: word(['/healthz', '/metrics', '/apis/apps', '/api']),
    })
    .map((a) => ({
      user: { username: a.username, groups: a.groups },
      verb: a.verb,
      resourceRequest: false,
      apiGroup: '',
      apiVersion: '',
      resource: '',
      subresource: '',
      namespace: '',
      name: '',
      path: a.path,
    })),
);

describe('RBAC properties', () => {
  it('allows a request exactly when a rule the rules review lists for its user and namespace covers it', () => {
    fc.assert(
      fc.property(world, attributes, (w, attrs) => {
        const source = rbacSource(w);
        const namespace = attrs.resourceRequest ? attrs.namespace : '';
        const { rules } = rulesFor(source, attrs.user, namespace);
        expect(rbacAuthorize(source, attrs).allowed).toBe(rules.some((r) => ruleAllows(attrs, r)));
      }),
    );
  });

  it('never takes access away when a binding is added', () => {
    fc.assert(
      fc.property(world, attributes, word(NAMESPACES), fc.nat(3), subject, (w, attrs, ns, n, s) => {
        const before = rbacAuthorize(rbacSource(w), attrs).allowed;
        const more: RbacWorld = {
          ...w,
          roleBindings: [
            ...(w.roleBindings ?? []),
            {
              metadata: { name: 'extra', namespace: ns },
              roleRef: { kind: 'ClusterRole', name: `c${n}` },
              subjects: [s],
            },
          ],
        };
        const after = rbacAuthorize(rbacSource(more), attrs).allowed;
        expect(after || !before).toBe(true);
      }),
    );
  });

  it('always allows system:masters', () => {
    fc.assert(
      fc.property(world, attributes, (w, attrs) => {
        const master = {
          ...attrs,
          user: { ...attrs.user, groups: [...attrs.user.groups, 'system:masters'] },
        };
        expect(rbacAuthorize(rbacSource(w), master).allowed).toBe(true);
      }),
    );
  });
});
