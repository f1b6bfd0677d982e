// checkRequestForSigner: whether a parsed certificate request suits a kubernetes.io signer (subject, SANs, usages), with upstream's messages.

/** What the checks read from an X.509 certificate request. */
export interface ParsedCertificateRequest {
  commonName: string;
  organizations: readonly string[];
  dnsNames: readonly string[];
  ipAddresses: readonly string[];
  emailAddresses: readonly string[];
  uris: readonly string[];
}

const sameSet = (a: ReadonlySet<string>, b: readonly string[]) =>
  a.size === new Set(b).size && b.every((u) => a.has(u));

const KUBELET_SERVING_USAGES = ['digital signature', 'key encipherment', 'server auth'];
const KUBELET_SERVING_USAGES_NO_RSA = ['digital signature', 'server auth'];
const KUBELET_CLIENT_USAGES = ['digital signature', 'key encipherment', 'client auth'];
const KUBELET_CLIENT_USAGES_NO_RSA = ['digital signature', 'client auth'];

const onlySystemNodes = (req: ParsedCertificateRequest) =>
  req.organizations.length === 1 && req.organizations[0] === 'system:nodes';

/**
 * A kubelet serving request's fault, or undefined when it is one: organization exactly `system:nodes`, a DNS
 * or IP SAN, no email or URI SAN, the serving usages, CN `system:node:...`.
 */
export function validateKubeletServingRequest(
  req: ParsedCertificateRequest,
  usages: readonly string[],
): string | undefined {
  if (!onlySystemNodes(req)) return 'subject organization is not system:nodes';
  if (req.dnsNames.length === 0 && req.ipAddresses.length === 0)
    return 'DNS or IP subjectAltName is required';
  if (req.emailAddresses.length > 0) return 'Email subjectAltNames are not allowed';
  if (req.uris.length > 0) return 'URI subjectAltNames are not allowed';
  const set = new Set(usages);
  if (!sameSet(set, KUBELET_SERVING_USAGES) && !sameSet(set, KUBELET_SERVING_USAGES_NO_RSA))
    return `usages did not match [${[...KUBELET_SERVING_USAGES].sort().join(' ')}]`;
  if (!req.commonName.startsWith('system:node:'))
    return 'subject common name does not begin with system:node:';
  return undefined;
}

/**
 * A kubelet client request's fault, or undefined when it is one: organization exactly `system:nodes`, no
 * SANs at all, CN `system:node:...`, the client usages.
 */
export function validateKubeletClientRequest(
  req: ParsedCertificateRequest,
  usages: readonly string[],
): string | undefined {
  if (!onlySystemNodes(req)) return 'subject organization is not system:nodes';
  if (req.dnsNames.length > 0) return 'DNS subjectAltNames are not allowed';
  if (req.emailAddresses.length > 0) return 'Email subjectAltNames are not allowed';
  if (req.ipAddresses.length > 0) return 'IP subjectAltNames are not allowed';
  if (req.uris.length > 0) return 'URI subjectAltNames are not allowed';
  if (!req.commonName.startsWith('system:node:'))
    return 'subject common name does not begin with system:node:';
  const set = new Set(usages);
  if (!sameSet(set, KUBELET_CLIENT_USAGES) && !sameSet(set, KUBELET_CLIENT_USAGES_NO_RSA))
    return `usages did not match [${[...KUBELET_CLIENT_USAGES].sort().join(' ')}]`;
  return undefined;
}

/** An API server client request's fault: only digital signature, key encipherment and client auth, the last required. */
function validateApiServerClientUsages(usages: readonly string[]): string | undefined {
  let clientAuth = false;
  for (const u of usages) {
    if (u === 'client auth') clientAuth = true;
    else if (u !== 'digital signature' && u !== 'key encipherment')
      return `invalid usage for client certificate: ${u}`;
  }
  return clientAuth ? undefined : 'missing required usage for client certificate: client auth';
}

/** A signer's verdict: not for it (ignored), for it but invalid (the CSR fails), or for it and valid. */
export type SignerCheck = { recognized: false } | { recognized: true; error?: string };

const CHECKS: Readonly<
  Record<string, (req: ParsedCertificateRequest, usages: readonly string[]) => string | undefined>
> = {
  'kubernetes.io/kubelet-serving': validateKubeletServingRequest,
  'kubernetes.io/kube-apiserver-client-kubelet': validateKubeletClientRequest,
  'kubernetes.io/kube-apiserver-client': (_req, usages) => validateApiServerClientUsages(usages),
};

/** The signer names {@link checkRequestForSigner} knows. */
export const KNOWN_SIGNERS: readonly string[] = Object.keys(CHECKS);

/**
 * Upstream's isRequestForSignerFn for the three kubernetes.io signers kube-rx signs for.
 * @param req the parsed request
 * @param usages `spec.usages`
 * @param signerName `spec.signerName`
 * @returns unrecognized for another signer; otherwise the validation failure, if any
 */
export function checkRequestForSigner(
  req: ParsedCertificateRequest,
  usages: readonly string[],
  signerName: string,
): SignerCheck {
  const check = CHECKS[signerName];
  if (!check) return { recognized: false };
  const error = check(req, usages);
  return error === undefined ? { recognized: true } : { recognized: true, error };
}
