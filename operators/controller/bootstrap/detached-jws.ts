// computeDetachedSignature: the detached JWS (HS256, kid = token id, keyed by the token secret) a bootstrap token signs cluster-info's kubeconfig with.
import { createHmac, timingSafeEqual } from 'node:crypto';

const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/**
 * `header..signature`: a compact JWS over `content` with its payload left out, as kubeadm's joining nodes
 * verify it (`jws-kubeconfig-<id>` in cluster-info).
 * @param content the signed text (cluster-info's `kubeconfig`)
 * @param tokenId the bootstrap token id (the `kid`)
 * @param tokenSecret the bootstrap token secret (the HMAC key)
 */
export function computeDetachedSignature(content: string, tokenId: string, tokenSecret: string): string {
  const header = b64url(JSON.stringify({ alg: 'HS256', kid: tokenId }));
  const signature = createHmac('sha256', tokenSecret)
    .update(`${header}.${b64url(content)}`)
    .digest();
  return `${header}..${b64url(signature)}`;
}

/**
 * Whether `detached` is the signature of `content` by the token (compared in constant time).
 * @param detached a `header..signature`
 */
export function detachedTokenIsValid(
  detached: string,
  content: string,
  tokenId: string,
  tokenSecret: string,
): boolean {
  const want = Buffer.from(computeDetachedSignature(content, tokenId, tokenSecret));
  const got = Buffer.from(detached);
  return want.length === got.length && timingSafeEqual(want, got);
}
