// TLS for the API server: a self-signed CA and a serving certificate signed by it, kept in the data dir.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import forge from 'node-forge';

/** The PEM material the HTTPS server and the kubeconfig need. */
export interface ServingCertificates {
  caPem: string;
  certPem: string;
  keyPem: string;
  /** The CA's private key (PEM), which signs client certificates. */
  caKeyPem?: string;
}

const FILES = { ca: 'ca.crt', caKey: 'ca.key', cert: 'apiserver.crt', key: 'apiserver.key' } as const;

function rsaKeys(): {
  privateKey: forge.pki.rsa.PrivateKey;
  publicKey: forge.pki.rsa.PublicKey;
  pem: string;
} {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const key = forge.pki.privateKeyFromPem(privateKey);
  return { privateKey: key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e), pem: privateKey };
}

function serial(): string {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f;
  return bytes.toString('hex');
}

function newCa(): {
  cert: forge.pki.Certificate;
  key: forge.pki.rsa.PrivateKey;
  certPem: string;
  keyPem: string;
} {
  const keys = rsaKeys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(Date.now() - 60 * 60 * 1000);
  cert.validity.notAfter = new Date(Date.now() + 10 * 365 * 24 * 60 * 60 * 1000);
  const subject = [{ name: 'commonName', value: `kube-rx-ca-${Math.floor(Date.now() / 1000)}` }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return { cert, key: keys.privateKey, certPem: forge.pki.certificateToPem(cert), keyPem: keys.pem };
}

function newServing(
  ca: { cert: forge.pki.Certificate; key: forge.pki.rsa.PrivateKey },
  hosts: readonly string[],
): { certPem: string; keyPem: string } {
  const keys = rsaKeys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(Date.now() - 60 * 60 * 1000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 24 * 60 * 60 * 1000);
  cert.setSubject([{ name: 'commonName', value: 'kube-apiserver' }]);
  cert.setIssuer(ca.cert.subject.attributes);
  const altNames = [...new Set(hosts)].map((h) => (isIP(h) ? { type: 7, ip: h } : { type: 2, value: h }));
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames },
  ]);
  cert.sign(ca.key, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.pem };
}

/** The names the serving certificate is valid for: loopback, localhost and the bind address. */
export function servingHosts(bindAddress: string): string[] {
  const hosts = [
    '127.0.0.1',
    '::1',
    'localhost',
    'kubernetes',
    'kubernetes.default',
    'kubernetes.default.svc',
  ];
  if (bindAddress !== '0.0.0.0' && bindAddress !== '::') hosts.push(bindAddress);
  return hosts;
}

const cache = new Map<string, ServingCertificates>();

/**
 * The CA and serving certificate: read from `dir` when it holds them (the serving certificate is
 * re-issued by the kept CA when it does not cover the bind address), else generated and written
 * there; without a directory they are generated once per process and bind address.
 * @param bindAddress the address the server listens on, added to the certificate's SANs
 * @param dir the data directory, or undefined for in-memory certificates
 */
export function servingCertificates(bindAddress: string, dir?: string): ServingCertificates {
  const hosts = servingHosts(bindAddress);
  if (!dir) {
    const cached = cache.get(bindAddress);
    if (cached) return cached;
    const ca = newCa();
    const serving = newServing(ca, hosts);
    const made = { caPem: ca.certPem, caKeyPem: ca.keyPem, ...serving };
    cache.set(bindAddress, made);
    return made;
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = (f: string) => join(dir, f);
  let ca: { cert: forge.pki.Certificate; key: forge.pki.rsa.PrivateKey; certPem: string; keyPem: string };
  if (existsSync(path(FILES.ca)) && existsSync(path(FILES.caKey))) {
    const certPem = readFileSync(path(FILES.ca), 'utf8');
    const keyPem = readFileSync(path(FILES.caKey), 'utf8');
    ca = {
      cert: forge.pki.certificateFromPem(certPem),
      key: forge.pki.privateKeyFromPem(keyPem),
      certPem,
      keyPem,
    };
  } else {
    ca = newCa();
    writeFileSync(path(FILES.ca), ca.certPem, { mode: 0o600 });
    writeFileSync(path(FILES.caKey), ca.keyPem, { mode: 0o600 });
  }
  if (existsSync(path(FILES.cert)) && existsSync(path(FILES.key))) {
    const certPem = readFileSync(path(FILES.cert), 'utf8');
    const cert = forge.pki.certificateFromPem(certPem);
    const san = cert.getExtension('subjectAltName') as
      | { altNames?: { ip?: string; value?: string }[] }
      | undefined;
    const names = new Set((san?.altNames ?? []).map((a) => a.ip ?? a.value));
    const fresh = cert.validity.notAfter.getTime() > Date.now() + 24 * 60 * 60 * 1000;
    if (fresh && hosts.every((h) => names.has(h))) {
      return {
        caPem: ca.certPem,
        caKeyPem: ca.keyPem,
        certPem,
        keyPem: readFileSync(path(FILES.key), 'utf8'),
      };
    }
  }
  const serving = newServing(ca, hosts);
  writeFileSync(path(FILES.cert), serving.certPem, { mode: 0o600 });
  writeFileSync(path(FILES.key), serving.keyPem, { mode: 0o600 });
  return { caPem: ca.certPem, caKeyPem: ca.keyPem, ...serving };
}

/**
 * A client certificate signed by the CA: CN is the user, one O per group, for client
 * authentication only, valid for a year. The x509 authenticator reads the user back from it.
 * @param ca the CA certificate and key (PEM)
 * @param user the user name (CN)
 * @param groups the groups (O)
 * @returns the certificate and its key (PEM)
 */
export function clientCertificate(
  ca: { caPem: string; caKeyPem: string },
  user: string,
  groups: readonly string[] = [],
): { certPem: string; keyPem: string } {
  const caCert = forge.pki.certificateFromPem(ca.caPem);
  const caKey = forge.pki.privateKeyFromPem(ca.caKeyPem);
  const keys = rsaKeys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(Date.now() - 60 * 60 * 1000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 24 * 60 * 60 * 1000);
  cert.setSubject([
    ...groups.map((g) => ({ name: 'organizationName', value: g })),
    { name: 'commonName', value: user },
  ]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', clientAuth: true },
  ]);
  cert.sign(caKey, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.pem };
}
