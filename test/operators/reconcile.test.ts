// Tests the reconcile runner: marble tests in virtual time, controller-runtime's result semantics, teardown.
import { EMPTY, from, map, NEVER, Observable, of, Subject, take, throwError, timer } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { InvalidConfigError, InvalidInputError } from '../../operators/errors.ts';
import type { Logger } from '../../operators/logger.ts';
import { itemExponentialRateLimiter } from '../../operators/rate-limiter.ts';
import { type ReconcileOutcome, type ReconcileResult, reconcileWith } from '../../operators/reconcile.ts';
import { workQueue } from '../../operators/work-queue.ts';
import { noopWorkQueueMetrics } from '../../operators/work-queue-metrics.ts';

const testScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/** Renders outcomes as `key:outcome` for compact marbles. */
const short = map((o: ReconcileOutcome) => `${o.key}:${o.outcome}`);

describe('reconcileWith (marbles)', () => {
  it('values: the documented diagram — one worker, each reconcile takes 3 frames', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const keys = cold('--a--b--a--|');
      const out = keys.pipe(
        reconcileWith(() => timer(3).pipe(map(() => ({})))),
        short,
      );
      expectObservable(out).toBe('-----a--b--(c|)', { a: 'a:done', b: 'b:done', c: 'a:done' });
      expectSubscriptions(keys.subscriptions).toBe('^----------!');
    });
  });

  it('error: a source error is forwarded at once, in-flight work or not', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const keys = cold('-a-#');
      expectObservable(keys.pipe(reconcileWith(() => NEVER))).toBe('---#');
    });
  });

  it('error: the in-flight signal is aborted when the source errors', () => {
    const signals: AbortSignal[] = [];
    const source = new Subject<string>();
    const errors: unknown[] = [];
    source
      .pipe(
        reconcileWith((_k, signal) => {
          signals.push(signal);
          return NEVER;
        }),
      )
      .subscribe({ error: (e) => errors.push(e) });
    source.next('a');
    expect(signals[0]!.aborted).toBe(false);
    source.error(new Error('boom'));
    expect(errors).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(true);
  });

  it('empty: an empty source completes at once', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('|').pipe(reconcileWith(() => ({})))).toBe('|');
      expectObservable(EMPTY.pipe(reconcileWith(() => ({})))).toBe('|');
    });
  });

  it('early unsubscribe: unsubscribing stops the source and the in-flight reconcile', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const keys = cold('-a--b--');
      const work = cold('-----x', { x: {} as ReconcileResult });
      const out = keys.pipe(
        reconcileWith(() => work),
        short,
      );
      expectObservable(out, '^--!').toBe('---');
      expectSubscriptions(keys.subscriptions).toBe('^--!');
      expectSubscriptions(work.subscriptions).toBe('-^-!');
    });
  });

  it('synchronous source then take: stops after the first outcomes and reconciles nothing more', () => {
    const seen: string[] = [];
    const outcomes: string[] = [];
    of('a', 'b', 'c', 'd')
      .pipe(
        reconcileWith((k) => {
          seen.push(k);
          return {};
        }),
        take(2),
      )
      .subscribe((o) => outcomes.push(`${o.key}:${o.outcome}`));
    expect(outcomes).toEqual(['a:done', 'b:done']);
    expect(seen).toEqual(['a', 'b']);
  });

  it('a large synchronous burst with synchronous reconciles does not grow the stack', () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `k${i}`);
    let count = 0;
    let completed = false;
    from(keys)
      .pipe(reconcileWith(() => undefined, { workers: 3 }))
      .subscribe({ next: () => count++, complete: () => (completed = true) });
    expect(count).toBe(20_000);
    expect(completed).toBe(true);
  });
});

