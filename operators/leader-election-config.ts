// Leader-election timings: client-go's defaults for core components and its validation rules.
import { InvalidConfigError } from './errors.ts';

/** client-go's JitterFactor: acquire retries wait retryPeriod × [1, 1 + JITTER_FACTOR). */
export const JITTER_FACTOR = 1.2;

/** The timings core Kubernetes components use (milliseconds). */
export const DEFAULT_LEADER_ELECTION_TIMINGS: Readonly<LeaderElectionTimings> = Object.freeze({
  leaseDuration: 15_000,
  renewDeadline: 10_000,
  retryPeriod: 2_000,
});

/**
 * The timings of an elector, in milliseconds.
 *
 * Invariants (checked by {@link validateLeaderElectionTimings}): all positive and finite;
 * leaseDuration > renewDeadline > retryPeriod × JITTER_FACTOR; leaseDuration at least one second, because
 * the Lease stores it in whole seconds.
 */
export interface LeaderElectionTimings {
  /** How long a non-leader waits after last seeing the record change before taking over. Default 15 s. */
  leaseDuration: number;
  /** How long a leader keeps retrying a failed renewal before it stops leading. Default 10 s. */
  renewDeadline: number;
  /** The interval between attempts to acquire or renew. Default 2 s. */
  retryPeriod: number;
}

/** The lock and identity part of a configuration. */
export interface LeaderElectionIdentity {
  identity: string;
  namespace: string;
  name: string;
}

/**
 * Fills defaults and checks a configuration in client-go's order.
 * @param config timings (any may be omitted) plus the lock's namespace/name and the candidate's identity
 * @returns the complete timings
 * @throws InvalidConfigError naming the first offending field
 */
export function validateLeaderElectionTimings(
  config: Partial<LeaderElectionTimings> & LeaderElectionIdentity,
): LeaderElectionTimings {
  const t: LeaderElectionTimings = {
    leaseDuration: config.leaseDuration ?? DEFAULT_LEADER_ELECTION_TIMINGS.leaseDuration,
    renewDeadline: config.renewDeadline ?? DEFAULT_LEADER_ELECTION_TIMINGS.renewDeadline,
    retryPeriod: config.retryPeriod ?? DEFAULT_LEADER_ELECTION_TIMINGS.retryPeriod,
  };
  for (const field of ['leaseDuration', 'renewDeadline', 'retryPeriod'] as const) {
    if (typeof t[field] !== 'number' || Number.isNaN(t[field]) || !Number.isFinite(t[field])) {
      throw new InvalidConfigError(field, `must be a finite number of milliseconds, got ${String(t[field])}`);
    }
  }
  if (t.leaseDuration <= t.renewDeadline) {
    throw new InvalidConfigError('leaseDuration', 'leaseDuration must be greater than renewDeadline');
  }
  if (t.renewDeadline <= JITTER_FACTOR * t.retryPeriod) {
    throw new InvalidConfigError(
      'renewDeadline',
      'renewDeadline must be greater than retryPeriod*JitterFactor',
    );
  }
  if (t.leaseDuration < 1)
    throw new InvalidConfigError('leaseDuration', 'leaseDuration must be greater than zero');
  if (t.renewDeadline < 1)
    throw new InvalidConfigError('renewDeadline', 'renewDeadline must be greater than zero');
  if (t.retryPeriod < 1) throw new InvalidConfigError('retryPeriod', 'retryPeriod must be greater than zero');
  if (t.leaseDuration < 1000) {
    throw new InvalidConfigError(
      'leaseDuration',
      'leaseDuration must be at least 1000 ms (the Lease stores seconds)',
    );
  }
  if (typeof config.identity !== 'string' || config.identity === '') {
    throw new InvalidConfigError('identity', 'Lock identity is empty');
  }
  if (typeof config.name !== 'string' || config.name === '') {
    throw new InvalidConfigError('name', 'the Lease name is empty');
  }
  if (typeof config.namespace !== 'string' || config.namespace === '') {
    throw new InvalidConfigError('namespace', 'the Lease namespace is empty');
  }
  return t;
}
