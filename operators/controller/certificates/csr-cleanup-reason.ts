// csrCleanupReason: why the CSR cleaner deletes a request now (issued over 1 h ago, denied or failed over 1 h ago, pending over 24 h, or its certificate expired).
import type { CertificateSigningRequest } from './certificate-signing-request.ts';

/** Upstream's ages. */
export const APPROVED_EXPIRATION_MS = 3600_000;
export const DENIED_EXPIRATION_MS = 3600_000;
export const PENDING_EXPIRATION_MS = 24 * 3600_000;
/** How often the cleaner walks every CSR. */
export const CLEANER_POLLING_INTERVAL_MS = 3600_000;

const olderThan = (time: string | undefined, ageMs: number, nowMs: number) => {
  if (!time) return false;
  const t = Date.parse(time);
  return Number.isFinite(t) && nowMs - t > ageMs;
};

/**
 * The cleaner's decision for one CSR.
 * @param csr the request
 * @param nowMs the cleaner's clock
 * @param certificateNotAfterMs the issued certificate's notAfter, when one is issued and parses
 * @returns the log message of the rule that deletes it, or undefined to keep it
 */
export function csrCleanupReason(
  csr: CertificateSigningRequest,
  nowMs: number,
  certificateNotAfterMs?: number,
): string | undefined {
  const conditions = csr.status?.conditions ?? [];
  const issued = (csr.status?.certificate ?? '') !== '';
  const approved = conditions.find((c) => c.type === 'Approved');
  if (approved && issued && olderThan(approved.lastUpdateTime, APPROVED_EXPIRATION_MS, nowMs))
    return 'Cleaning CSR as it is more than 1h0m0s old and approved.';
  for (const type of ['Denied', 'Failed'])
    if (conditions.some((c) => c.type === type && olderThan(c.lastUpdateTime, DENIED_EXPIRATION_MS, nowMs)))
      return `Cleaning CSR as it is more than 1h0m0s old and ${type.toLowerCase()}.`;
  if (conditions.length === 0 && olderThan(csr.metadata?.creationTimestamp, PENDING_EXPIRATION_MS, nowMs))
    return 'Cleaning CSR as it is more than 24h0m0s old and unhandled.';
  if (approved && issued && certificateNotAfterMs !== undefined && nowMs > certificateNotAfterMs)
    return 'Cleaning CSR as the associated certificate is expired.';
  return undefined;
}
