// Tests the work queue against the cases of client-go's queue, delaying and rate-limiting queue tests.
import { take as takeFirst } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { RateLimiter } from '../../operators/rate-limiter.ts';
import { itemExponentialRateLimiter } from '../../operators/rate-limiter.ts';
import { type WorkQueue, workQueue } from '../../operators/work-queue.ts';
import { noopWorkQueueMetrics } from '../../operators/work-queue-metrics.ts';
import { VirtualClock } from '../../src/testing/virtual-clock.ts';

/** Takes the next item synchronously, failing the test when none is queued. */
function take<T>(q: WorkQueue<T>): T {
  const got = q.poll();
  if (got === 'empty' || got === 'shutdown') throw new Error(`expected an item, queue says ${got}`);
  return got.item;
}

/** Subscribes to `get()` and records what it did. */
function pendingGet<T>(q: WorkQueue<T>) {
  const seen: { items: T[]; completed: boolean } = { items: [], completed: false };
  const sub = q.get().subscribe({ next: (v) => seen.items.push(v), complete: () => (seen.completed = true) });
  return { seen, sub };
}

describe('WorkQueue (queue_test.go)', () => {
  it.each(['shutDown', 'shutDownWithDrain'] as const)(
    'basic: 50 producers × 50 adds, 10 consumers taking 3 ms each, then %s; nothing after shutdown',
    (mode) => {
      const clock = new VirtualClock();
      const q = workQueue<string>({ scheduler: clock.scheduler });
      const active = new Set<string>();
      let overlap = false;
      let lateItem = false;
      let finishedConsumers = 0;
      // A consumer takes an item, works 3 ms, marks it done and asks again; a get that completes
      // without an item means shutdown.
      const runConsumer = () => {
        let got = false;
        q.get().subscribe({
          next: (item) => {
            got = true;
            if (item === 'added after shutdown!') lateItem = true;
            if (active.has(item)) overlap = true;
            active.add(item);
            clock.scheduler.schedule(() => {
              active.delete(item);
              q.done(item);
              runConsumer();
            }, 3);
          },
          complete: () => {
            if (!got) finishedConsumers++;
          },
        });
      };
      for (let c = 0; c < 10; c++) runConsumer();
      for (let p = 0; p < 50; p++) {
        for (let j = 0; j < 50; j++) clock.scheduler.schedule(() => q.add(`item-${p}`), j);
      }
      clock.advance(50);
      if (mode === 'shutDown') q.shutDown();
      else q.shutDownWithDrain().subscribe();
      q.add('added after shutdown!');
      clock.advance(10_000);
      expect(overlap).toBe(false);
      expect(lateItem).toBe(false);
      expect(finishedConsumers).toBe(10);
      expect(q.len()).toBe(0);
      expect(q.inFlight()).toBe(0);
    },
  );

  it.each(['shutDown', 'shutDownWithDrain'] as const)(
    'add while processing: every consumer re-adds each item once; all are processed again; %s',
    (mode) => {
      const q = workQueue<number>();
      for (let i = 0; i < 50; i++) q.add(i);
      const processed = new Map<number, number>();
      const counters = Array.from({ length: 10 }, () => new Map<number, number>());
      // Ten consumers take turns synchronously.
      let progress = true;
      while (progress) {
        progress = false;
        for (const counter of counters) {
          const got = q.poll();
          if (typeof got !== 'object') continue;
          progress = true;
          const n = (counter.get(got.item) ?? 0) + 1;
          counter.set(got.item, n);
          processed.set(got.item, (processed.get(got.item) ?? 0) + 1);
          if (n < 2) q.add(got.item);
          q.done(got.item);
        }
      }
      if (mode === 'shutDown') q.shutDown();
      else q.shutDownWithDrain().subscribe();
      expect(q.poll()).toBe('shutdown');
      expect(q.len()).toBe(0);
      // Each item was re-added once by its first consumer, so it ran at least twice.
      for (let i = 0; i < 50; i++) expect(processed.get(i)).toBeGreaterThanOrEqual(2);
    },
  );

  it('len counts distinct queued items', () => {
    const q = workQueue();
    q.add('foo');
    expect(q.len()).toBe(1);
    q.add('bar');
    expect(q.len()).toBe(2);
    q.add('foo');
    expect(q.len()).toBe(2);
  });

  it('reinsert: an item added while processing comes back after done', () => {
    const q = workQueue();
    q.add('foo');
    const item = take(q);
    expect(item).toBe('foo');
    q.add(item);
    expect(q.len()).toBe(0); // not queued while processing
    q.done(item);
    expect(take(q)).toBe('foo');
    q.done('foo');
    expect(q.len()).toBe(0);
  });

  it('collapse: two adds before processing give one item', () => {
    const q = workQueue();
    q.add('bar');
    q.add('bar');
    expect(take(q)).toBe('bar');
    q.done('bar');
    expect(q.len()).toBe(0);
  });

  it('collapse while processing: a second worker waits until done, then gets the item once', () => {
    const q = workQueue();
    q.add('foo');
    expect(take(q)).toBe('foo');
    q.add('foo');
    q.add('foo');
    const other = pendingGet(q);
    expect(other.seen.items).toEqual([]); // never two workers on foo
    q.done('foo');
    expect(other.seen).toEqual({ items: ['foo'], completed: true });
    q.done('foo');
    expect(q.len()).toBe(0);
  });

  it('drain: shutDownWithDrain waits for items in processing to be done', () => {
    const q = workQueue();
    q.add('foo');
    q.add('bar');
    const first = take(q);
    const second = take(q);
    let drained = false;
    q.shutDownWithDrain().subscribe({ complete: () => (drained = true) });
    expect(q.poll()).toBe('shutdown');
    expect(drained).toBe(false);
    q.done(first);
    expect(drained).toBe(false);
    q.done(second);
    expect(drained).toBe(true);
  });

  it('no drain: shutDown returns at once although items are processing', () => {
    const q = workQueue();
    q.add('foo');
    q.add('bar');
    take(q);
    take(q);
    q.shutDown();
    expect(q.isShuttingDown()).toBe(true);
    expect(q.inFlight()).toBe(2);
  });

  it('force: shutDown ends a pending shutDownWithDrain', () => {
    const q = workQueue();
    q.add('foo');
    q.add('bar');
    take(q);
    take(q);
    let drained = false;
    q.shutDownWithDrain().subscribe({ complete: () => (drained = true) });
    expect(q.poll()).toBe('shutdown');
    q.shutDown();
    expect(drained).toBe(true);
  });

  it('drain with a dirty item: the re-added item is still handed out after done, then shutdown', () => {
    const q = workQueue();
    q.add('foo');
    const gotten = take(q);
    q.add('foo');
    let drained = false;
    q.shutDownWithDrain().subscribe({ complete: () => (drained = true) });
    expect(q.poll()).toBe('shutdown');
    q.done(gotten);
    expect(drained).toBe(false);
    const again = take(q);
    expect(again).toBe('foo');
    q.done(again);
    expect(q.poll()).toBe('shutdown');
    expect(drained).toBe(true);
  });

  it('queued items are still handed out after shutdown; adds are ignored', () => {
    const q = workQueue();
    q.add('a');
    q.add('b');
    q.shutDown();
    q.add('c');
    expect([take(q), take(q)]).toEqual(['a', 'b']);
    expect(q.poll()).toBe('shutdown');
  });

  it('get: waiting gets are served in order and complete empty on shutdown; an unsubscribed one gives up its turn', () => {
    const q = workQueue();
    const a = pendingGet(q);
    const b = pendingGet(q);
    const c = pendingGet(q);
    b.sub.unsubscribe();
    q.add('x');
    expect(a.seen).toEqual({ items: ['x'], completed: true });
    expect(b.seen).toEqual({ items: [], completed: false });
    q.shutDown();
    expect(c.seen).toEqual({ items: [], completed: true });
    const d = pendingGet(q);
    expect(d.seen).toEqual({ items: [], completed: true });
  });

  it('done on an item that is not processing changes nothing', () => {
    const q = workQueue();
    q.add('a');
    q.done('a');
    expect(q.queued()).toEqual(['a']);
    expect(q.len()).toBe(1);
  });

  it('rejects a refresh period that is not positive, naming the field', () => {
    expect(() => workQueue({ unfinishedWorkUpdatePeriodMs: 0 })).toThrow(
      'workQueue.unfinishedWorkUpdatePeriodMs',
    );
  });

  it('a long FIFO run keeps order across internal compaction', () => {
    const q = workQueue<number>();
    const out: number[] = [];
    for (let i = 0; i < 5000; i++) q.add(i);
    for (let i = 0; i < 2500; i++) out.push(take(q));
    for (let i = 5000; i < 6000; i++) q.add(i);
    for (let got = q.poll(); typeof got === 'object'; got = q.poll()) out.push(got.item);
    expect(out).toEqual(Array.from({ length: 6000 }, (_, i) => i));
  });
});

