// Assembles the API server's authenticators, authorizer and review endpoints from its options.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { InvalidConfigError } from '../../../operators/errors.ts';
import type { Logger } from '../../../operators/logger.ts';
import { badRequest, methodNotAllowed } from '../api-status.ts';
import type { ObjectStore } from '../object-store.ts';
import { PROTOBUF_CONTENT_TYPE } from '../protobuf/content-types.ts';
import { decodeObject, encodeObject, hasProtobufForm } from '../protobuf/object-codec.ts';
import { AUTHORIZATION_GROUP_VERSION, REVIEW_RESOURCES, serveAccessReview } from './access-review.ts';
import {
  type AuthorizationMode,
  type Authorize,
  BASIC_USER_RULES,
  createAuthorizer,
  PUBLIC_INFO_RULES,
  parseAuthorizationModes,
} from './authorizer.ts';
import type { RbacSource } from './rbac-authorizer.ts';
import type { RequestAttributes } from './request-attributes.ts';
import { admitRequest, type RequestAuthConfig } from './request-auth.ts';
import {
  type ServiceAccountTokenVerifier,
  serviceAccountAuthenticator,
} from './service-account-authenticator.ts';
import { storeRbacSource } from './store-rbac-source.ts';
import { parseTokenFile, tokenAuthenticator } from './token-file.ts';
import { ADMIN_USER, type Authenticator, SYSTEM_MASTERS, type UserInfo } from './user-info.ts';
import { x509Authenticator } from './x509-authenticator.ts';

/** The authentication and authorization options of the API server. */
export interface AuthOptions {
  /** The admin token (user kube-rx-admin in system:masters); generated (and kept in the data dir) when absent. */
  token?: string;
  /** Path of a static token file (`token,user,uid,"group1,group2"`), as kube-apiserver's `--token-auth-file`. */
  tokenAuthFile?: string;
  /**
   * Requests with no credential become system:anonymous (group system:unauthenticated), which RBAC
   * allows only the health and version paths unless bound to more; default false: such requests get
   * 401, except on the health and version paths.
   */
  anonymousAuth?: boolean;
  /** Requests with no credential get full access. Off by default; logged loudly when on. */
  insecureAllowUnauthenticated?: boolean;
  /** `--authorization-mode`: `RBAC` (default) or `AlwaysAllow`, or a comma list. */
  authorizationMode?: string | readonly string[];
  /** Verifies service-account tokens; without it they do not authenticate. */
  verifyServiceAccountToken?: ServiceAccountTokenVerifier;
}

/** The auth of one running server. */
export interface ServerAuth {
  adminToken: string;
  modes: readonly AuthorizationMode[];
  authorize: Authorize;
  rbac: RbacSource;
  /** Authenticates and authorizes a request (401/403 as ApiStatusError). */
  admit(req: IncomingMessage, path: string, query: URLSearchParams): Promise<RequestAttributes>;
  /** True when the admitted request is a review (answered by {@link ServerAuth.review}). */
  isReview(attrs: RequestAttributes): boolean;
  /**
   * Answers a review from its raw body (JSON or protobuf, by `contentType`); the answer is
   * protobuf bytes when `accept` prefers protobuf, else a JSON object.
   */
  review(
    attrs: RequestAttributes,
    method: string,
    body: Buffer,
    contentType?: string,
    accept?: string,
  ): unknown;
}

const ADMIN_TOKEN_FILE = 'admin.token';

