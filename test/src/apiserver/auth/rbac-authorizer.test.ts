// RBAC evaluation: the cases of upstream's rbac authorizer and subject locator tests, in tables.
import { describe, expect, it } from 'vitest';
import {
  appliesTo,
  type Binding,
  type PolicyRule,
  rbacAuthorize,
  ruleAllows,
  rulesFor,
} from '../../../../src/apiserver/auth/rbac-authorizer.ts';
import type { RequestAttributes } from '../../../../src/apiserver/auth/request-attributes.ts';
import { pathAttrs, type RbacWorld, rbacSource, resourceAttrs, rule, subjects } from './rbac-fixtures.ts';

const clusterRoleBinding = (role: string, ...who: string[]): Binding => ({
  metadata: { name: `${role}-binding` },
  roleRef: { kind: 'ClusterRole', name: role },
  subjects: subjects(...who),
});
const roleBinding = (ns: string, kind: 'Role' | 'ClusterRole', role: string, ...who: string[]): Binding => ({
  metadata: { name: `${role}-binding`, namespace: ns },
  roleRef: { kind, name: role },
  subjects: subjects(...who),
});

/** A world, then requests it must allow and requests it must refuse. */
const worlds: [string, RbacWorld, RequestAttributes[], RequestAttributes[]][] = [
  [
    'a cluster role bound in one namespace to a user and a group',
    {
      clusterRoles: [{ metadata: { name: 'admin' }, rules: [rule('*', '*', '*', '*')] }],
      roleBindings: [roleBinding('ns1', 'ClusterRole', 'admin', 'User:admin', 'Group:admins')],
    },
    [
      resourceAttrs('admin', [], 'get', 'Pods', '', 'ns1'),
      resourceAttrs('admin', [], 'watch', 'Pods', '', 'ns1'),
      resourceAttrs('admin', ['group1'], 'watch', 'Foobar', '', 'ns1'),
      resourceAttrs('joe', ['admins'], 'watch', 'Foobar', '', 'ns1'),
      resourceAttrs('joe', ['group1', 'admins'], 'watch', 'Foobar', '', 'ns1'),
    ],
    [
      resourceAttrs('admin', [], 'GET', 'Pods', '', 'ns2'),
      resourceAttrs('admin', [], 'GET', 'Nodes'),
      resourceAttrs('admin', ['admins'], 'GET', 'Pods', '', 'ns2'),
      resourceAttrs('admin', ['admins'], 'GET', 'Nodes'),
    ],
  ],
  [
    'non-resource URLs: exact, any verb, and a prefix ending in *',
    {
      clusterRoles: [
        { metadata: { name: 'url-getter' }, rules: [rule('get', '', '', '/apis')] },
        { metadata: { name: 'url-all' }, rules: [rule('*', '', '', '/apis')] },
        { metadata: { name: 'url-prefix' }, rules: [rule('get', '', '', '/apis/*')] },
      ],
      clusterRoleBindings: [
        clusterRoleBinding('url-getter', 'User:foo', 'Group:bar'),
        clusterRoleBinding('url-all', 'User:admin', 'Group:admin'),
        clusterRoleBinding('url-prefix', 'User:prefixed', 'Group:prefixed'),
      ],
    },
    [
      pathAttrs('foo', [], 'get', '/apis'),
      pathAttrs('', ['bar'], 'get', '/apis'),
      pathAttrs('admin', [], 'get', '/apis'),
      pathAttrs('', ['admin'], 'get', '/apis'),
      pathAttrs('admin', [], 'watch', '/apis'),
      pathAttrs('', ['admin'], 'watch', '/apis'),
      pathAttrs('prefixed', [], 'get', '/apis/v1'),
      pathAttrs('', ['prefixed'], 'get', '/apis/v1'),
      pathAttrs('prefixed', [], 'get', '/apis/v1/foobar'),
      pathAttrs('', ['prefixed'], 'get', '/apis/v1/foorbar'),
    ],
    [
      pathAttrs('foo', [], 'watch', '/apis'),
      pathAttrs('', ['bar'], 'watch', '/apis'),
      pathAttrs('foo', [], 'get', '/api/v1'),
      pathAttrs('', ['bar'], 'get', '/api/v1'),
      pathAttrs('admin', [], 'get', '/api/v1'),
      pathAttrs('', ['admin'], 'get', '/api/v1'),
      pathAttrs('prefixed', [], 'get', '/api/v1'),
      pathAttrs('', ['prefixed'], 'get', '/api/v1'),
    ],
  ],
  [
    'a rule on pods does not cover pods/status',
    {
      clusterRoles: [{ metadata: { name: 'admin' }, rules: [rule('*', '*', 'pods', '*')] }],
      roleBindings: [roleBinding('ns1', 'ClusterRole', 'admin', 'User:admin')],
    },
    [resourceAttrs('admin', [], 'get', 'pods', '', 'ns1')],
    [resourceAttrs('admin', [], 'get', 'pods', 'status', 'ns1')],
  ],
  [
    'a rule on pods/status covers only the subresource',
    {
      clusterRoles: [{ metadata: { name: 'admin' }, rules: [rule('*', '*', 'pods/status', '*')] }],
      roleBindings: [roleBinding('ns1', 'ClusterRole', 'admin', 'User:admin')],
    },
    [resourceAttrs('admin', [], 'get', 'pods', 'status', 'ns1')],
    [resourceAttrs('admin', [], 'get', 'pods', '', 'ns1')],
  ],
  [
    'a Role and RoleBinding for a service account, namespaced by the binding',
    {
      roles: [
        {
          metadata: { name: 'pod-reader', namespace: 'team' },
          rules: [rule('get,list,watch', '', 'pods,pods/log')],
        },
      ],
      roleBindings: [roleBinding('team', 'Role', 'pod-reader', 'ServiceAccount:ctrl')],
    },
    [
      resourceAttrs('system:serviceaccount:team:ctrl', [], 'list', 'pods', '', 'team'),
      resourceAttrs('system:serviceaccount:team:ctrl', [], 'get', 'pods', 'log', 'team'),
    ],
    [
      resourceAttrs('system:serviceaccount:team:ctrl', [], 'get', 'secrets', '', 'team'),
      resourceAttrs('system:serviceaccount:team:ctrl', [], 'list', 'pods', '', 'other'),
      resourceAttrs('system:serviceaccount:team:ctrl', [], 'list', 'pods'),
      resourceAttrs('system:serviceaccount:other:ctrl', [], 'list', 'pods', '', 'team'),
      resourceAttrs('system:serviceaccount:team:ctrl', [], 'delete', 'pods', '', 'team'),
    ],
  ],
  [
    'a binding to a missing role grants nothing',
    { roleBindings: [roleBinding('ns1', 'Role', 'absent', 'User:alice')] },
    [],
    [resourceAttrs('alice', [], 'get', 'pods', '', 'ns1')],
  ],
  [
    'system:masters is always allowed, with no binding at all',
    {},
    [
      resourceAttrs('root', ['system:masters'], 'delete', 'secrets', '', 'kube-system'),
      pathAttrs('root', ['system:masters'], 'get', '/metrics'),
    ],
    [resourceAttrs('root', ['system:authenticated'], 'delete', 'secrets', '', 'kube-system')],
  ],
];