describe('reconcileWith (semantics: controller-runtime results, client-go queue)', () => {
  it.each<[string, (k: string, n: number) => unknown, string, Record<string, string>]>([
    // Each row: reconcile by attempt number n (1-based), source `a` at 0 and never completing.
    ['done: forget, nothing more', () => ({}), 'a', { a: 'a:done' }],
    ['undefined counts as done', () => undefined, 'a', { a: 'a:done' }],
    [
      'requeueAfter: again after exactly that delay',
      (_k, n) => (n === 1 ? { requeueAfter: 7 } : {}),
      'r------d',
      { r: 'a:requeueAfter', d: 'a:done' },
    ],
    [
      'requeue: again after the rate limiter (10, then 20 frames)',
      (_k, n) => (n < 3 ? { requeue: true } : {}),
      'r---------r-------------------d',
      { r: 'a:requeue', d: 'a:done' },
    ],
    [
      'requeueAfter wins over requeue',
      (_k, n) => (n === 1 ? { requeue: true, requeueAfter: 3 } : {}),
      'r--d',
      { r: 'a:requeueAfter', d: 'a:done' },
    ],
    [
      'requeueAfter ≤ 0 is not a delay (falls back to requeue/done)',
      (_k, n) => (n === 1 ? { requeueAfter: 0, requeue: false } : {}),
      'a',
      { a: 'a:done' },
    ],
    [
      'a throw is an error: retried with backoff',
      (_k, n) => {
        if (n === 1) throw new Error('nope');
        return {};
      },
      'e---------d',
      { e: 'a:error', d: 'a:done' },
    ],
    [
      'an erroring observable is an error: retried with backoff',
      (_k, n) => (n === 1 ? throwError(() => new Error('nope')) : of({})),
      'e---------d',
      { e: 'a:error', d: 'a:done' },
    ],
    [
      'an invalid result is an error',
      (_k, n) => (n === 1 ? { requeueAfter: 'soon' } : {}),
      'e---------d',
      { e: 'a:error', d: 'a:done' },
    ],
  ])('%s', (_name, behaviour, expected, values) => {
    testScheduler().run(({ cold, expectObservable }) => {
      let attempts = 0;
      const out = cold('a').pipe(
        reconcileWith((k) => behaviour(k, ++attempts) as ReconcileResult, {
          rateLimiter: itemExponentialRateLimiter(10, 1000),
        }),
        short,
      );
      expectObservable(out, '^ 100ms !').toBe(expected, values);
    });
  });

  it('a promise result settles the run (outside virtual time)', async () => {
    const outcomes = await new Promise<ReconcileOutcome[]>((resolve) => {
      const got: ReconcileOutcome[] = [];
      of('a', 'b')
        .pipe(reconcileWith(async (k) => (k === 'a' ? {} : { requeueAfter: 1 })))
        .subscribe({ next: (o) => got.push(o), complete: () => resolve(got) });
    });
    expect(outcomes.map((o) => [o.key, o.outcome, o.requeueAfterMs])).toEqual([
      ['a', 'done', undefined],
      ['b', 'requeueAfter', 1],
    ]);
  });

  it('an invalid result names the field', () => {
    const outcomes: ReconcileOutcome[] = [];
    of('a')
      .pipe(reconcileWith(() => ({ requeueAfter: Number.NaN }) as ReconcileResult))
      .subscribe((o) => outcomes.push(o));
    expect(outcomes[0]!.error).toBeInstanceOf(InvalidInputError);
    expect((outcomes[0]!.error as InvalidInputError).field).toBe('requeueAfter');
  });

  it('reports duration and the requeue count', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      let n = 0;
      const out = cold('a').pipe(
        reconcileWith(() => timer(4).pipe(map(() => (++n < 3 ? { requeue: true } : {}))), {
          rateLimiter: itemExponentialRateLimiter(1, 1000),
        }),
        map((o) => `${o.outcome}/${o.durationMs}/${o.requeues}`),
      );
      // runs: 0-4 requeue (1 retry, 1 ms) → 5-9 requeue (2 retries, 2 ms) → 11-15 done, forgotten
      expectObservable(out, '^ 50ms !').toBe('----a----b-----c', {
        a: 'requeue/4/1',
        b: 'requeue/4/2',
        c: 'done/4/0',
      });
    });
  });

  it('a key changed while it is reconciled is reconciled again afterwards, never concurrently', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      let running = 0;
      let maxRunning = 0;
      const keys = cold('a-a-a--------');
      const out = keys.pipe(
        reconcileWith(
          () =>
            new Observable<ReconcileResult>((s) => {
              running++;
              maxRunning = Math.max(maxRunning, running);
              const t = timer(5).subscribe(() => {
                s.next({});
                s.complete();
              });
              return () => {
                running--;
                t.unsubscribe();
              };
            }),
          { workers: 4 },
        ),
        short,
      );
      // 0-5 first run; the two re-adds coalesce into one more run 5-10.
      expectObservable(out, '^ 20ms !').toBe('-----a----a', { a: 'a:done' });
      testScheduler().flush();
      expect(maxRunning).toBeLessThanOrEqual(1);
    });
  });

  it('N workers run distinct keys in parallel, FIFO among keys', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const keys = cold('(abcd)');
      const out = keys.pipe(
        reconcileWith(() => timer(4).pipe(map(() => ({}))), { workers: 2 }),
        map((o) => o.key),
      );
      // a, b at 4; c, d at 8 (a group's characters take frames too).
      expectObservable(out, '^ 20ms !').toBe('----(ab)(cd)');
    });
  });

  it('drain: when the source completes, queued and in-flight keys finish, retries are dropped, then complete', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const keys = cold('(ab|)');
      const out = keys.pipe(
        reconcileWith((k) => timer(3).pipe(map(() => (k === 'a' ? { requeue: true } : {})))),
        short,
      );
      expectObservable(out).toBe('---a--(b|)', { a: 'a:requeue', b: 'b:done' });
    });
  });

  it('stop now: with drain false the completion of the source aborts in-flight work', () => {
    const signals: AbortSignal[] = [];
    let completed = false;
    const source = new Subject<string>();
    source
      .pipe(
        reconcileWith(
          (_k, signal) => {
            signals.push(signal);
            return NEVER;
          },
          { drain: false },
        ),
      )
      .subscribe({ complete: () => (completed = true) });
    source.next('a');
    source.complete();
    expect(completed).toBe(true);
    expect(signals[0]!.aborted).toBe(true);
  });

  it('works from a given queue that code adds to directly; draining that queue ends the runner', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const queue = workQueue();
      queue.add('pre');
      const out = NEVER.pipe(
        reconcileWith(() => timer(2).pipe(map(() => ({}))), { queue, workers: 2 }),
        map((o) => o.key),
      );
      cold('-a-b').subscribe((k) => queue.add(k));
      cold('----x').subscribe(() => queue.shutDownWithDrain().subscribe());
      // pre 0-2, a 1-3, b 3-5; the drain at 4 waits for b, then the runner completes.
      expectObservable(out).toBe('--pa-(b|)', { p: 'pre', a: 'a', b: 'b' });
    });
  });

  it('unsubscribing shuts a given queue down', () => {
    const queue = workQueue();
    EMPTY.pipe(reconcileWith(() => ({}), { queue, drain: false }))
      .subscribe()
      .unsubscribe();
    expect(queue.isShuttingDown()).toBe(true);
  });

  it('logs a failure with the key', () => {
    const lines: [Record<string, unknown>, string | undefined][] = [];
    const logger: Logger = {
      trace() {},
      debug() {},
      info() {},
      warn() {},
      error: ((obj: Record<string, unknown>, msg?: string) => {
        lines.push([obj, msg]);
      }) as Logger['error'],
      child: () => logger,
    };
    of('a')
      .pipe(
        reconcileWith(
          () => {
            throw new Error('kaput');
          },
          { logger },
        ),
      )
      .subscribe();
    expect(lines).toHaveLength(1);
    expect(lines[0]![0].key).toBe('a');
    expect((lines[0]![0].err as Error).message).toBe('kaput');
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects workers = %d naming the field', (workers) => {
    expect(() => reconcileWith(() => ({}), { workers })).toThrow(InvalidConfigError);
    expect(() => reconcileWith(() => ({}), { workers })).toThrow('reconcileWith.workers');
  });
});

describe('reconcileWith teardown (real timers)', () => {
  it('unsubscribing aborts in-flight reconciles and leaves no timer behind', async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const signals: AbortSignal[] = [];
    const source = new Subject<string>();
    const sub = source
      .pipe(
        reconcileWith(
          (k, signal) => {
            signals.push(signal);
            if (k === 'slow') return new Promise<ReconcileResult>(() => {});
            return { requeueAfter: 60_000 };
          },
          // A named queue with a provider runs the unfinished-work timer too.
          { workers: 2, name: 'teardown', metrics: { ...noopWorkQueueMetrics } },
        ),
      )
      .subscribe();
    source.next('later');
    source.next('slow');
    await new Promise((r) => setImmediate(r));
    const during = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    expect(during).toBeGreaterThan(before);
    sub.unsubscribe();
    expect(signals.find((_, i) => i === 1)!.aborted).toBe(true);
    const after = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    expect(after).toBe(before);
  });
});
