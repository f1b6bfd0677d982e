// schedulingQueue: the PriorityQueue as an RxJS shape — pulled pops, the two periodic flushes, a one-at-a-time loop.
import {
  asyncScheduler,
  catchError,
  concatMap,
  defer,
  EMPTY,
  Observable,
  type ObservableInput,
  type Subscription,
  timer,
} from 'rxjs';
import { InvalidConfigError } from '../../errors.ts';
import { silentLogger } from '../../logger.ts';
import { BACKOFF_ORDERING_WINDOW_MS } from './backoff-queue.ts';
import { PriorityQueue, type PriorityQueueConfig } from './priority-queue.ts';
import type { QueuedPodInfo } from './queued-pod-info.ts';

/** How often unschedulable leftovers are looked at (ms), as upstream's 30 s. */
export const UNSCHEDULABLE_FLUSH_PERIOD_MS = 30_000;

export type SchedulingQueueConfig = PriorityQueueConfig;

/** The queue's state plus its observable shape. */
export interface SchedulingQueue {
  /** The state: event handlers call add/update/delete/moveAll.../assignedPod... on it. */
  readonly queue: PriorityQueue;
  /**
   * The next pod, when there is one: a cold observable that takes one pod (it is then in flight,
   * the caller must requeue it or call `done`), emits it and completes; it completes without a value
   * once the queue is closed. Unsubscribing before it emits gives up the turn and takes nothing.
   */
  pop(): Observable<QueuedPodInfo>;
  /**
   * The periodic flushes while subscribed: backoffQ every second, aligned to whole seconds, and
   * unschedulable leftovers every 30 s. Never emits; unsubscribing stops both timers.
   */
  readonly flushes$: Observable<never>;
  /**
   * The scheduling loop: while subscribed, runs the flushes and pulls one pod at a time through
   * `scheduleOne`, taking the next only when the previous one's ObservableInput has completed
   * (one pod in a scheduling cycle at a time however fast events arrive). Emits what `scheduleOne`
   * emits; completes when the queue is closed and the last cycle is over.
   */
  run<R>(scheduleOne: (pod: QueuedPodInfo) => ObservableInput<R>): Observable<R>;
}

/**
 * kube-scheduler's scheduling queue as an RxJS shape around a {@link PriorityQueue}.
 *
 * ```
 * a fails with an error at 0 s (backoff 1 s; pop from backoffQ off):
 * flushes$  ---------1s---------2s----...   flushBackoffQCompleted on whole seconds (and leftovers every 30 s)
 * pop()     -------------------(a|)          the 1 s flush still sees a's window as current; the 2 s one moves it
 * ```
 * (the first marble test in test/operators/scheduling/queue/scheduling-queue.test.ts)
 *
 * @example
 * const { queue, run } = schedulingQueue({ less, preEnqueuePlugins, queueingHints, scheduler });
 * podInformer.addEventHandler({ onAdd: (p) => queue.add(p), onUpdate: (o, n) => queue.update(o, n),
 *   onDelete: (p) => queue.delete(p) });
 * const sub = run((pInfo) => scheduleOne(pInfo)).subscribe();
 *
 * Teardown: unsubscribing `run`/`flushes$` clears every timer; `queue.close()` ends `run` and every
 * pending `pop()`. Memory is bounded by the number of pods: each pod is held once, and events
 * recorded while pods are in flight are dropped as those pods are done.
 *
 * @param config the queue's configuration (see {@link PriorityQueueConfig})
 * @returns the queue, `pop`, `flushes$` and `run`
 */
export function schedulingQueue(config: SchedulingQueueConfig = {}): SchedulingQueue {
  for (const field of [
    'podInitialBackoffMs',
    'podMaxBackoffMs',
    'podMaxInUnschedulablePodsDurationMs',
  ] as const) {
    const v = config[field];
    if (v !== undefined && !(Number.isFinite(v) && v >= 0)) {
      throw new InvalidConfigError(`schedulingQueue.${field}`, `must be a non-negative number, got ${v}`);
    }
  }
  const queue = new PriorityQueue(config);
  const scheduler = queue.scheduler ?? asyncScheduler;

  const pop = (): Observable<QueuedPodInfo> =>
    new Observable<QueuedPodInfo>((subscriber) => {
      const tryPop = (): boolean => {
        const p = queue.pop();
        if (p) {
          subscriber.next(p);
          subscriber.complete();
          return true;
        }
        if (queue.isClosed()) {
          subscriber.complete();
          return true;
        }
        return false;
      };
      if (tryPop()) return;
      const remove = queue.onReady(() => {
        if (!subscriber.closed && tryPop()) remove();
      });
      return remove;
    });

  const flushes$ = new Observable<never>(() => {
    const now = scheduler.now();
    const firstBackoffFlush =
      Math.floor((now + BACKOFF_ORDERING_WINDOW_MS) / BACKOFF_ORDERING_WINDOW_MS) *
        BACKOFF_ORDERING_WINDOW_MS -
      now;
    const backoff = timer(firstBackoffFlush, BACKOFF_ORDERING_WINDOW_MS, scheduler).subscribe(() =>
      queue.flushBackoffQCompleted(),
    );
    const leftover = timer(UNSCHEDULABLE_FLUSH_PERIOD_MS, UNSCHEDULABLE_FLUSH_PERIOD_MS, scheduler).subscribe(
      () => queue.flushUnschedulablePodsLeftover(),
    );
    return () => {
      backoff.unsubscribe();
      leftover.unsubscribe();
    };
  });

  const logger = config.logger ?? silentLogger;
  const run = <R>(scheduleOne: (pod: QueuedPodInfo) => ObservableInput<R>): Observable<R> =>
    new Observable<R>((subscriber) => {
      const flushSub = flushes$.subscribe();
      let current: Subscription | undefined;
      // A trampoline: cycles that finish synchronously loop here instead of recursing.
      const loop = (): void => {
        while (!subscriber.closed) {
          let tookPod = false;
          let finishedSync = false;
          let returned = false;
          current = pop()
            .pipe(
              concatMap((p) => {
                tookPod = true;
                return defer(() => scheduleOne(p)).pipe(
                  catchError((err: unknown) => {
                    logger.error(
                      { err, pod: `${p.pod.metadata.namespace}/${p.pod.metadata.name}` },
                      'scheduleOne failed',
                    );
                    return EMPTY;
                  }),
                );
              }),
            )
            .subscribe({
              next: (v) => subscriber.next(v),
              complete: () => {
                if (!tookPod) {
                  subscriber.complete();
                  return;
                }
                if (returned) loop();
                else finishedSync = true;
              },
            });
          returned = true;
          if (!finishedSync) return;
        }
      };
      loop();
      return () => {
        current?.unsubscribe();
        flushSub.unsubscribe();
      };
    });

  return { queue, pop, flushes$, run };
}
