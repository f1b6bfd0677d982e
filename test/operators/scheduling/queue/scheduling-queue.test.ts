// schedulingQueue in virtual time: backoff expiry, the two flushes, hints moving only the right pods, pulled pops, teardown.
import { EMPTY, finalize, map, of, take, throwError, timer } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { KubeRxError } from '../../../../operators/errors.ts';
import { EVENT_NODE_ADD } from '../../../../operators/scheduling/queue/cluster-events.ts';
import { schedulingQueue } from '../../../../operators/scheduling/queue/scheduling-queue.ts';
import { testScheduler } from '../../../../src/testing/marbles.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import { pod, popAndReject, queueHint, skipHint } from './fixtures.ts';

const name = map((p: { pod: { metadata: { name?: string } } }) => p.pod.metadata.name);

describe('schedulingQueue marbles', () => {
  it('a pod that failed waits out its backoff and is handed out by the backoff flush (pop from backoffQ off)', () => {
    const ts = testScheduler();
    ts.run(({ expectObservable }) => {
      const { queue, pop, flushes$ } = schedulingQueue({ scheduler: ts, popFromBackoffQEnabled: false });
      queue.add(pod('a'));
      queue.addUnschedulableIfNotPresent(popAndReject(queue), 1);
      // Expiry 1 s is in the window the 1 s flush sees as current; the 2 s flush moves it.
      expectObservable(flushes$, '5s !').toBe('');
      expectObservable(pop().pipe(name)).toBe('2s (a|)', { a: 'a' });
    });
  });

  it('with pop from backoffQ on, a waiting pop takes a pod the moment it enters backoffQ', () => {
    const ts = testScheduler();
    ts.run(({ expectObservable, cold }) => {
      const { queue, pop } = schedulingQueue({
        scheduler: ts,
        queueingHints: { 'default-scheduler': { P: [{ event: EVENT_NODE_ADD }] } },
      });
      queue.add(pod('errored'));
      queue.add(pod('rejected'));
      const popped = [queue.pop()!, queue.pop()!];
      const errored = popped.find((p) => p.pod.metadata.name === 'errored')!;
      const rejected = popped.find((p) => p.pod.metadata.name === 'rejected')!;
      rejected.unschedulablePlugins.add('P');
      cold('10ms x').subscribe(() => {
        queue.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD);
        // The error heap is not popped early: only podBackoffQ is.
        queue.addUnschedulableIfNotPresent(errored, 1);
        queue.addUnschedulableIfNotPresent(rejected, 2);
      });
      expectObservable(pop().pipe(name)).toBe('10ms (r|)', { r: 'rejected' });
    });
  });

  it('the leftover flush moves a pod unschedulable for more than 5 minutes, at the first 30 s tick after', () => {
    const ts = testScheduler();
    ts.run(({ expectObservable }) => {
      const { queue, pop, flushes$ } = schedulingQueue({
        scheduler: ts,
        queueingHints: { 'default-scheduler': { P: [{ event: EVENT_NODE_ADD }] } },
      });
      queue.add(pod('a'));
      queue.addUnschedulableIfNotPresent(popAndReject(queue, 'P'), 1);
      expectObservable(flushes$, '400s !').toBe('');
      // 300 s is not more than 5 minutes; 330 s is.
      expectObservable(pop().pipe(name)).toBe('330s (a|)', { a: 'a' });
    });
  });

  it('a node event moves only the pods whose rejecting plugin hints Queue', () => {
    const ts = testScheduler();
    ts.run(({ expectObservable, cold, flush }) => {
      const { queue, pop } = schedulingQueue({
        scheduler: ts,
        queueingHints: {
          'default-scheduler': {
            NodeAffinity: [{ event: EVENT_NODE_ADD, hint: queueHint }],
            TaintToleration: [{ event: EVENT_NODE_ADD, hint: skipHint }],
          },
        },
      });
      queue.add(pod('helped'));
      queue.add(pod('not-helped'));
      queue.addUnschedulableIfNotPresent(popAndReject(queue, 'NodeAffinity'), 1);
      queue.addUnschedulableIfNotPresent(popAndReject(queue, 'TaintToleration'), 2);
      cold('20ms n').subscribe(() => queue.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD));
      expectObservable(pop().pipe(name)).toBe('20ms (h|)', { h: 'helped' });
      flush();
      expect(queue.whereIs('ns', 'not-helped')).toBe('unschedulable');
    });
  });
});

