// Properties: a faithful informer's notifications never violate the handler contract, and a replayed or stale one always does.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HandlerView } from '../../../src/testing/fault-handler-view.ts';
import { pickFault } from '../../../src/testing/fault-plan.ts';

/** Server writes over a few names: each write creates, updates or deletes one name at the next rv. */
const arbWrites = fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), fc.boolean()), { maxLength: 60 });

const cm = (name: string, rv: number) => ({
  metadata: { namespace: 'ns', name, resourceVersion: String(rv) },
});

/** Plays writes on a model server and tells the view what a faithful informer would. */
function play(writes: [string, boolean][], view: HandlerView): Map<string, string> {
  const server = new Map<string, string>();
  let rv = 0;
  for (const [name, remove] of writes) {
    rv++;
    const key = `ns/${name}`;
    if (remove && server.has(key)) {
      server.delete(key);
      view.onDelete(cm(name, rv));
    } else if (server.has(key)) {
      server.set(key, String(rv));
      view.onUpdate(cm(name, rv));
    } else {
      server.set(key, String(rv));
      view.onAdd(cm(name, rv));
    }
  }
  return server;
}

describe('HandlerView properties', () => {
  it('a faithful notification sequence has no violation and ends at the server state', () => {
    fc.assert(
      fc.property(arbWrites, (writes) => {
        const view = new HandlerView();
        const server = play(writes, view);
        expect(view.violations).toEqual([]);
        expect(view.snapshot()).toEqual(server);
      }),
      { numRuns: 150 },
    );
  });

  it('replaying the add of a held key, or an update older than the newest, is always a violation', () => {
    fc.assert(
      fc.property(arbWrites, fc.boolean(), (writes, replayAdd) => {
        const view = new HandlerView();
        const server = play(writes, view);
        const held = [...server.entries()][0];
        fc.pre(held !== undefined && Number(held[1]) > 1);
        const name = held![0].slice(3);
        if (replayAdd) view.onAdd(cm(name, Number(held![1])));
        else view.onUpdate(cm(name, Number(held![1]) - 1));
        expect(view.violations.length).toBe(1);
      }),
      { numRuns: 150 },
    );
  });
});

describe('pickFault properties', () => {
  it('picks the fault whose interval holds the draw, none past the sum', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 0.3, noNaN: true }), { minLength: 1, maxLength: 3 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (probabilities, draw) => {
          const order = probabilities.map((_, i) => `f${i}`);
          const table = Object.fromEntries(order.map((k, i) => [k, probabilities[i]!]));
          let edge = 0;
          let expected: string | undefined;
          for (const [i, p] of probabilities.entries()) {
            if (expected === undefined && draw >= edge && draw < edge + p) expected = order[i];
            edge += p;
          }
          expect(pickFault(table, order, () => draw)).toBe(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});
