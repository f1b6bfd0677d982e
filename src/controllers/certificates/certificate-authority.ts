// certificateAuthority: the cluster signing CA (--cluster-signing-cert-file/--cluster-signing-key-file) issuing certificates for approved CSRs.
import { randomBytes } from 'node:crypto';
import forge from 'node-forge';
import { certificateValidity } from '../../../operators/controller/certificates/certificate-validity.ts';
import { keyUsagesFor } from '../../../operators/controller/certificates/key-usages.ts';
import { InvalidConfigError } from '../../../operators/errors.ts';
import type { CertificateRequest } from './parse-certificate-request.ts';

/** node-forge names an extended key usage it knows by name (an OID key it would map to that name), others by OID. */
function forgeOidKey(oid: string): string {
  const name = (forge.pki.oids as Record<string, string>)[oid];
  return name && !name.includes('.') ? name : oid;
}

/** A loaded CA. */
export interface CertificateAuthority {
  /** The CA certificate's notAfter (ms since the epoch). */
  readonly notAfterMs: number;
  /**
   * Issues a certificate for the request: its subject and SANs, the usages as key usages, no other
   * extension, not a CA, valid per {@link certificateValidity}.
   * @returns the certificate (PEM)
   * @throws Error when a usage is unknown or the CA has expired
   */
  sign(request: CertificateRequest, usages: readonly string[], ttlMs: number, nowMs: number): string;
}

/**
 * Loads the CA from PEM.
 * @param certPem the CA certificate
 * @param keyPem its RSA private key
 * @throws InvalidConfigError naming the flag when either does not parse
 */
export function certificateAuthority(certPem: string, keyPem: string): CertificateAuthority {
  let caCert: forge.pki.Certificate;
  let caKey: forge.pki.rsa.PrivateKey;
  try {
    caCert = forge.pki.certificateFromPem(certPem);
  } catch (error) {
    throw new InvalidConfigError('--cluster-signing-cert-file', `not a PEM certificate: ${String(error)}`);
  }
  try {
    caKey = forge.pki.privateKeyFromPem(keyPem);
  } catch (error) {
    throw new InvalidConfigError('--cluster-signing-key-file', `not a PEM RSA private key: ${String(error)}`);
  }
  const notAfterMs = caCert.validity.notAfter.getTime();
  return {
    notAfterMs,
    sign(request, usages, ttlMs, nowMs) {
      const u = keyUsagesFor(usages);
      if ('error' in u) throw new Error(u.error);
      const v = certificateValidity(nowMs, ttlMs, notAfterMs);
      if ('error' in v) throw new Error(v.error);
      const cert = forge.pki.createCertificate();
      cert.publicKey = request.forge.publicKey as forge.pki.rsa.PublicKey;
      const serial = randomBytes(16);
      serial[0] = serial[0]! & 0x7f;
      cert.serialNumber = serial.toString('hex');
      cert.validity.notBefore = new Date(v.notBefore);
      cert.validity.notAfter = new Date(v.notAfter);
      cert.setSubject(request.forge.subject.attributes);
      cert.setIssuer(caCert.subject.attributes);
      const altNames = [
        ...request.dnsNames.map((value) => ({ type: 2, value })),
        ...request.ipAddresses.map((ip) => ({ type: 7, ip })),
        ...request.emailAddresses.map((value) => ({ type: 1, value })),
        ...request.uris.map((value) => ({ type: 6, value })),
      ];
      cert.setExtensions([
        { name: 'basicConstraints', cA: false, critical: true },
        ...(u.keyUsage.length
          ? [{ name: 'keyUsage', critical: true, ...Object.fromEntries(u.keyUsage.map((k) => [k, true])) }]
          : []),
        ...(u.extKeyUsage.length
          ? [
              {
                name: 'extKeyUsage',
                ...Object.fromEntries(u.extKeyUsage.map((oid) => [forgeOidKey(oid), true])),
              },
            ]
          : []),
        ...(altNames.length ? [{ name: 'subjectAltName', altNames }] : []),
      ]);
      cert.sign(caKey, forge.md.sha256.create());
      return forge.pki.certificateToPem(cert);
    },
  };
}
