// RBAC: allows a request when a Role or ClusterRole bound to its user has a rule covering it.
import type { RequestAttributes } from './request-attributes.ts';
import { serviceAccountUsername } from './service-account-authenticator.ts';
import { SYSTEM_MASTERS, type UserInfo } from './user-info.ts';

/** One rule of a Role or ClusterRole (rbac.authorization.k8s.io/v1 PolicyRule). */
export interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** A subject of a binding. */
export interface Subject {
  kind: string;
  name: string;
  namespace?: string;
  apiGroup?: string;
}

/** The parts of a RoleBinding or ClusterRoleBinding the authorizer reads. */
export interface Binding {
  metadata: { name: string; namespace?: string };
  subjects?: Subject[];
  roleRef: { kind: string; name: string; apiGroup?: string };
}

/** The parts of a Role or ClusterRole the authorizer reads. */
export interface Role {
  metadata: { name: string; namespace?: string };
  rules?: PolicyRule[] | null;
}

/** Where the authorizer finds roles and bindings: the stored objects. */
export interface RbacSource {
  role(namespace: string, name: string): Role | undefined;
  clusterRole(name: string): Role | undefined;
  roleBindings(namespace: string): Iterable<Binding>;
  clusterRoleBindings(): Iterable<Binding>;
}

/** An authorizer's answer, as upstream's Decision and reason. */
export interface Decision {
  allowed: boolean;
  reason: string;
}

function has(list: readonly string[] | undefined, value: string): boolean {
  return !!list && (list.includes(value) || list.includes('*'));
}

/** True when the rule's resources cover the resource, or resource/subresource, asked for. */
function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === '*' || r === combined) return true;
    // `*/status` covers the status subresource of every resource.
    if (subresource !== '' && r.length === subresource.length + 2 && r === `*/${subresource}`) return true;
  }
  return false;
}

function nonResourceUrlMatches(rule: PolicyRule, path: string): boolean {
  for (const url of rule.nonResourceURLs ?? []) {
    if (url === '*' || url === path) return true;
    if (url.endsWith('*') && path.startsWith(url.slice(0, -1))) return true;
  }
  return false;
}

/**
 * True when one rule allows the request, as upstream's RuleAllows: verbs, API groups, resources
 * (with `*`, `resource/subresource` and `*`/subresource), resource names (empty: all), or for a
 * non-resource request its nonResourceURLs (exact, `*`, or a prefix ending in `*`).
 */
export function ruleAllows(attrs: RequestAttributes, rule: PolicyRule): boolean {
  if (attrs.resourceRequest) {
    const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
    return (
      has(rule.verbs, attrs.verb) &&
      has(rule.apiGroups, attrs.apiGroup) &&
      resourceMatches(rule, combined, attrs.subresource) &&
      (!rule.resourceNames || rule.resourceNames.length === 0 || rule.resourceNames.includes(attrs.name))
    );
  }
  return has(rule.verbs, attrs.verb) && nonResourceUrlMatches(rule, attrs.path);
}

/**
 * True when a binding's subject names the user: a User by name, a Group the user is in, or a
 * ServiceAccount (its namespace defaults to the binding's) by the user's service-account name.
 */
export function appliesTo(user: UserInfo, subject: Subject, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.username === subject.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      const namespace = subject.namespace || bindingNamespace;
      return namespace !== '' && user.username === serviceAccountUsername(namespace, subject.name);
    }
    default:
      return false;
  }
}

function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === 'ServiceAccount')
    return `ServiceAccount "${subject.namespace || bindingNamespace}/${subject.name}"`;
  return `${subject.kind} "${subject.name}"`;
}

/** One binding that applies to a user, with the rules of the role it grants. */
export interface AppliedBinding {
  binding: Binding;
  /** `ClusterRoleBinding` or `RoleBinding`. */
  kind: string;
  subject: Subject;
  rules: readonly PolicyRule[];
  /** Set when the role the binding names does not exist. */
  missing?: string;
}

/**
 * Every binding that applies to the user in a namespace (cluster role bindings first, then the
 * namespace's role bindings; none for the empty namespace), with the rules each grants.
 */
export function* bindingsFor(
  source: RbacSource,
  user: UserInfo,
  namespace: string,
): Generator<AppliedBinding> {
  const resolve = (binding: Binding, ns: string): { rules: PolicyRule[]; missing?: string } => {
    const ref = binding.roleRef;
    const role =
      ref.kind === 'ClusterRole' ? source.clusterRole(ref.name) : ns ? source.role(ns, ref.name) : undefined;
    if (!role) {
      const what =
        ref.kind === 'ClusterRole'
          ? `clusterrole.rbac.authorization.k8s.io "${ref.name}"`
          : `role.rbac.authorization.k8s.io "${ref.name}"`;
      return { rules: [], missing: `${what} not found` };
    }
    return { rules: role.rules ?? [] };
  };
  for (const binding of source.clusterRoleBindings()) {
    const subject = (binding.subjects ?? []).find((s) => appliesTo(user, s, ''));
    if (subject) yield { binding, kind: 'ClusterRoleBinding', subject, ...resolve(binding, '') };
  }
  if (namespace === '') return;
  for (const binding of source.roleBindings(namespace)) {
    const subject = (binding.subjects ?? []).find((s) => appliesTo(user, s, namespace));
    if (subject) yield { binding, kind: 'RoleBinding', subject, ...resolve(binding, namespace) };
  }
}

/**
 * Decides a request as upstream's RBAC authorizer: members of `system:masters` are always allowed
 * (upstream binds them to cluster-admin); otherwise the first rule of a bound role that covers the
 * request allows it, and the reason names the binding and role. No rule: not allowed, no opinion.
 * @param source the stored roles and bindings
 * @param attrs the request
 */
export function rbacAuthorize(source: RbacSource, attrs: RequestAttributes): Decision {
  if (attrs.user.groups.includes(SYSTEM_MASTERS)) {
    return { allowed: true, reason: `RBAC: allowed by the group "${SYSTEM_MASTERS}"` };
  }
  for (const applied of bindingsFor(source, attrs.user, attrs.resourceRequest ? attrs.namespace : '')) {
    if (applied.rules.some((rule) => ruleAllows(attrs, rule))) {
      const b = applied.binding;
      const bindingName =
        applied.kind === 'RoleBinding' ? `${b.metadata.name}/${b.metadata.namespace}` : b.metadata.name;
      const to = describeSubject(applied.subject, b.metadata.namespace ?? '');
      return {
        allowed: true,
        reason: `RBAC: allowed by ${applied.kind} "${bindingName}" of ${b.roleRef.kind} "${b.roleRef.name}" to ${to}`,
      };
    }
  }
  return { allowed: false, reason: '' };
}

/**
 * Every rule that applies to the user in a namespace, as upstream's RulesFor (what
 * SelfSubjectRulesReview lists); members of `system:masters` get the all-covering rules.
 */
export function rulesFor(
  source: RbacSource,
  user: UserInfo,
  namespace: string,
): { rules: PolicyRule[]; errors: string[] } {
  if (user.groups.includes(SYSTEM_MASTERS)) {
    return {
      rules: [
        { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
        { verbs: ['*'], nonResourceURLs: ['*'] },
      ],
      errors: [],
    };
  }
  const rules: PolicyRule[] = [];
  const errors: string[] = [];
  for (const applied of bindingsFor(source, user, namespace)) {
    rules.push(...applied.rules);
    if (applied.missing) errors.push(applied.missing);
  }
  return { rules, errors };
}
