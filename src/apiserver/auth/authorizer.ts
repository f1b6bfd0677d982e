// --authorization-mode: AlwaysAllow or RBAC (a comma list as kube-apiserver's), tried in order.
import { InvalidConfigError } from '../../../operators/errors.ts';
import {
  type Decision,
  type PolicyRule,
  type RbacSource,
  rbacAuthorize,
  ruleAllows,
} from './rbac-authorizer.ts';
import type { RequestAttributes } from './request-attributes.ts';
import { ANONYMOUS_USER, SYSTEM_AUTHENTICATED } from './user-info.ts';

/** The modes kube-rx implements. */
export const AUTHORIZATION_MODES = ['AlwaysAllow', 'RBAC'] as const;
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];

/** Modes kube-apiserver knows that kube-rx does not implement. */
const UPSTREAM_ONLY = new Set(['AlwaysDeny', 'ABAC', 'Webhook', 'Node']);

/**
 * Parses `--authorization-mode`: a comma list of modes, each once.
 * @throws InvalidConfigError naming `--authorization-mode` and the modes it does not know (or a repeated one)
 */
export function parseAuthorizationModes(value: string | readonly string[]): AuthorizationMode[] {
  const modes = (typeof value === 'string' ? value.split(',') : [...value])
    .map((m) => m.trim())
    .filter(Boolean);
  if (modes.length === 0)
    throw new InvalidConfigError('--authorization-mode', 'at least one mode is required');
  const unknown = modes.filter((m) => !(AUTHORIZATION_MODES as readonly string[]).includes(m));
  if (unknown.length) {
    const upstream = unknown.filter((m) => UPSTREAM_ONLY.has(m));
    throw new InvalidConfigError(
      '--authorization-mode',
      `unsupported authorization mode${unknown.length > 1 ? 's' : ''} ${unknown.map((m) => JSON.stringify(m)).join(', ')}` +
        (upstream.length ? ` (kube-apiserver has ${upstream.join(', ')}; kube-rx does not)` : '') +
        `; supported: ${AUTHORIZATION_MODES.join(', ')}`,
    );
  }
  const seen = new Set<string>();
  for (const m of modes) {
    if (seen.has(m))
      throw new InvalidConfigError(
        '--authorization-mode',
        `authorization mode specified more than once: ${m}`,
      );
    seen.add(m);
  }
  return modes as AuthorizationMode[];
}

/**
 * What anybody, authenticated or not, may read: the health and version paths, as upstream's
 * `system:public-info-viewer` cluster role bound to system:authenticated and system:unauthenticated.
 */
export const PUBLIC_INFO_RULES: readonly PolicyRule[] = [
  { verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] },
];

/**
 * What every authenticated user may do, as upstream's `system:basic-user` cluster role: ask what
 * they themselves may do.
 */
export const BASIC_USER_RULES: readonly PolicyRule[] = [
  {
    verbs: ['create'],
    apiGroups: ['authorization.k8s.io'],
    resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
  },
  { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
];

/** An authorizer over request attributes. */
export type Authorize = (attrs: RequestAttributes) => Decision;

/**
 * The chain of the given modes: the first that allows decides; none: not allowed. The public
 * health and version paths are always allowed. Under AlwaysAllow the anonymous user still gets
 * only those paths: opening everything to it takes `--insecure-allow-unauthenticated`.
 */
export function createAuthorizer(modes: readonly AuthorizationMode[], rbac: RbacSource): Authorize {
  return (attrs) => {
    if (!attrs.resourceRequest && PUBLIC_INFO_RULES.some((r) => ruleAllows(attrs, r))) {
      return { allowed: true, reason: 'allowed for everybody: a public health or version path' };
    }
    if (
      attrs.user.groups.includes(SYSTEM_AUTHENTICATED) &&
      BASIC_USER_RULES.some((r) => ruleAllows(attrs, r))
    ) {
      return { allowed: true, reason: 'allowed for every authenticated user: a self review' };
    }
    for (const mode of modes) {
      if (mode === 'AlwaysAllow') {
        if (attrs.user.username === ANONYMOUS_USER) continue;
        return { allowed: true, reason: '' };
      }
      const decision = rbacAuthorize(rbac, attrs);
      if (decision.allowed) return decision;
    }
    return { allowed: false, reason: '' };
  };
}
