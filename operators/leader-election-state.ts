// The leader elector's pure state machine: client-go's observed-time rules for acquiring, renewing and releasing.
import {
  type LeaderElectionRecord,
  type Lease,
  leaseToRecord,
  microTime,
  rawRecord,
  recordToLeaseSpec,
} from './leader-election-record.ts';

/**
 * What one candidate knows about the lock.
 *
 * Invariants: `observedTime` is the candidate's OWN clock reading when it last saw the record change
 * (or wrote it); the holder's timestamps inside the record are never compared with that clock, so clock
 * skew between candidates does not matter. `lease` is the last copy the server returned and carries the
 * resourceVersion used for optimistic concurrency. `observedRaw` changes only when a read shows a
 * different record, as in client-go (a successful write updates `observed` but not `observedRaw`).
 */
export interface ElectorState {
  readonly identity: string;
  readonly namespace: string;
  readonly name: string;
  /** The lease duration this candidate writes, in whole seconds. */
  readonly leaseDurationSeconds: number;
  readonly observed: LeaderElectionRecord | undefined;
  readonly observedRaw: string | undefined;
  /** Local time (ms) of the last observed change; `-Infinity` before the first observation. */
  readonly observedTime: number;
  readonly lease: Lease | undefined;
}

/** The next API call an attempt should make, or why it should not. */
export type ElectorPlan =
  | { readonly type: 'create'; readonly record: LeaderElectionRecord; readonly lease: Lease }
  | { readonly type: 'update'; readonly record: LeaderElectionRecord; readonly lease: Lease }
  | { readonly type: 'blocked'; readonly holder: string };

/**
 * A candidate that has seen nothing yet.
 * @param lock the Lease's namespace and name and this candidate's identity
 * @param leaseDurationMs the configured lease duration; written to the Lease in whole seconds
 */
export function initialElectorState(
  lock: { identity: string; namespace: string; name: string },
  leaseDurationMs: number,
): ElectorState {
  return {
    identity: lock.identity,
    namespace: lock.namespace,
    name: lock.name,
    leaseDurationSeconds: Math.floor(leaseDurationMs / 1000),
    observed: undefined,
    observedRaw: undefined,
    observedTime: Number.NEGATIVE_INFINITY,
    lease: undefined,
  };
}

/** True when the last observed record names this candidate as holder. */
export function isLeader(state: ElectorState): boolean {
  return state.observed !== undefined && state.observed.holderIdentity === state.identity;
}

/** The holder this candidate last observed (`''` for none). */
export function observedHolder(state: ElectorState): string {
  return state.observed?.holderIdentity ?? '';
}

/**
 * True while the observed lease is still live by THIS candidate's clock: observedTime plus the
 * record's lease duration is strictly after `now`.
 */
export function isLeaseValid(state: ElectorState, now: number): boolean {
  if (!state.observed) return false;
  return state.observedTime + state.observed.leaseDurationSeconds * 1000 > now;
}

/**
 * Records a Lease read from the server: the lease copy is always kept (for its resourceVersion); the
 * record and observedTime change only if the record differs from the last one read.
 */
export function observeLease(state: ElectorState, lease: Lease, now: number): ElectorState {
  const record = leaseToRecord(lease);
  const raw = rawRecord(record);
  if (raw === state.observedRaw) return { ...state, lease };
  return { ...state, lease, observed: record, observedRaw: raw, observedTime: now };
}

function desired(state: ElectorState, now: number): LeaderElectionRecord {
  const t = microTime(now);
  return {
    holderIdentity: state.identity,
    leaseDurationSeconds: state.leaseDurationSeconds,
    acquireTime: t,
    renewTime: t,
    leaderTransitions: 0,
    strategy: '',
    preferredHolder: '',
  };
}

function withRecord(lease: Lease, record: LeaderElectionRecord): Lease {
  return { ...lease, spec: recordToLeaseSpec(record) };
}

/**
 * The fast path of a renewal: a leader whose lease is still valid updates its cached Lease directly,
 * keeping the acquire time and transition count.
 * @returns the update to send, or `undefined` when the slow path (read first) is needed
 */
export function planFastRenew(
  state: ElectorState,
  now: number,
): { readonly record: LeaderElectionRecord; readonly lease: Lease } | undefined {
  if (!isLeader(state) || !isLeaseValid(state, now) || !state.lease || !state.observed) return undefined;
  const record = {
    ...desired(state, now),
    acquireTime: state.observed.acquireTime,
    leaderTransitions: state.observed.leaderTransitions,
  };
  return { record, lease: withRecord(state.lease, record) };
}

