// The operator shell around FifoQueue shared by deltaFifo and realFifo: pulled, keyed, N-way consumption.
import {
  from,
  Observable,
  type ObservableInput,
  type OperatorFunction,
  type SchedulerLike,
  Subscriber,
  Subscription,
} from 'rxjs';
import { InvalidConfigError } from './errors.ts';
import { type FifoItem, type FifoMode, type FifoOptions, FifoQueue, RequeueError } from './fifo-queue.ts';
import { silentLogger } from './logger.ts';
import { reentryGuard } from './reentry-guard.ts';

import type { KubeObject, ReflectorEvent } from './types.ts';

/**
 * Configuration of deltaFifo and realFifo (one shape, so an informer can switch between them).
 * Consumption is pulled: an item goes to `process` only when fewer than `concurrency` items are
 * being processed and no item of the same key is; it counts as processed when the returned
 * ObservableInput completes (or errors).
 */
export interface FifoConfig<T extends KubeObject = KubeObject, R = never> extends FifoOptions<T> {
  /**
   * The consumer. A throw or error of {@link RequeueError} puts the item back unless newer deltas of its
   * key are queued (client-go's ErrRequeue), and is `Failed` only when it carries an inner error.
   * Its values are emitted as `Processed` events; a throw or error becomes a `Failed`
   * event. Returning an array (e.g. `[]`) is the synchronous fast path.
   */
  process: (item: FifoItem<T>, isInInitialList: boolean) => ObservableInput<R>;
  /** Each value triggers a Resync (Sync deltas for known keys with nothing queued). */
  resync$?: Observable<unknown>;
  /** Items processed at once, never two of one key. Default 1. */
  concurrency?: number;
  /** When given, hand-outs are scheduled on it (e.g. `asapScheduler`, to let producers run between items). Default: synchronous. */
  scheduler?: SchedulerLike;
}

/**
 * What a FIFO operator emits: every value its consumer produced, failures of the consumer, and one
 * `Synced` once the initial list has been processed (client-go's HasSynced turning true).
 */
export type FifoEvent<T extends KubeObject = KubeObject, R = never> =
  | {
      readonly type: 'Processed';
      readonly key: string;
      readonly result: R;
      readonly isInInitialList: boolean;
    }
  | { readonly type: 'Failed'; readonly key: string; readonly item: FifoItem<T>; readonly error: unknown }
  | { readonly type: 'Synced' };

/**
 * Builds the FIFO operator of one mode; `deltaFifo` and `realFifo` are this with the mode fixed.
 * @throws InvalidConfigError for a missing `process` or a bad `concurrency`
 */
export function fifoOperator<T extends KubeObject, R>(
  mode: FifoMode,
  config: FifoConfig<T, R>,
): OperatorFunction<ReflectorEvent<T>, FifoEvent<T, R>> {
  if (typeof config?.process !== 'function') throw new InvalidConfigError('process', 'must be a function');
  const concurrency = config.concurrency ?? 1;
  if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
    throw new InvalidConfigError('concurrency', `must be an integer >= 1, got ${concurrency}`);
  }
  const logger = config.logger ?? silentLogger;

  return (source) =>
    new Observable<FifoEvent<T, R>>((subscriber) => {
      const queue = new FifoQueue<T>({ ...config, mode, logger });
      const active = new Map<string, Subscription>();
      let sourceDone = false;
      let scheduled: Subscription | undefined;

      const emitSynced = () => {
        if (!subscriber.closed && queue.takeSynced()) subscriber.next({ type: 'Synced' });
      };

      const maybeComplete = () => {
        if (sourceDone && queue.length === 0 && active.size === 0 && !subscriber.closed)
          subscriber.complete();
      };

      const settle = (key: string) => {
        if (!active.delete(key) || subscriber.closed) return;
        queue.done(key);
        emitSynced();
        pump();
      };

      const start = (item: FifoItem<T>, isInInitialList: boolean) => {
        const { key } = item;
        const fail = (error: unknown) => {
          let failure = error;
          if (error instanceof RequeueError) {
            const requeued = queue.addIfNotPresent(item);
            logger.debug({ key, requeued }, 'processing asked for a requeue');
            failure = error.inner;
            if (failure === undefined) return;
          }
          logger.error({ err: failure, key }, 'processing an item failed');
          if (!subscriber.closed) subscriber.next({ type: 'Failed', key, item, error: failure });
        };
        let input: ObservableInput<R>;
        active.set(key, Subscription.EMPTY); // a placeholder while `process` runs
        try {
          input = config.process(item, isInInitialList);
        } catch (error) {
          fail(error);
          settle(key);
          return;
        }
        if (Array.isArray(input)) {
          // fast path for synchronous consumers: no subscription per item
          for (const result of input as R[]) {
            if (subscriber.closed) return;
            subscriber.next({ type: 'Processed', key, result, isInInitialList });
          }
          settle(key);
          return;
        }
        const inner = new Subscriber<R>({
          next: (result) => subscriber.next({ type: 'Processed', key, result, isInInitialList }),
          error: (error: unknown) => {
            fail(error);
            settle(key);
          },
          complete: () => settle(key),
        });
        active.set(key, inner);
        from(input).subscribe(inner);
      };

      const drainPasses = reentryGuard(
        () => {
          while (!subscriber.closed && active.size < concurrency && queue.canPop) {
            const popped = queue.pop()!;
            start(popped.item, popped.isInInitialList);
          }
        },
        () => !subscriber.closed,
      );
      const drain = () => {
        if (drainPasses()) maybeComplete();
      };

      const pump = () => {
        if (!config.scheduler) return drain();
        if (scheduled && !scheduled.closed) return;
        scheduled = config.scheduler.schedule(() => {
          scheduled = undefined;
          drain();
        });
      };

      const apply = (event: ReflectorEvent<T>) => {
        switch (event.type) {
          case 'Replace':
            queue.replace(event.items);
            break;
          case 'Added':
            queue.add(event.object);
            break;
          case 'Updated':
            queue.update(event.object);
            break;
          case 'Deleted':
            queue.delete(event.object);
            break;
          case 'Bookmark':
            break;
          default:
            logger.warn({ event }, 'ignoring an unknown reflector event');
        }
      };

      const fromSource = new Subscriber<ReflectorEvent<T>>({
        next: (event) => {
          if (subscriber.closed) return;
          try {
            apply(event);
          } catch (error) {
            subscriber.error(error);
            return;
          }
          emitSynced();
          pump();
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          sourceDone = true;
          queue.close();
          pump();
          maybeComplete();
        },
      });
      const fromResync = new Subscriber<unknown>({
        next: () => {
          if (subscriber.closed) return;
          try {
            queue.resync();
          } catch (error) {
            subscriber.error(error);
            return;
          }
          pump();
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {},
      });

      subscriber.add(() => {
        fromSource.unsubscribe();
        fromResync.unsubscribe();
        scheduled?.unsubscribe();
        for (const sub of active.values()) sub.unsubscribe();
        active.clear();
        queue.clear();
      });
      source.subscribe(fromSource);
      if (config.resync$ && !subscriber.closed) config.resync$.subscribe(fromResync);
    });
}
