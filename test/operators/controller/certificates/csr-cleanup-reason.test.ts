// csrCleanupReason: upstream's cleaner cases (cleaner_test.go: approved/issued, denied, failed, pending ages and an expired certificate), as a table.
import { describe, expect, it } from 'vitest';
import type {
  CertificateSigningRequest,
  CsrCondition,
} from '../../../../operators/controller/certificates/certificate-signing-request.ts';
import { csrCleanupReason } from '../../../../operators/controller/certificates/csr-cleanup-reason.ts';

const NOW = Date.UTC(2030, 5, 1, 12);
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MIN = 60_000;
const HOUR = 60 * MIN;

const csr = (
  created: number,
  conditions: CsrCondition[],
  certificate?: string,
): CertificateSigningRequest => ({
  metadata: { name: 'c', creationTimestamp: ago(created) },
  spec: { request: '', signerName: 'kubernetes.io/kube-apiserver-client' },
  status: { conditions, ...(certificate ? { certificate } : {}) },
});
const approved = (age: number): CsrCondition => ({
  type: 'Approved',
  status: 'True',
  lastUpdateTime: ago(age),
});
const denied = (age: number): CsrCondition => ({ type: 'Denied', status: 'True', lastUpdateTime: ago(age) });
const failed = (age: number): CsrCondition => ({ type: 'Failed', status: 'True', lastUpdateTime: ago(age) });
const LATER = NOW + 365 * 24 * HOUR;

describe('csrCleanupReason', () => {
  it.each<[string, CertificateSigningRequest, number | undefined, boolean]>([
    ['no delete approved not passed deadline', csr(5 * MIN, [approved(5 * MIN)], 'LS0t'), LATER, false],
    ['no delete approved not issued', csr(90 * MIN, [approved(90 * MIN)]), undefined, false],
    ['delete approved passed deadline', csr(90 * MIN, [approved(90 * MIN)], 'LS0t'), LATER, true],
    ['no delete denied not passed deadline', csr(5 * MIN, [denied(5 * MIN)]), undefined, false],
    ['delete denied passed deadline', csr(90 * MIN, [denied(90 * MIN)]), undefined, true],
    ['no delete failed not passed deadline', csr(5 * MIN, [failed(5 * MIN)]), undefined, false],
    ['delete failed passed deadline', csr(90 * MIN, [failed(90 * MIN)]), undefined, true],
    ['no delete pending not passed deadline', csr(5 * HOUR, []), undefined, false],
    ['delete pending passed deadline', csr(25 * HOUR, []), undefined, true],
    [
      'no delete approved, certificate unexpired',
      csr(5 * MIN, [approved(5 * MIN)], 'LS0t'),
      NOW + HOUR,
      false,
    ],
    ['delete approved, certificate expired', csr(5 * MIN, [approved(5 * MIN)], 'LS0t'), NOW - MIN, true],
    [
      'no delete: a condition without a time',
      csr(90 * MIN, [{ type: 'Denied', status: 'True' }]),
      undefined,
      false,
    ],
  ])('%s', (_name, c, notAfter, deleted) => {
    expect(csrCleanupReason(c, NOW, notAfter) !== undefined).toBe(deleted);
  });

  it('logs with upstream words', () => {
    expect(csrCleanupReason(csr(25 * HOUR, []), NOW)).toBe(
      'Cleaning CSR as it is more than 24h0m0s old and unhandled.',
    );
    expect(csrCleanupReason(csr(5 * MIN, [approved(5 * MIN)], 'LS0t'), NOW, NOW - 1)).toBe(
      'Cleaning CSR as the associated certificate is expired.',
    );
  });
});
