// certificateAuthority and parseCertificateRequest: a node-forge request parsed and signed by a CA; the certificate chains to it with the request's subject, SANs, usages and a clipped window.
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../../../../operators/errors.ts';
import { servingCertificates } from '../../../../src/apiserver/certificates.ts';
import { certificateAuthority } from '../../../../src/controllers/certificates/certificate-authority.ts';
import { parseCertificateRequest } from '../../../../src/controllers/certificates/parse-certificate-request.ts';
import { certificateRequest } from './certificate-request-fixture.ts';

const ca = servingCertificates('127.0.0.77');
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('parseCertificateRequest', () => {
  it('reads the subject and SANs', () => {
    const { csrPem } = certificateRequest({
      cn: 'system:node:n1',
      o: ['system:nodes'],
      dns: ['n1.example'],
      ips: ['10.0.0.7'],
    });
    const req = parseCertificateRequest(b64(csrPem));
    expect(req).toMatchObject({
      commonName: 'system:node:n1',
      organizations: ['system:nodes'],
      dnsNames: ['n1.example'],
      ipAddresses: ['10.0.0.7'],
      emailAddresses: [],
      uris: [],
    });
  });

  it('refuses a PEM block that is not a request, in upstream words', () => {
    expect(() => parseCertificateRequest(b64('garbage'), 'bad')).toThrow(
      'unable to parse csr "bad": PEM block type must be CERTIFICATE REQUEST',
    );
    expect(() => parseCertificateRequest(b64(ca.caPem))).toThrow(
      'PEM block type must be CERTIFICATE REQUEST',
    );
    expect(() => parseCertificateRequest(b64('garbage'))).toThrow(
      'PEM block type must be CERTIFICATE REQUEST',
    );
  });
});

describe('certificateAuthority', () => {
  const authority = certificateAuthority(ca.caPem, ca.caKeyPem ?? '');
  const caX509 = new X509Certificate(ca.caPem);

  it('issues a client certificate that chains to the CA', () => {
    const { csrPem } = certificateRequest({ cn: 'alice', o: ['devs', 'ops'] });
    const now = Date.now();
    const pem = authority.sign(
      parseCertificateRequest(b64(csrPem)),
      ['digital signature', 'client auth'],
      3600_000,
      now,
    );
    const cert = new X509Certificate(pem);
    expect(cert.checkIssued(caX509)).toBe(true);
    expect(cert.verify(caX509.publicKey)).toBe(true);
    expect(cert.subject).toBe('O=devs\nO=ops\nCN=alice');
    expect(cert.ca).toBe(false);
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(Date.parse(cert.validFrom)).toBe(Math.floor((now - 5 * 60_000) / 1000) * 1000);
    expect(Date.parse(cert.validTo)).toBe(Math.floor((now + 3600_000) / 1000) * 1000);
  });

  it('copies DNS and IP SANs into a serving certificate', () => {
    const { csrPem } = certificateRequest({
      cn: 'system:node:n1',
      o: ['system:nodes'],
      dns: ['n1'],
      ips: ['10.1.2.3'],
    });
    const pem = authority.sign(
      parseCertificateRequest(b64(csrPem)),
      ['digital signature', 'key encipherment', 'server auth'],
      24 * 3600_000,
      Date.now(),
    );
    const cert = new X509Certificate(pem);
    expect(cert.subjectAltName).toBe('DNS:n1, IP Address:10.1.2.3');
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
  });

  it('writes extended key usages node-forge has no name for by OID', () => {
    const { csrPem } = certificateRequest({ cn: 'x' });
    const pem = authority.sign(
      parseCertificateRequest(b64(csrPem)),
      ['ipsec tunnel', 'microsoft sgc', 'netscape sgc', 'ocsp signing'],
      3600_000,
      Date.now(),
    );
    expect(new X509Certificate(pem).keyUsage.sort()).toEqual(
      ['1.3.6.1.5.5.7.3.6', '1.3.6.1.4.1.311.10.3.3', '2.16.840.1.113730.4.1', '1.3.6.1.5.5.7.3.9'].sort(),
    );
  });

  it('never issues past the CA notAfter', () => {
    const { csrPem } = certificateRequest({ cn: 'bob' });
    const nearEnd = authority.notAfterMs - 3600_000;
    const pem = authority.sign(
      parseCertificateRequest(b64(csrPem)),
      ['client auth'],
      365 * 86_400_000,
      nearEnd,
    );
    expect(Date.parse(new X509Certificate(pem).validTo)).toBe(Math.floor(authority.notAfterMs / 1000) * 1000);
  });

  it('refuses unknown usages and an expired CA', () => {
    const req = parseCertificateRequest(b64(certificateRequest({ cn: 'c' }).csrPem));
    expect(() => authority.sign(req, ['client auth', 'fly'], 3600_000, Date.now())).toThrow(
      'unrecognized usage values: ["fly"]',
    );
    expect(() => authority.sign(req, ['client auth'], 3600_000, authority.notAfterMs + 1)).toThrow(
      'refusing to sign a certificate that expired in the past',
    );
  });

  it('names the flag whose PEM does not parse', () => {
    expect(() => certificateAuthority('nope', ca.caKeyPem ?? '')).toThrow(InvalidConfigError);
    expect(() => certificateAuthority('nope', ca.caKeyPem ?? '')).toThrow('--cluster-signing-cert-file');
    expect(() => certificateAuthority(ca.caPem, 'nope')).toThrow('--cluster-signing-key-file');
  });
});
