// Coordinated leader election's rules, with the cases of kube-apiserver's election_test.go and leaderelection_controller_test.go in our words.
import { describe, expect, it } from 'vitest';
import {
  compareCandidates,
  compareVersions,
  electionStep,
  isLeaseExpired,
  type LeaseCandidate,
  parseTolerantVersion,
  pickBestLeaderOldestEmulationVersion,
  pickBestStrategy,
} from '../../operators/coordinated-election.ts';
import { type Lease, microTime } from '../../operators/leader-election-record.ts';

const T0 = Date.parse('2026-11-24T12:00:00Z');
const at = (ms: number) => microTime(T0 + ms);

function cand(
  name: string,
  emulationVersion: string,
  binaryVersion: string,
  extra: { renew?: number; ping?: number; strategy?: string; created?: number; leaseName?: string } = {},
): LeaseCandidate {
  const spec: NonNullable<LeaseCandidate['spec']> = {
    leaseName: extra.leaseName ?? 'component-A',
    binaryVersion,
    emulationVersion,
    strategy: extra.strategy ?? 'OldestEmulationVersion',
    renewTime: at(extra.renew ?? 0),
  };
  if (extra.ping !== undefined) spec.pingTime = at(extra.ping);
  return {
    metadata: {
      namespace: 'kube-system',
      name,
      creationTimestamp: new Date(T0 + (extra.created ?? 0)).toISOString(),
    },
    spec,
  };
}

function lease(
  holder: string | undefined,
  renew: number,
  extra: Partial<NonNullable<Lease['spec']>> = {},
): Lease {
  return {
    metadata: { namespace: 'kube-system', name: 'component-A', resourceVersion: '7' },
    spec: {
      ...(holder !== undefined ? { holderIdentity: holder } : {}),
      leaseDurationSeconds: 5,
      renewTime: at(renew),
      strategy: 'OldestEmulationVersion',
      ...extra,
    },
  };
}

describe('versions (semver.ParseTolerant)', () => {
  it.each([
    ['1.33', [1, 33, 0]],
    ['v1.33.2', [1, 33, 2]],
    [' 1.32.0-alpha.1 ', [1, 32, 0]],
  ])('%j parses', (text, [major, minor, patch]) => {
    expect(parseTolerantVersion(text)).toMatchObject({ major, minor, patch });
  });
  it.each(['', 'xyz', '1.x'])('%j does not', (text) => expect(parseTolerantVersion(text)).toBeUndefined());
  it('orders releases after their pre-releases, numerically', () => {
    const v = (t: string) => parseTolerantVersion(t)!;
    expect(compareVersions(v('1.33.0-alpha.2'), v('1.33.0'))).toBe(-1);
    expect(compareVersions(v('1.33.0-alpha.10'), v('1.33.0-alpha.2'))).toBe(1);
    expect(compareVersions(v('1.9'), v('1.10'))).toBe(-1);
    expect(compareVersions(v('1.33'), v('v1.33.0'))).toBe(0);
  });
});

describe('compareCandidates (TestCompare)', () => {
  it.each<[string, LeaseCandidate, LeaseCandidate, number]>([
    ['older emulation version leads', cand('a', '1.19', '1.20'), cand('b', '1.20', '1.20'), -1],
    ['the other way round', cand('a', '1.20', '1.20'), cand('b', '1.19', '1.20'), 1],
    ['same emulation: older binary leads', cand('a', '1.19', '1.19'), cand('b', '1.19', '1.20'), -1],
    ['unparseable versions count as zero (lead)', cand('a', 'xyz', 'xyz'), cand('b', '1.19', '1.20'), -1],
    [
      'same versions: created first leads',
      cand('a', '1.19', '1.19', { created: 0 }),
      cand('b', '1.19', '1.19', { created: 1 }),
      -1,
    ],
    [
      'same versions: created later',
      cand('a', '1.19', '1.19', { created: 2 }),
      cand('b', '1.19', '1.19', { created: 1 }),
      1,
    ],
  ])('%s', (_case, a, b, expected) => expect(compareCandidates(a, b)).toBe(expected));
});

