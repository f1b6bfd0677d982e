// The API server's front door: authenticate a request, honour impersonation, authorize it, or answer 401/403.
import type { IncomingMessage } from 'node:http';
import { ApiStatusError, forbidden, unauthorized } from '../api-status.ts';
import type { Authorize } from './authorizer.ts';
import { type RequestAttributes, requestAttributes } from './request-attributes.ts';
import { serviceAccountUser } from './service-account-authenticator.ts';
import {
  ANONYMOUS_USER,
  type Authenticator,
  bearerToken,
  SYSTEM_AUTHENTICATED,
  SYSTEM_MASTERS,
  SYSTEM_UNAUTHENTICATED,
  type UserInfo,
  withAuthenticatedGroup,
} from './user-info.ts';

/** How requests without credentials are treated. */
export interface RequestAuthConfig {
  /** Tried in order; the first that finds a user wins. */
  authenticators: readonly Authenticator[];
  authorize: Authorize;
  /**
   * `--anonymous-auth`: every request with no credential becomes system:anonymous, which the
   * authorizer limits (RBAC bindings to system:unauthenticated apply). Off: only the health and
   * version paths are served without a credential; anything else is 401.
   */
  anonymousAuth: boolean;
  /** `--insecure-allow-unauthenticated`: requests with no credential get full access. */
  insecureAllowUnauthenticated: boolean;
}

/** The user requests without credentials become under `--insecure-allow-unauthenticated`. */
export const INSECURE_UNAUTHENTICATED_USER: UserInfo = Object.freeze({
  username: ANONYMOUS_USER,
  groups: Object.freeze([SYSTEM_UNAUTHENTICATED, SYSTEM_MASTERS]),
});

/** True for the health and version paths anybody may read. */
function isPublicInfoPath(url: string): boolean {
  const path = (url.split('?')[0] ?? '/').replace(/\/+$/, '') || '/';
  return path === '/healthz' || path === '/livez' || path === '/readyz' || path === '/version';
}

/**
 * Finds who sent a request. A credential that is presented and does not check out is refused even
 * when anonymous requests are allowed, as upstream does.
 * @returns the user, or undefined when the request must be refused with 401
 */
export async function authenticate(
  req: IncomingMessage,
  config: RequestAuthConfig,
): Promise<UserInfo | undefined> {
  let invalid = false;
  for (const authenticator of config.authenticators) {
    const found = await authenticator(req);
    if (found === 'invalid') invalid = true;
    else if (found) return withAuthenticatedGroup(found);
  }
  if (invalid || bearerToken(req) !== undefined || req.headers.authorization) return undefined;
  if (config.insecureAllowUnauthenticated) return INSECURE_UNAUTHENTICATED_USER;
  if (config.anonymousAuth) return { username: ANONYMOUS_USER, groups: [SYSTEM_UNAUTHENTICATED] };
  // Without --anonymous-auth, a request with no credential still reads the health and version paths.
  if ((req.method === 'GET' || req.method === 'HEAD') && isPublicInfoPath(req.url ?? '/')) {
    return { username: ANONYMOUS_USER, groups: [SYSTEM_UNAUTHENTICATED] };
  }
  return undefined;
}

/**
 * The message of a 403, in upstream's words: `<resource> "<name>" is forbidden: User "<user>" cannot
 * <verb> resource "<resource>" in API group "<group>" in the namespace "<ns>"` (or `at the cluster
 * scope`, or `cannot <verb> path "<path>"` for a non-resource URL), then `: <reason>` when the
 * authorizer gave one.
 */