describe('schedulingQueue pop and run', () => {
  it('a pop unsubscribed before a pod arrives gives up its turn and takes nothing', () => {
    const { queue, pop } = schedulingQueue({ scheduler: new VirtualClock().scheduler });
    const got: string[] = [];
    const sub = pop()
      .pipe(name)
      .subscribe((n) => got.push(n!));
    sub.unsubscribe();
    queue.add(pod('a'));
    expect(got).toEqual([]);
    expect(queue.whereIs('ns', 'a')).toBe('active');
  });

  it('pending pops complete empty when the queue is closed', () => {
    const { queue, pop } = schedulingQueue({ scheduler: new VirtualClock().scheduler });
    let completed = false;
    pop().subscribe({ complete: () => (completed = true) });
    queue.close();
    expect(completed).toBe(true);
  });

  it('run takes one pod at a time, by priority, however many events arrive meanwhile', () => {
    const clock = new VirtualClock();
    const { queue, run } = schedulingQueue({ scheduler: clock.scheduler });
    let active = 0;
    let maxActive = 0;
    const order: string[] = [];
    const sub = run((p) => {
      active++;
      maxActive = Math.max(maxActive, active);
      order.push(p.pod.metadata.name!);
      return timer(100, clock.scheduler).pipe(
        map(() => p.pod.metadata.name),
        finalize(() => {
          active--;
          queue.done(p.uid);
        }),
      );
    }).subscribe();
    queue.add(pod('low', { priority: 1 }));
    for (let i = 0; i < 50; i++)
      queue.update(pod('low', { priority: 1 }), pod('low', { priority: 1, labels: { i: `${i}` } }));
    queue.add(pod('high', { priority: 10 }));
    queue.add(pod('mid', { priority: 5 }));
    clock.advance(1000);
    expect(order).toEqual(['low', 'high', 'mid']);
    expect(maxActive).toBe(1);
    sub.unsubscribe();
    expect(clock.pending).toBe(0);
  });

  it('run survives synchronous cycles for 10,000 pods (no recursion) and completes when closed', () => {
    const clock = new VirtualClock();
    const { queue, run } = schedulingQueue({ scheduler: clock.scheduler });
    for (let i = 0; i < 10_000; i++) queue.add(pod(`p${i}`));
    let n = 0;
    let completed = false;
    const sub = run((p) => {
      queue.done(p.uid);
      n++;
      return EMPTY;
    }).subscribe({ complete: () => (completed = true) });
    expect(n).toBe(10_000);
    expect(queue.schedulingCycle()).toBe(10_000);
    queue.close();
    expect(completed).toBe(true);
    sub.unsubscribe();
    expect(clock.pending).toBe(0);
  });

  it('a cycle that throws is logged and the loop goes on', () => {
    const clock = new VirtualClock();
    const logged: unknown[] = [];
    const logger = {
      trace() {},
      debug() {},
      info() {},
      warn() {},
      error: (o: unknown) => void logged.push(o),
      child() {
        return logger;
      },
    };
    const { queue, run } = schedulingQueue({ scheduler: clock.scheduler, logger });
    queue.add(pod('a', { priority: 2 }));
    queue.add(pod('b', { priority: 1 }));
    const seen: string[] = [];
    const sub = run((p) => {
      queue.done(p.uid);
      if (p.pod.metadata.name === 'a') return throwError(() => new Error('boom'));
      return of(p.pod.metadata.name!);
    }).subscribe((v) => seen.push(v));
    expect(seen).toEqual(['b']);
    expect(logged).toHaveLength(1);
    sub.unsubscribe();
  });

  it('run(...).pipe(take(2)) with synchronous cycles stops after two and leaves no timer', () => {
    const clock = new VirtualClock();
    const { queue, run } = schedulingQueue({ scheduler: clock.scheduler });
    for (const n of ['a', 'b', 'c']) {
      queue.add(pod(n));
      clock.advance(1);
    }
    const got: string[] = [];
    run((p) => of(p.pod.metadata.name!))
      .pipe(take(2))
      .subscribe((v) => got.push(v));
    expect(got).toEqual(['a', 'b']);
    expect(queue.whereIs('ns', 'c')).toBe('active');
    expect(clock.pending).toBe(0);
  });

  it('run on an empty queue emits nothing until a pod arrives', () => {
    const clock = new VirtualClock();
    const { queue, run } = schedulingQueue({ scheduler: clock.scheduler });
    const got: string[] = [];
    const sub = run((p) => of(p.pod.metadata.name!)).subscribe((v) => got.push(v));
    clock.advance(10_000);
    expect(got).toEqual([]);
    queue.add(pod('late'));
    expect(got).toEqual(['late']);
    sub.unsubscribe();
  });
});

describe('schedulingQueue teardown and config', () => {
  it('unsubscribing the flushes leaves no timer', () => {
    const clock = new VirtualClock();
    const { flushes$ } = schedulingQueue({ scheduler: clock.scheduler });
    const sub = flushes$.subscribe();
    expect(clock.pending).toBe(2);
    clock.advance(65_000);
    expect(clock.pending).toBe(2);
    sub.unsubscribe();
    expect(clock.pending).toBe(0);
  });

  it('the first backoff flush is aligned to the next whole second', () => {
    const clock = new VirtualClock();
    clock.advance(1_250);
    const { queue, flushes$ } = schedulingQueue({
      scheduler: clock.scheduler,
      popFromBackoffQEnabled: false,
    });
    const calls: number[] = [];
    const original = queue.flushBackoffQCompleted.bind(queue);
    queue.flushBackoffQCompleted = () => {
      calls.push(clock.now());
      original();
    };
    const sub = flushes$.subscribe();
    clock.advance(2_000);
    expect(calls).toEqual([2_000, 3_000]);
    sub.unsubscribe();
  });

  it.each(['podInitialBackoffMs', 'podMaxBackoffMs', 'podMaxInUnschedulablePodsDurationMs'] as const)(
    'refuses a negative %s, naming the field',
    (field) => {
      expect(() => schedulingQueue({ [field]: -1 })).toThrowError(KubeRxError);
      expect(() => schedulingQueue({ [field]: -1 })).toThrowError(`schedulingQueue.${field}`);
    },
  );
});

describe('schedulingQueue on the real clock', () => {
  it('leaves no timer handle once run is unsubscribed', () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const { queue, run } = schedulingQueue();
    const sub = run((p) => {
      queue.done(p.uid);
      return EMPTY;
    }).subscribe();
    queue.add(pod('a'));
    expect(timers()).toBeGreaterThan(before);
    sub.unsubscribe();
    expect(timers()).toBe(before);
  });
});
