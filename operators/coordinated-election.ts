// Coordinated leader election's pure rules: LeaseCandidates, the OldestEmulationVersion pick, and one election step.
import type { Lease } from './leader-election-record.ts';
import type { KubeObject } from './types.ts';

/** The strategy kube-apiserver's coordinated leader election controller knows how to elect for. */
export const OLDEST_EMULATION_VERSION = 'OldestEmulationVersion';
/** The candidate strategy the controller leaves to a third-party elector. */
export const THIRD_PARTY_STRATEGY = 'ThirdPartyStrategy';

/** How long after an election starts candidates have to answer a ping (kube-apiserver's electionDuration). */
export const ELECTION_DURATION_MS = 5_000;
/** A candidate that has not renewed for this long is ignored (and garbage collected). */
export const LEASE_CANDIDATE_VALID_MS = 30 * 60_000;
/** The lease duration the controller writes for an elected holder. */
export const ELECTED_LEASE_DURATION_SECONDS = 5;
/** How often the controller looks at a lease again while an election may be needed. */
export const ELECTION_REQUEUE_MS = 5_000;

/** A `coordination.k8s.io/v1beta1` LeaseCandidate. Times are MicroTime strings. */
export interface LeaseCandidate extends KubeObject {
  spec?: {
    leaseName: string;
    pingTime?: string;
    renewTime?: string;
    binaryVersion: string;
    emulationVersion?: string;
    strategy: string;
  };
}

/** A version as kube-apiserver's semver.ParseTolerant reads it: `v1.33`, `1.33.0`, `1.33.0-alpha.1`. */
interface Version {
  major: number;
  minor: number;
  patch: number;
  pre: string[];
}

const VERSION = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/** Parses a version tolerantly; undefined when it is not one. */
export function parseTolerantVersion(text: string | undefined): Version | undefined {
  const m = VERSION.exec((text ?? '').trim());
  if (!m) return undefined;
  return {
    major: Number(m[1]),
    minor: Number(m[2] ?? 0),
    patch: Number(m[3] ?? 0),
    pre: m[4] ? m[4].split('.') : [],
  };
}

const ZERO: Version = { major: 0, minor: 0, patch: 0, pre: [] };

