// client-go's tryCoordinatedRenew decision (leaderelection_test.go's coordinated cases), in our words.
import { describe, expect, it } from 'vitest';
import { type Lease, microTime } from '../../operators/leader-election-record.ts';
import { initialElectorState, planCoordinatedRenew } from '../../operators/leader-election-state.ts';

const T0 = Date.parse('2026-11-24T12:00:00Z');
const fresh = () => initialElectorState({ identity: 'me', namespace: 'kube-system', name: 'lock' }, 15_000);
const lease = (spec: NonNullable<Lease['spec']>): Lease => ({
  metadata: { namespace: 'kube-system', name: 'lock', resourceVersion: '3' },
  spec: {
    leaseDurationSeconds: 5,
    renewTime: microTime(T0),
    acquireTime: microTime(T0 - 60_000),
    leaseTransitions: 2,
    strategy: 'OldestEmulationVersion',
    ...spec,
  },
});

describe('planCoordinatedRenew', () => {
  it.each<[string, Lease | undefined, string]>([
    ['no Lease yet: the controller has not elected anyone', undefined, 'missing'],
    ['another holder', lease({ holderIdentity: 'other' }), 'held'],
    [
      'named holder but a preferred holder ends the term',
      lease({ holderIdentity: 'me', preferredHolder: 'other' }),
      'endOfTerm',
    ],
  ])('%s: wait (%s)', (_case, fetched, reason) => {
    const { plan } = planCoordinatedRenew(fresh(), fetched, T0);
    expect(plan).toMatchObject({ type: 'wait', reason });
  });

  it('an expired lease (by the observed time) is not renewed, even when it names this candidate', () => {
    const first = planCoordinatedRenew(fresh(), lease({ holderIdentity: 'me' }), T0);
    const { plan } = planCoordinatedRenew(first.state, lease({ holderIdentity: 'me' }), T0 + 6_000);
    expect(plan).toMatchObject({ type: 'wait', reason: 'expired' });
  });

  it('named holder: renews, keeping acquire time, transitions and strategy, and writing its own duration', () => {
    const { plan } = planCoordinatedRenew(fresh(), lease({ holderIdentity: 'me' }), T0 + 1_000);
    expect(plan.type).toBe('update');
    const written = (plan as { lease: Lease }).lease;
    expect(written.metadata?.resourceVersion).toBe('3');
    expect(written.spec).toEqual({
      holderIdentity: 'me',
      leaseDurationSeconds: 15,
      acquireTime: microTime(T0 - 60_000),
      renewTime: microTime(T0 + 1_000),
      leaseTransitions: 2,
      strategy: 'OldestEmulationVersion',
    });
  });
});