describe('rbacAuthorize', () => {
  describe.each(worlds)('%s', (_name, world, allowed, refused) => {
    const source = rbacSource(world);
    it.each(
      allowed.map(
        (a) =>
          [
            `${a.user.username || a.user.groups.join(',')} ${a.verb} ${a.resource || a.path}${a.subresource ? `/${a.subresource}` : ''} in "${a.namespace}"`,
            a,
          ] as const,
      ),
    )('allows %s', (_label, attrs) => {
      expect(rbacAuthorize(source, attrs).allowed).toBe(true);
    });
    it.each(
      refused.map(
        (a) =>
          [
            `${a.user.username || a.user.groups.join(',')} ${a.verb} ${a.resource || a.path}${a.subresource ? `/${a.subresource}` : ''} in "${a.namespace}"`,
            a,
          ] as const,
      ),
    )('refuses %s', (_label, attrs) => {
      expect(rbacAuthorize(source, attrs)).toEqual({ allowed: false, reason: '' });
    });
  });

  it('names the binding, role and subject that allowed, in upstream words', () => {
    const source = rbacSource({
      roles: [{ metadata: { name: 'reader', namespace: 'team' }, rules: [rule('get', '', 'pods')] }],
      roleBindings: [roleBinding('team', 'Role', 'reader', 'ServiceAccount:ctrl')],
    });
    expect(
      rbacAuthorize(source, resourceAttrs('system:serviceaccount:team:ctrl', [], 'get', 'pods', '', 'team'))
        .reason,
    ).toBe(
      'RBAC: allowed by RoleBinding "reader-binding/team" of Role "reader" to ServiceAccount "team/ctrl"',
    );
  });
});