describe('pickBestLeaderOldestEmulationVersion (TestPickBestLeaderOldestEmulationVersion)', () => {
  it.each<[string, LeaseCandidate[], string | undefined]>([
    ['no candidates', [], undefined],
    ['same emulation, older binary', [cand('c1', '1.19', '1.20'), cand('c2', '1.19', '1.19')], 'c2'],
    ['same binary, older emulation', [cand('c1', '1.19', '1.20'), cand('c2', '1.20', '1.20')], 'c1'],
    ['an invalid version is never elected', [cand('bad', 'xyz', '1.19'), cand('ok', '1.20', '1.20')], 'ok'],
    ['one candidate', [cand('only', '1.19', '1.20')], 'only'],
  ])('%s', (_case, candidates, name) => {
    expect(pickBestLeaderOldestEmulationVersion(candidates)?.metadata?.name).toBe(name);
  });
});

describe('pickBestStrategy (TestPickBestStrategy)', () => {
  it.each<[string, LeaseCandidate[], string]>([
    ['one candidate', [cand('a', '1.32', '1.32')], 'OldestEmulationVersion'],
    [
      'the highest binary version decides',
      [cand('a', '1.32', '1.32', { strategy: 'ThirdPartyStrategy' }), cand('b', '1.32', '1.33')],
      'OldestEmulationVersion',
    ],
    [
      'a newer binary overrides, whatever the order',
      [cand('b', '1.32', '1.33', { strategy: 'ThirdPartyStrategy' }), cand('a', '1.32', '1.32')],
      'ThirdPartyStrategy',
    ],
  ])('%s', (_case, candidates, strategy) => expect(pickBestStrategy(candidates)).toEqual({ strategy }));

  it('refuses differing strategies at the same binary version, naming both candidates', () => {
    expect(
      pickBestStrategy([
        cand('a', '1.32', '1.32'),
        cand('b', '1.32', '1.32', { strategy: 'ThirdPartyStrategy' }),
      ]),
    ).toEqual({
      error:
        'candidates "a", "b" at same binary version but received differing strategies OldestEmulationVersion, ThirdPartyStrategy',
    });
    expect(pickBestStrategy([])).toEqual({ error: 'no candidates' });
  });
});

