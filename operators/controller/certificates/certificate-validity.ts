// certificateValidity: the notBefore/notAfter of a certificate the CSR signer issues — backdated for clock skew, never past the CA's own notAfter.

/** How far notBefore is moved back for clock skew. */
export const BACKDATE_MS = 5 * 60_000;
/** Under this lifetime the backdate is not taken off the end (5 minutes is about 1% of 8 hours). */
export const SHORT_MS = 8 * 3600_000;

/** A validity window, or why none can be issued. */
export type Validity = { notBefore: number; notAfter: number } | { error: string };

/**
 * The window as upstream's permissive signing policy computes it: notBefore = now − 5 min; notAfter = now + ttl
 * for a short ttl (< 8 h), else now + ttl − 5 min; cut at the CA's notAfter; refused when the CA has expired.
 * @param nowMs the signer's clock
 * @param ttlMs the lifetime ({@link signingDuration})
 * @param signerNotAfterMs the CA certificate's notAfter
 */
export function certificateValidity(nowMs: number, ttlMs: number, signerNotAfterMs: number): Validity {
  const notBefore = nowMs - BACKDATE_MS;
  let notAfter = ttlMs < SHORT_MS ? nowMs + ttlMs : nowMs + ttlMs - BACKDATE_MS;
  if (notAfter >= signerNotAfterMs) notAfter = signerNotAfterMs;
  if (notBefore >= signerNotAfterMs)
    return { error: `the signer has expired: NotAfter=${new Date(signerNotAfterMs).toISOString()}` };
  if (nowMs >= signerNotAfterMs)
    return {
      error: `refusing to sign a certificate that expired in the past: NotAfter=${new Date(signerNotAfterMs).toISOString()}`,
    };
  return { notBefore, notAfter };
}
