// Properties of the signer's lifetimes: a certificate never outlives the signer TTL or the CA, never lives under ten minutes (when the TTL allows), and starts before it ends.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { certificateValidity } from '../../../../operators/controller/certificates/certificate-validity.ts';
import {
  MIN_REQUESTED_DURATION_MS,
  signingDuration,
} from '../../../../operators/controller/certificates/signing-duration.ts';

describe('signingDuration and certificateValidity', () => {
  it('stay within the TTL, the ten-minute floor and the CA lifetime', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: MIN_REQUESTED_DURATION_MS, max: 10 * 365 * 86_400_000 }),
        fc.option(fc.integer({ min: 600, max: 2 ** 31 - 1 }), { nil: undefined }),
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.integer({ min: 1, max: 20 * 365 * 86_400_000 }),
        (ttl, expirationSeconds, now, caLeft) => {
          const d = signingDuration(ttl, expirationSeconds);
          expect(d).toBeLessThanOrEqual(ttl);
          expect(d).toBeGreaterThanOrEqual(MIN_REQUESTED_DURATION_MS);
          if (expirationSeconds !== undefined && expirationSeconds * 1000 <= ttl)
            expect(d).toBe(expirationSeconds * 1000);
          const v = certificateValidity(now, d, now + caLeft);
          if ('error' in v) throw new Error(v.error);
          expect(v.notAfter).toBeLessThanOrEqual(now + caLeft);
          expect(v.notAfter).toBeLessThanOrEqual(now + d);
          expect(v.notBefore).toBeLessThan(v.notAfter);
          expect(v.notBefore).toBeLessThanOrEqual(now);
        },
      ),
    );
  });
});