describe('electionStep (TestReconcileElectionStep)', () => {
  const step = (l: Lease | undefined, cs: LeaseCandidate[], now: number) =>
    electionStep('kube-system', 'component-A', l, cs, T0 + now, microTime);

  it('does nothing without candidates for the lease (or with only expired ones)', () => {
    expect(step(undefined, [], 0)).toEqual({ type: 'none' });
    expect(step(undefined, [cand('x', '1.32', '1.32', { leaseName: 'other' })], 0)).toEqual({ type: 'none' });
    expect(step(undefined, [cand('old', '1.32', '1.32', { renew: -31 * 60_000 })], 0)).toEqual({
      type: 'none',
    });
  });

  it('a candidate that renewed within the election duration is elected at once: the lease is created for it', () => {
    const s = step(undefined, [cand('c1', '1.32', '1.32', { renew: -1_000 })], 0);
    expect(s).toMatchObject({ type: 'write', create: true });
    expect((s as { lease: Lease }).lease.spec).toEqual({
      holderIdentity: 'c1',
      leaseDurationSeconds: 5,
      renewTime: at(0),
      strategy: 'OldestEmulationVersion',
    });
  });

  it('candidates that have not renewed lately are pinged first, then waited for', () => {
    const s = step(undefined, [cand('c1', '1.32', '1.32', { renew: -60_000 })], 0);
    expect(s.type).toBe('ping');
    expect((s as unknown as { candidates: LeaseCandidate[] }).candidates[0]?.spec?.pingTime).toBe(at(0));
    expect(step(undefined, [cand('c1', '1.32', '1.32', { renew: -60_000, ping: -1_000 })], 0)).toEqual({
      type: 'wait',
      requeueMs: 5_000,
    });
  });

  it('a candidate that never answered its ping is left out; with nobody acked there is no election', () => {
    expect(step(undefined, [cand('c1', '1.32', '1.32', { renew: -60_000, ping: -6_000 })], 0)).toEqual({
      type: 'none',
      error: 'no available candidates',
    });
    const s = step(
      undefined,
      [
        cand('gone', '1.31', '1.31', { renew: -60_000, ping: -6_000 }),
        cand('c2', '1.32', '1.32', { renew: -1_000 }),
      ],
      0,
    );
    expect((s as { lease: Lease }).lease.spec?.holderIdentity).toBe('c2');
  });

  it('leaves a live lease alone when its holder is already the best candidate', () => {
    expect(
      step(
        lease('c1', -1_000),
        [cand('c1', '1.31', '1.31', { renew: -10_000 }), cand('c2', '1.32', '1.32', { renew: -10_000 })],
        0,
      ),
    ).toEqual({
      type: 'none',
      requeueMs: 5_000,
    });
  });

  it('a better candidate than a live holder becomes preferredHolder (end of term), after answering a ping', () => {
    const cs = [cand('c1', '1.32', '1.32', { renew: -1_000 }), cand('c2', '1.31', '1.31', { renew: -2_000 })];
    const s = step(lease('c1', -1_000), cs, 0);
    expect(s.type).toBe('write');
    expect((s as { lease: Lease }).lease.spec).toMatchObject({ holderIdentity: 'c1', preferredHolder: 'c2' });
    // already marked: nothing more to write
    expect(step(lease('c1', -1_000, { preferredHolder: 'c2' }), cs, 0).type).toBe('none');
  });

  it('an expired lease goes to the electee at once, clearing preferredHolder', () => {
    const s = step(
      lease('c1', -20_000, { preferredHolder: 'c2', acquireTime: at(-60_000) }),
      [cand('c2', '1.31', '1.31', { renew: -1_000 })],
      0,
    );
    expect(s).toMatchObject({ type: 'write', create: false });
    expect((s as { lease: Lease }).lease.spec).toEqual({
      holderIdentity: 'c2',
      leaseDurationSeconds: 5,
      renewTime: at(0),
      strategy: 'OldestEmulationVersion',
    });
    expect(isLeaseExpired(lease('c1', -20_000), T0)).toBe(true);
  });

  it('a released lease (empty holder) is given to the electee', () => {
    const s = step(
      lease('', 0, { leaseDurationSeconds: 1 }),
      [cand('c2', '1.31', '1.31', { renew: -1_000 })],
      0,
    );
    expect((s as { lease: Lease }).lease.spec?.holderIdentity).toBe('c2');
  });

  it('every 15 minutes an election refreshes the candidates, even with the best holder', () => {
    const s = step(lease('c1', -1_000), [cand('c1', '1.31', '1.31', { renew: -16 * 60_000 })], 0);
    expect(s.type).toBe('ping');
  });

  it('a third-party strategy gets a lease without holder; conflicting strategies elect nobody', () => {
    const s = step(
      undefined,
      [cand('t', '1.32', '1.32', { renew: -1_000, strategy: 'ThirdPartyStrategy' })],
      0,
    );
    expect((s as { lease: Lease }).lease.spec).toEqual({
      leaseDurationSeconds: 5,
      renewTime: at(0),
      strategy: 'ThirdPartyStrategy',
    });
    const conflict = step(
      undefined,
      [
        cand('a', '1.32', '1.32', { renew: -1_000 }),
        cand('b', '1.32', '1.32', { renew: -1_000, strategy: 'ThirdPartyStrategy' }),
      ],
      0,
    );
    expect(conflict.type).toBe('none');
    expect((conflict as { error?: string }).error).toContain('differing strategies');
  });
});
