// parseCertificateRequest: a CSR's spec.request (base64 of a PEM CERTIFICATE REQUEST) read with node-forge into the fields the signer and approver check.
import forge from 'node-forge';
import type { ParsedCertificateRequest } from '../../../operators/controller/certificates/csr-signer-check.ts';

/** The parsed request and the forge object the signer issues from. */
export interface CertificateRequest extends ParsedCertificateRequest {
  readonly forge: forge.pki.CertificateSigningRequest;
}

const PEM_TYPE = /-----BEGIN ([A-Z ]+)-----/;

interface AltName {
  type: number;
  value?: string;
  ip?: string;
}

/**
 * Decodes and parses `spec.request`, checking the request's own signature (RSA keys: node-forge reads no
 * others).
 * @param request `spec.request` as the API serves it (base64)
 * @param csrName the CSR's name: failures then read `unable to parse csr "<name>": ...`, as the controllers log them
 * @throws Error with upstream's words when the PEM block is not a CERTIFICATE REQUEST or does not parse
 */
export function parseCertificateRequest(request: string, csrName?: string): CertificateRequest {
  if (csrName === undefined) return parse(request);
  try {
    return parse(request);
  } catch (error) {
    throw new Error(`unable to parse csr "${csrName}": ${(error as Error).message}`);
  }
}

function parse(request: string): CertificateRequest {
  const pem = Buffer.from(request, 'base64').toString('utf8');
  if (PEM_TYPE.exec(pem)?.[1] !== 'CERTIFICATE REQUEST')
    throw new Error('PEM block type must be CERTIFICATE REQUEST');
  const csr = forge.pki.certificationRequestFromPem(pem);
  if (!csr.verify())
    throw new Error('unable to verify certificate request signature: crypto/rsa: verification error');
  const field = (short: string) =>
    csr.subject.attributes.filter((a) => a.shortName === short).map((a) => String(a.value));
  const ext = (csr.getAttribute({ name: 'extensionRequest' }) as { extensions?: { name: string }[] } | null)
    ?.extensions;
  const san = (ext?.find((e) => e.name === 'subjectAltName') as { altNames?: AltName[] } | undefined)
    ?.altNames;
  const names = (type: number) =>
    (san ?? []).filter((a) => a.type === type).map((a) => (type === 7 ? (a.ip ?? '') : (a.value ?? '')));
  return {
    commonName: field('CN')[0] ?? '',
    organizations: field('O'),
    dnsNames: names(2),
    ipAddresses: names(7),
    emailAddresses: names(1),
    uris: names(6),
    forge: csr,
  };
}
