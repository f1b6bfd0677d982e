// Tests the elector's observed-time rules: the cases of client-go's leaderelection_test.go as tables over the pure state machine.
import { describe, expect, it } from 'vitest';
import {
  type LeaderElectionRecord,
  type Lease,
  leaseToRecord,
  microTime,
  rawRecord,
  recordToLeaseSpec,
} from '../../operators/leader-election-record.ts';
import {
  afterWrite,
  type ElectorState,
  initialElectorState,
  isLeader,
  isLeaseValid,
  observeLease,
  planAfterRead,
  planFastRenew,
  planRelease,
} from '../../operators/leader-election-state.ts';

const FAR = 1000 * 3600 * 1000; // a thousand hours, in ms
const NOW = 5_000_000;

function lease(spec: Lease['spec'] | undefined, resourceVersion = '7'): Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { namespace: 'foo', name: 'bar', resourceVersion },
    ...(spec ? { spec } : {}),
  };
}

function record(partial: Partial<LeaderElectionRecord>): LeaderElectionRecord {
  return leaseToRecord(lease(recordToLeaseSpec({ ...leaseToRecord(lease({})), ...partial })));
}

function state(
  observed?: Partial<LeaderElectionRecord>,
  observedTime = Number.NEGATIVE_INFINITY,
): ElectorState {
  const base = initialElectorState({ identity: 'baz', namespace: 'foo', name: 'bar' }, 10_000);
  if (!observed) return { ...base, observedTime };
  const r = record(observed);
  return { ...base, observed: r, observedRaw: rawRecord(r), observedTime };
}

describe('planAfterRead (client-go tryAcquireOrRenew, slow path)', () => {
  // name, what this candidate had observed and when, the Lease read, expected plan, holder, transitions
  it.each([
    ['acquire from no object', state(), undefined, 'create', 'baz', 0],
    ['acquire from an object without a record', state(), lease(undefined), 'update', 'baz', 1],
    ['acquire from an unled object', state(), lease({}), 'update', 'baz', 1],
    [
      'acquire from a led object observed long ago (unchanged since)',
      state({ holderIdentity: 'bing', leaseDurationSeconds: 10 }, NOW - FAR),
      lease({ holderIdentity: 'bing', leaseDurationSeconds: 10 }),
      'update',
      'baz',
      1,
    ],
    [
      'acquire from an empty-holder object even if observed just now',
      state({}, NOW + FAR),
      lease({ holderIdentity: '' }),
      'update',
      'baz',
      1,
    ],
    [
      "don't acquire from a led object that just changed",
      state({}, NOW - FAR),
      lease({ holderIdentity: 'bing', leaseDurationSeconds: 10 }),
      'blocked',
      'bing',
      0,
    ],
    [
      'renew an object this candidate already holds',
      state({ holderIdentity: 'baz', leaseDurationSeconds: 10 }, NOW + FAR),
      lease({ holderIdentity: 'baz', leaseDurationSeconds: 10 }),
      'update',
      'baz',
      0,
    ],
    [
      'take over after others had transitioned it three times',
      state({ holderIdentity: 'bing', leaseDurationSeconds: 10, leaderTransitions: 3 }, NOW - 10_000),
      lease({ holderIdentity: 'bing', leaseDurationSeconds: 10, leaseTransitions: 3 }),
      'update',
      'baz',
      4,
    ],
  ] as const)('%s', (_name, before, fetched, planType, holder, transitions) => {
    const { state: after, plan } = planAfterRead(before, fetched, NOW);
    expect(plan.type).toBe(planType);
    if (plan.type === 'blocked') {
      expect(plan.holder).toBe(holder);
      expect(after.observed?.holderIdentity).toBe(holder);
      return;
    }
    expect(plan.record.holderIdentity).toBe(holder);
    expect(plan.record.leaderTransitions).toBe(transitions);
    expect(plan.lease.spec?.holderIdentity).toBe(holder);
    expect(plan.lease.spec?.leaseTransitions).toBe(transitions);
    expect(plan.lease.spec?.leaseDurationSeconds).toBe(10);
    expect(plan.record.renewTime).toBe(microTime(NOW));
    if (fetched) expect(plan.lease.metadata?.resourceVersion).toBe('7');
    else expect(plan.lease.metadata).toEqual({ namespace: 'foo', name: 'bar' });
  });

  it('a renewing leader keeps its acquire time; a new holder stamps its own', () => {
    const held = lease({ holderIdentity: 'baz', leaseDurationSeconds: 10, acquireTime: microTime(1_000) });
    const renewing = planAfterRead(
      state({ holderIdentity: 'baz', leaseDurationSeconds: 10 }, NOW),
      held,
      NOW,
    );
    expect(renewing.plan.type === 'update' && renewing.plan.record.acquireTime).toBe(microTime(1_000));
    const other = lease({ holderIdentity: '', leaseDurationSeconds: 1, acquireTime: microTime(1_000) });
    const taking = planAfterRead(state(), other, NOW);
    expect(taking.plan.type === 'update' && taking.plan.record.acquireTime).toBe(microTime(NOW));
  });
});

