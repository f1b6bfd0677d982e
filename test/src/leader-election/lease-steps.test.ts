// Tests one acquire/renew attempt and the release against scripted API answers, as client-go's reactor tables do.
import { type Observable, of, throwError } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../operators/errors.ts';
import { type Lease, leaseToRecord, rawRecord } from '../../../operators/leader-election-record.ts';
import { type ElectorState, initialElectorState } from '../../../operators/leader-election-state.ts';
import { silentLogger } from '../../../operators/logger.ts';
import {
  type ElectorRuntime,
  releaseLease,
  tryAcquireOrRenew,
} from '../../../src/leader-election/lease-steps.ts';
import type { LeaseClient } from '../../../streams/lease-client.ts';

type Verb = 'get' | 'create' | 'update';
type Reaction = (lease?: Lease) => Observable<Lease | undefined>;

const FAR = 1000 * 3600 * 1000;
const ok: Reaction = (lease) => of({ ...lease, metadata: { ...lease?.metadata, resourceVersion: '9' } });
const notFound: Reaction = () => of(undefined);
const conflict: Reaction = () =>
  throwError(() => new ApiError(409, { kind: 'Status', code: 409, reason: 'Conflict', message: 'modified' }));
const serverError: Reaction = () =>
  throwError(
    () => new ApiError(500, { kind: 'Status', code: 500, reason: 'InternalError', message: 'oops' }),
  );
const stored =
  (spec: Lease['spec']): Reaction =>
  () =>
    of({ metadata: { namespace: 'foo', name: 'bar', resourceVersion: '3' }, ...(spec ? { spec } : {}) });

/** A client that answers each call with the next scripted reaction for its verb and records the calls. */
function scripted(reactors: [Verb, Reaction][]) {
  const calls: Verb[] = [];
  const next = (verb: Verb, lease?: Lease) => {
    calls.push(verb);
    const index = reactors.findIndex(([v]) => v === verb);
    if (index < 0) throw new Error(`unexpected ${verb}: the client was called too many times`);
    const [, reaction] = reactors.splice(index, 1)[0]!;
    return reaction(lease);
  };
  const client: LeaseClient = {
    get: () => next('get') as Observable<Lease | undefined>,
    create: (lease) => next('create', lease) as Observable<Lease>,
    update: (lease) => next('update', lease) as Observable<Lease>,
  };
  return { client, calls };
}

function runtime(
  client: LeaseClient,
  ts: TestScheduler,
  observed?: Lease['spec'],
  observedTime?: number,
): ElectorRuntime {
  let state: ElectorState = initialElectorState({ identity: 'baz', namespace: 'foo', name: 'bar' }, 10_000);
  if (observed !== undefined) {
    const record = leaseToRecord({ spec: observed });
    state = { ...state, observed: record, observedRaw: rawRecord(record), observedTime: observedTime ?? 0 };
  }
  return { state, client, scheduler: ts, logger: silentLogger };
}

function attempt(rt: ElectorRuntime): boolean | undefined {
  let result: boolean | undefined;
  tryAcquireOrRenew(rt).subscribe((v) => {
    result = v;
  });
  return result;
}

