// CertificateSigningRequest (certificates.k8s.io/v1): the fields the certificate controllers read and write, the signer names and the condition helpers.
import type { KubeObject } from '../../types.ts';

/** Client certificates for the API server, any subject (kubectl users, components). */
export const KUBE_APISERVER_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client';
/** Kubelets' client certificates: `system:node:<name>` in `system:nodes`. */
export const KUBE_APISERVER_CLIENT_KUBELET_SIGNER = 'kubernetes.io/kube-apiserver-client-kubelet';
/** Kubelets' serving certificates. */
export const KUBELET_SERVING_SIGNER = 'kubernetes.io/kubelet-serving';

/** One status condition; `type` is Approved, Denied or Failed. */
export interface CsrCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

/**
 * A CSR as the API serves it. Invariants (the API server's): `spec.request` is base64 of a PEM
 * `CERTIFICATE REQUEST`; `status.certificate`, once set, is base64 of PEM certificates; Approved and
 * Denied are never both present.
 */
export interface CertificateSigningRequest extends KubeObject {
  spec: {
    request: string;
    signerName: string;
    expirationSeconds?: number;
    usages?: string[];
    username?: string;
    uid?: string;
    groups?: string[];
    extra?: Record<string, string[]>;
  };
  status?: { conditions?: CsrCondition[]; certificate?: string };
}

/**
 * Whether the CSR carries a condition of `type` with status True.
 * @param csr the request
 * @param type Approved, Denied or Failed
 */
export function hasTrueCondition(csr: CertificateSigningRequest, type: string): boolean {
  return (csr.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

/** Approved and not Denied, as upstream's IsCertificateRequestApproved. */
export function isApproved(csr: CertificateSigningRequest): boolean {
  return hasTrueCondition(csr, 'Approved') && !hasTrueCondition(csr, 'Denied');
}

/**
 * A True condition stamped `nowMs` (RFC 3339 to the second, as metav1.Time).
 * @param type Approved, Denied or Failed
 */
export function trueCondition(type: string, reason: string, message: string, nowMs: number): CsrCondition {
  const lastUpdateTime = new Date(nowMs).toISOString().replace(/\.\d+Z$/, 'Z');
  return { type, status: 'True', reason, message, lastUpdateTime };
}
