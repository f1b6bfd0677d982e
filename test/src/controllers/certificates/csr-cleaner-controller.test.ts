// csrCleanerController over HTTP against the embedded API server: a CSR denied over an hour ago and one whose certificate expired are deleted at the first pass; recent ones stay.
import { firstValueFrom, Subject, takeUntil } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type {
  CertificateSigningRequest,
  CsrCondition,
} from '../../../../operators/controller/certificates/certificate-signing-request.ts';
import { servingCertificates } from '../../../../src/apiserver/certificates.ts';
import { certificateAuthority } from '../../../../src/controllers/certificates/certificate-authority.ts';
import { CERTIFICATE_SIGNING_REQUESTS } from '../../../../src/controllers/certificates/certificates-resources.ts';
import { csrCleanerController } from '../../../../src/controllers/certificates/csr-cleaner-controller.ts';
import { parseCertificateRequest } from '../../../../src/controllers/certificates/parse-certificate-request.ts';
import { informerFactory } from '../../../../src/informers/informer-factory.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { certificateRequest, csrObject } from './certificate-request-fixture.ts';

const cluster = useEmbeddedCluster();
const HOUR = 3600_000;

describe('csrCleanerController', () => {
  it('deletes what upstream ages condemn at its first pass and keeps the rest', async () => {
    const api = cluster.api;
    const at = (ms: number) => new Date(Date.now() - ms).toISOString().replace(/\.\d+Z$/, 'Z');
    const create = async (name: string, conditions: CsrCondition[], certificate?: string) => {
      const { csrPem } = certificateRequest({ cn: name });
      const created = await firstValueFrom(
        api.create<CertificateSigningRequest>(CERTIFICATE_SIGNING_REQUESTS, csrObject(name, csrPem)),
      );
      if (conditions.length === 0) return;
      const decided = await firstValueFrom(
        api.update<CertificateSigningRequest>(
          CERTIFICATE_SIGNING_REQUESTS,
          { ...created, status: { conditions } },
          { subresource: 'approval' },
        ),
      );
      if (certificate) {
        await firstValueFrom(
          api.updateStatus(CERTIFICATE_SIGNING_REQUESTS, {
            ...decided,
            status: { ...decided.status, certificate: Buffer.from(certificate).toString('base64') },
          }),
        );
      }
    };
    const ca = servingCertificates('127.0.0.81');
    const authority = certificateAuthority(ca.caPem, ca.caKeyPem ?? '');
    const issue = (nowMs: number) =>
      authority.sign(
        parseCertificateRequest(Buffer.from(certificateRequest({ cn: 'x' }).csrPem).toString('base64')),
        ['client auth'],
        10 * 60_000,
        nowMs,
      );
    await create('old-denied', [
      { type: 'Denied', status: 'True', reason: 'T', lastUpdateTime: at(2 * HOUR) },
    ]);
    await create('new-denied', [{ type: 'Denied', status: 'True', reason: 'T', lastUpdateTime: at(60_000) }]);
    await create(
      'expired',
      [{ type: 'Approved', status: 'True', reason: 'T', lastUpdateTime: at(60_000) }],
      issue(Date.now() - 2 * HOUR),
    );
    await create(
      'fresh',
      [{ type: 'Approved', status: 'True', reason: 'T', lastUpdateTime: at(60_000) }],
      issue(Date.now()),
    );
    await create('pending', []);

    const factory = informerFactory({ client: api });
    const firstPass = new Subject<void>();
    const deleted: string[] = [];
    const done = new Promise<void>((resolve) => {
      csrCleanerController({ client: api, informerFactory: factory, pollingIntervalMs: 60_000 })
        .pipe(takeUntil(firstPass))
        .subscribe({ next: (name) => deleted.push(name), complete: resolve });
    });
    factory.start();
    try {
      const deadline = Date.now() + 15_000;
      while (deleted.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      firstPass.next();
      await done;
      expect(deleted.sort()).toEqual(['expired', 'old-denied']);
      const left = await firstValueFrom(api.list(CERTIFICATE_SIGNING_REQUESTS));
      expect(left.items.map((c) => c.metadata?.name).sort()).toEqual(['fresh', 'new-denied', 'pending']);
    } finally {
      factory.shutdown();
    }
  }, 30_000);
});
