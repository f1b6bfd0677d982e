// leaseCandidate: client-go's LeaseCandidate — keeps this component's LeaseCandidate alive and answers the election controller's pings.
import {
  asyncScheduler,
  catchError,
  concatMap,
  defer,
  EMPTY,
  filter,
  interval,
  map,
  merge,
  type Observable,
  retry,
  type SchedulerLike,
  startWith,
  tap,
  timer,
} from 'rxjs';
import {
  isPinged,
  type LeaseCandidate,
  OLDEST_EMULATION_VERSION,
} from '../../operators/coordinated-election.ts';
import { ApiError, InvalidConfigError } from '../../operators/errors.ts';
import { microTime } from '../../operators/leader-election-record.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import { type ApiClient, listerWatcher } from '../../streams/api-client.ts';
import { listWatch } from '../../streams/list-watch.ts';
import { LEASE_CANDIDATES } from '../../streams/resources.ts';

/** client-go's CandidateConfig. */
export interface LeaseCandidateConfig {
  client: ApiClient;
  /** Namespace of the LeaseCandidate, the same as the Lease's. */
  namespace: string;
  /** The candidate's name: the identity the elector writes as holder. */
  name: string;
  /** The Lease this candidate competes for. */
  leaseName: string;
  binaryVersion: string;
  /** Required with the OldestEmulationVersion strategy. */
  emulationVersion?: string;
  /** Default `OldestEmulationVersion`. */
  strategy?: string;
  /** Renew this often even without a ping; default 5 minutes (client-go's requeueInterval). */
  renewIntervalMs?: number;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/**
 * Keeps this component's LeaseCandidate while subscribed: creates it (with renewTime now), renews it every
 * five minutes, and at once whenever the API server's election controller pings it (pingTime after
 * renewTime), which is how candidates take part in an election. Failed writes retry with backoff. It never
 * deletes the candidate: the API server collects candidates that stopped renewing for 30 minutes.
 *
 * @example
 * merge(leaseCandidate({ client: api, namespace: 'kube-system', name: id, leaseName: 'my-controller',
 *   binaryVersion: '1.33.0', emulationVersion: '1.33' }),
 *   leaderElection({ client: leaseClient(api), namespace: 'kube-system', name: 'my-controller', identity: id,
 *   coordinated: true }))
 * @returns an observable that never emits; unsubscribing stops the watch and the timers
 * @throws InvalidConfigError naming a missing field, with client-go's words
 */
export function leaseCandidate(config: LeaseCandidateConfig): Observable<never> {
  const strategy = config.strategy ?? OLDEST_EMULATION_VERSION;
  for (const [field, value] of [
    ['namespace', config.namespace],
    ['name', config.name],
    ['leaseName', config.leaseName],
    ['binaryVersion', config.binaryVersion],
  ] as const) {
    if (!value) throw new InvalidConfigError(field, `required ${field} config parameter is unset`);
  }
  if (strategy === OLDEST_EMULATION_VERSION && !config.emulationVersion) {
    throw new InvalidConfigError('emulationVersion', 'required EmulationVersion config parameter is unset');
  }
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = (config.logger ?? silentLogger).child({
    component: 'leasecandidate',
    candidate: `${config.namespace}/${config.name}`,
  });
  const { client, namespace, name } = config;
  let latest: LeaseCandidate | undefined;

  const watched$ = listWatch<LeaseCandidate>(
    listerWatcher<LeaseCandidate>(client, LEASE_CANDIDATES, {
      namespace,
      fieldSelector: `metadata.name=${name}`,
    }),
    { scheduler, logger, name: 'leasecandidate', description: 'coordination.k8s.io/v1beta1/leasecandidates' },
  ).pipe(
    map((event) => {
      if (event.type === 'Replace') latest = event.items.find((c) => c.metadata?.name === name);
      else if (event.type === 'Deleted') latest = undefined;
      else if (event.type !== 'Bookmark' && event.object.metadata?.name === name) latest = event.object;
      return event.type === 'Updated' && latest !== undefined && isPinged(latest);
    }),
    filter(Boolean),
  );

  const ensure = (): Observable<unknown> =>
    defer(() => {
      const now = microTime(scheduler.now());
      if (!latest) {
        const spec: NonNullable<LeaseCandidate['spec']> = {
          leaseName: config.leaseName,
          binaryVersion: config.binaryVersion,
          strategy,
          renewTime: now,
        };
        if (config.emulationVersion) spec.emulationVersion = config.emulationVersion;
        const candidate: LeaseCandidate = {
          apiVersion: 'coordination.k8s.io/v1beta1',
          kind: 'LeaseCandidate',
          metadata: { namespace, name },
          spec,
        };
        return client.create<LeaseCandidate>(LEASE_CANDIDATES, candidate, { namespace }).pipe(
          tap((created) => {
            latest = created;
            logger.info('created the lease candidate');
          }),
          catchError((error: unknown) => {
            // someone (an earlier run of ours) created it: read it, then renew
            if (error instanceof ApiError && error.statusCode === 409) {
              return client.get<LeaseCandidate>(LEASE_CANDIDATES, name, { namespace }).pipe(
                tap((found) => {
                  latest = found;
                }),
                concatMap(() => ensure()),
              );
            }
            throw error;
          }),
        );
      }
      const renewed: LeaseCandidate = { ...latest, spec: { ...latest.spec!, renewTime: now } };
      return client.update<LeaseCandidate>(LEASE_CANDIDATES, renewed, { namespace }).pipe(
        tap((updated) => {
          latest = updated;
          logger.debug('renewed the lease candidate');
        }),
      );
    });

  const renewEvery = config.renewIntervalMs ?? 5 * 60_000;
  const triggers$ = merge(watched$, interval(renewEvery, scheduler).pipe(startWith(0)));
  return triggers$.pipe(
    concatMap(() =>
      ensure().pipe(
        retry({
          delay: (error: unknown, count) => {
            logger.warn(
              { err: error instanceof Error ? error.message : String(error), count },
              'ensuring the lease candidate failed',
            );
            return timer(Math.min(5 * 2 ** (count - 1), 1_000_000), scheduler);
          },
        }),
        concatMap(() => EMPTY),
      ),
    ),
  ) as Observable<never>;
}
