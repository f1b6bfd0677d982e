// Tests client-go's leader-election configuration rules: defaults and validation order, with the field named.
import { describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../../operators/errors.ts';
import {
  DEFAULT_LEADER_ELECTION_TIMINGS,
  validateLeaderElectionTimings,
} from '../../operators/leader-election-config.ts';

const lock = { identity: 'a', namespace: 'kube-system', name: 'lock' };

describe('validateLeaderElectionTimings', () => {
  it('fills the core components defaults: 15 s, 10 s, 2 s', () => {
    expect(validateLeaderElectionTimings(lock)).toEqual({
      leaseDuration: 15_000,
      renewDeadline: 10_000,
      retryPeriod: 2_000,
    });
    expect(DEFAULT_LEADER_ELECTION_TIMINGS).toEqual(validateLeaderElectionTimings(lock));
  });

  // Cases from NewLeaderElector's checks, in its order; the first failing rule wins.
  it.each([
    [
      'lease equal to renew deadline',
      { leaseDuration: 10_000, renewDeadline: 10_000 },
      'leaseDuration',
      /greater than renewDeadline/,
    ],
    [
      'lease shorter than renew deadline',
      { leaseDuration: 5_000, renewDeadline: 10_000 },
      'leaseDuration',
      /greater than renewDeadline/,
    ],
    [
      'renew deadline equal to retry × 1.2',
      { renewDeadline: 2_400, retryPeriod: 2_000 },
      'renewDeadline',
      /retryPeriod\*JitterFactor/,
    ],
    [
      'renew deadline below retry × 1.2',
      { renewDeadline: 2_000, retryPeriod: 2_000 },
      'renewDeadline',
      /retryPeriod\*JitterFactor/,
    ],
    ['zero retry period', { retryPeriod: 0 }, 'retryPeriod', /greater than zero/],
    ['negative retry period', { retryPeriod: -1 }, 'retryPeriod', /greater than zero/],
    [
      'zero renew deadline with negative retry',
      { renewDeadline: 0, retryPeriod: -1 },
      'renewDeadline',
      /greater than zero/,
    ],
    [
      'sub-second lease',
      { leaseDuration: 900, renewDeadline: 500, retryPeriod: 100 },
      'leaseDuration',
      /1000 ms/,
    ],
    ['NaN lease', { leaseDuration: Number.NaN }, 'leaseDuration', /finite/],
    ['infinite retry', { retryPeriod: Number.POSITIVE_INFINITY }, 'retryPeriod', /finite/],
  ])('rejects %s', (_name, timings, field, message) => {
    const run = () => validateLeaderElectionTimings({ ...lock, ...timings });
    expect(run).toThrow(InvalidConfigError);
    expect(run).toThrow(message);
    try {
      run();
    } catch (error) {
      expect((error as InvalidConfigError).field).toBe(field);
    }
  });

  it.each([
    ['identity', { ...lock, identity: '' }, /Lock identity is empty/],
    ['name', { ...lock, name: '' }, /Lease name is empty/],
    ['namespace', { ...lock, namespace: '' }, /namespace is empty/],
  ])('rejects an empty %s', (field, config, message) => {
    expect(() => validateLeaderElectionTimings(config)).toThrow(message);
    expect(() => validateLeaderElectionTimings(config)).toThrow(expect.objectContaining({ field }));
  });

  it('accepts the smallest valid ratios', () => {
    expect(
      validateLeaderElectionTimings({ ...lock, leaseDuration: 1_000, renewDeadline: 999, retryPeriod: 800 }),
    ).toEqual({
      leaseDuration: 1_000,
      renewDeadline: 999,
      retryPeriod: 800,
    });
  });
});
