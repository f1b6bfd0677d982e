// csrCleanerController in virtual time over an in-memory informer: hourly passes, a pending CSR deleted at the first pass after 24 h, a denied one after 1 h, a delete failure retried at the next pass.
import { of, Subject, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { CertificateSigningRequest } from '../../../../operators/controller/certificates/certificate-signing-request.ts';
import { ApiError } from '../../../../operators/errors.ts';
import type { ReflectorEvent } from '../../../../operators/types.ts';
import { csrCleanerController } from '../../../../src/controllers/certificates/csr-cleaner-controller.ts';
import type { InformerFactory } from '../../../../src/informers/informer-factory.ts';
import { sharedInformer } from '../../../../src/informers/shared-informer.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import type { ApiClient } from '../../../../streams/api-client.ts';

const HOUR = 3600_000;
const at = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
const csr = (name: string, status?: CertificateSigningRequest['status']): CertificateSigningRequest => ({
  metadata: { name, creationTimestamp: at(0), resourceVersion: '1' },
  spec: { request: '', signerName: 'kubernetes.io/kube-apiserver-client' },
  ...(status ? { status } : {}),
});

describe('csrCleanerController (virtual time)', () => {
  it('deletes each CSR at the first hourly pass past its age, retrying a failed delete', async () => {
    const clock = new VirtualClock();
    const source = new Subject<ReflectorEvent<CertificateSigningRequest>>();
    const informer = sharedInformer<CertificateSigningRequest>({ source, scheduler: clock.scheduler });
    const factory = { forResource: () => informer } as unknown as InformerFactory;
    const attempts: string[] = [];
    let failNext = true;
    const client = {
      delete: (_r: unknown, name: string) => {
        attempts.push(`${clock.now() / HOUR}h ${name}`);
        if (name === 'flaky' && failNext) {
          failNext = false;
          return throwError(
            () =>
              new ApiError(500, {
                kind: 'Status',
                apiVersion: 'v1',
                status: 'Failure',
                reason: 'InternalError',
              }),
          );
        }
        source.next({ type: 'Deleted', object: csr(name) });
        return of({});
      },
    } as unknown as ApiClient;
    const deleted: string[] = [];
    const sub = csrCleanerController({
      client,
      informerFactory: factory,
      scheduler: clock.scheduler,
    }).subscribe((name) => deleted.push(`${clock.now() / HOUR}h ${name}`));
    const hold = informer.start();
    source.next({
      type: 'Replace',
      resourceVersion: '1',
      items: [
        csr('pending'),
        csr('denied', { conditions: [{ type: 'Denied', status: 'True', lastUpdateTime: at(0) }] }),
        csr('flaky', { conditions: [{ type: 'Failed', status: 'True', lastUpdateTime: at(0) }] }),
      ],
    });
    const settle = async () => {
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    };
    await settle();
    for (let h = 0; h < 26; h++) {
      clock.advance(HOUR);
      await settle();
    }
    sub.unsubscribe();
    hold.unsubscribe();
    // denied and failed are 1 h old at the 1 h pass (not over 1 h): deleted at 2 h; the failed delete
    // of 'flaky' is tried again at 3 h; pending is 24 h old at 24 h: deleted at 25 h
    expect(deleted).toEqual(['2h denied', '3h flaky', '25h pending']);
    expect(attempts).toEqual(['2h denied', '2h flaky', '3h flaky', '25h pending']);
  });
});
