// Properties of shared informers over the fake API server: convergence under faults, per-key subsequences, bounded slow handlers, no handle left.
import fc from 'fast-check';
import { timer } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { InformerNotification } from '../../../operators/informer-notification.ts';
import { objectKey } from '../../../operators/object-key.ts';
import { sharedInformer } from '../../../src/informers/shared-informer.ts';
import { arbFaultPlan } from '../../../src/testing/arbitraries.ts';
import { FakeApiServer } from '../../../src/testing/fake-api-server.ts';
import { VirtualClock } from '../../../src/testing/virtual-clock.ts';

type State = string | undefined;

/** Per key, the states a handler was told about (the resourceVersion, or undefined once deleted). */
function tracker() {
  const states = new Map<string, State[]>();
  const push = (key: string, state: State) => {
    const list = states.get(key) ?? [];
    if (list.length === 0 || list[list.length - 1] !== state) list.push(state);
    states.set(key, list);
  };
  const see = (n: InformerNotification) => {
    if (n.type === 'add') push(n.key, n.object.metadata?.resourceVersion);
    else if (n.type === 'update') push(n.key, n.newObject.metadata?.resourceVersion);
    else push(n.key, undefined);
  };
  return { states, see };
}

function isSubsequence(sub: State[], of: State[]): boolean {
  let i = 0;
  for (const x of of) if (i < sub.length && sub[i] === x) i++;
  return i === sub.length;
}

describe('sharedInformer properties', () => {
  it('converges on the server under writes, dropped watches, 410s and relists; every handler sees per key a subsequence of the server states; a slow handler stays bounded', () => {
    const keySpace = { names: ['a', 'b', 'c'], namespaces: ['x', 'y'] };
    fc.assert(
      fc.property(
        arbFaultPlan({ ...keySpace, maxLength: 30 }),
        fc.constantFrom<'real' | 'delta'>('real', 'delta'),
        (plan, fifo) => {
          const clock = new VirtualClock();
          const server = new FakeApiServer({ scheduler: clock.scheduler, historyLimit: 15 });
          const informer = sharedInformer({
            source: server,
            scheduler: clock.scheduler,
            fifo,
            listWatch: { random: () => 0.5 },
          });
          const serverStates = new Map<string, State[]>();
          const record = (key: string) => {
            const list = serverStates.get(key) ?? [undefined];
            list.push(server.get(key)?.metadata?.resourceVersion);
            serverStates.set(key, list);
          };
          const fast = tracker();
          const slow = tracker();
          const fastReg = informer.addEventHandler({
            onAdd: (o, i) => fast.see({ type: 'add', key: objectKey(o), object: o, isInInitialList: i }),
            onUpdate: (o, n) =>
              fast.see({ type: 'update', key: objectKey(n), oldObject: o, newObject: n, isSync: false }),
            onDelete: (o) => fast.see({ type: 'delete', key: objectKey(o), object: o }),
          });
          const slowly = (n: InformerNotification) => {
            slow.see(n);
            return timer(3000, clock.scheduler);
          };
          const slowReg = informer.addEventHandler({
            onAdd: (o, i) => slowly({ type: 'add', key: objectKey(o), object: o, isInInitialList: i }),
            onUpdate: (o, n) =>
              slowly({ type: 'update', key: objectKey(n), oldObject: o, newObject: n, isSync: false }),
            onDelete: (o) => slowly({ type: 'delete', key: objectKey(o), object: o }),
          });
          let maxPending = 0;
          for (const step of plan) {
            if (step.type === 'write') {
              server.write(step.write);
              record(step.write.namespace ? `${step.write.namespace}/${step.write.name}` : step.write.name);
            } else if (step.type === 'fault') server.inject(step.fault);
            else clock.advance(step.ms);
            maxPending = Math.max(maxPending, slowReg.pending);
          }
          // settle: let every backoff, hung request and slow handler finish
          for (let i = 0; i < 12; i++) clock.advance(60_000);
          const snapshot = server.snapshot();
          const cache = new Map(
            informer
              .getStore()
              .list()
              .map((o) => [objectKey(o), o.metadata?.resourceVersion]),
          );
          expect(cache).toEqual(new Map([...snapshot].map(([k, o]) => [k, o.metadata?.resourceVersion])));
          for (const t of [fast, slow]) {
            for (const [key, seen] of t.states) {
              const truth = (serverStates.get(key) ?? [undefined]).filter(
                (s, i, all) => i === 0 || all[i - 1] !== s,
              );
              expect(
                isSubsequence(seen, truth),
                `${key}: ${JSON.stringify(seen)} in ${JSON.stringify(truth)}`,
              ).toBe(true);
              expect(seen[seen.length - 1]).toBe(snapshot.get(key)?.metadata?.resourceVersion);
            }
            for (const [key, o] of snapshot)
              expect(t.states.get(key)?.at(-1)).toBe(o.metadata?.resourceVersion);
          }
          expect(maxPending).toBeLessThanOrEqual(2 * 6);
          fastReg.remove();
          slowReg.remove();
          expect(informer.running).toBe(false);
          expect(server.openWatches).toBe(0);
          expect(clock.pending).toBe(0);
        },
      ),
      { numRuns: 120 },
    );
  });

  it('a slow handler holds at most two notifications per key however many events arrive', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ name: fc.constantFrom('a', 'b', 'c', 'd'), del: fc.boolean() }), {
          maxLength: 200,
        }),
        (writes) => {
          const clock = new VirtualClock();
          const server = new FakeApiServer({ scheduler: clock.scheduler });
          const informer = sharedInformer({ source: server, scheduler: clock.scheduler });
          const fast: string[] = [];
          informer.addEventHandler({
            onAdd: () => void fast.push('a'),
            onUpdate: () => void fast.push('u'),
            onDelete: () => void fast.push('d'),
          });
          const slow = informer.addEventHandler({
            onAdd: () => timer(1_000_000, clock.scheduler),
            onUpdate: () => timer(1_000_000, clock.scheduler),
          });
          let events = 0;
          for (const w of writes) {
            if (server.write({ op: w.del ? 'delete' : 'upsert', namespace: 'n', name: w.name }) !== undefined)
              events++;
            expect(slow.pending).toBeLessThanOrEqual(2 * 4);
          }
          expect(fast).toHaveLength(events);
          slow.remove();
        },
      ),
      { numRuns: 100 },
    );
  });
});
