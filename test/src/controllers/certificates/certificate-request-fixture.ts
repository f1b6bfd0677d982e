// Test fixture: an RSA key and a PEM certificate request made with node-forge (no openssl), and a CSR object around it.
import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';
import type { CertificateSigningRequest } from '../../../../operators/controller/certificates/certificate-signing-request.ts';

/** What the request asks for. */
export interface RequestSubject {
  cn: string;
  o?: string[];
  dns?: string[];
  ips?: string[];
}

/** A fresh 2048-bit key (PEM) and a signed request (PEM) for `subject`. */
export function certificateRequest(subject: RequestSubject): { keyPem: string; csrPem: string } {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const key = forge.pki.privateKeyFromPem(privateKey);
  const csr = forge.pki.createCertificationRequest();
  csr.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  csr.setSubject([
    ...(subject.o ?? []).map((value) => ({ name: 'organizationName', value })),
    { name: 'commonName', value: subject.cn },
  ]);
  const altNames = [
    ...(subject.dns ?? []).map((value) => ({ type: 2, value })),
    ...(subject.ips ?? []).map((ip) => ({ type: 7, ip })),
  ];
  if (altNames.length)
    csr.setAttributes([{ name: 'extensionRequest', extensions: [{ name: 'subjectAltName', altNames }] }]);
  csr.sign(key, forge.md.sha256.create());
  return { keyPem: privateKey, csrPem: forge.pki.certificationRequestToPem(csr) };
}

/** A CSR object for `csrPem`. */
export function csrObject(
  name: string,
  csrPem: string,
  spec: Partial<CertificateSigningRequest['spec']> = {},
): CertificateSigningRequest {
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: {
      request: Buffer.from(csrPem).toString('base64'),
      signerName: 'kubernetes.io/kube-apiserver-client',
      usages: ['client auth'],
      ...spec,
    },
  };
}
