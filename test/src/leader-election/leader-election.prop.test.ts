// Properties of leader election: several candidates over one lease store, with latency, partitions and crashes.
import fc from 'fast-check';
import type { Subscription } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { inMemoryLeases, type PartitionMode } from '../../../src/leader-election/in-memory-leases.ts';
import { leaderElection } from '../../../src/leader-election/leader-election.ts';

const LEASE = 15_000;
const RENEW = 10_000;
const RETRY = 2_000;
const FAULTS_END = 60_000;
/** Worst case for a healthy candidate to lead after the last fault: expiry, renew deadline, retries, latency. */
const TAKEOVER_BOUND = LEASE + RENEW + 3 * RETRY * 2.2 + 4 * 300;
const END = FAULTS_END + TAKEOVER_BOUND + 5_000;

type Fault = { at: number; who: number; what: PartitionMode | 'heal' | 'crash' };

const scenario = fc.record({
  candidates: fc.integer({ min: 2, max: 3 }),
  latencies: fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 3, maxLength: 3 }),
  starts: fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 3, maxLength: 3 }),
  releaseOnCancel: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
  faults: fc.array(
    fc.record({
      at: fc.integer({ min: 0, max: FAULTS_END }),
      who: fc.integer({ min: 0, max: 2 }),
      what: fc.constantFrom<Fault['what']>('hang', 'fail', 'heal', 'heal', 'crash'),
    }),
    { maxLength: 12 },
  ),
  seed: fc.integer(),
});

describe('leaderElection properties', () => {
  it('never two leaders at once; after faults stop, a healthy candidate leads within the bound and matches the lease', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const ts = new TestScheduler(() => {});
        ts.maxFrames = END;
        const leases = inMemoryLeases({ scheduler: ts });
        let rand = s.seed >>> 0;
        const random = () => {
          rand = (rand * 1_103_515_245 + 12_345) >>> 0;
          return (rand % 10_000) / 10_000;
        };
        const events: { at: number; who: number; leading: boolean }[] = [];
        const subs: (Subscription | undefined)[] = [];
        const clients = Array.from({ length: s.candidates }, (_, i) =>
          leases.client({ latency: s.latencies[i]! }),
        );
        const errors: unknown[] = [];
        const crashed = new Set<number>();
        clients.forEach((client, i) => {
          ts.schedule(() => {
            if (crashed.has(i)) return; // crashed before it started
            subs[i] = leaderElection({
              client,
              namespace: 'ns',
              name: 'lock',
              identity: `c${i}`,
              leaseDuration: LEASE,
              renewDeadline: RENEW,
              retryPeriod: RETRY,
              releaseOnCancel: s.releaseOnCancel[i]!,
              scheduler: ts,
              random,
            }).subscribe({
              next: (leading) => events.push({ at: ts.now(), who: i, leading }),
              error: (e) => errors.push(e),
            });
          }, s.starts[i]!);
        });
        for (const f of s.faults) {
          const who = f.who % s.candidates;
          if (f.what === 'crash' && who === 0) continue; // candidate 0 stays alive
          ts.schedule(() => {
            if (f.what === 'crash') {
              crashed.add(who);
              subs[who]?.unsubscribe();
              events.push({ at: ts.now(), who, leading: false });
            } else clients[who]!.partition(f.what === 'heal' ? false : f.what);
          }, f.at);
        }
        ts.schedule(() => {
          for (const c of clients) c.partition(false);
        }, FAULTS_END);
        ts.flush();

        expect(errors).toEqual([]);
        // Safety: replay the emissions in order; never more than one candidate leading.
        const leading = new Set<number>();
        for (const e of events) {
          if (e.leading) leading.add(e.who);
          else leading.delete(e.who);
          expect(leading.size).toBeLessThanOrEqual(1);
        }
        // Liveness: someone alive leads from FAULTS_END + bound to the end, and it is the lease's holder.
        const settled = new Set<number>();
        let since = 0;
        for (const e of events) {
          if (e.leading) settled.add(e.who);
          else settled.delete(e.who);
          since = e.at;
        }
        expect(settled.size).toBe(1);
        const [leader] = [...settled];
        expect(crashed.has(leader!)).toBe(false);
        expect(since).toBeLessThanOrEqual(FAULTS_END + TAKEOVER_BOUND);
        expect(leases.get('ns', 'lock')?.spec?.holderIdentity).toBe(`c${leader}`);
        for (const sub of subs) sub?.unsubscribe();
      }),
      { numRuns: 150 },
    );
  });
});
