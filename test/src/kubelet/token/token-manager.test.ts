// tokenManager: upstream's token_manager_test cases (caching, refresh at 80 % or 24 h, fallback, delete by pod, cleanup, keys).
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import {
  type GetToken,
  requiresRefresh,
  type TokenRequest,
  tokenCacheKey,
  tokenManager,
} from '../../../../src/kubelet/token/token-manager.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const START = Date.UTC(2026, 0, 31);
const iso = (ms: number) => new Date(ms).toISOString();

function issued(token: string, lifetimeMs: number, at: number): TokenRequest {
  return {
    spec: { expirationSeconds: lifetimeMs / 1000 },
    status: { token, expirationTimestamp: iso(at + lifetimeMs) },
  };
}

/** A getter that counts its calls and answers `answer(now)` or fails. */
function counting(answer: () => TokenRequest | Error) {
  const calls: string[] = [];
  const getToken: GetToken = async (ns, name) => {
    calls.push(`${ns}/${name}`);
    const a = answer();
    if (a instanceof Error) throw a;
    return a;
  };
  return { calls, getToken };
}

const request = (over: Partial<TokenRequest['spec']> = {}, uid?: string): TokenRequest => ({
  ...(uid ? { metadata: { uid } } : {}),
  spec: { audiences: ['foo1', 'foo2'], expirationSeconds: 3600, ...over },
});

describe('tokenManager caching and expiry', () => {
  it.each([
    { name: 'an hour token is rotated in its last 12 minutes', lifetime: HOUR, after: 50 * MIN, calls: 2 },
    { name: 'a 40 h token is rotated after 24 h', lifetime: 40 * HOUR, after: 25 * HOUR, calls: 2 },
    { name: 'an hour token is kept at 10 minutes', lifetime: HOUR, after: 10 * MIN, calls: 1 },
  ])('$name', async ({ lifetime, after, calls }) => {
    let now = START;
    const g = counting(() => issued('foo', lifetime, START));
    const m = tokenManager({ getToken: g.getToken, now: () => now, random: () => 0 });
    await m.getServiceAccountToken('a', 'b', request());
    await m.getServiceAccountToken('a', 'b', request());
    expect(g.calls).toHaveLength(1);
    now += after;
    await m.getServiceAccountToken('a', 'b', request());
    expect(g.calls).toHaveLength(calls);
  });

  it('keeps the old token when a refresh fails while it is still valid', async () => {
    let now = START;
    let fail = false;
    const g = counting(() => (fail ? new Error('err') : issued('foo', HOUR, START)));
    const m = tokenManager({ getToken: g.getToken, now: () => now, random: () => 0 });
    await m.getServiceAccountToken('a', 'b', request());
    now += 50 * MIN;
    fail = true;
    expect((await m.getServiceAccountToken('a', 'b', request())).status?.token).toBe('foo');
  });

  it('fails once the old token has expired and the refresh fails', async () => {
    let now = START;
    let fail = false;
    const g = counting(() => (fail ? new Error('err') : issued('foo', HOUR, START)));
    const m = tokenManager({ getToken: g.getToken, now: () => now, random: () => 0 });
    await m.getServiceAccountToken('a', 'b', request());
    now += 2 * HOUR;
    fail = true;
    await expect(m.getServiceAccountToken('a', 'b', request())).rejects.toThrow(
      /^token .* expired and refresh failed: err$/,
    );
  });

  it('says it failed to fetch when nothing is cached', async () => {
    const g = counting(() => new Error('serviceaccounts "b" not found'));
    const m = tokenManager({ getToken: g.getToken, now: () => START });
    await expect(m.getServiceAccountToken('a', 'b', request())).rejects.toThrow(
      'failed to fetch token: serviceaccounts "b" not found',
    );
  });

  it.each([
    {
      name: 'a recreated service account (another uid) misses the cache',
      uids: ['uid-1', 'uid-2'],
      calls: 2,
    },
    { name: 'the same service account uid hits the cache', uids: ['uid-1', 'uid-1'], calls: 1 },
  ])('$name', async ({ uids, calls }) => {
    const g = counting(() => issued('foo', HOUR, START));
    const m = tokenManager({ getToken: g.getToken, now: () => START });
    for (const uid of uids)
      await m.getServiceAccountToken(
        'a',
        'b',
        request({ boundObjectRef: { kind: 'Pod', name: 'p', uid: 'p1' } }, uid),
      );
    expect(g.calls).toHaveLength(calls);
  });
});

describe('requiresRefresh', () => {
  it.each([
    { now: 10 * MIN, exp: 60 * MIN, refresh: false },
    { now: 50 * MIN, exp: 60 * MIN, refresh: true },
    { now: 25 * HOUR, exp: 60 * HOUR, refresh: true },
    { now: 70 * MIN, exp: 60 * MIN, refresh: true },
    { now: 0, exp: 60 * MIN, refresh: false, noSeconds: true },
    { now: -5 * MIN, exp: 60 * MIN, refresh: true, label: 'issued in the future (clock leapt back)' },
  ])('now +$now ms, expiry +$exp ms: $refresh', ({ now, exp, refresh, noSeconds }) => {
    const tr: TokenRequest = {
      spec: noSeconds ? {} : { expirationSeconds: exp / 1000 },
      status: { token: 't', expirationTimestamp: iso(START + exp) },
    };
    expect(requiresRefresh(tr, START + now)).toBe(refresh);
  });

  it('refreshes up to 10 s early with jitter', () => {
    const tr = issued('t', HOUR, START);
    const edge = START + 48 * MIN - 5_000;
    expect(requiresRefresh(tr, edge, 0)).toBe(false);
    expect(requiresRefresh(tr, edge, 9.9)).toBe(true);
  });
});