describe('observed time', () => {
  it('is the reader’s own clock at the change, not the holder’s timestamps', () => {
    const written = lease({ holderIdentity: 'bing', leaseDurationSeconds: 10, renewTime: microTime(0) });
    const seen = observeLease(state(), written, NOW);
    expect(seen.observedTime).toBe(NOW);
    expect(isLeaseValid(seen, NOW + 9_999)).toBe(true);
    expect(isLeaseValid(seen, NOW + 10_000)).toBe(false); // strictly after
  });

  it('does not move while the record is unchanged, even if the resourceVersion moved', () => {
    const first = observeLease(
      state(),
      lease({ holderIdentity: 'bing', leaseDurationSeconds: 10 }, '1'),
      NOW,
    );
    const again = observeLease(
      first,
      lease({ holderIdentity: 'bing', leaseDurationSeconds: 10 }, '2'),
      NOW + 8_000,
    );
    expect(again.observedTime).toBe(NOW);
    expect(again.lease?.metadata?.resourceVersion).toBe('2');
    const renewed = observeLease(
      again,
      lease({ holderIdentity: 'bing', leaseDurationSeconds: 10, renewTime: microTime(1) }, '3'),
      NOW + 9_000,
    );
    expect(renewed.observedTime).toBe(NOW + 9_000);
  });

  it('a lease observed with a one-second duration (a release) expires a second later', () => {
    const released = observeLease(state(), lease({ holderIdentity: '', leaseDurationSeconds: 1 }), NOW);
    expect(isLeaseValid(released, NOW + 999)).toBe(true);
    expect(isLeaseValid(released, NOW + 1_000)).toBe(false);
  });

  it('nothing observed is never valid', () => {
    expect(isLeaseValid(state(), NOW)).toBe(false);
    expect(isLeader(state())).toBe(false);
  });
});

describe('planFastRenew', () => {
  it('needs a cached lease (client-go: "lease not initialized" without an API call)', () => {
    expect(
      planFastRenew(state({ holderIdentity: 'baz', leaseDurationSeconds: 10 }, NOW), NOW),
    ).toBeUndefined();
  });

  it('updates the cached lease when leading and valid, keeping acquire time and transitions', () => {
    const held = lease({
      holderIdentity: 'baz',
      leaseDurationSeconds: 10,
      leaseTransitions: 2,
      acquireTime: microTime(7),
    });
    const s = afterWrite(state(), leaseToRecord(held), held, NOW);
    const plan = planFastRenew(s, NOW + 2_000);
    expect(plan?.record).toMatchObject({
      holderIdentity: 'baz',
      leaderTransitions: 2,
      acquireTime: microTime(7),
    });
    expect(plan?.record.renewTime).toBe(microTime(NOW + 2_000));
    expect(plan?.lease.metadata?.resourceVersion).toBe('7');
  });

  it('is not taken once the leader’s own view of its lease expired', () => {
    const held = lease({ holderIdentity: 'baz', leaseDurationSeconds: 10 });
    const s = afterWrite(state(), leaseToRecord(held), held, NOW);
    expect(planFastRenew(s, NOW + 10_000)).toBeUndefined();
  });
});

describe('planRelease', () => {
  it('writes an empty holder, one second, the same transitions (client-go release)', () => {
    const held = lease({ holderIdentity: 'baz', leaseDurationSeconds: 10, leaseTransitions: 5 });
    const s = afterWrite(state(), leaseToRecord(held), held, NOW);
    const plan = planRelease(s, NOW + 1);
    expect(plan?.record).toEqual({
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: microTime(NOW + 1),
      renewTime: microTime(NOW + 1),
      leaderTransitions: 5,
      strategy: '',
      preferredHolder: '',
    });
    expect(plan?.lease.metadata?.resourceVersion).toBe('7');
  });

  it('does nothing for a non-holder', () => {
    expect(
      planRelease(state({ holderIdentity: 'bing', leaseDurationSeconds: 10 }, NOW), NOW),
    ).toBeUndefined();
  });
});

describe('lease record', () => {
  it('round-trips a full spec (client-go TestLeaseSpecToLeaderElectionRecordRoundTrip)', () => {
    const spec = {
      holderIdentity: 'foo',
      leaseDurationSeconds: 10,
      acquireTime: microTime(NOW),
      renewTime: microTime(NOW + 1),
      leaseTransitions: 1,
    };
    expect(recordToLeaseSpec(leaseToRecord(lease(spec)))).toEqual(spec);
  });

  it('formats MicroTime with six fractional digits', () => {
    expect(microTime(Date.UTC(2024, 0, 2, 3, 4, 5, 678))).toBe('2024-01-02T03:04:05.678000Z');
  });
});