describe('WorkQueue.get() (marbles)', () => {
  const ts = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

  it('values: waits for an add, emits the item once and completes', () => {
    ts().run(({ cold, expectObservable }) => {
      const q = workQueue();
      cold('---a').subscribe((k) => q.add(k));
      expectObservable(q.get()).toBe('---(a|)');
    });
  });

  it('error: never errors; a shutdown on an empty queue completes it empty', () => {
    ts().run(({ cold, expectObservable }) => {
      const q = workQueue();
      cold('--x').subscribe(() => q.shutDown());
      expectObservable(q.get()).toBe('--|');
    });
  });

  it('empty: an already shut down, empty queue completes at once', () => {
    ts().run(({ expectObservable }) => {
      const q = workQueue();
      q.shutDown();
      expectObservable(q.get()).toBe('|');
    });
  });

  it('early unsubscribe: a get given up before the add takes nothing; the item stays queued', () => {
    ts().run(({ cold, expectObservable, flush }) => {
      const q = workQueue();
      cold('---a').subscribe((k) => q.add(k));
      expectObservable(q.get(), '^-!').toBe('---');
      flush();
      expect(q.queued()).toEqual(['a']);
      expect(q.inFlight()).toBe(0);
    });
  });

  it('synchronous: a queued item is taken at subscription; take(1) leaves the rest queued', () => {
    ts().run(({ expectObservable }) => {
      const q = workQueue();
      q.add('a');
      q.add('b');
      expectObservable(q.get().pipe(takeFirst(1))).toBe('(a|)');
    });
    // After the run's flush: a is in flight, b still queued.
    const q = workQueue();
    q.add('a');
    q.add('b');
    q.get().pipe(takeFirst(1)).subscribe();
    expect(q.queued()).toEqual(['b']);
    expect(q.isProcessing('a')).toBe(true);
  });
});

