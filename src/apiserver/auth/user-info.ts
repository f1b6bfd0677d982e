// Who a request is: the user, uid and groups an authenticator found, as upstream's user.Info.
import type { IncomingMessage } from 'node:http';

/** The authenticated identity of one request. */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: readonly string[];
}

/** The group whose members every authorizer allows, as upstream's `system:masters`. */
export const SYSTEM_MASTERS = 'system:masters';
/** The group every authenticated user joins. */
export const SYSTEM_AUTHENTICATED = 'system:authenticated';
/** The user and group of an anonymous request under `--anonymous-auth`. */
export const ANONYMOUS_USER = 'system:anonymous';
export const SYSTEM_UNAUTHENTICATED = 'system:unauthenticated';
/** The user the written kubeconfig authenticates as. */
export const ADMIN_USER = 'kube-rx-admin';

/**
 * One way of authenticating a request. Answers the user, `undefined` when the request carries no
 * credential of its kind, or `'invalid'` when it carries one that does not check out.
 */
export type Authenticator = (
  req: IncomingMessage,
) => UserInfo | undefined | 'invalid' | Promise<UserInfo | undefined | 'invalid'>;

/** The user with `system:authenticated` added, as upstream's authenticated-group decorator does. */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.groups.includes(SYSTEM_AUTHENTICATED) || user.username === ANONYMOUS_USER) return user;
  return { ...user, groups: [...user.groups, SYSTEM_AUTHENTICATED] };
}

/** The bearer token of a request, if it carries one. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