/** A request made from compact parts, for rule matching. */
const req = (verb: string, group: string, resource: string, subresource = '', name = '') =>
  resourceAttrs('u', [], verb, resource, subresource, 'ns', group, name);
const url = (verb: string, path: string) => pathAttrs('u', [], verb, path);

const ruleCases: [string, PolicyRule, [RequestAttributes, boolean][]][] = [
  [
    'star verb, exact other fields',
    { verbs: ['*'], apiGroups: ['group1'], resources: ['resource1'] },
    [
      [req('verb1', 'group1', 'resource1'), true],
      [req('verb1', 'group2', 'resource1'), false],
      [req('verb1', 'group1', 'resource2'), false],
      [req('verb2', 'group1', 'resource1'), true],
      [req('verb2', 'group2', 'resource2'), false],
    ],
  ],
  [
    'star group, exact other fields',
    { verbs: ['verb1'], apiGroups: ['*'], resources: ['resource1'] },
    [
      [req('verb1', 'group1', 'resource1'), true],
      [req('verb1', 'group2', 'resource1'), true],
      [req('verb1', 'group1', 'resource2'), false],
      [req('verb2', 'group1', 'resource1'), false],
    ],
  ],
  [
    'star resource, exact other fields',
    { verbs: ['verb1'], apiGroups: ['group1'], resources: ['*'] },
    [
      [req('verb1', 'group1', 'resource1'), true],
      [req('verb1', 'group1', 'resource2'), true],
      [req('verb1', 'group2', 'resource1'), false],
      [req('verb2', 'group1', 'resource1'), false],
    ],
  ],
  [
    'every combination of two verbs, groups and resources',
    { verbs: ['verb1', 'verb2'], apiGroups: ['group1', 'group2'], resources: ['resource1', 'resource2'] },
    [
      [req('verb1', 'group1', 'resource1'), true],
      [req('verb2', 'group2', 'resource2'), true],
      [req('verb1', 'group2', 'resource1'), true],
      [req('verb3', 'group1', 'resource1'), false],
    ],
  ],
  [
    'a resource/subresource rule',
    { verbs: ['*'], apiGroups: ['*'], resources: ['resource1/subresource1'] },
    [
      [req('verb1', 'group1', 'resource1', 'subresource1'), true],
      [req('verb1', 'group2', 'resource1', 'subresource2'), false],
      [req('verb1', 'group1', 'resource2', 'subresource1'), false],
      [req('verb1', 'group1', 'resource1'), false],
    ],
  ],
  [
    'a */subresource rule covers that subresource of every resource',
    { verbs: ['get'], apiGroups: [''], resources: ['*/log'] },
    [
      [req('get', '', 'pods', 'log'), true],
      [req('get', '', 'jobs', 'log'), true],
      [req('get', '', 'pods', 'status'), false],
      [req('get', '', 'pods'), false],
    ],
  ],
  [
    'resource names restrict to those names',
    { verbs: ['get', 'update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['config'] },
    [
      [req('get', '', 'configmaps', '', 'config'), true],
      [req('get', '', 'configmaps', '', 'other'), false],
      [req('get', '', 'configmaps'), false],
    ],
  ],
  [
    'star non-resource URL',
    { verbs: ['verb1'], nonResourceURLs: ['*'] },
    [
      [url('verb1', '/foo'), true],
      [url('verb1', '/foo/bar/one'), true],
      [url('verb2', '/foo'), false],
    ],
  ],
  [
    'a non-resource URL prefix',
    { verbs: ['verb1'], nonResourceURLs: ['/foo/*'] },
    [
      [url('verb1', '/foo'), false],
      [url('verb1', '/foo/bar'), true],
      [url('verb1', '/foo/bar/one'), true],
      [url('verb1', '/foobar'), false],
      [url('verb2', '/foo/bar'), false],
    ],
  ],
  [
    'an exact non-resource URL',
    { verbs: ['verb1'], nonResourceURLs: ['/foo/bar'] },
    [
      [url('verb1', '/foo/bar'), true],
      [url('verb1', '/foo/bar/one'), false],
      [url('verb1', '/foo'), false],
    ],
  ],
  [
    'a resource rule never covers a non-resource URL, nor the reverse',
    { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
    [
      [url('get', '/healthz'), false],
      [req('get', '', 'pods'), true],
    ],
  ],
];

describe('ruleAllows', () => {
  describe.each(ruleCases)('%s', (_name, policyRule, expectations) => {
    it.each(
      expectations.map(
        ([a, want]) =>
          [
            `${a.verb} ${a.apiGroup}/${a.resource || a.path}${a.subresource ? `/${a.subresource}` : ''} ${a.name}`,
            a,
            want,
          ] as const,
      ),
    )('%s → %s', (_label, attrs, want) => {
      expect(ruleAllows(attrs, policyRule)).toBe(want);
    });
  });
});

describe('appliesTo (the subject locator)', () => {
  const user = { username: 'system:serviceaccount:ns1:sa', groups: ['system:serviceaccounts', 'g1'] };
  it.each([
    ['a User by name', { kind: 'User', name: 'system:serviceaccount:ns1:sa' }, '', true],
    ['another User', { kind: 'User', name: 'alice' }, '', false],
    ['a Group the user is in', { kind: 'Group', name: 'g1' }, '', true],
    ['a Group the user is not in', { kind: 'Group', name: 'g2' }, '', false],
    [
      'a ServiceAccount with its namespace',
      { kind: 'ServiceAccount', name: 'sa', namespace: 'ns1' },
      'other',
      true,
    ],
    ['a ServiceAccount in the binding namespace', { kind: 'ServiceAccount', name: 'sa' }, 'ns1', true],
    [
      'a ServiceAccount of another namespace',
      { kind: 'ServiceAccount', name: 'sa', namespace: 'ns2' },
      '',
      false,
    ],
    ['a ServiceAccount without any namespace', { kind: 'ServiceAccount', name: 'sa' }, '', false],
    ['an unknown kind', { kind: 'Robot', name: 'sa' }, 'ns1', false],
  ])('%s', (_name, subject, ns, want) => {
    expect(appliesTo(user, subject, ns)).toBe(want);
  });
});

describe('rulesFor (what SelfSubjectRulesReview lists)', () => {
  const world: RbacWorld = {
    clusterRoles: [{ metadata: { name: 'viewer' }, rules: [rule('get', '', 'nodes')] }],
    roles: [{ metadata: { name: 'editor', namespace: 'ns1' }, rules: [rule('create', '', 'pods')] }],
    clusterRoleBindings: [clusterRoleBinding('viewer', 'Group:team')],
    roleBindings: [
      roleBinding('ns1', 'Role', 'editor', 'User:alice'),
      roleBinding('ns1', 'Role', 'missing', 'User:alice'),
    ],
  };
  it('collects cluster-wide and namespace rules and reports a missing role', () => {
    const out = rulesFor(rbacSource(world), { username: 'alice', groups: ['team'] }, 'ns1');
    expect(out.rules).toEqual([rule('get', '', 'nodes'), rule('create', '', 'pods')]);
    expect(out.errors).toEqual(['role.rbac.authorization.k8s.io "missing" not found']);
  });
  it('has only the cluster-wide rules in another namespace', () => {
    expect(rulesFor(rbacSource(world), { username: 'alice', groups: ['team'] }, 'ns2')).toEqual({
      rules: [rule('get', '', 'nodes')],
      errors: [],
    });
  });
});
