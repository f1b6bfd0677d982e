// csrApprovalCandidates: which kubelet client CSRs the SAR approver asks about, and in which order (upstream's sarapprove_test.go recognizer cases), as a table.
import { describe, expect, it } from 'vitest';
import type { CertificateSigningRequest } from '../../../../operators/controller/certificates/certificate-signing-request.ts';
import { csrApprovalCandidates } from '../../../../operators/controller/certificates/csr-approval-candidates.ts';
import type { ParsedCertificateRequest } from '../../../../operators/controller/certificates/csr-signer-check.ts';

const req: ParsedCertificateRequest = {
  commonName: 'system:node:n1',
  organizations: ['system:nodes'],
  dnsNames: [],
  ipAddresses: [],
  emailAddresses: [],
  uris: [],
};
const csr = (
  spec: Partial<CertificateSigningRequest['spec']> = {},
  status?: CertificateSigningRequest['status'],
): CertificateSigningRequest => ({
  metadata: { name: 'c' },
  spec: {
    request: '',
    signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
    usages: ['digital signature', 'key encipherment', 'client auth'],
    username: 'system:bootstrap:abcdef',
    ...spec,
  },
  ...(status ? { status } : {}),
});

describe('csrApprovalCandidates', () => {
  it.each<[string, CertificateSigningRequest, ParsedCertificateRequest, string[]]>([
    ['a bootstrap token asking for a node: nodeclient', csr(), req, ['nodeclient']],
    [
      'a node renewing its own: selfnodeclient, then nodeclient',
      csr({ username: 'system:node:n1' }),
      req,
      ['selfnodeclient', 'nodeclient'],
    ],
    [
      'a node asking for another node: nodeclient only',
      csr({ username: 'system:node:n2' }),
      req,
      ['nodeclient'],
    ],
    ['another signer: none', csr({ signerName: 'kubernetes.io/kube-apiserver-client' }), req, []],
    [
      'serving usages: none',
      csr({ usages: ['digital signature', 'key encipherment', 'server auth'] }),
      req,
      [],
    ],
    ['not system:nodes: none', csr(), { ...req, organizations: ['system:masters'] }, []],
    ['a DNS SAN: none', csr(), { ...req, dnsNames: ['n1'] }, []],
    ['already approved: none', csr({}, { conditions: [{ type: 'Approved', status: 'True' }] }), req, []],
    ['already denied: none', csr({}, { conditions: [{ type: 'Denied', status: 'True' }] }), req, []],
    ['already issued: none', csr({}, { certificate: 'LS0t' }), req, []],
  ])('%s', (_name, c, r, want) => {
    expect(csrApprovalCandidates(c, r).map((x) => x.subresource)).toEqual(want);
  });

  it('words the approval as upstream does', () => {
    expect(csrApprovalCandidates(csr({ username: 'system:node:n1' }), req).map((c) => c.message)).toEqual([
      'Auto approving self kubelet client certificate after SubjectAccessReview.',
      'Auto approving kubelet client certificate after SubjectAccessReview.',
    ]);
  });
});