export function forbiddenError(attrs: RequestAttributes, reason = ''): ApiStatusError {
  const user = attrs.user.username;
  let message: string;
  if (!attrs.resourceRequest) {
    message = `forbidden: User "${user}" cannot ${attrs.verb} path "${attrs.path}"`;
  } else {
    const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
    const where = attrs.namespace ? `in the namespace "${attrs.namespace}"` : 'at the cluster scope';
    const qualified = attrs.apiGroup ? `${attrs.resource}.${attrs.apiGroup}` : attrs.resource;
    const subject = attrs.name ? `${qualified} "${attrs.name}"` : qualified;
    message = `${subject} is forbidden: User "${user}" cannot ${attrs.verb} resource "${resource}" in API group "${attrs.apiGroup}" ${where}`;
  }
  if (reason) message += `: ${reason}`;
  return attrs.resourceRequest
    ? forbidden(
        message,
        { name: attrs.name || undefined, group: attrs.apiGroup || undefined },
        attrs.resource,
      )
    : forbidden(message);
}

function headerValues(req: IncomingMessage, name: string): string[] {
  const out: string[] = [];
  const raw = req.headersDistinct?.[name] ?? [];
  for (const v of raw)
    out.push(
      ...v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  return out;
}

/** Attributes of an `impersonate` check on one user, group or uid. */
function impersonateAttrs(
  user: UserInfo,
  resource: string,
  name: string,
  apiGroup = '',
  namespace = '',
): RequestAttributes {
  return {
    user,
    verb: 'impersonate',
    resourceRequest: true,
    apiGroup,
    apiVersion: 'v1',
    resource,
    subresource: '',
    namespace,
    name,
    path: '',
  };
}

/**
 * Applies `Impersonate-User`, `Impersonate-Group` and `Impersonate-Uid`, as upstream's
 * impersonation filter: the requester must be allowed to `impersonate` each user (or
 * service account), group and uid asked for; the request then runs as that user.
 * @returns the user the request runs as
 */
export function impersonate(req: IncomingMessage, user: UserInfo, authorize: Authorize): UserInfo {
  const username = req.headers['impersonate-user'];
  const groups = headerValues(req, 'impersonate-group');
  const uid = req.headers['impersonate-uid'];
  if (typeof username !== 'string' || username === '') {
    if (groups.length || typeof uid === 'string') {
      throw new ApiStatusError(
        400,
        'BadRequest',
        'requested impersonation of groups or uid without impersonating a user',
      );
    }
    return user;
  }
  const checks: RequestAttributes[] = [];
  const sa = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(username);
  if (sa) checks.push(impersonateAttrs(user, 'serviceaccounts', sa[2]!, '', sa[1]!));
  else checks.push(impersonateAttrs(user, 'users', username));
  for (const g of groups) checks.push(impersonateAttrs(user, 'groups', g));
  if (typeof uid === 'string') checks.push(impersonateAttrs(user, 'uids', uid, 'authentication.k8s.io'));
  for (const attrs of checks) {
    const decision = authorize(attrs);
    if (!decision.allowed) throw forbiddenError(attrs, decision.reason);
  }
  const base: UserInfo =
    sa && groups.length === 0
      ? serviceAccountUser({ namespace: sa[1]!, name: sa[2]! })
      : { username, groups };
  const result: UserInfo = { ...base, ...(typeof uid === 'string' ? { uid } : {}) };
  if (username === ANONYMOUS_USER)
    return result.groups.includes(SYSTEM_UNAUTHENTICATED)
      ? result
      : { ...result, groups: [...result.groups, SYSTEM_UNAUTHENTICATED] };
  return result.groups.includes(SYSTEM_AUTHENTICATED)
    ? result
    : { ...result, groups: [...result.groups, SYSTEM_AUTHENTICATED] };
}

/**
 * Authenticates, impersonates and authorizes one request.
 * @returns the request's attributes (with the user it runs as)
 * @throws ApiStatusError 401 `Unauthorized`, 400 for bad impersonation headers, or 403 Forbidden
 */
export async function admitRequest(
  req: IncomingMessage,
  path: string,
  query: URLSearchParams,
  config: RequestAuthConfig,
): Promise<RequestAttributes> {
  const authenticated = await authenticate(req, config);
  if (!authenticated) throw unauthorized();
  const user = impersonate(req, authenticated, config.authorize);
  const attrs = requestAttributes(req.method ?? 'GET', path, query, user);
  const decision = config.authorize(attrs);
  if (!decision.allowed) throw forbiddenError(attrs, decision.reason);
  return attrs;
}