describe('tryAcquireOrRenew (client-go TestTryAcquireOrRenewLeases)', () => {
  it.each([
    [
      'acquire from no object',
      [
        ['get', notFound],
        ['create', ok],
      ],
      undefined,
      0,
      true,
      'baz',
      0,
    ],
    [
      'acquire from an object without a record',
      [
        ['get', stored(undefined)],
        ['update', ok],
      ],
      undefined,
      0,
      true,
      'baz',
      1,
    ],
    [
      'acquire from an unled object',
      [
        ['get', stored({})],
        ['update', ok],
      ],
      undefined,
      0,
      true,
      'baz',
      1,
    ],
    [
      'acquire from a led, unacked object',
      [
        ['get', stored({ holderIdentity: 'bing', leaseDurationSeconds: 10 })],
        ['update', ok],
      ],
      { holderIdentity: 'bing', leaseDurationSeconds: 10 },
      -FAR,
      true,
      'baz',
      1,
    ],
    [
      'acquire from an empty led, acked object',
      [
        ['get', stored({ holderIdentity: '' })],
        ['update', ok],
      ],
      {},
      FAR,
      true,
      'baz',
      1,
    ],
    [
      "don't acquire from a led, acked object",
      [['get', stored({ holderIdentity: 'bing', leaseDurationSeconds: 10 })]],
      {},
      FAR,
      false,
      'bing',
      0,
    ],
    [
      'renew an already acquired object (no cached lease: read first)',
      [
        ['get', stored({ holderIdentity: 'baz', leaseDurationSeconds: 10 })],
        ['update', ok],
      ],
      { holderIdentity: 'baz', leaseDurationSeconds: 10 },
      FAR,
      true,
      'baz',
      0,
    ],
    ['a failed read is "not this time"', [['get', serverError]], undefined, 0, false, '', 0],
    [
      'a conflicting create is "not this time"',
      [
        ['get', notFound],
        ['create', conflict],
      ],
      undefined,
      0,
      false,
      '',
      0,
    ],
    [
      'a conflicting update is "not this time"',
      [
        ['get', stored({})],
        ['update', conflict],
      ],
      undefined,
      0,
      false,
      '',
      0,
    ],
  ] as const)('%s', (_name, reactors, observed, observedTime, success, holder, transitions) => {
    const ts = new TestScheduler(() => {});
    const { client, calls } = scripted(reactors.map(([v, r]) => [v, r]));
    const rt = runtime(client, ts, observed, observedTime);
    expect(attempt(rt)).toBe(success);
    expect(calls).toHaveLength(reactors.length);
    expect(rt.state.observed?.holderIdentity ?? '').toBe(holder);
    expect(rt.state.observed?.leaderTransitions ?? 0).toBe(transitions);
  });

  it('acquires a led object once its lease duration has passed unchanged (retry after 3 s)', () => {
    const ts = new TestScheduler(() => {});
    const held = stored({ holderIdentity: 'bing', leaseDurationSeconds: 3 });
    const { client, calls } = scripted([
      ['get', held],
      ['get', held],
      ['update', ok],
    ]);
    const rt = runtime(client, ts);
    expect(attempt(rt)).toBe(false);
    ts.frame = 3_000;
    expect(attempt(rt)).toBe(true);
    expect(calls).toEqual(['get', 'get', 'update']);
    expect(rt.state.observed).toMatchObject({ holderIdentity: 'baz', leaderTransitions: 1 });
  });

  it('a valid leader with a cached lease renews with one update (fast path)', () => {
    const ts = new TestScheduler(() => {});
    const first = scripted([
      ['get', notFound],
      ['create', ok],
    ]);
    const rt = runtime(first.client, ts);
    expect(attempt(rt)).toBe(true);
    const second = scripted([['update', ok]]);
    const renewing = { ...rt, client: second.client };
    expect(attempt(renewing)).toBe(true);
    expect(second.calls).toEqual(['update']);
  });

  it('a failed fast path falls back to reading the lease', () => {
    const ts = new TestScheduler(() => {});
    const first = scripted([
      ['get', notFound],
      ['create', ok],
    ]);
    const rt = runtime(first.client, ts);
    attempt(rt);
    const second = scripted([
      ['update', conflict],
      ['get', stored({ holderIdentity: 'baz', leaseDurationSeconds: 10 })],
      ['update', ok],
    ]);
    const renewing = { ...rt, client: second.client };
    expect(attempt(renewing)).toBe(true);
    expect(second.calls).toEqual(['update', 'get', 'update']);
  });
});

describe('releaseLease (client-go TestReleaseLeaseLeases)', () => {
  it('releases an acquired lock: holder empty, three calls in all', () => {
    const ts = new TestScheduler(() => {});
    const released: Lease[] = [];
    const { client, calls } = scripted([
      ['get', notFound],
      ['create', ok],
      [
        'update',
        (lease) => {
          released.push(lease!);
          return ok(lease);
        },
      ],
    ]);
    const rt = runtime(client, ts);
    expect(attempt(rt)).toBe(true);
    let result: boolean | undefined;
    releaseLease(rt).subscribe((v) => {
      result = v;
    });
    expect(result).toBe(true);
    expect(calls).toEqual(['get', 'create', 'update']);
    expect(rt.state.observed?.holderIdentity).toBe('');
    expect(released[0]?.spec).toMatchObject({
      holderIdentity: '',
      leaseDurationSeconds: 1,
      leaseTransitions: 0,
    });
  });

  it('is a no-op for a candidate that does not hold the lease', () => {
    const ts = new TestScheduler(() => {});
    const { client, calls } = scripted([]);
    let result: boolean | undefined;
    releaseLease(runtime(client, ts, { holderIdentity: 'bing' })).subscribe((v) => {
      result = v;
    });
    expect(result).toBe(true);
    expect(calls).toEqual([]);
  });

  it('after a conflict, stops if someone else now holds the lease', () => {
    const ts = new TestScheduler(() => {});
    const { client, calls } = scripted([
      ['get', notFound],
      ['create', ok],
      ['update', conflict],
      ['get', stored({ holderIdentity: 'bing', leaseDurationSeconds: 10 })],
    ]);
    const rt = runtime(client, ts);
    attempt(rt);
    let result: boolean | undefined;
    releaseLease(rt).subscribe((v) => {
      result = v;
    });
    expect(result).toBe(true);
    expect(calls).toEqual(['get', 'create', 'update', 'get']);
  });

  it('reports failure when the write fails', () => {
    const ts = new TestScheduler(() => {});
    const { client } = scripted([
      ['get', notFound],
      ['create', ok],
      ['update', serverError],
    ]);
    const rt = runtime(client, ts);
    attempt(rt);
    let result: boolean | undefined;
    releaseLease(rt).subscribe((v) => {
      result = v;
    });
    expect(result).toBe(false);
  });
});