/** A review's body: JSON, or protobuf as kubectl sends it. */
function parseReviewBody(body: Buffer, contentType: string | undefined, kind: string): unknown {
  if (body.length === 0) return undefined;
  const type = (contentType ?? '').split(';')[0]!.trim();
  try {
    if (type === PROTOBUF_CONTENT_TYPE)
      return decodeObject(body, { apiVersion: AUTHORIZATION_GROUP_VERSION, kind });
    return JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw badRequest(
      `the body of the request could not be decoded: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** The admin token: given, kept in the data dir, or new (then kept there, owner-only). */
function adminToken(given: string | undefined, dataDir: string | undefined): string {
  if (given !== undefined) return given;
  const path = dataDir ? join(dataDir, ADMIN_TOKEN_FILE) : undefined;
  if (path && existsSync(path)) {
    const kept = readFileSync(path, 'utf8').trim();
    if (kept) return kept;
  }
  const token = randomBytes(32).toString('base64url');
  if (path) {
    writeFileSync(path, `${token}\n`, { mode: 0o600 });
    chmodSync(path, 0o600);
  }
  return token;
}

/**
 * Builds the server's auth. Authenticators, in order: client certificates signed by the server CA,
 * the admin token and the token file, service-account tokens.
 * @throws InvalidConfigError for an unreadable or malformed token file or an unknown authorization mode
 */
export function serverAuth(
  options: AuthOptions,
  store: ObjectStore,
  dataDir: string | undefined,
  log: Logger,
): ServerAuth {
  const modes = parseAuthorizationModes(options.authorizationMode ?? 'RBAC');
  const token = adminToken(options.token, dataDir);
  const tokens = new Map<string, UserInfo>();
  if (options.tokenAuthFile) {
    let text: string;
    try {
      text = readFileSync(options.tokenAuthFile, 'utf8');
    } catch (error) {
      throw new InvalidConfigError('--token-auth-file', `cannot read ${options.tokenAuthFile}`, {
        cause: error,
      });
    }
    for (const [t, user] of parseTokenFile(text, options.tokenAuthFile)) tokens.set(t, user);
  }
  tokens.set(token, { username: ADMIN_USER, uid: ADMIN_USER, groups: [SYSTEM_MASTERS] });
  const authenticators: Authenticator[] = [x509Authenticator(), tokenAuthenticator(tokens)];
  if (options.verifyServiceAccountToken)
    authenticators.push(serviceAccountAuthenticator(options.verifyServiceAccountToken));
  const rbac = storeRbacSource(store);
  const authorize = createAuthorizer(modes, rbac);
  const config: RequestAuthConfig = {
    authenticators,
    authorize,
    anonymousAuth: options.anonymousAuth ?? false,
    insecureAllowUnauthenticated: options.insecureAllowUnauthenticated ?? false,
  };
  if (config.insecureAllowUnauthenticated) {
    log.warn(
      { insecureAllowUnauthenticated: true },
      'INSECURE: --insecure-allow-unauthenticated is on: any request without credentials has full access to every resource, Secrets included',
    );
  }
  log.info(
    { authorizationModes: modes, anonymousAuth: config.anonymousAuth, tokenAuthFile: options.tokenAuthFile },
    'authentication and authorization',
  );
  return {
    adminToken: token,
    modes,
    authorize,
    rbac,
    admit: (req, path, query) => admitRequest(req, path, query, config),
    isReview: (attrs) =>
      attrs.resourceRequest &&
      attrs.apiVersion === 'v1' &&
      attrs.name === '' &&
      !attrs.subresource &&
      ((attrs.apiGroup === 'authorization.k8s.io' &&
        REVIEW_RESOURCES.some((r) => r.resource === attrs.resource)) ||
        (attrs.apiGroup === 'authentication.k8s.io' && attrs.resource === 'selfsubjectreviews')),
    review: (attrs, method, body, contentType, accept) => {
      const preferred = (accept ?? '').split(',')[0]?.split(';')[0]?.trim();
      const encode = (answer: unknown) => {
        const o = answer as { apiVersion: string; kind: string };
        return preferred === PROTOBUF_CONTENT_TYPE && hasProtobufForm(o.apiVersion, o.kind)
          ? encodeObject(answer)
          : answer;
      };
      if (attrs.apiGroup === 'authentication.k8s.io') {
        // SelfSubjectReview (kubectl auth whoami): who the request authenticated as; no spec to read.
        if (method !== 'POST') throw methodNotAllowed(method, attrs.resource);
        const { username, uid, groups } = attrs.user;
        return encode({
          kind: 'SelfSubjectReview',
          apiVersion: 'authentication.k8s.io/v1',
          metadata: { creationTimestamp: null },
          status: { userInfo: { username, ...(uid ? { uid } : {}), groups: [...groups] } },
        });
      }
      const kind = REVIEW_RESOURCES.find((r) => r.resource === attrs.resource)?.kind ?? '';
      const answer = serveAccessReview(
        attrs.resource,
        method,
        attrs.namespace || undefined,
        parseReviewBody(body, contentType, kind),
        attrs.user,
        authorize,
        rbac,
        [...BASIC_USER_RULES, ...PUBLIC_INFO_RULES],
      );
      return encode(answer);
    },
  };
}
