// Test fixture: an in-memory RbacSource built from compact role and binding descriptions.
import type {
  Binding,
  PolicyRule,
  RbacSource,
  Role,
} from '../../../../src/apiserver/auth/rbac-authorizer.ts';
import type { RequestAttributes } from '../../../../src/apiserver/auth/request-attributes.ts';

/** A rule from comma lists, as upstream's test helper newRule builds one. */
export function rule(verbs: string, apiGroups: string, resources: string, nonResourceURLs = ''): PolicyRule {
  return {
    verbs: verbs.split(','),
    apiGroups: apiGroups.split(','),
    resources: resources.split(','),
    nonResourceURLs: nonResourceURLs ? nonResourceURLs.split(',') : [],
  };
}

/** Subjects from `Kind:name` strings (`ServiceAccount:ns:name` keeps its namespace). */
export function subjects(...specs: string[]): Binding['subjects'] {
  return specs.map((s) => {
    const [kind = '', ...rest] = s.split(':');
    if (kind === 'ServiceAccount' && rest.length === 2) return { kind, namespace: rest[0], name: rest[1]! };
    return { kind, name: rest.join(':') };
  });
}

export interface RbacWorld {
  roles?: Role[];
  clusterRoles?: Role[];
  roleBindings?: Binding[];
  clusterRoleBindings?: Binding[];
}

/** An RbacSource over fixed lists. */
export function rbacSource(world: RbacWorld): RbacSource {
  return {
    role: (ns, name) => world.roles?.find((r) => r.metadata.namespace === ns && r.metadata.name === name),
    clusterRole: (name) => world.clusterRoles?.find((r) => r.metadata.name === name),
    roleBindings: (ns) => (world.roleBindings ?? []).filter((b) => b.metadata.namespace === ns),
    clusterRoleBindings: () => world.clusterRoleBindings ?? [],
  };
}

/** A resource request's attributes. */
export function resourceAttrs(
  user: string,
  groups: string[],
  verb: string,
  resource: string,
  subresource = '',
  namespace = '',
  apiGroup = '',
  name = '',
): RequestAttributes {
  return {
    user: { username: user, groups },
    verb,
    resourceRequest: true,
    apiGroup,
    apiVersion: 'v1',
    resource,
    subresource,
    namespace,
    name,
    path: '',
  };
}

/** A non-resource request's attributes. */
export function pathAttrs(user: string, groups: string[], verb: string, path: string): RequestAttributes {
  return {
    user: { username: user, groups },
    verb,
    resourceRequest: false,
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    namespace: '',
    name: '',
    path,
  };
}
