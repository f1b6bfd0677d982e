// csrSigningController: kube-controller-manager's certificatesigningrequest-signing-controller — approved CSRs for the kubernetes.io client, kubelet-client and kubelet-serving signers signed with the cluster CA.
import {
  asyncScheduler,
  first,
  firstValueFrom,
  NEVER,
  type Observable,
  type SchedulerLike,
  switchMap,
} from 'rxjs';
import {
  type CertificateSigningRequest,
  hasTrueCondition,
  isApproved,
  trueCondition,
} from '../../../operators/controller/certificates/certificate-signing-request.ts';
import {
  checkRequestForSigner,
  KNOWN_SIGNERS,
} from '../../../operators/controller/certificates/csr-signer-check.ts';
import { signingDuration } from '../../../operators/controller/certificates/signing-duration.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type ReconcileOutcome, reconcileWith } from '../../../operators/reconcile.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';
import { certificateAuthority } from './certificate-authority.ts';
import { CERTIFICATE_SIGNING_REQUESTS } from './certificates-resources.ts';
import { parseCertificateRequest } from './parse-certificate-request.ts';

/** The controller's name in `--controllers`. */
export const CSR_SIGNING_CONTROLLER_NAME = 'certificatesigningrequest-signing-controller';

/** `--cluster-signing-duration`'s default: one year. */
export const DEFAULT_CLUSTER_SIGNING_DURATION_MS = 365 * 24 * 3600_000;

/** Settings of {@link csrSigningController}. */
export interface CsrSigningControllerConfig {
  client: ApiClient;
  informerFactory: InformerFactory;
  /** The cluster signing CA: `--cluster-signing-cert-file` and `--cluster-signing-key-file`'s contents (PEM). */
  ca: { certPem: string; keyPem: string };
  /** `--cluster-signing-duration`: the longest lifetime issued; default one year. */
  certTtlMs?: number;
  /** Upstream runs 5 workers. */
  workers?: number;
  metrics?: WorkQueueMetricsProvider;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/**
 * Runs the signer while subscribed. For each CSR that is Approved, not Failed, has no certificate yet and
 * names one of the three signers: parses `spec.request` (a failure is retried with backoff), checks it
 * against the signer's rules (a failure adds a Failed condition, reason `SignerValidationFailure`, with
 * upstream's message), else issues a certificate for `signingDuration(ttl, spec.expirationSeconds)` and
 * writes it (base64 PEM) to `status.certificate` through the status subresource.
 *
 * Teardown: unsubscribing stops the queue and the syncs in flight.
 * @throws InvalidConfigError when the CA does not parse (a start-up failure, as upstream's)
 */
export function csrSigningController(
  config: CsrSigningControllerConfig,
): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = config.logger ?? silentLogger;
  const ca = certificateAuthority(config.ca.certPem, config.ca.keyPem);
  const ttlMs = config.certTtlMs ?? DEFAULT_CLUSTER_SIGNING_DURATION_MS;
  const csrs = config.informerFactory.forResource<CertificateSigningRequest>(CERTIFICATE_SIGNING_REQUESTS);
  const queue = workQueue<string>({
    name: 'csrsigning',
    scheduler,
    ...(config.metrics ? { metrics: config.metrics } : {}),
  });
  const enqueue = (csr: CertificateSigningRequest) => queue.add(csr.metadata?.name ?? '');
  csrs.addEventHandler({ onAdd: enqueue, onUpdate: (_old, csr) => enqueue(csr) });

  const sync = async (name: string) => {
    const csr = csrs.getStore().getByKey(name);
    if (!csr || (csr.status?.certificate ?? '') !== '') return;
    if (!isApproved(csr) || hasTrueCondition(csr, 'Failed')) return;
    if (!KNOWN_SIGNERS.includes(csr.spec.signerName)) return;
    const request = parseCertificateRequest(csr.spec.request, name);
    const usages = csr.spec.usages ?? [];
    const check = checkRequestForSigner(request, usages, csr.spec.signerName);
    if (!check.recognized) return;
    const now = scheduler.now();
    if (check.error !== undefined) {
      const failed = trueCondition('Failed', 'SignerValidationFailure', check.error, now);
      await firstValueFrom(
        config.client.updateStatus(CERTIFICATE_SIGNING_REQUESTS, {
          ...csr,
          status: { ...csr.status, conditions: [...(csr.status?.conditions ?? []), failed] },
        }),
      );
      logger.info({ csr: name, reason: check.error }, 'CSR failed signer validation');
      return;
    }
    let pem: string;
    try {
      pem = ca.sign(request, usages, signingDuration(ttlMs, csr.spec.expirationSeconds), now);
    } catch (error) {
      throw new Error(`error auto signing csr: ${(error as Error).message}`);
    }
    await firstValueFrom(
      config.client.updateStatus(CERTIFICATE_SIGNING_REQUESTS, {
        ...csr,
        status: { ...csr.status, certificate: Buffer.from(pem).toString('base64') },
      }),
    );
    logger.debug({ csr: name, signer: csr.spec.signerName }, 'Signed CSR');
  };

  logger.info('Starting certificate controller "csrsigning"');
  return csrs.hasSynced$.pipe(
    first((synced) => synced),
    switchMap(() =>
      NEVER.pipe(reconcileWith<string>(sync, { queue, workers: config.workers ?? 5, scheduler, logger })),
    ),
  );
}
