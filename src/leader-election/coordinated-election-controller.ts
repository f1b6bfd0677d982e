// coordinatedElectionController: kube-apiserver's coordinated leader election controller — elects Lease holders among LeaseCandidates.
import { asyncScheduler, firstValueFrom, NEVER, Observable, type SchedulerLike } from 'rxjs';
import {
  DEFAULT_ELECTION_TIMING,
  type ElectionTiming,
  electionStep,
  isPinged,
  type LeaseCandidate,
} from '../../operators/coordinated-election.ts';
import { type Lease, microTime } from '../../operators/leader-election-record.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import { joinObjectKey, splitObjectKey } from '../../operators/object-key.ts';
import { type ReconcileResult, reconcileWith } from '../../operators/reconcile.ts';
import type { KubeObject } from '../../operators/types.ts';
import { workQueue } from '../../operators/work-queue.ts';
import type { ApiClient } from '../../streams/api-client.ts';
import { LEASE_CANDIDATES, LEASES } from '../../streams/resources.ts';
import { informerFactory } from '../informers/informer-factory.ts';

export interface CoordinatedElectionControllerConfig {
  client: ApiClient;
  /** Election duration and requeue period; kube-apiserver's 5 s each by default. */
  timing?: Partial<ElectionTiming>;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

const CONTROLLER_NAME = 'leader-election-controller';

/**
 * Runs kube-apiserver's coordinated leader election controller while subscribed: for every Lease that
 * LeaseCandidates name, it pings the candidates, waits up to the election duration for their answers, and
 * writes the Lease's holder (the OldestEmulationVersion electee: oldest emulation version, then oldest
 * binary version, then created first), or marks a better candidate as `preferredHolder` so the current
 * holder ends its term. Keys are `namespace/leaseName`; each step is {@link electionStep}.
 *
 * Teardown: unsubscribing stops its informers (Leases, LeaseCandidates), its queue and its timers.
 * @returns the reconcile outcomes, for logs and tests
 */
export function coordinatedElectionController(config: CoordinatedElectionControllerConfig) {
  const scheduler = config.scheduler ?? asyncScheduler;
  const timing: ElectionTiming = { ...DEFAULT_ELECTION_TIMING, ...config.timing };
  const logger = (config.logger ?? silentLogger).child({ component: CONTROLLER_NAME });
  const { client } = config;

  return new Observable<unknown>((subscriber) => {
    const factory = informerFactory({ client, scheduler, logger });
    const leases = factory.forResource<Lease>(LEASES);
    const candidates = factory.forResource<LeaseCandidate>(LEASE_CANDIDATES);
    const queue = workQueue<string>({ name: CONTROLLER_NAME, scheduler });

    const enqueueLease = (lease: KubeObject) =>
      queue.add(joinObjectKey(lease.metadata?.namespace ?? '', lease.metadata?.name ?? ''));
    const enqueueCandidate = (c: LeaseCandidate) => {
      // a candidate that is waiting to answer a ping changes nothing yet
      if (!c.spec?.leaseName || isPinged(c)) return;
      queue.add(joinObjectKey(c.metadata?.namespace ?? '', c.spec.leaseName));
    };
    leases.addEventHandler({
      onAdd: enqueueLease,
      onUpdate: (_old, lease) => enqueueLease(lease),
      onDelete: (lease) => {
        if (lease && 'metadata' in lease) enqueueLease(lease as KubeObject);
      },
    });
    candidates.addEventHandler({
      onAdd: enqueueCandidate,
      onUpdate: (_old, c) => enqueueCandidate(c),
      onDelete: (c) => {
        if (c && 'spec' in c) enqueueCandidate(c as LeaseCandidate);
      },
    });

    const reconcile = async (key: string, _signal: AbortSignal): Promise<ReconcileResult> => {
      const { namespace, name } = splitObjectKey(key);
      const lease = leases.getStore().getByKey(key);
      const all = candidates.lister().byNamespace(namespace).list();
      const now = scheduler.now();
      const step = electionStep(namespace, name, lease, all, now, microTime, timing);
      if ('error' in step && step.error) logger.warn({ lease: key, error: step.error }, 'election step');
      switch (step.type) {
        case 'ping':
          for (const c of step.candidates) {
            await firstValueFrom(client.update(LEASE_CANDIDATES, c, { namespace }));
          }
          logger.info(
            { lease: key, pinged: step.candidates.map((c) => c.metadata?.name) },
            'pinged candidates',
          );
          break;
        case 'write':
          if (step.create) await firstValueFrom(client.create(LEASES, step.lease, { namespace }));
          else await firstValueFrom(client.update(LEASES, step.lease, { namespace }));
          logger.info(
            {
              lease: key,
              holder: step.lease.spec?.holderIdentity,
              preferredHolder: step.lease.spec?.preferredHolder,
            },
            'elected',
          );
          break;
        default:
          break;
      }
      return step.requeueMs ? { requeueAfter: step.requeueMs } : {};
    };

    const sub = NEVER.pipe(reconcileWith<string>(reconcile, { queue, scheduler, logger })).subscribe(
      subscriber,
    );
    factory.start();
    return () => {
      sub.unsubscribe();
      factory.shutdown();
    };
  });
}
