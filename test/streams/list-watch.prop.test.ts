// Property: under any interleaving of writes and faults, listWatch folded into a Map converges on the server's state.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { objectKey } from '../../operators/object-key.ts';
import type { KubeObject, ReflectorEvent, ReflectorHealth } from '../../operators/types.ts';
import { arbFaultPlan, type PlanStep } from '../../src/testing/arbitraries.ts';
import { FakeApiServer } from '../../src/testing/fake-api-server.ts';
import { VirtualClock } from '../../src/testing/virtual-clock.ts';
import { listWatch } from '../../streams/list-watch.ts';

/** A small seeded generator (mulberry32), so jitter and watch timeouts vary but replay exactly. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Outcome {
  cache: Map<string, string>;
  server: Map<string, string>;
  backwards: string[];
  errors: unknown[];
  health: ReflectorHealth | undefined;
  pendingAfterUnsubscribe: number;
  openAfterUnsubscribe: number;
}

/**
 * Runs a plan and lets the reflector settle. `strict` turns off everything that would paper over a
 * skipped update (the inactivity window and the server's watch timeouts) and drops the faults that need
 * them (stalls, hung watches), so a lost event stays lost unless the reflector itself recovers it.
 */
function run(
  plan: PlanStep[],
  watchList: boolean,
  pageSize: number | undefined,
  seed: number,
  strict = false,
  latency: { list: number; watch: number } = { list: 0, watch: 0 },
): Outcome {
  const clock = new VirtualClock();
  const server = new FakeApiServer({
    scheduler: clock.scheduler,
    historyLimit: 15,
    honourWatchTimeout: !strict,
  });
  server.setLatency(latency);
  if (strict) {
    plan = plan.filter(
      (s) =>
        !(
          s.type === 'fault' &&
          (s.fault.type === 'stallWatches' || (s.fault.type === 'hangNext' && s.fault.op === 'watch'))
        ),
    );
  }
  const cache = new Map<string, KubeObject>();
  const lastSeen = new Map<string, number>();
  const backwards: string[] = [];
  const errors: unknown[] = [];
  let health: ReflectorHealth | undefined;
  const see = (obj: KubeObject) => {
    const key = objectKey(obj);
    const rv = Number(obj.metadata?.resourceVersion);
    const before = lastSeen.get(key);
    if (before !== undefined && rv < before) backwards.push(`${key}: ${before} → ${rv}`);
    lastSeen.set(key, rv);
    return key;
  };
  const fold = (e: ReflectorEvent) => {
    switch (e.type) {
      case 'Replace':
        cache.clear();
        for (const item of e.items) cache.set(see(item), item);
        break;
      case 'Added':
      case 'Updated':
        cache.set(see(e.object), e.object);
        break;
      case 'Deleted':
        cache.delete(see(e.object));
        break;
    }
  };
  const sub = listWatch(server, {
    scheduler: clock.scheduler,
    random: seeded(seed),
    watchList,
    pageSize,
    ...(strict ? { inactivityTimeoutMs: 0 } : {}),
    health: { next: (h) => (health = h) },
  }).subscribe({ next: fold, error: (e) => errors.push(e) });

  for (const step of plan) {
    if (step.type === 'write') server.write(step.write);
    else if (step.type === 'fault') server.inject(step.fault);
    else clock.advance(step.ms);
  }
  // Writes and faults stop; give the reflector time for its longest waits (hung list + capped backoff).
  clock.advance(10 * 60_000);
  const rvs = (m: Map<string, KubeObject>) =>
    new Map([...m].map(([k, v]) => [k, v.metadata?.resourceVersion ?? '']));
  const outcome: Outcome = {
    cache: rvs(cache),
    server: rvs(server.snapshot()),
    backwards,
    errors,
    health,
    pendingAfterUnsubscribe: 0,
    openAfterUnsubscribe: 0,
  };
  sub.unsubscribe();
  outcome.pendingAfterUnsubscribe = clock.pending;
  outcome.openAfterUnsubscribe = server.openWatches + server.listsInFlight;
  return outcome;
}

describe('listWatch convergence', () => {
  it('after any writes, dropped and broken watches, 410s, compactions, errors, stalls and garbage, the folded output equals the server and no key goes back in time (strict: without the inactivity window and watch timeouts)', () => {
    fc.assert(
      fc.property(
        arbFaultPlan(),
        fc.boolean(),
        fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
        fc.integer(),
        fc.boolean(),
        fc.record({ list: fc.constantFrom(0, 0, 50, 700), watch: fc.constantFrom(0, 0, 300, 1500) }),
        (plan, watchList, pageSize, seed, strict, latency) => {
          const o = run(plan, watchList, pageSize, seed, strict, latency);
          expect(o.errors).toEqual([]);
          expect(o.backwards).toEqual([]);
          expect(o.cache).toEqual(o.server);
          expect(o.health).toMatchObject({ state: 'watching', synced: true });
          expect(o.pendingAfterUnsubscribe).toBe(0);
          expect(o.openAfterUnsubscribe).toBe(0);
        },
      ),
      { numRuns: Number(process.env.RUNS ?? 300) },
    );
  });

  // Plans that once exposed bugs (found by mutating the machine); kept so they run on every build.
  it.each<[string, PlanStep[]]>([
    [
      'the last write to a key is replaced by garbage',
      [
        { type: 'write', write: { op: 'upsert', namespace: 'default', name: 'a', data: 1 } },
        { type: 'fault', fault: { type: 'garbleNextEvent', kind: 'no-metadata' } },
        { type: 'write', write: { op: 'upsert', namespace: 'default', name: 'a', data: 2 } },
      ],
    ],
    [
      'a write lands while the watch is reconnecting',
      [
        { type: 'advance', ms: 1000 },
        { type: 'fault', fault: { type: 'dropWatches' } },
        { type: 'write', write: { op: 'upsert', namespace: 'default', name: 'a', data: 0 } },
      ],
    ],
    [
      'history is compacted while the watch is reconnecting',
      [
        { type: 'write', write: { op: 'upsert', namespace: 'default', name: 'a', data: 0 } },
        { type: 'fault', fault: { type: 'compact' } },
        { type: 'fault', fault: { type: 'expireWatches' } },
        { type: 'write', write: { op: 'delete', namespace: 'default', name: 'a' } },
      ],
    ],
  ])('regression: %s', (_name, plan) => {
    for (const watchList of [false, true]) {
      for (const latency of [
        { list: 0, watch: 0 },
        { list: 50, watch: 300 },
      ]) {
        const o = run(plan, watchList, undefined, 1, true, latency);
        expect(o.backwards).toEqual([]);
        expect(o.cache).toEqual(o.server);
      }
    }
  });
});
