// signingDuration: how long a signed certificate lives — the signer's TTL, or a shorter spec.expirationSeconds (never under 10 minutes).

/** The lower bound on a requested duration (twice the 5-minute backdate). */
export const MIN_REQUESTED_DURATION_MS = 10 * 60_000;

/**
 * The certificate lifetime for a request, as upstream's signer: without `expirationSeconds` the signer's TTL
 * (`--cluster-signing-duration`, default one year); a request for longer gets the TTL, for under ten minutes
 * ten minutes.
 * @param certTtlMs the signer's TTL in milliseconds
 * @param expirationSeconds `spec.expirationSeconds`, if set
 * @returns milliseconds
 */
export function signingDuration(certTtlMs: number, expirationSeconds?: number): number {
  if (expirationSeconds === undefined) return certTtlMs;
  const requested = expirationSeconds * 1000;
  if (requested > certTtlMs) return certTtlMs;
  if (requested < MIN_REQUESTED_DURATION_MS) return MIN_REQUESTED_DURATION_MS;
  return requested;
}