describe('WorkQueue.addAfter (delaying_queue_test.go)', () => {
  it('simple: not added before its time, added after, nothing more later', () => {
    const clock = new VirtualClock();
    const q = workQueue({ scheduler: clock.scheduler });
    q.addAfter('foo', 50);
    expect(q.len()).toBe(0);
    expect(q.waiting()).toBe(1);
    clock.advance(60);
    expect(q.len()).toBe(1);
    q.done(take(q));
    clock.advance(10_000);
    expect(q.len()).toBe(0);
  });

  it('deduping: a later delayed add is dropped, an earlier one wins', () => {
    const clock = new VirtualClock();
    const q = workQueue({ scheduler: clock.scheduler });
    q.addAfter('foo', 50);
    q.addAfter('foo', 70);
    expect(q.len()).toBe(0);
    clock.advance(60);
    expect(q.len()).toBe(1);
    q.done(take(q));
    clock.advance(20); // past the dropped 70 ms request
    expect(q.len()).toBe(0);

    q.addAfter('foo', 50);
    q.addAfter('foo', 30);
    expect(q.len()).toBe(0);
    clock.advance(40);
    expect(q.len()).toBe(1);
    q.done(take(q));
    clock.advance(20);
    expect(q.len()).toBe(0);
  });

  it('add two, fire early: items come out in time order, including one added later', () => {
    const clock = new VirtualClock();
    const q = workQueue({ scheduler: clock.scheduler });
    q.addAfter('foo', 1000);
    q.addAfter('bar', 50);
    expect(q.len()).toBe(0);
    clock.advance(60);
    expect(q.len()).toBe(1);
    expect(take(q)).toBe('bar');
    q.addAfter('baz', 2000);
    clock.advance(1000);
    expect(q.len()).toBe(1);
    expect(take(q)).toBe('foo');
    clock.advance(2000);
    expect(q.len()).toBe(1);
    expect(take(q)).toBe('baz');
  });

  it('copy shifting: three items due together come out by readyAt', () => {
    const clock = new VirtualClock();
    const q = workQueue({ scheduler: clock.scheduler });
    q.addAfter('foo', 1000);
    q.addAfter('bar', 500);
    q.addAfter('baz', 250);
    expect(q.len()).toBe(0);
    clock.advance(2000);
    expect(q.len()).toBe(3);
    expect([take(q), take(q), take(q)]).toEqual(['baz', 'bar', 'foo']);
  });

  it('a delay ≤ 0 adds at once; delayed adds coalesce with a queued item', () => {
    const clock = new VirtualClock();
    const q = workQueue({ scheduler: clock.scheduler });
    q.addAfter('now', 0);
    q.addAfter('neg', -5);
    expect(q.queued()).toEqual(['now', 'neg']);
    q.addAfter('now', 10);
    clock.advance(10);
    expect(q.queued()).toEqual(['now', 'neg']);
  });

  it('shutdown drops waiting items and releases the timer', () => {
    const clock = new VirtualClock();
    const q = workQueue({ scheduler: clock.scheduler });
    q.addAfter('foo', 50);
    q.shutDown();
    expect(q.waiting()).toBe(0);
    expect(clock.scheduler.actions).toHaveLength(0);
    q.addAfter('bar', 10);
    clock.advance(100);
    expect(q.poll()).toBe('shutdown');
  });
});

