// certificateValidity: the signing policy's window — backdated 5 minutes, the backdate kept on short certificates, cut at the CA notAfter, refused by an expired CA.
import { describe, expect, it } from 'vitest';
import {
  BACKDATE_MS,
  certificateValidity,
} from '../../../../operators/controller/certificates/certificate-validity.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('certificateValidity', () => {
  const now = Date.UTC(2030, 0, 1);
  it.each<[string, number, number, { notBefore: number; notAfter: number } | { error: string }]>([
    [
      'a long certificate: backdated, the backdate taken off the end',
      24 * HOUR,
      now + 10 * 365 * 24 * HOUR,
      { notBefore: now - BACKDATE_MS, notAfter: now + 24 * HOUR - BACKDATE_MS },
    ],
    [
      'a short certificate (under 8 h): the full lifetime from now',
      HOUR,
      now + 10 * 365 * 24 * HOUR,
      { notBefore: now - BACKDATE_MS, notAfter: now + HOUR },
    ],
    [
      'cut at the CA notAfter',
      24 * HOUR,
      now + 2 * HOUR,
      { notBefore: now - BACKDATE_MS, notAfter: now + 2 * HOUR },
    ],
    [
      'a CA that expired within the backdate',
      HOUR,
      now - MIN,
      {
        error: `refusing to sign a certificate that expired in the past: NotAfter=${new Date(now - MIN).toISOString()}`,
      },
    ],
    [
      'a CA long expired',
      HOUR,
      now - HOUR,
      { error: `the signer has expired: NotAfter=${new Date(now - HOUR).toISOString()}` },
    ],
  ])('%s', (_name, ttl, caNotAfter, want) => {
    expect(certificateValidity(now, ttl, caNotAfter)).toEqual(want);
  });
});
