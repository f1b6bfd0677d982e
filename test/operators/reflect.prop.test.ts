// Property: any event sequence through deltaFifo/realFifo and reflect leaves the same store as a naive Map.
import fc from 'fast-check';
import { concatMap, delay, from, of, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { deltaFifo } from '../../operators/delta-fifo.ts';
import { realFifo } from '../../operators/real-fifo.ts';
import { reflect } from '../../operators/reflect.ts';
import { createStoreCell } from '../../operators/store-cell.ts';
import type { KubeObject, ReflectorEvent } from '../../operators/types.ts';

const obj = (name: string, v: number): KubeObject => ({ metadata: { name, resourceVersion: String(v) } });

/** Server writes (some missed by the watch) and relists, turned into reflector events; ends with a relist. */
const scenario = fc
  .array(
    fc.oneof(
      fc.record({
        kind: fc.constant('write' as const),
        key: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
        missed: fc.boolean(),
      }),
      fc.record({ kind: fc.constant('relist' as const) }),
    ),
    { maxLength: 50 },
  )
  .map((steps) => {
    const server = new Map<string, number>();
    const events: ReflectorEvent[] = [];
    let version = 0;
    const relist = () =>
      events.push({
        type: 'Replace',
        items: [...server].map(([k, v]) => obj(k, v)),
        resourceVersion: String(version),
      });
    for (const step of steps) {
      if (step.kind === 'relist') {
        relist();
        continue;
      }
      const v = ++version;
      const exists = server.has(step.key);
      const deleting = exists && v % 3 === 0;
      if (deleting) server.delete(step.key);
      else server.set(step.key, v);
      if (step.missed) continue;
      events.push({ type: deleting ? 'Deleted' : exists ? 'Updated' : 'Added', object: obj(step.key, v) });
    }
    relist();
    return { events, server };
  });

describe.each([
  ['deltaFifo', deltaFifo],
  ['realFifo', realFifo],
] as const)('%s + reflect', (_name, fifo) => {
  it('converges to the server state for any events, consumer delays, concurrency and compaction', () => {
    fc.assert(
      fc.property(
        scenario,
        fc.array(fc.nat(4), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 1, max: 3 }),
        fc.boolean(),
        ({ events, server }, delays, concurrency, compact) => {
          const scheduler = new VirtualTimeScheduler();
          const cell = createStoreCell<KubeObject>({ freeze: 'none' });
          let n = 0;
          let synced = 0;
          let completed = false;
          from(events)
            .pipe(
              concatMap((e) => of(e).pipe(delay(1, scheduler))),
              fifo({
                knownObjects: cell,
                concurrency,
                compact,
                process: (item) =>
                  of(item).pipe(delay(delays[n++ % delays.length]!, scheduler), reflect(cell)),
              }),
            )
            .subscribe({
              next: (e) => {
                if (e.type === 'Synced') synced++;
                expect(e.type).not.toBe('Failed');
              },
              complete: () => {
                completed = true;
              },
            });
          scheduler.flush();
          expect(completed).toBe(true);
          expect(synced).toBe(1);
          const stored = new Map(
            cell.current.list().map((o) => [o.metadata!.name!, Number(o.metadata!.resourceVersion)]),
          );
          expect(stored).toEqual(server);
        },
      ),
      { numRuns: 150 },
    );
  });
});
