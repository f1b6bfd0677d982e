// csrApprovalCandidates: which SubjectAccessReviews may auto-approve a kubelet client CSR (selfnodeclient, then nodeclient), as upstream's SAR approver.
import {
  type CertificateSigningRequest,
  hasTrueCondition,
  KUBE_APISERVER_CLIENT_KUBELET_SIGNER,
} from './certificate-signing-request.ts';
import { type ParsedCertificateRequest, validateKubeletClientRequest } from './csr-signer-check.ts';

/** One permission to check: `create` on `certificatesigningrequests/<subresource>` for the requester. */
export interface ApprovalCandidate {
  subresource: 'selfnodeclient' | 'nodeclient';
  /** The Approved condition's message when the review allows it. */
  message: string;
}

/** Whether the approver has nothing to do: a certificate is issued, or the CSR is approved or denied. */
export function isDecided(csr: CertificateSigningRequest): boolean {
  return (
    (csr.status?.certificate ?? '') !== '' ||
    hasTrueCondition(csr, 'Approved') ||
    hasTrueCondition(csr, 'Denied')
  );
}

/**
 * The reviews to try, in order, for an undecided CSR: a kubelet client request (signer
 * kube-apiserver-client-kubelet, a valid kubelet client subject and usages) asks `nodeclient`, and also first
 * `selfnodeclient` when the requester is the CN it asks for (a node renewing its own certificate).
 * @param csr the request
 * @param req its parsed X.509 request
 * @returns the candidates; empty when the approver leaves the CSR alone
 */
export function csrApprovalCandidates(
  csr: CertificateSigningRequest,
  req: ParsedCertificateRequest,
): ApprovalCandidate[] {
  if (isDecided(csr)) return [];
  if (csr.spec.signerName !== KUBE_APISERVER_CLIENT_KUBELET_SIGNER) return [];
  if (validateKubeletClientRequest(req, csr.spec.usages ?? []) !== undefined) return [];
  const out: ApprovalCandidate[] = [];
  if (csr.spec.username === req.commonName)
    out.push({
      subresource: 'selfnodeclient',
      message: 'Auto approving self kubelet client certificate after SubjectAccessReview.',
    });
  out.push({
    subresource: 'nodeclient',
    message: 'Auto approving kubelet client certificate after SubjectAccessReview.',
  });
  return out;
}
