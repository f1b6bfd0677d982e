// Tests leaderElection in virtual time: acquire, renew, losing after the renew deadline, release, hand-over, gating.
import { EMPTY, interval, map, NEVER, Observable, of, switchMap, take, throwError } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { ApiError, InvalidConfigError } from '../../../operators/errors.ts';
import type { Lease } from '../../../operators/leader-election-record.ts';
import { inMemoryLeases } from '../../../src/leader-election/in-memory-leases.ts';
import { type LeaderElectionConfig, leaderElection } from '../../../src/leader-election/leader-election.ts';
import type { LeaseClient } from '../../../streams/lease-client.ts';

const B = { t: true, f: false };
const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

function candidate(
  ts: TestScheduler,
  client: LeaseClient,
  identity: string,
  extra: Partial<LeaderElectionConfig> = {},
) {
  return leaderElection({
    client,
    namespace: 'kube-system',
    name: 'lock',
    identity,
    scheduler: ts,
    random: () => 0,
    ...extra,
  });
}

describe('leaderElection', () => {
  it('acquires a free lease at once and keeps it while renewals succeed', () => {
    const ts = scheduler();
    ts.run(({ expectObservable }) => {
      const leases = inMemoryLeases({ scheduler: ts });
      const leader$ = candidate(ts, leases.client(), 'a');
      expectObservable(leader$, '^ 59999ms !').toBe('(ft)', B);
    });
  });

  it('renews every retry period and releases on unsubscribe (empty holder, 1 s, transitions kept)', () => {
    const ts = scheduler();
    const leases = inMemoryLeases({ scheduler: ts });
    ts.run(({ expectObservable }) => {
      expectObservable(candidate(ts, leases.client(), 'a'), '^ 9999ms !').toBe('(ft)', B);
    });
    const holders = leases.writes.map((w) => w.spec?.holderIdentity);
    // create at 0, immediate renewal at 0, renewals at 2, 4, 6, 8 s, release at 10 s
    expect(holders).toEqual(['a', 'a', 'a', 'a', 'a', 'a', '']);
    expect(leases.get('kube-system', 'lock')?.spec).toMatchObject({
      holderIdentity: '',
      leaseDurationSeconds: 1,
      leaseTransitions: 0,
    });
  });

  it('stops leading when no renewal succeeds within the renew deadline', () => {
    const ts = scheduler();
    ts.run(({ expectObservable }) => {
      const leases = inMemoryLeases({ scheduler: ts });
      const client = leases.client();
      ts.schedule(() => client.partition('fail'), 3_000);
      // last renewal at 2 s; the round at 4 s fails until its deadline at 14 s
      expectObservable(candidate(ts, client, 'a'), '^ 19999ms !').toBe('(ft) 13996ms f', B);
    });
  });

  it('a hung renewal is abandoned at the deadline', () => {
    const ts = scheduler();
    ts.run(({ expectObservable }) => {
      const leases = inMemoryLeases({ scheduler: ts });
      const client = leases.client();
      ts.schedule(() => client.partition('hang'), 3_000);
      expectObservable(candidate(ts, client, 'a'), '^ 19999ms !').toBe('(ft) 13996ms f', B);
    });
  });

  it('stopOnLoss completes after losing, like client-go Run returning', () => {
    const ts = scheduler();
    ts.run(({ expectObservable }) => {
      const leases = inMemoryLeases({ scheduler: ts });
      const client = leases.client();
      ts.schedule(() => client.partition('fail'), 3_000);
      expectObservable(candidate(ts, client, 'a', { stopOnLoss: true })).toBe('(ft) 13996ms (f|)', B);
    });
  });

  it('another candidate waits for the lease to expire by its own observed time, then takes over', () => {
    const ts = scheduler();
    const leases = inMemoryLeases({ scheduler: ts });
    const newLeaders: string[] = [];
    ts.run(({ expectObservable }) => {
      const a = leases.client();
      ts.schedule(() => a.partition('hang'), 3_000);
      expectObservable(candidate(ts, a, 'a'), '^ 29999ms !').toBe('(ft) 13996ms f', B);
      // b last sees the record change at 2 s (a's renewal), so it expires at 17 s; b retries at even seconds
      expectObservable(
        candidate(ts, leases.client(), 'b', { onNewLeader: (id) => newLeaders.push(id) }),
        '^ 29999ms !',
      ).toBe('f 17999ms t', B);
    });
    expect(newLeaders).toEqual(['a', 'b']);
    const last = leases.writes.at(-1);
    expect(last?.spec?.holderIdentity).toBe('');
    const takeover = leases.writes.find((w) => w.spec?.holderIdentity === 'b');
    expect(takeover?.spec?.leaseTransitions).toBe(1);
  });

  it('a released lease is taken over at the next retry', () => {
    const ts = scheduler();
    const leases = inMemoryLeases({ scheduler: ts });
    ts.run(({ expectObservable }) => {
      expectObservable(candidate(ts, leases.client(), 'a'), '^ 4999ms !').toBe('(ft)', B);
      // a releases at 5 s; b, retrying every 2 s, takes it at 6 s
      expectObservable(candidate(ts, leases.client(), 'b'), '^ 9999ms !').toBe('f 5999ms t', B);
    });
    expect(leases.writes.filter((w) => w.spec?.holderIdentity === 'b')[0]?.spec?.leaseTransitions).toBe(1);
  });

  it('steps down at once when a read shows another holder with a valid lease', () => {
    const ts = scheduler();
    const leases = inMemoryLeases({ scheduler: ts });
    ts.run(({ expectObservable }) => {
      const intruder = leases.client();
      ts.schedule(() => {
        const current = leases.get('kube-system', 'lock')!;
        intruder
          .update({ ...current, spec: { ...current.spec, holderIdentity: 'x', leaseDurationSeconds: 15 } })
          .subscribe();
      }, 3_000);
      // at 4 s the fast path hits a 409, the read shows x holding a fresh lease
      expectObservable(candidate(ts, leases.client(), 'a'), '^ 4999ms !').toBe('(ft) 3996ms f', B);
    });
    expect(leases.get('kube-system', 'lock')?.spec?.holderIdentity).toBe('x');
  });

  it('retries acquisition with jitter: retryPeriod × (1 + random × 1.2)', () => {
    const ts = scheduler();
    const leases = inMemoryLeases({ scheduler: ts });
    const reads: number[] = [];
    const base = leases.client();
    const counting: LeaseClient = {
      ...base,
      get: (ns, name) => {
        reads.push(ts.now());
        return base.get(ns, name);
      },
    };
    leases
      .client()
      .create({
        metadata: { namespace: 'kube-system', name: 'lock' },
        spec: { holderIdentity: 'z', leaseDurationSeconds: 60 },
      })
      .subscribe();
    ts.run(({ expectObservable }) => {
      expectObservable(candidate(ts, counting, 'a', { random: () => 0.5 }), '^ 10000ms !').toBe('f', B);
    });
    expect(reads).toEqual([0, 3_200, 6_400, 9_600]);
  });

  it('gates work: the work runs only while leading', () => {
    const ts = scheduler();
    ts.run(({ expectObservable }) => {
      const leases = inMemoryLeases({ scheduler: ts });
      const client = leases.client();
      ts.schedule(() => client.partition('fail'), 3_000);
      const work$ = candidate(ts, client, 'a').pipe(
        switchMap((lead) => (lead ? interval(5_000, ts).pipe(map((i) => `w${i}`)) : EMPTY)),
      );
      // ticks at 5 s and 10 s; leadership ends at 14 s, so no tick at 15 s
      expectObservable(work$, '^ 19999ms !').toBe('5000ms a 4999ms b', { a: 'w0', b: 'w1' });
    });
  });

  it('a graceful stop via signal emits false, waits for the release and completes', () => {
    const ts = scheduler();
    const leases = inMemoryLeases({ scheduler: ts });
    const stop = new AbortController();
    ts.run(({ expectObservable }) => {
      ts.schedule(() => stop.abort(), 3_000);
      expectObservable(candidate(ts, leases.client({ latency: 10 }), 'a', { signal: stop.signal })).toBe(
        'f 19ms t 2979ms f 9ms |',
        B,
      );
    });
    expect(leases.get('kube-system', 'lock')?.spec?.holderIdentity).toBe('');
  });

  it('shares one campaign among subscribers and replays the latest value', () => {
    const ts = scheduler();
    const leases = inMemoryLeases({ scheduler: ts });
    ts.run(({ expectObservable, cold }) => {
      const leader$ = candidate(ts, leases.client(), 'a');
      expectObservable(leader$, '^ 9999ms !').toBe('(ft)', B);
      const late$ = cold('3000ms x').pipe(switchMap(() => leader$));
      expectObservable(late$, '^ 9999ms !').toBe('3000ms t', B);
    });
    expect(
      leases.writes.filter((w) => w.spec?.holderIdentity === 'a' && w.metadata?.resourceVersion === '1'),
    ).toHaveLength(1);
    expect(leases.writes.filter((w) => w.spec?.holderIdentity === '')).toHaveLength(1);
  });

  describe('the five questions', () => {
    it('values: false first, then true (see above); errors: invalid configuration throws', () => {
      const leases = inMemoryLeases();
      expect(() =>
        leaderElection({ client: leases.client(), namespace: 'ns', name: 'l', identity: '' }),
      ).toThrow(InvalidConfigError);
      expect(() =>
        leaderElection({
          client: leases.client(),
          namespace: 'ns',
          name: 'l',
          identity: 'a',
          renewDeadline: 20_000,
        }),
      ).toThrow(/leaseDuration must be greater than renewDeadline/);
    });

    it('client errors are values: a throwing client never errors the stream', () => {
      const ts = scheduler();
      const broken: LeaseClient = {
        get: () => throwError(() => new Error('boom')),
        create: () => {
          throw new Error('sync boom');
        },
        update: () => throwError(() => new Error('boom')),
      };
      ts.run(({ expectObservable }) => {
        expectObservable(candidate(ts, broken, 'a'), '^ 9999ms !').toBe('f', B);
      });
    });

    it('empty: a client whose calls complete without a value counts as failure', () => {
      const ts = scheduler();
      const empty: LeaseClient = { get: () => EMPTY, create: () => EMPTY, update: () => EMPTY };
      ts.run(({ expectObservable }) => {
        expectObservable(candidate(ts, empty, 'a'), '^ 9999ms !').toBe('f', B);
      });
    });

    it('early unsubscribe aborts the in-flight request: the write never lands', () => {
      const ts = scheduler();
      const leases = inMemoryLeases({ scheduler: ts });
      ts.run(({ expectObservable }) => {
        expectObservable(candidate(ts, leases.client({ latency: 50 }), 'a'), '^ 60ms !').toBe('f', B);
      });
      // the read took effect at 50 ms, the create was aborted at 60 ms
      expect(leases.writes).toEqual([]);
    });

    it('synchronous client then take: completes after the first two values and releases', () => {
      const ts = scheduler();
      const leases = inMemoryLeases({ scheduler: ts });
      ts.run(({ expectObservable }) => {
        expectObservable(candidate(ts, leases.client(), 'a').pipe(take(2))).toBe('(ft|)', B);
      });
      expect(leases.get('kube-system', 'lock')?.spec?.holderIdentity).toBe('');
    });
  });

  it('onNewLeader throwing is logged, not fatal', () => {
    const ts = scheduler();
    const errors: unknown[] = [];
    const logger = {
      trace() {},
      debug() {},
      info() {},
      warn() {},
      error: (o: unknown) => errors.push(o),
      child() {
        return logger;
      },
    };
    ts.run(({ expectObservable }) => {
      const leases = inMemoryLeases({ scheduler: ts });
      const leader$ = candidate(ts, leases.client(), 'a', {
        onNewLeader: () => {
          throw new Error('handler bug');
        },
        logger,
      });
      expectObservable(leader$, '^ 100ms !').toBe('(ft)', B);
    });
    expect(errors).toHaveLength(1);
  });

  it('a release that conflicts reads again and releases if still the holder', () => {
    const ts = scheduler();
    const leases = inMemoryLeases({ scheduler: ts });
    const base = leases.client();
    let conflicts = 1;
    const flaky: LeaseClient = {
      ...base,
      update: (lease: Lease) => {
        if (lease.spec?.holderIdentity === '' && conflicts > 0) {
          conflicts -= 1;
          return new Observable<Lease>((s) =>
            s.error(
              new ApiError(409, { kind: 'Status', code: 409, reason: 'Conflict', message: 'modified' }),
            ),
          );
        }
        return base.update(lease);
      },
    };
    ts.run(({ expectObservable }) => {
      expectObservable(candidate(ts, flaky, 'a'), '^ 1000ms !').toBe('(ft)', B);
    });
    expect(conflicts).toBe(0);
    expect(leases.get('kube-system', 'lock')?.spec?.holderIdentity).toBe('');
  });

  it('only emits false for a client that never answers', () => {
    const ts = scheduler();
    const hung: LeaseClient = { get: () => NEVER, create: () => NEVER, update: () => of() };
    ts.run(({ expectObservable }) => {
      expectObservable(candidate(ts, hung, 'a'), '^ 5000ms !').toBe('f', B);
    });
  });
});

describe('leaderElection with real timers', () => {
  it('leaves no timer or handle behind after unsubscribe (release included)', async () => {
    const count = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = count();
    const leases = inMemoryLeases();
    const states: boolean[] = [];
    const sub = leaderElection({
      client: leases.client({ latency: 5 }),
      namespace: 'ns',
      name: 'lock',
      identity: 'a',
      leaseDuration: 1_000,
      renewDeadline: 800,
      retryPeriod: 100,
    }).subscribe((v) => states.push(v));
    while (states.at(-1) !== true) await new Promise((r) => setTimeout(r, 5));
    expect(count()).toBeGreaterThan(before);
    sub.unsubscribe();
    await new Promise((r) => setTimeout(r, 30)); // the background release has a 5 ms latency
    expect(leases.get('ns', 'lock')?.spec?.holderIdentity).toBe('');
    expect(count()).toBeLessThanOrEqual(before);
  });
});