describe('WorkQueue rate-limited adds (rate_limiting_queue_test.go)', () => {
  it('asks the limiter for each delay, counts requeues per item, forget resets', () => {
    const clock = new VirtualClock();
    const asked: [string, number][] = [];
    const inner = itemExponentialRateLimiter(1, 1000);
    const limiter: RateLimiter = {
      when: (item) => {
        const d = inner.when(item);
        asked.push([item, d]);
        return d;
      },
      forget: (item) => inner.forget(item),
      numRequeues: (item) => inner.numRequeues(item),
    };
    const q = workQueue({ scheduler: clock.scheduler, rateLimiter: limiter });
    q.addRateLimited('one');
    q.addRateLimited('one');
    expect(q.numRequeues('one')).toBe(2);
    q.addRateLimited('two');
    q.addRateLimited('two');
    q.forget('one');
    expect(q.numRequeues('one')).toBe(0);
    q.addRateLimited('one');
    expect(asked).toEqual([
      ['one', 1],
      ['one', 2],
      ['two', 1],
      ['two', 2],
      ['one', 1],
    ]);
    // Forget does not remove the item: 'one' still waits, at its earliest time.
    expect(q.waiting()).toBe(2);
    clock.advance(1);
    expect(q.queued()).toEqual(['one', 'two']);
  });

  it('counts the retry in the limiter even when shut down, but adds nothing', () => {
    const q = workQueue({ rateLimiter: itemExponentialRateLimiter(1, 1000) });
    q.shutDown();
    q.addRateLimited('a');
    expect(q.numRequeues('a')).toBe(1);
    expect(q.waiting()).toBe(0);
  });
});

describe('WorkQueue teardown (real timers)', () => {
  it('shutDown releases the delay timer and the metrics timer', () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const q = workQueue({ name: 'real', metrics: { ...noopWorkQueueMetrics } });
    q.addAfter('later', 60_000);
    q.add('now');
    q.poll(); // starts the unfinished-work refresh
    expect(timers()).toBe(before + 2);
    q.shutDown();
    expect(timers()).toBe(before);
  });
});
