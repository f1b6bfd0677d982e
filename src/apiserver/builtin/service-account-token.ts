// Service account tokens (TokenRequest): RS256 JWTs with upstream's claims, signed by the server's key, and their verification.
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jwtVerify, SignJWT } from 'jose';

/** Upstream's default --service-account-issuer for a cluster named cluster.local. */
export const DEFAULT_SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';
/** The key file in the data dir, owner-only. */
export const SERVICE_ACCOUNT_KEY_FILE = 'service-account.key';

/** The server's signing key and the issuer its tokens name. */
export interface ServiceAccountKeys {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** The `kid` header: a digest of the public key, as upstream derives it. */
  readonly keyId: string;
  readonly issuer: string;
}

/** Who a token is for and what it is bound to. */
export interface ServiceAccountTokenClaims {
  namespace: string;
  name: string;
  uid: string;
  audiences: readonly string[];
  /** Seconds from `now` until the token expires. */
  expirationSeconds: number;
  /** Seconds since the epoch. */
  now: number;
  /** The pod (or secret) the token is bound to, when any. */
  boundObject?: { kind: 'Pod' | 'Secret' | 'Node'; name: string; uid: string };
}

/** What a valid token says about its holder. */
export interface ServiceAccountTokenSubject {
  username: string;
  uid: string;
  groups: string[];
  namespace: string;
  serviceAccount: { name: string; uid: string };
  pod?: { name: string; uid: string };
  expiresAt: number;
}

function keysFrom(privateKey: KeyObject, issuer: string): ServiceAccountKeys {
  const publicKey = createPublicKey(privateKey);
  const der = publicKey.export({ type: 'spki', format: 'der' });
  const keyId = createHash('sha256').update(der).digest('base64url');
  return { privateKey, publicKey, keyId, issuer };
}

/**
 * The server's signing key: read from `<dataDir>/service-account.key` (created owner-only when
 * missing), or a fresh key held in memory when there is no data dir.
 */
export function loadServiceAccountKeys(
  dataDir?: string,
  issuer = DEFAULT_SERVICE_ACCOUNT_ISSUER,
): ServiceAccountKeys {
  const path = dataDir ? join(dataDir, SERVICE_ACCOUNT_KEY_FILE) : undefined;
  if (path && existsSync(path)) return keysFrom(createPrivateKey(readFileSync(path)), issuer);
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  if (path) {
    writeFileSync(path, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    chmodSync(path, 0o600);
  }
  return keysFrom(privateKey, issuer);
}

/** Signs a token with upstream's claims: iss, aud, exp, iat, nbf, sub and `kubernetes.io`. */
export async function signServiceAccountToken(
  keys: ServiceAccountKeys,
  claims: ServiceAccountTokenClaims,
): Promise<string> {
  const kubernetes: Record<string, unknown> = {
    namespace: claims.namespace,
    serviceaccount: { name: claims.name, uid: claims.uid },
  };
  if (claims.boundObject) {
    const key = claims.boundObject.kind.toLowerCase();
    kubernetes[key] = { name: claims.boundObject.name, uid: claims.boundObject.uid };
  }
  return new SignJWT({ 'kubernetes.io': kubernetes })
    .setProtectedHeader({ alg: 'RS256', kid: keys.keyId })
    .setIssuer(keys.issuer)
    .setAudience([...claims.audiences])
    .setSubject(`system:serviceaccount:${claims.namespace}:${claims.name}`)
    .setIssuedAt(claims.now)
    .setNotBefore(claims.now)
    .setExpirationTime(claims.now + claims.expirationSeconds)
    .setJti(crypto.randomUUID())
    .sign(keys.privateKey);
}

/**
 * Verifies a token's signature, issuer, audience and lifetime at `now` (seconds since the epoch).
 * @returns the subject, or the reason the token is refused
 */
export async function verifyServiceAccountToken(
  keys: ServiceAccountKeys,
  token: string,
  options: { audiences?: readonly string[]; now: number },
): Promise<{ ok: true; subject: ServiceAccountTokenSubject } | { ok: false; reason: string }> {
  try {
    const { payload } = await jwtVerify(token, keys.publicKey, {
      issuer: keys.issuer,
      audience: options.audiences ? [...options.audiences] : keys.issuer,
      algorithms: ['RS256'],
      currentDate: new Date(options.now * 1000),
    });
    const k8s = payload['kubernetes.io'] as
      | {
          namespace?: string;
          serviceaccount?: { name?: string; uid?: string };
          pod?: { name: string; uid: string };
        }
      | undefined;
    const namespace = k8s?.namespace;
    const sa = k8s?.serviceaccount;
    if (!namespace || !sa?.name || !sa.uid)
      return { ok: false, reason: 'token lacks the kubernetes.io claims' };
    if (payload.sub !== `system:serviceaccount:${namespace}:${sa.name}`)
      return { ok: false, reason: 'sub does not match the kubernetes.io claims' };
    return {
      ok: true,
      subject: {
        username: payload.sub,
        uid: sa.uid,
        groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
        namespace,
        serviceAccount: { name: sa.name, uid: sa.uid },
        ...(k8s?.pod ? { pod: k8s.pod } : {}),
        expiresAt: Number(payload.exp),
      },
    };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}