/**
 * Decides what to do after reading the lock.
 * - No Lease: create one naming this candidate (0 transitions).
 * - Another holder whose lease is still valid by observed time: blocked.
 * - Otherwise update: a renewing leader keeps acquire time and transitions; a new holder increments
 *   the transitions.
 * @param fetched the Lease read, or `undefined` when it does not exist
 * @param now the attempt's start time, used for the new record and the validity check
 * @param observedAt when the read answered (defaults to `now`), stamped as observedTime on a change
 */
export function planAfterRead(
  state: ElectorState,
  fetched: Lease | undefined,
  now: number,
  observedAt: number = now,
): { readonly state: ElectorState; readonly plan: ElectorPlan } {
  if (!fetched) {
    const record = desired(state, now);
    const lease: Lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { namespace: state.namespace, name: state.name },
      spec: recordToLeaseSpec(record),
    };
    return { state, plan: { type: 'create', record, lease } };
  }
  const next = observeLease(state, fetched, observedAt);
  const old = leaseToRecord(fetched);
  if (old.holderIdentity !== '' && isLeaseValid(next, now) && !isLeader(next)) {
    return { state: next, plan: { type: 'blocked', holder: old.holderIdentity } };
  }
  const base = desired(next, now);
  const record = isLeader(next)
    ? { ...base, acquireTime: old.acquireTime, leaderTransitions: old.leaderTransitions }
    : { ...base, leaderTransitions: old.leaderTransitions + 1 };
  return { state: next, plan: { type: 'update', record, lease: withRecord(fetched, record) } };
}

/** After a successful create or update: the written record is observed now; the server's copy is kept. */
export function afterWrite(
  state: ElectorState,
  record: LeaderElectionRecord,
  serverLease: Lease,
  now: number,
): ElectorState {
  return { ...state, observed: record, observedTime: now, lease: serverLease };
}

/**
 * Release (client-go's ReleaseOnCancel): a leader writes an empty holder with a one-second duration,
 * keeping the transition count, so others can take over at once.
 * @returns the update to send, or `undefined` when this candidate is not the observed holder
 */
export function planRelease(
  state: ElectorState,
  now: number,
): { readonly record: LeaderElectionRecord; readonly lease: Lease } | undefined {
  if (!isLeader(state) || !state.lease || !state.observed) return undefined;
  const t = microTime(now);
  const record: LeaderElectionRecord = {
    holderIdentity: '',
    leaseDurationSeconds: 1,
    acquireTime: t,
    renewTime: t,
    leaderTransitions: state.observed.leaderTransitions,
    strategy: '',
    preferredHolder: '',
  };
  return { record, lease: withRecord(state.lease, record) };
}

/** Why a coordinated candidate did not renew (see {@link planCoordinatedRenew}). */
export type CoordinatedWait = 'missing' | 'expired' | 'held' | 'endOfTerm';

/**
 * client-go's tryCoordinatedRenew, decided after reading the Lease. With coordinated leader election the
 * API server's controller picks the holder; a candidate never creates or takes the Lease, it only renews it
 * once the controller has named it holder.
 * - No Lease, or one expired by this candidate's observed time: wait.
 * - Another holder: wait (`held`).
 * - This candidate holds it but a `preferredHolder` is set (end of term): do not renew, so it expires and
 *   the controller hands it over.
 * - Otherwise renew, keeping acquire time, transitions and strategy.
 */
export function planCoordinatedRenew(
  state: ElectorState,
  fetched: Lease | undefined,
  now: number,
  observedAt: number = now,
):
  | {
      readonly state: ElectorState;
      readonly plan: { readonly type: 'wait'; readonly reason: CoordinatedWait; readonly holder: string };
    }
  | {
      readonly state: ElectorState;
      readonly plan: {
        readonly type: 'update';
        readonly record: LeaderElectionRecord;
        readonly lease: Lease;
      };
    } {
  if (!fetched) return { state, plan: { type: 'wait', reason: 'missing', holder: '' } };
  const next = observeLease(state, fetched, observedAt);
  const old = leaseToRecord(fetched);
  const wait = (reason: CoordinatedWait) => ({
    state: next,
    plan: { type: 'wait' as const, reason, holder: old.holderIdentity },
  });
  if (!isLeaseValid(next, now)) return wait('expired');
  if (!isLeader(next)) return wait('held');
  if (old.preferredHolder !== '') return wait('endOfTerm');
  const record: LeaderElectionRecord = {
    ...desired(next, now),
    acquireTime: old.acquireTime,
    leaderTransitions: old.leaderTransitions,
    strategy: old.strategy,
  };
  return { state: next, plan: { type: 'update', record, lease: withRecord(fetched, record) } };
}
