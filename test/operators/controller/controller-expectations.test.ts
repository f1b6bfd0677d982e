// ControllerExpectations and slowStartBatch: upstream's expectation tests (adds, deletes, expiry, UID tracking) and the doubling batches.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ControllerExpectations,
  EXPECTATIONS_TIMEOUT_MS,
  UIDTrackingControllerExpectations,
} from '../../../operators/controller/controller-expectations.ts';
import { slowStartBatch } from '../../../operators/controller/slow-start-batch.ts';

describe('ControllerExpectations', () => {
  it('is satisfied once every expected add and delete is observed, unsatisfied before', () => {
    const now = 0;
    const e = new ControllerExpectations(() => now);
    const key = 'ns/rc';
    expect(e.satisfiedExpectations(key)).toBe(true); // no record
    e.setExpectations(key, 2, 1);
    for (const [observe, satisfied] of [
      [() => e.creationObserved(key), false],
      [() => e.deletionObserved(key), false],
      [() => e.creationObserved(key), true],
    ] as const) {
      observe();
      expect(e.satisfiedExpectations(key)).toBe(satisfied);
    }
    e.creationObserved(key); // below zero is still satisfied
    expect(e.get(key)).toMatchObject({ add: -1, del: 0 });
    expect(e.satisfiedExpectations(key)).toBe(true);
  });

  it('expires an unfulfilled record after five minutes; a new one starts a new clock', () => {
    let now = 1000;
    const e = new ControllerExpectations(() => now);
    e.expectCreations('k', 3);
    now += EXPECTATIONS_TIMEOUT_MS;
    expect(e.satisfiedExpectations('k')).toBe(false);
    now += 1;
    expect(e.satisfiedExpectations('k')).toBe(true);
    e.expectDeletions('k', 1);
    expect(e.satisfiedExpectations('k')).toBe(false);
    e.deleteExpectations('k');
    expect(e.satisfiedExpectations('k')).toBe(true);
  });

  it('raise and lower change only an existing record', () => {
    const e = new ControllerExpectations(() => 0);
    e.raiseExpectations('none', 1, 1);
    expect(e.get('none')).toBeUndefined();
    e.setExpectations('k', 1, 1);
    e.raiseExpectations('k', 2, 0);
    e.lowerExpectations('k', 0, 1);
    expect(e.get('k')).toMatchObject({ add: 3, del: 0 });
  });
});

describe('UIDTrackingControllerExpectations', () => {
  it('counts the deletion of a pod it deleted once, and ignores pods it did not delete', () => {
    const e = new UIDTrackingControllerExpectations(() => 0);
    e.expectDeletionsOf('ns/rs', ['ns/a', 'ns/b']);
    e.deletionObservedOf('ns/rs', 'ns/a');
    e.deletionObservedOf('ns/rs', 'ns/a'); // seen with a deletionTimestamp, then gone: once
    e.deletionObservedOf('ns/rs', 'ns/z');
    expect(e.satisfiedExpectations('ns/rs')).toBe(false);
    expect([...(e.getUIDs('ns/rs') ?? [])]).toEqual(['ns/b']);
    e.deletionObservedOf('ns/rs', 'ns/b');
    expect(e.satisfiedExpectations('ns/rs')).toBe(true);
    e.deleteExpectations('ns/rs');
    expect(e.getUIDs('ns/rs')).toBeUndefined();
  });
});

describe('slowStartBatch', () => {
  it.each([
    [10, 1, -1, 10, [1, 2, 4, 3]],
    [10, 1, 0, 0, [1]],
    // the batch of four holding the failing call still counts its three successes
    [10, 1, 4, 6, [1, 2, 4]],
    [5, 2, -1, 5, [2, 3]],
    [0, 1, -1, 0, []],
  ])(
    'count %i from %i, failing call %i → %i successes in batches %j',
    async (count, initial, failAt, successes, batches) => {
      const seen: number[] = [];
      let inflight = 0;
      const result = await slowStartBatch(count, initial, async (i) => {
        // the calls of one batch all start before any of them settles
        if (inflight === 0) seen.push(0);
        seen[seen.length - 1]!++;
        inflight++;
        await Promise.resolve();
        inflight--;
        if (i === failAt) throw new Error(`call ${i} failed`);
      });
      expect(result.successes).toBe(successes);
      expect(seen).toEqual(batches);
      if (failAt >= 0) expect((result.error as Error).message).toBe(`call ${failAt} failed`);
      else expect(result.error).toBeUndefined();
    },
  );

  it('never makes more than one failing batch, and never more calls than asked (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(200),
        fc.integer({ min: 1, max: 8 }),
        fc.nat(250),
        async (count, initial, failFrom) => {
          let calls = 0;
          const result = await slowStartBatch(count, initial, async (i) => {
            calls++;
            if (i >= failFrom) throw new Error('quota');
          });
          expect(calls).toBeLessThanOrEqual(count);
          expect(result.successes).toBe(Math.min(calls, failFrom));
          if (failFrom >= count) expect(result).toEqual({ successes: count });
          // no batch starts after the one holding the first failing call: batches double, so the calls made
          // are fewer than twice the calls before that batch, plus the first batch
          else expect(calls).toBeLessThanOrEqual(Math.max(initial, 2 * failFrom + initial));
        },
      ),
      { numRuns: 200 },
    );
  });
});
