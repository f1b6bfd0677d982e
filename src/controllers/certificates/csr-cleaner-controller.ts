// csrCleanerController: kube-controller-manager's certificatesigningrequest-cleaner-controller — every hour, CSRs past upstream's ages (or whose certificate expired) are deleted.

import forge from 'node-forge';
import {
  asyncScheduler,
  catchError,
  concatMap,
  defer,
  EMPTY,
  first,
  map,
  type Observable,
  type SchedulerLike,
  switchMap,
  timer,
} from 'rxjs';
import type { CertificateSigningRequest } from '../../../operators/controller/certificates/certificate-signing-request.ts';
import {
  CLEANER_POLLING_INTERVAL_MS,
  csrCleanupReason,
} from '../../../operators/controller/certificates/csr-cleanup-reason.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';
import { CERTIFICATE_SIGNING_REQUESTS } from './certificates-resources.ts';

/** The controller's name in `--controllers`. */
export const CSR_CLEANER_CONTROLLER_NAME = 'certificatesigningrequest-cleaner-controller';

/** Settings of {@link csrCleanerController}. */
export interface CsrCleanerControllerConfig {
  client: ApiClient;
  informerFactory: InformerFactory;
  /** How often every CSR is looked at; upstream's is one hour. */
  pollingIntervalMs?: number;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/** The issued certificate's notAfter, or undefined when none is issued or it does not parse (logged). */
function notAfter(csr: CertificateSigningRequest, logger: Logger): number | undefined {
  const b64 = csr.status?.certificate;
  if (!b64) return undefined;
  try {
    return forge.pki
      .certificateFromPem(Buffer.from(b64, 'base64').toString('utf8'))
      .validity.notAfter.getTime();
  } catch (error) {
    logger.error(
      { csr: csr.metadata?.name, err: String(error) },
      'Error while attempting to clean CSR: unable to parse certificate data',
    );
    return undefined;
  }
}

/**
 * Runs the cleaner while subscribed: once the CSR cache has synced, and then every polling interval, each
 * cached CSR that {@link csrCleanupReason} condemns is deleted. A failed delete is logged and tried again at
 * the next pass.
 *
 * Teardown: unsubscribing stops the timer and the pass in flight.
 * @returns the name of each CSR deleted
 */
export function csrCleanerController(config: CsrCleanerControllerConfig): Observable<string> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = config.logger ?? silentLogger;
  const csrs = config.informerFactory.forResource<CertificateSigningRequest>(CERTIFICATE_SIGNING_REQUESTS);
  const period = config.pollingIntervalMs ?? CLEANER_POLLING_INTERVAL_MS;
  const pass = () =>
    defer(() => {
      const now = scheduler.now();
      return csrs
        .getStore()
        .list()
        .flatMap((csr) => {
          const reason = csrCleanupReason(csr, now, notAfter(csr, logger));
          return reason ? [{ name: csr.metadata?.name ?? '', reason }] : [];
        });
    }).pipe(
      concatMap(({ name, reason }) => {
        logger.info({ csr: name }, reason);
        return config.client.delete(CERTIFICATE_SIGNING_REQUESTS, name).pipe(
          map(() => name),
          catchError((error: unknown) => {
            logger.error({ csr: name, err: String(error) }, `unable to delete CSR "${name}"`);
            return EMPTY;
          }),
        );
      }),
    );
  logger.info('Starting CSR cleaner controller');
  return csrs.hasSynced$.pipe(
    first((synced) => synced),
    switchMap(() => timer(0, period, scheduler)),
    concatMap(() => pass()),
  );
}
