// authorization.k8s.io/v1 SelfSubjectAccessReview, SubjectAccessReview and SelfSubjectRulesReview.
import { ApiStatusError, badRequest, methodNotAllowed } from '../api-status.ts';
import { isPlainObject } from '../merge-patch.ts';
import type { Authorize } from './authorizer.ts';
import { type PolicyRule, type RbacSource, rulesFor } from './rbac-authorizer.ts';
import type { RequestAttributes } from './request-attributes.ts';
import { SYSTEM_MASTERS, type UserInfo } from './user-info.ts';

/** The API group and version of the review kinds. */
export const AUTHORIZATION_GROUP_VERSION = 'authorization.k8s.io/v1';

const REVIEWS: Record<string, string> = {
  selfsubjectaccessreviews: 'SelfSubjectAccessReview',
  subjectaccessreviews: 'SubjectAccessReview',
  selfsubjectrulesreviews: 'SelfSubjectRulesReview',
  localsubjectaccessreviews: 'LocalSubjectAccessReview',
};

/** The review resources, for discovery. */
export const REVIEW_RESOURCES: readonly { resource: string; kind: string; namespaced: boolean }[] =
  Object.entries(REVIEWS).map(([resource, kind]) => ({
    resource,
    kind,
    namespaced: resource === 'localsubjectaccessreviews',
  }));

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function specAttributes(spec: Record<string, unknown>, user: UserInfo, kind: string): RequestAttributes {
  const resource = spec.resourceAttributes;
  const nonResource = spec.nonResourceAttributes;
  if (isPlainObject(resource) && isPlainObject(nonResource)) {
    throw invalid(
      kind,
      'spec.nonResourceAttributes',
      'cannot be specified in combination with resourceAttributes',
    );
  }
  if (isPlainObject(resource)) {
    return {
      user,
      verb: str(resource.verb),
      resourceRequest: true,
      apiGroup: str(resource.group),
      apiVersion: str(resource.version),
      resource: str(resource.resource),
      subresource: str(resource.subresource),
      namespace: str(resource.namespace),
      name: str(resource.name),
      path: '',
    };
  }
  if (isPlainObject(nonResource)) {
    return {
      user,
      verb: str(nonResource.verb),
      resourceRequest: false,
      apiGroup: '',
      apiVersion: '',
      resource: '',
      subresource: '',
      namespace: '',
      name: '',
      path: str(nonResource.path),
    };
  }
  throw invalid(
    kind,
    'spec.resourceAttributes',
    'exactly one of nonResourceAttributes or resourceAttributes must be specified',
  );
}

function invalid(kind: string, field: string, detail: string): ApiStatusError {
  const message = `${kind}.authorization.k8s.io "" is invalid: ${field}: Invalid value: "null": ${detail}`;
  return new ApiStatusError(422, 'Invalid', message, {
    group: 'authorization.k8s.io',
    kind,
    causes: [{ type: 'FieldValueInvalid', message: `Invalid value: "null": ${detail}`, field }],
  });
}

/** Rules in SubjectRulesReviewStatus form. */
function reviewRules(rules: readonly PolicyRule[]) {
  const resourceRules = [];
  const nonResourceRules = [];
  for (const r of rules) {
    if (r.nonResourceURLs?.length)
      nonResourceRules.push({ verbs: r.verbs ?? [], nonResourceURLs: r.nonResourceURLs });
    if (r.resources?.length) {
      resourceRules.push({
        verbs: r.verbs ?? [],
        apiGroups: r.apiGroups ?? [],
        resources: r.resources,
        ...(r.resourceNames?.length ? { resourceNames: r.resourceNames } : {}),
      });
    }
  }
  return { resourceRules, nonResourceRules };
}

/**
 * Answers a review request, or undefined when the path is not one. Reviews are create-only and
 * stored nowhere; the answer is the review with `status` filled in, 201 as upstream.
 * @param resource the resource in the URL (the request is already authorized to create it)
 * @param method the HTTP method
 * @param namespace the URL's namespace (LocalSubjectAccessReview only)
 * @param body the parsed request body
 * @param requester who asks
 * @param authorize the server's authorizer
 * @param rbac the stored roles, for rules reviews
 * @param extraRules rules every authenticated user has besides its bindings (listed in rules reviews)
 */
export function serveAccessReview(
  resource: string,
  method: string,
  namespace: string | undefined,
  body: unknown,
  requester: UserInfo,
  authorize: Authorize,
  rbac: RbacSource,
  extraRules: readonly PolicyRule[] = [],
): unknown {
  const kind = REVIEWS[resource];
  if (!kind) return undefined;
  if (method !== 'POST') throw methodNotAllowed(method, resource);
  if (!isPlainObject(body)) throw badRequest(`the body of the request must be a ${kind} object`);
  if (body.kind !== undefined && body.kind !== kind)
    throw badRequest(`kind: expected ${kind}, got ${String(body.kind)}`);
  const spec = isPlainObject(body.spec) ? body.spec : {};
  const metadata = isPlainObject(body.metadata) ? body.metadata : {};
  const answer = (status: Record<string, unknown>) => ({
    kind,
    apiVersion: AUTHORIZATION_GROUP_VERSION,
    metadata: { ...metadata, creationTimestamp: null },
    spec,
    status,
  });
  if (resource === 'selfsubjectrulesreviews') {
    const ns = str(spec.namespace);
    if (!ns) throw invalid(kind, 'spec.namespace', 'a namespace is required');
    const { rules, errors } = rulesFor(rbac, requester, ns);
    const all = requester.groups.includes(SYSTEM_MASTERS) ? rules : [...extraRules, ...rules];
    return answer({
      ...reviewRules(all),
      incomplete: errors.length > 0,
      ...(errors.length ? { evaluationError: errors.join(', ') } : {}),
    });
  }
  let user = requester;
  if (resource === 'subjectaccessreviews' || resource === 'localsubjectaccessreviews') {
    const username = str(spec.user);
    const groups = Array.isArray(spec.groups)
      ? spec.groups.filter((g): g is string => typeof g === 'string')
      : [];
    if (!username && groups.length === 0)
      throw invalid(kind, 'spec.user', 'at least one of user or group must be specified');
    user = { username, groups, ...(str(spec.uid) ? { uid: str(spec.uid) } : {}) };
  }
  const attrs = specAttributes(spec, user, kind);
  if (resource === 'localsubjectaccessreviews') {
    if (attrs.namespace !== (namespace ?? '')) {
      throw invalid(kind, 'spec.resourceAttributes.namespace', 'must match metadata.namespace');
    }
  }
  const decision = authorize(attrs);
  return answer({ allowed: decision.allowed, ...(decision.reason ? { reason: decision.reason } : {}) });
}
