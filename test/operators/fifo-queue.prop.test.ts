// Model-based properties of the FIFOs with reflect as consumer: keys in flight, per-key order, convergence, compaction.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FifoItem, type FifoMode, FifoQueue } from '../../operators/fifo-queue.ts';
import { applyDeltas } from '../../operators/reflect.ts';
import { createStoreCell, type StoreCell } from '../../operators/store-cell.ts';
import type { KubeObject } from '../../operators/types.ts';

const KEYS = ['a', 'b', 'c', 'd'];
const obj = (name: string, version: number): KubeObject => ({
  metadata: { name, resourceVersion: String(version) },
});
const versionOf = (o: KubeObject) => Number(o.metadata!.resourceVersion);

/** The deliberately naive model: what the API server holds, and which keys a consumer is processing. */
interface Model {
  server: Map<string, number>;
  version: number;
  inFlight: Set<string>;
}

interface Real {
  queue: FifoQueue<KubeObject>;
  cell: StoreCell<KubeObject>;
  inFlight: Map<string, FifoItem<KubeObject>>;
  /** Highest version the store has held per key: stored versions never go back. */
  seen: Map<string, number>;
  compact: boolean;
}

function checkCompaction(r: Real): void {
  if (r.compact) expect(r.queue.length).toBe(r.queue.queuedKeys);
  expect(r.queue.queuedKeys).toBeLessThanOrEqual(KEYS.length);
}

function finish(r: Real, key: string): void {
  const item = r.inFlight.get(key)!;
  const update = applyDeltas(r.cell.current, item.deltas);
  for (const change of update.changes) {
    if (change.type === 'Deleted') continue;
    const v = versionOf(change.object);
    expect(v).toBeGreaterThanOrEqual(r.seen.get(key) ?? 0);
    r.seen.set(key, v);
  }
  r.cell.set(update.store);
  r.inFlight.delete(key);
  r.queue.done(key);
}

/** A server-side write; `missed` writes are not seen by the watch (a dropped watch), only by the next relist. */
class Write implements fc.Command<Model, Real> {
  readonly key: string;
  readonly missed: boolean;
  constructor(key: string, missed: boolean) {
    this.key = key;
    this.missed = missed;
  }
  check = () => true;
  run(m: Model, r: Real): void {
    const v = ++m.version;
    const exists = m.server.has(this.key);
    const deleting = exists && v % 3 === 0;
    if (deleting) m.server.delete(this.key);
    else m.server.set(this.key, v);
    if (this.missed) return;
    if (deleting) r.queue.delete(obj(this.key, v));
    else if (exists) r.queue.update(obj(this.key, v));
    else r.queue.add(obj(this.key, v));
    checkCompaction(r);
  }
  toString = () => `write(${this.key}${this.missed ? ', missed' : ''})`;
}

class Relist implements fc.Command<Model, Real> {
  check = () => true;
  run(m: Model, r: Real): void {
    r.queue.replace([...m.server].map(([k, v]) => obj(k, v)));
    checkCompaction(r);
  }
  toString = () => 'relist';
}

class Resync implements fc.Command<Model, Real> {
  check = () => true;
  run(_m: Model, r: Real): void {
    r.queue.resync();
    checkCompaction(r);
  }
  toString = () => 'resync';
}

class Pop implements fc.Command<Model, Real> {
  check = () => true;
  run(m: Model, r: Real): void {
    const p = r.queue.pop();
    if (!p) return;
    expect(m.inFlight.has(p.item.key)).toBe(false);
    m.inFlight.add(p.item.key);
    r.inFlight.set(p.item.key, p.item);
  }
  toString = () => 'pop';
}

class Finish implements fc.Command<Model, Real> {
  readonly index: number;
  constructor(index: number) {
    this.index = index;
  }
  check = (m: Readonly<Model>) => m.inFlight.size > 0;
  run(m: Model, r: Real): void {
    const key = [...m.inFlight][this.index % m.inFlight.size]!;
    m.inFlight.delete(key);
    finish(r, key);
  }
  toString = () => `finish(${this.index})`;
}

const commands = [
  fc.tuple(fc.constantFrom(...KEYS), fc.boolean()).map(([k, missed]) => new Write(k, missed)),
  fc.constant(new Relist()),
  fc.constant(new Resync()),
  fc.constant(new Pop()),
  fc.nat(3).map((i) => new Finish(i)),
];

describe.each<[FifoMode, boolean]>([
  ['delta', false],
  ['delta', true],
  ['real', false],
  ['real', true],
])('FifoQueue %s (compact: %s) with reflect as consumer', (mode, compact) => {
  it('never hands out a key in flight, keeps each key in order, and converges to the server after a relist', () => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 60 }), (cmds) => {
        const cell = createStoreCell<KubeObject>({ freeze: 'none' });
        const real: Real = {
          queue: new FifoQueue<KubeObject>({ mode, knownObjects: cell, compact }),
          cell,
          inFlight: new Map(),
          seen: new Map(),
          compact,
        };
        const model: Model = { server: new Map(), version: 0, inFlight: new Set() };
        fc.modelRun(() => ({ model, real }), cmds);

        // a final relist (while items may be in flight), then drain: whatever was missed, the store
        // must equal the server
        real.queue.replace([...model.server].map(([k, v]) => obj(k, v)));
        for (const key of [...model.inFlight]) finish(real, key);
        model.inFlight.clear();
        for (let p = real.queue.pop(); p; p = real.queue.pop()) {
          real.inFlight.set(p.item.key, p.item);
          finish(real, p.item.key);
        }
        const stored = new Map(real.cell.current.list().map((o) => [o.metadata!.name!, versionOf(o)]));
        expect(stored).toEqual(model.server);
        expect(real.queue.length).toBe(0);
        expect(real.queue.hasSynced).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
