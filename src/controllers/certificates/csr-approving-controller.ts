// csrApprovingController: kube-controller-manager's certificatesigningrequest-approving-controller — kubelet client CSRs approved when a SubjectAccessReview lets the requester create certificatesigningrequests/selfnodeclient or /nodeclient.
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
  trueCondition,
} from '../../../operators/controller/certificates/certificate-signing-request.ts';
import {
  csrApprovalCandidates,
  isDecided,
} from '../../../operators/controller/certificates/csr-approval-candidates.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type ReconcileOutcome, reconcileWith } from '../../../operators/reconcile.ts';
import type { KubeObject } from '../../../operators/types.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';
import { CERTIFICATE_SIGNING_REQUESTS, SUBJECT_ACCESS_REVIEWS } from './certificates-resources.ts';
import { parseCertificateRequest } from './parse-certificate-request.ts';

/** The controller's name in `--controllers`. */
export const CSR_APPROVING_CONTROLLER_NAME = 'certificatesigningrequest-approving-controller';

/** Settings of {@link csrApprovingController}. */
export interface CsrApprovingControllerConfig {
  client: ApiClient;
  informerFactory: InformerFactory;
  /** Upstream runs 5 workers. */
  workers?: number;
  metrics?: WorkQueueMetricsProvider;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/**
 * Runs the approver while subscribed. For each undecided CSR it asks, in order, the reviews
 * {@link csrApprovalCandidates} names for the CSR's requester (`spec.username`, `uid`, `groups`, `extra`),
 * and on the first allowed one adds `Approved` (reason `AutoApproved`) through the approval subresource. A
 * recognized CSR no review allows is retried with backoff ("recognized csr ... but subject access review was
 * not approved"), as upstream's.
 *
 * Teardown: unsubscribing stops the queue and the syncs in flight.
 */
export function csrApprovingController(
  config: CsrApprovingControllerConfig,
): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = config.logger ?? silentLogger;
  const csrs = config.informerFactory.forResource<CertificateSigningRequest>(CERTIFICATE_SIGNING_REQUESTS);
  const queue = workQueue<string>({
    name: 'csrapproving',
    scheduler,
    ...(config.metrics ? { metrics: config.metrics } : {}),
  });
  const enqueue = (csr: CertificateSigningRequest) => queue.add(csr.metadata?.name ?? '');
  csrs.addEventHandler({ onAdd: enqueue, onUpdate: (_old, csr) => enqueue(csr) });

  const allowed = async (csr: CertificateSigningRequest, subresource: string) => {
    const review = await firstValueFrom(
      config.client.create<KubeObject>(SUBJECT_ACCESS_REVIEWS, {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        metadata: {},
        spec: {
          user: csr.spec.username ?? '',
          ...(csr.spec.uid ? { uid: csr.spec.uid } : {}),
          groups: csr.spec.groups ?? [],
          ...(csr.spec.extra ? { extra: csr.spec.extra } : {}),
          resourceAttributes: {
            group: 'certificates.k8s.io',
            version: '*',
            resource: 'certificatesigningrequests',
            subresource,
            verb: 'create',
          },
        },
      }),
    );
    return (review.status as { allowed?: boolean } | undefined)?.allowed === true;
  };

  const sync = async (name: string) => {
    const csr = csrs.getStore().getByKey(name);
    if (!csr || isDecided(csr)) return;
    const request = parseCertificateRequest(csr.spec.request, name);
    const candidates = csrApprovalCandidates(csr, request);
    for (const candidate of candidates) {
      if (!(await allowed(csr, candidate.subresource))) continue;
      const approved = trueCondition('Approved', 'AutoApproved', candidate.message, scheduler.now());
      await firstValueFrom(
        config.client.update(
          CERTIFICATE_SIGNING_REQUESTS,
          { ...csr, status: { ...csr.status, conditions: [...(csr.status?.conditions ?? []), approved] } },
          { subresource: 'approval' },
        ),
      );
      logger.info({ csr: name, subresource: candidate.subresource }, candidate.message);
      return;
    }
    if (candidates.length > 0) {
      logger.debug(
        { csr: name, tried: candidates.map((c) => c.subresource) },
        `recognized csr "${name}" as [${candidates.map((c) => c.subresource).join(' ')}] but subject access review was not approved`,
      );
      return { requeue: true };
    }
    return;
  };

  logger.info('Starting certificate controller "csrapproving"');
  return csrs.hasSynced$.pipe(
    first((synced) => synced),
    switchMap(() =>
      NEVER.pipe(reconcileWith<string>(sync, { queue, workers: config.workers ?? 5, scheduler, logger })),
    ),
  );
}
