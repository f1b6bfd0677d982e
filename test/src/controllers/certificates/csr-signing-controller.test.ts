// csrSigningController over HTTP against the embedded API server: an approved client CSR gets a certificate from the CA, a bad kubelet CSR fails, an unapproved one and another signer's are left alone.
import { X509Certificate } from 'node:crypto';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CertificateSigningRequest } from '../../../../operators/controller/certificates/certificate-signing-request.ts';
import { servingCertificates } from '../../../../src/apiserver/certificates.ts';
import { CERTIFICATE_SIGNING_REQUESTS } from '../../../../src/controllers/certificates/certificates-resources.ts';
import { csrSigningController } from '../../../../src/controllers/certificates/csr-signing-controller.ts';
import { informerFactory } from '../../../../src/informers/informer-factory.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { eventually } from '../../../helpers/eventually.ts';
import { certificateRequest, csrObject } from './certificate-request-fixture.ts';

const cluster = useEmbeddedCluster();
const ca = servingCertificates('127.0.0.79');

describe('csrSigningController', () => {
  let stop = () => {};
  beforeAll(() => {
    const factory = informerFactory({ client: cluster.api });
    const sub = csrSigningController({
      client: cluster.api,
      informerFactory: factory,
      ca: { certPem: ca.caPem, keyPem: ca.caKeyPem ?? '' },
      certTtlMs: 24 * 3600_000,
    }).subscribe();
    factory.start();
    stop = () => {
      sub.unsubscribe();
      factory.shutdown();
    };
  });
  afterAll(() => stop());

  const create = (csr: CertificateSigningRequest) =>
    firstValueFrom(cluster.api.create(CERTIFICATE_SIGNING_REQUESTS, csr));
  const get = (name: string) =>
    firstValueFrom(cluster.api.get<CertificateSigningRequest>(CERTIFICATE_SIGNING_REQUESTS, name));
  const approve = async (name: string) => {
    const csr = await get(name);
    await firstValueFrom(
      cluster.api.update(
        CERTIFICATE_SIGNING_REQUESTS,
        {
          ...csr,
          status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'ok' }] },
        },
        { subresource: 'approval' },
      ),
    );
  };

  it('signs an approved client CSR for the requested duration, and leaves an unapproved one', async () => {
    const { csrPem } = certificateRequest({ cn: 'alice', o: ['devs'] });
    await create(csrObject('alice', csrPem, { expirationSeconds: 3600 }));
    await create(csrObject('pending', certificateRequest({ cn: 'bob' }).csrPem));
    await approve('alice');
    let pem = '';
    await eventually(async () => {
      const b64 = (await get('alice')).status?.certificate;
      expect(b64).toBeTruthy();
      pem = Buffer.from(b64 ?? '', 'base64').toString('utf8');
    }, 15_000);
    const cert = new X509Certificate(pem);
    expect(cert.verify(new X509Certificate(ca.caPem).publicKey)).toBe(true);
    expect(cert.subject).toBe('O=devs\nCN=alice');
    const lifetime = Date.parse(cert.validTo) - Date.parse(cert.validFrom);
    expect(lifetime).toBe(3600_000 + 5 * 60_000);
    expect((await get('pending')).status?.certificate).toBeUndefined();
  }, 30_000);

  it('fails an approved kubelet client CSR whose subject is not a node, in upstream words', async () => {
    const { csrPem } = certificateRequest({ cn: 'mallory', o: ['system:nodes'] });
    await create(
      csrObject('not-a-node', csrPem, {
        signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
        usages: ['digital signature', 'key encipherment', 'client auth'],
      }),
    );
    await approve('not-a-node');
    await eventually(async () => {
      const csr = await get('not-a-node');
      expect(csr.status?.conditions?.find((c) => c.type === 'Failed')).toMatchObject({
        status: 'True',
        reason: 'SignerValidationFailure',
        message: 'subject common name does not begin with system:node:',
      });
      expect(csr.status?.certificate).toBeUndefined();
    }, 15_000);
  }, 30_000);

  it("leaves another signer's approved CSR to that signer", async () => {
    await create(
      csrObject('other', certificateRequest({ cn: 'o' }).csrPem, { signerName: 'example.com/signer' }),
    );
    await approve('other');
    // a CSR the signer does handle, approved after it, shows the queue has moved past 'other'
    await create(csrObject('marker', certificateRequest({ cn: 'm' }).csrPem));
    await approve('marker');
    await eventually(async () => expect((await get('marker')).status?.certificate).toBeTruthy(), 15_000);
    const other = await get('other');
    expect(other.status?.certificate).toBeUndefined();
    expect(other.status?.conditions?.map((c) => c.type)).toEqual(['Approved']);
  }, 30_000);
});
