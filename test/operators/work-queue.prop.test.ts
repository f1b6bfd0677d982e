// Model-based test: the work queue against a deliberately naive model, under any interleaving of operations.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { itemExponentialRateLimiter } from '../../operators/rate-limiter.ts';
import { WorkQueue } from '../../operators/work-queue.ts';
import { VirtualClock } from '../../src/testing/virtual-clock.ts';

/** The naive model: arrays and sets, scanned every time. */
interface Model {
  queue: string[];
  dirty: Set<string>;
  processing: Set<string>;
  waiting: Map<string, { at: number; seq: number }>;
  failures: Map<string, number>;
  now: number;
  seq: number;
  shutDown: boolean;
}

interface Real {
  q: WorkQueue<string>;
  clock: VirtualClock;
}

function modelAdd(m: Model, k: string) {
  if (m.shutDown || m.dirty.has(k)) return;
  m.dirty.add(k);
  if (!m.processing.has(k)) m.queue.push(k);
}

function modelAddAfter(m: Model, k: string, d: number) {
  if (m.shutDown) return;
  if (d <= 0) return modelAdd(m, k);
  const w = m.waiting.get(k);
  if (!w) m.waiting.set(k, { at: m.now + d, seq: m.seq++ });
  else if (m.now + d < w.at) w.at = m.now + d;
}

function checkInvariants(m: Model, r: Real) {
  const queued = r.q.queued();
  expect(queued).toEqual(m.queue);
  expect(r.q.len()).toBe(m.queue.length);
  // Each key at most once in the queue; never queued while in flight; every queued key is dirty.
  expect(new Set(queued).size).toBe(queued.length);
  for (const k of queued) {
    expect(r.q.isProcessing(k)).toBe(false);
    expect(r.q.isDirty(k)).toBe(true);
  }
  expect(r.q.inFlight()).toBe(m.processing.size);
  for (const k of m.processing) expect(r.q.isProcessing(k)).toBe(true);
  // A key re-added while in flight is remembered (dirty), so it is not lost.
  for (const k of m.dirty) expect(r.q.isDirty(k)).toBe(true);
  expect(r.q.waiting()).toBe(m.waiting.size);
}

const key = fc.constantFrom('a', 'b', 'c', 'd');

class Add implements fc.Command<Model, Real> {
  readonly k: string;
  constructor(k: string) {
    this.k = k;
  }
  check = () => true;
  run(m: Model, r: Real) {
    modelAdd(m, this.k);
    r.q.add(this.k);
    checkInvariants(m, r);
  }
  toString = () => `add(${this.k})`;
}

class Poll implements fc.Command<Model, Real> {
  check = () => true;
  run(m: Model, r: Real) {
    const inFlightBefore = new Set(m.processing);
    const got = r.q.poll();
    if (m.queue.length === 0) {
      expect(got).toBe(m.shutDown ? 'shutdown' : 'empty');
    } else {
      const k = m.queue.shift()!;
      // FIFO among distinct keys, and never a key that is in flight.
      expect(got).toEqual({ item: k });
      expect(inFlightBefore.has(k)).toBe(false);
      m.processing.add(k);
      m.dirty.delete(k);
    }
    checkInvariants(m, r);
  }
  toString = () => 'poll()';
}

class Done implements fc.Command<Model, Real> {
  readonly pick: number;
  constructor(pick: number) {
    this.pick = pick;
  }
  check = (m: Readonly<Model>) => m.processing.size > 0;
  run(m: Model, r: Real) {
    const k = [...m.processing][this.pick % m.processing.size]!;
    m.processing.delete(k);
    if (m.dirty.has(k)) m.queue.push(k);
    r.q.done(k);
    checkInvariants(m, r);
  }
  toString = () => `done(#${this.pick})`;
}

class AddAfter implements fc.Command<Model, Real> {
  readonly k: string;
  readonly d: number;
  constructor(k: string, d: number) {
    this.k = k;
    this.d = d;
  }
  check = () => true;
  run(m: Model, r: Real) {
    modelAddAfter(m, this.k, this.d);
    r.q.addAfter(this.k, this.d);
    checkInvariants(m, r);
  }
  toString = () => `addAfter(${this.k}, ${this.d})`;
}

class AddRateLimited implements fc.Command<Model, Real> {
  readonly k: string;
  constructor(k: string) {
    this.k = k;
  }
  check = () => true;
  run(m: Model, r: Real) {
    const n = m.failures.get(this.k) ?? 0;
    m.failures.set(this.k, n + 1);
    modelAddAfter(m, this.k, Math.min(2 ** n, 16));
    r.q.addRateLimited(this.k);
    expect(r.q.numRequeues(this.k)).toBe(n + 1);
    checkInvariants(m, r);
  }
  toString = () => `addRateLimited(${this.k})`;
}

class Forget implements fc.Command<Model, Real> {
  readonly k: string;
  constructor(k: string) {
    this.k = k;
  }
  check = () => true;
  run(m: Model, r: Real) {
    m.failures.delete(this.k);
    r.q.forget(this.k);
    expect(r.q.numRequeues(this.k)).toBe(0);
    checkInvariants(m, r);
  }
  toString = () => `forget(${this.k})`;
}

class Advance implements fc.Command<Model, Real> {
  readonly ms: number;
  constructor(ms: number) {
    this.ms = ms;
  }
  check = () => true;
  run(m: Model, r: Real) {
    for (let i = 0; i < this.ms; i++) {
      m.now++;
      const due = [...m.waiting.entries()]
        .filter(([, w]) => w.at <= m.now)
        .sort((x, y) => x[1].at - y[1].at || x[1].seq - y[1].seq);
      for (const [k] of due) {
        m.waiting.delete(k);
        modelAdd(m, k);
      }
    }
    r.clock.advance(this.ms);
    checkInvariants(m, r);
  }
  toString = () => `advance(${this.ms})`;
}

class ShutDown implements fc.Command<Model, Real> {
  check = (m: Readonly<Model>) => !m.shutDown;
  run(m: Model, r: Real) {
    m.shutDown = true;
    m.waiting.clear();
    r.q.shutDown();
    checkInvariants(m, r);
  }
  toString = () => 'shutDown()';
}

describe('WorkQueue model-based', () => {
  it('never hands out a key in flight, never loses a re-added key, queues each key once, FIFO', () => {
    const commands = [
      key.map((k) => new Add(k)),
      fc.constant(new Poll()),
      fc.nat(10).map((i) => new Done(i)),
      fc.tuple(key, fc.integer({ min: -1, max: 20 })).map(([k, d]) => new AddAfter(k, d)),
      key.map((k) => new AddRateLimited(k)),
      key.map((k) => new Forget(k)),
      fc.integer({ min: 1, max: 12 }).map((ms) => new Advance(ms)),
      fc.constant(new ShutDown()),
    ];
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 80, size: '+1' }), (cmds) => {
        const clock = new VirtualClock();
        const q = new WorkQueue<string>({
          scheduler: clock.scheduler,
          rateLimiter: itemExponentialRateLimiter(1, 16),
        });
        const model: Model = {
          queue: [],
          dirty: new Set(),
          processing: new Set(),
          waiting: new Map(),
          failures: new Map(),
          now: 0,
          seq: 0,
          shutDown: false,
        };
        fc.modelRun(() => ({ model, real: { q, clock } }), cmds);
      }),
      { numRuns: 200 },
    );
  });
});