describe('deleteServiceAccountToken', () => {
  const requests = [1, 2, 3, 4, 4].map((i, index) => ({
    ns: `fake-namespace-${i}`,
    name: `fake-name-${i}`,
    fail: index === 3,
    tr: { spec: { boundObjectRef: { uid: `fake-uid-${i}`, name: `fake-name-${i}` } } } as TokenRequest,
  }));
  it.each([
    { name: 'delete none, all succeeded', sent: [0, 1, 2], del: [], left: [0, 1, 2] },
    { name: 'delete one, all succeeded', sent: [0, 1, 2], del: ['fake-uid-1'], left: [1, 2] },
    { name: 'delete two, all succeeded', sent: [0, 1, 2], del: ['fake-uid-1', 'fake-uid-3'], left: [1] },
    { name: 'delete all', sent: [0, 1, 2], del: ['fake-uid-1', 'fake-uid-2', 'fake-uid-3'], left: [] },
    { name: 'delete none, one failed', sent: [0, 1, 2, 3], del: [], left: [0, 1, 2] },
    { name: 'delete another pod, one failed', sent: [0, 1, 2, 3], del: ['fake-uid-2'], left: [0, 2] },
    { name: 'delete none, a retry succeeded', sent: [0, 1, 2, 3, 4], del: [], left: [0, 1, 2, 4] },
    {
      name: 'delete the pod that succeeded on retry',
      sent: [0, 1, 2, 3, 4],
      del: ['fake-uid-4'],
      left: [0, 1, 2],
    },
    {
      name: 'delete another, a retry succeeded',
      sent: [0, 1, 2, 3, 4],
      del: ['fake-uid-1'],
      left: [1, 2, 4],
    },
    {
      name: 'delete pods not in the cache',
      sent: [0, 1, 2],
      del: ['fake-uid-100', 'fake-uid-200'],
      left: [0, 1, 2],
    },
  ])('$name', async ({ sent, del, left }) => {
    let fail = false;
    const m = tokenManager({
      getToken: async (_ns, _name, tr) => {
        if (fail) throw new Error('fail tr');
        return { ...tr, status: { token: 'x', expirationTimestamp: iso(START + 10 * HOUR) } };
      },
      now: () => START,
    });
    for (const i of sent) {
      const r = requests[i];
      if (!r) throw new Error('no request');
      fail = r.fail;
      await m.getServiceAccountToken(r.ns, r.name, r.tr).catch(() => undefined);
    }
    for (const uid of del) m.deleteServiceAccountToken(uid);
    expect(m.size).toBe(left.length);
    for (const i of left) {
      const r = requests[i];
      if (!r) throw new Error('no request');
      expect(m.has(r.ns, r.name, r.tr)).toBe(true);
    }
  });
});

describe('cleanup', () => {
  it.each([
    { name: 'an expired token is dropped', relative: -HOUR, left: 0 },
    { name: 'a valid token is kept', relative: HOUR, left: 1 },
  ])('$name', async ({ relative, left }) => {
    let now = START;
    const m = tokenManager({
      getToken: async () => issued('t', 2 * HOUR, START - 2 * HOUR + relative),
      now: () => now,
    });
    now = START - 3 * HOUR; // the token is fresh when fetched
    await m.getServiceAccountToken('a', 'b', request());
    now = START;
    m.cleanup();
    expect(m.size).toBe(left);
  });

  it('cleanup$ runs every minute in virtual time and stops on unsubscribe', () => {
    new TestScheduler((a, b) => expect(a).toEqual(b)).run(({ expectObservable }) => {
      const m = tokenManager({ getToken: async () => issued('t', HOUR, START), now: () => START });
      expectObservable(m.cleanup$(60_000), '^ 150s !').toBe('1m a 59999ms a', { a: 0 });
    });
  });
});

describe('tokenCacheKey', () => {
  const base = {
    audiences: ['foo1', 'foo2'],
    expirationSeconds: 2000,
    boundObjectRef: { kind: 'pod', name: 'foo-pod', uid: 'foo-uid' },
  };
  it.each([
    { name: 'the same request hits', other: base, ns: 'foo-ns', hit: true },
    { name: 'another namespace misses', other: base, ns: 'ame-ns', hit: false },
    { name: 'other audiences miss', other: { ...base, audiences: ['foo1'] }, ns: 'foo-ns', hit: false },
    {
      name: 'another lifetime misses',
      other: { ...base, expirationSeconds: 2001 },
      ns: 'foo-ns',
      hit: false,
    },
    {
      name: 'another bound pod uid misses',
      other: { ...base, boundObjectRef: { ...base.boundObjectRef, uid: 'other' } },
      ns: 'foo-ns',
      hit: false,
    },
  ])('$name', ({ other, ns, hit }) => {
    const a = tokenCacheKey('foo-ns', 'foo-sa', { spec: base });
    const b = tokenCacheKey(ns, 'foo-sa', { spec: other });
    expect(a === b).toBe(hit);
  });
});
