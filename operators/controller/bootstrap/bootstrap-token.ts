// Bootstrap token secrets (bootstrap.kubernetes.io/token in kube-system): reading their data, their expiration and whether one may sign cluster-info.
import type { KubeObject } from '../../types.ts';

/** The Secret type of bootstrap tokens. */
export const SECRET_TYPE_BOOTSTRAP_TOKEN = 'bootstrap.kubernetes.io/token';
/** Where bootstrap token secrets live. */
export const BOOTSTRAP_TOKEN_NAMESPACE = 'kube-system';
/** Every bootstrap token secret is named this prefix and its id. */
export const BOOTSTRAP_TOKEN_SECRET_PREFIX = 'bootstrap-token-';

/** The fields of a Secret the bootstrap controllers read. */
export interface BootstrapTokenSecret extends KubeObject {
  type?: string;
  /** Base64 values, as the API serves them. */
  data?: Record<string, string>;
}

/** One data value, decoded; '' when absent. */
export function secretData(secret: BootstrapTokenSecret, key: string): string {
  const v = secret.data?.[key];
  return v === undefined ? '' : Buffer.from(v, 'base64').toString('utf8');
}

/** The expiration rule's verdict: expired, or the time left (0 when the token never expires). */
export interface TokenExpiration {
  expired: boolean;
  timeLeftMs: number;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * The token's `expiration` (RFC 3339) against `nowMs`: none — never expires; unparseable — treated as
 * expired; past or now — expired; else the time left.
 */
export function tokenExpiration(secret: BootstrapTokenSecret, nowMs: number): TokenExpiration {
  const raw = secretData(secret, 'expiration');
  if (raw === '') return { expired: false, timeLeftMs: 0 };
  const at = RFC3339.test(raw) ? Date.parse(raw) : Number.NaN;
  if (!Number.isFinite(at)) return { expired: true, timeLeftMs: 0 };
  const left = at - nowMs;
  return left <= 0 ? { expired: true, timeLeftMs: 0 } : { expired: false, timeLeftMs: left };
}

const TOKEN_ID = /^[a-z0-9]{6}$/;

/**
 * The id and secret of a token that may sign cluster-info, or undefined: a bootstrap token secret named
 * `bootstrap-token-<id>` whose `token-id` is that id, with a `token-secret`, not expired, and
 * `usage-bootstrap-signing: "true"`.
 */
export function signingToken(
  secret: BootstrapTokenSecret,
  nowMs: number,
): { id: string; secret: string } | undefined {
  if (secret.type !== SECRET_TYPE_BOOTSTRAP_TOKEN) return undefined;
  const name = secret.metadata?.name ?? '';
  if (!name.startsWith(BOOTSTRAP_TOKEN_SECRET_PREFIX)) return undefined;
  const nameId = name.slice(BOOTSTRAP_TOKEN_SECRET_PREFIX.length);
  if (!TOKEN_ID.test(nameId)) return undefined;
  const id = secretData(secret, 'token-id');
  if (id === '' || id !== nameId) return undefined;
  const tokenSecret = secretData(secret, 'token-secret');
  if (tokenSecret === '') return undefined;
  if (tokenExpiration(secret, nowMs).expired) return undefined;
  if (secretData(secret, 'usage-bootstrap-signing') !== 'true') return undefined;
  return { id, secret: tokenSecret };
}
