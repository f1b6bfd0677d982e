// leaderElector: client-go's LeaderElector step API (tryAcquireOrRenew, release, isLeader, getLeader) for custom electors.
import { asyncScheduler, type Observable, type SchedulerLike } from 'rxjs';
import {
  type LeaderElectionTimings,
  validateLeaderElectionTimings,
} from '../../operators/leader-election-config.ts';
import { initialElectorState, isLeader, observedHolder } from '../../operators/leader-election-state.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import type { LeaseClient } from '../../streams/lease-client.ts';
import { type ElectorRuntime, releaseLease, tryAcquireOrRenew } from './lease-steps.ts';

/** One candidate's lock, identity and timings (validated by client-go's rules, defaults 15 s / 10 s / 2 s). */
export interface LeaderElectorConfig extends Partial<LeaderElectionTimings> {
  client: LeaseClient;
  namespace: string;
  name: string;
  identity: string;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/**
 * The elector's steps, for users who build their own campaign loop. Invariant: steps of one elector must
 * not overlap (subscribe to the next only after the previous completed), as in client-go, where one
 * goroutine drives them.
 */
export interface LeaderElector {
  /** One attempt to acquire or renew the Lease: emits true when this candidate holds it, then completes. */
  tryAcquireOrRenew(): Observable<boolean>;
  /** Gives the Lease up if this candidate holds it: emits true when released (or nothing to release). */
  release(): Observable<boolean>;
  /** True when the last observed record names this candidate. */
  isLeader(): boolean;
  /** The holder this candidate last observed ('' for none). */
  getLeader(): string;
  /** Local time (scheduler ms) of the last observed change of the record, or of the last renewal. */
  observedTime(): number;
  /** The lease duration in ms (for health checks). */
  readonly leaseDuration: number;
  readonly name: string;
}

/**
 * Builds an elector's step API over a LeaseClient: the same steps `leaderElection` runs on its timers.
 *
 * @example
 * const el = leaderElector({ client: leaseClient(api), namespace: 'kube-system', name: 'x', identity: id });
 * const leading = await firstValueFrom(el.tryAcquireOrRenew());
 * @throws InvalidConfigError for an invalid identity or timings (client-go's rules)
 */
export function leaderElector(config: LeaderElectorConfig): LeaderElector {
  const timings = validateLeaderElectionTimings(config);
  const rt: ElectorRuntime = {
    state: initialElectorState(config, timings.leaseDuration),
    client: config.client,
    scheduler: config.scheduler ?? asyncScheduler,
    logger: (config.logger ?? silentLogger).child({
      component: 'leader-election',
      lease: `${config.namespace}/${config.name}`,
      identity: config.identity,
    }),
  };
  return elector(rt, timings.leaseDuration);
}

/** The step API over an existing runtime cell (shared with `leaderElection`'s campaign). */
export function elector(rt: ElectorRuntime, leaseDuration: number): LeaderElector {
  return {
    tryAcquireOrRenew: () => tryAcquireOrRenew(rt),
    release: () => releaseLease(rt),
    isLeader: () => isLeader(rt.state),
    getLeader: () => observedHolder(rt.state),
    observedTime: () => rt.state.observedTime,
    leaseDuration,
    name: rt.state.name,
  };
}