/** Semantic version order: -1, 0 or 1. A pre-release sorts before its release. */
export function compareVersions(a: Version, b: Version): number {
  for (const k of ['major', 'minor', 'patch'] as const) {
    if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  }
  if (a.pre.length === 0 || b.pre.length === 0) {
    return a.pre.length === b.pre.length ? 0 : a.pre.length === 0 ? 1 : -1;
  }
  for (let i = 0; i < Math.max(a.pre.length, b.pre.length); i++) {
    const x = a.pre[i];
    const y = b.pre[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (xn && yn) return Number(x) < Number(y) ? -1 : 1;
    if (xn !== yn) return xn ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

const emulationOf = (c: LeaseCandidate) => parseTolerantVersion(c.spec?.emulationVersion) ?? ZERO;
const binaryOf = (c: LeaseCandidate) => parseTolerantVersion(c.spec?.binaryVersion) ?? ZERO;
const timeOf = (t: string | undefined) => (t ? Date.parse(t) : Number.NaN);

/** -1 when `a` should lead rather than `b`: older emulation version, then older binary, then created first. */
export function compareCandidates(a: LeaseCandidate, b: LeaseCandidate): number {
  const byEmulation = compareVersions(emulationOf(a), emulationOf(b));
  if (byEmulation !== 0) return byEmulation;
  const byBinary = compareVersions(binaryOf(a), binaryOf(b));
  if (byBinary !== 0) return byBinary;
  return timeOf(a.metadata?.creationTimestamp) > timeOf(b.metadata?.creationTimestamp) ? 1 : -1;
}

/** The candidate OldestEmulationVersion elects, among those whose versions parse; undefined when none. */
export function pickBestLeaderOldestEmulationVersion(
  candidates: readonly LeaseCandidate[],
): LeaseCandidate | undefined {
  let electee: LeaseCandidate | undefined;
  for (const c of candidates) {
    if (!parseTolerantVersion(c.spec?.emulationVersion) || !parseTolerantVersion(c.spec?.binaryVersion))
      continue;
    if (!electee || compareCandidates(electee, c) > 0) electee = c;
  }
  return electee;
}

/**
 * The strategy of the candidate with the highest binary version; candidates at that same version must
 * agree, else the error names both (kube-apiserver's pickBestStrategy).
 */
export function pickBestStrategy(
  candidates: readonly LeaseCandidate[],
): { strategy: string } | { error: string } {
  const [first, ...rest] = candidates;
  if (!first) return { error: 'no candidates' };
  let name = first.metadata?.name ?? '';
  let strategy = first.spec?.strategy ?? '';
  let highest = binaryOf(first);
  for (const c of rest) {
    const v = binaryOf(c);
    const cmp = compareVersions(highest, v);
    if (cmp < 0) {
      strategy = c.spec?.strategy ?? '';
      highest = v;
      name = c.metadata?.name ?? '';
    } else if (cmp === 0 && (c.spec?.strategy ?? '') !== strategy) {
      return {
        error: `candidates "${name}", "${c.metadata?.name ?? ''}" at same binary version but received differing strategies ${strategy}, ${c.spec?.strategy ?? ''}`,
      };
    }
  }
  return { strategy };
}

/** A lease with no renew time or duration, or whose renewTime + duration is before now. */
export function isLeaseExpired(lease: Lease, now: number): boolean {
  const renew = timeOf(lease.spec?.renewTime);
  const seconds = lease.spec?.leaseDurationSeconds;
  return Number.isNaN(renew) || seconds === undefined || renew + seconds * 1000 < now;
}

/** A candidate that has not renewed within {@link LEASE_CANDIDATE_VALID_MS}. */
export function isLeaseCandidateExpired(candidate: LeaseCandidate, now: number): boolean {
  const renew = timeOf(candidate.spec?.renewTime);
  return Number.isNaN(renew) || renew + LEASE_CANDIDATE_VALID_MS < now;
}

/** True when the candidate was pinged and has not answered yet (pingTime after renewTime). */
export function isPinged(candidate: LeaseCandidate): boolean {
  const ping = timeOf(candidate.spec?.pingTime);
  const renew = timeOf(candidate.spec?.renewTime);
  return !Number.isNaN(ping) && (Number.isNaN(renew) || renew < ping);
}

/** The controller's timing; kube-apiserver's constants by default (tests shorten them). */
export interface ElectionTiming {
  electionDurationMs: number;
  requeueMs: number;
}

export const DEFAULT_ELECTION_TIMING: Readonly<ElectionTiming> = Object.freeze({
  electionDurationMs: ELECTION_DURATION_MS,
  requeueMs: ELECTION_REQUEUE_MS,
});

/** What one election step asks the controller to do. */
export type ElectionStep =
  | { type: 'none'; requeueMs?: number; error?: string }
  | { type: 'ping'; candidates: readonly LeaseCandidate[]; requeueMs: number }
  | { type: 'wait'; requeueMs?: number }
  | { type: 'write'; lease: Lease; create: boolean; requeueMs: number };

function electionNeeded(
  candidates: readonly LeaseCandidate[],
  lease: Lease | undefined,
  now: number,
): { needed: boolean; error?: string } {
  // (the 15-minute refresh below is kube-apiserver's, independent of the election timing)
  if (!lease || isLeaseExpired(lease, now) || !lease.spec?.holderIdentity) return { needed: true };
  // every 15 minutes an election refreshes every candidate (they are collected after 30)
  for (const c of candidates) {
    const renew = timeOf(c.spec?.renewTime);
    if (!Number.isNaN(renew) && renew + LEASE_CANDIDATE_VALID_MS / 2 < now) return { needed: true };
  }
  const prelim = pickBestStrategy(candidates);
  if ('error' in prelim) return { needed: false, error: prelim.error };
  if (prelim.strategy !== OLDEST_EMULATION_VERSION) return { needed: false };
  const electee = pickBestLeaderOldestEmulationVersion(candidates);
  if (!electee) return { needed: false };
  return { needed: electee.metadata?.name !== lease.spec.holderIdentity };
}

/**
 * One step of kube-apiserver's coordinated leader election for one lease, from the lease (if any), the
 * lease's unexpired candidates and the time: nothing to do; ping the candidates that have not renewed
 * within the election duration and wait for their answers; or elect, writing the lease. A better
 * candidate than a live holder is set as `preferredHolder` (the holder then stops renewing and the lease
 * expires); an expired or empty lease is given to the electee at once.
 * @param microTime formats ms as the API's MicroTime
 * @param timing election duration and requeue period (kube-apiserver's 5 s and 5 s by default)
 */
export function electionStep(
  leaseNamespace: string,
  leaseName: string,
  lease: Lease | undefined,
  allCandidates: readonly LeaseCandidate[],
  now: number,
  microTime: (ms: number) => string,
  timing: ElectionTiming = DEFAULT_ELECTION_TIMING,
): ElectionStep {
  const electionMs = timing.electionDurationMs;
  const requeueMs = timing.requeueMs;
  const candidates = allCandidates.filter(
    (c) => c.spec?.leaseName === leaseName && !isLeaseCandidateExpired(c, now),
  );
  if (candidates.length === 0) return { type: 'none' };
  const need = electionNeeded(candidates, lease, now);
  if (!need.needed) {
    return need.error ? { type: 'none', requeueMs, error: need.error } : { type: 'none', requeueMs };
  }

  let canVoteYet = true;
  const toPing: LeaseCandidate[] = [];
  for (const c of candidates) {
    const ping = timeOf(c.spec?.pingTime);
    const renew = timeOf(c.spec?.renewTime);
    if (!Number.isNaN(ping) && ping + electionMs > now && !Number.isNaN(renew) && renew < ping) {
      canVoteYet = false; // still waiting for its answer
      continue;
    }
    if (!Number.isNaN(renew) && renew + electionMs > now) continue; // answered recently
    if (Number.isNaN(ping) || (ping + electionMs < now && ping < renew)) {
      toPing.push({ ...c, spec: { ...c.spec!, pingTime: microTime(now) } });
      canVoteYet = false;
    }
  }
  if (toPing.length > 0) return { type: 'ping', candidates: toPing, requeueMs };
  if (!canVoteYet) return { type: 'wait', requeueMs };
  for (const c of candidates) {
    const ping = timeOf(c.spec?.pingTime);
    if (Number.isNaN(ping)) continue;
    const renew = timeOf(c.spec?.renewTime);
    if (!Number.isNaN(renew) && ping < renew) continue; // answered
    if (ping + electionMs > now) return { type: 'wait' };
  }
  const acked = candidates.filter((c) => timeOf(c.spec?.renewTime) + electionMs > now);
  if (acked.length === 0) return { type: 'none', error: 'no available candidates' };
  const best = pickBestStrategy(acked);
  if ('error' in best) return { type: 'none', error: best.error };
  const electee =
    best.strategy === OLDEST_EMULATION_VERSION ? pickBestLeaderOldestEmulationVersion(acked) : undefined;
  if (best.strategy === OLDEST_EMULATION_VERSION && !electee) {
    return { type: 'none', error: 'should not happen, could not find suitable electee' };
  }
  const holder = electee?.metadata?.name;
  if (!lease) {
    const spec: NonNullable<Lease['spec']> = {
      strategy: best.strategy,
      leaseDurationSeconds: ELECTED_LEASE_DURATION_SECONDS,
      renewTime: microTime(now),
    };
    if (holder) spec.holderIdentity = holder;
    return {
      type: 'write',
      create: true,
      requeueMs,
      lease: {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { namespace: leaseNamespace, name: leaseName },
        spec,
      },
    };
  }
  const spec = { ...lease.spec };
  let changed = false;
  if (spec.strategy !== best.strategy) {
    spec.strategy = best.strategy;
    changed = true;
  }
  const current = spec.holderIdentity ?? '';
  if (holder && (current === '' || (isLeaseExpired(lease, now) && current !== holder))) {
    delete spec.preferredHolder;
    delete spec.acquireTime;
    spec.holderIdentity = holder;
    spec.renewTime = microTime(now);
    spec.leaseDurationSeconds = ELECTED_LEASE_DURATION_SECONDS;
    changed = true;
  } else if (holder && holder !== current && spec.preferredHolder !== holder) {
    spec.preferredHolder = holder;
    changed = true;
  }
  if (!changed) return { type: 'none', requeueMs };
  return { type: 'write', create: false, requeueMs, lease: { ...lease, spec } };
}
