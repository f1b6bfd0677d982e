// realFifo: client-go's RealFIFO (the in-order FIFO) as an operator from reflector events to results.
import type { OperatorFunction } from 'rxjs';
import { type FifoConfig, type FifoEvent, fifoOperator } from './fifo-queue-operator.ts';
import type { KubeObject, ReflectorEvent } from './types.ts';

/**
 * Queues every reflector notification as its own item, in arrival order, as client-go's RealFIFO
 * (upstream's default since 1.33) does, and hands them to `process` pulled: the next item goes out
 * only when a processing completes, never two of one key at once.
 *
 * ```
 * source:  auv|              a = Added x, u = Updated x, v = Updated x
 * process: each item takes 4 frames, then emits its delta type
 * output:  S---A---B---(C|)  S = Synced, A = [Added], B = [Updated], C = [Updated]
 * ```
 *
 * Semantics: no per-key merging (each item holds one delta); a `Replace` first queues tombstones
 * for queued keys whose last delta is not a delete and for known keys it no longer lists, then a
 * `Replaced` delta per listed object (`Sync` when `emitDeltaTypeReplaced` is false); every Delete is
 * queued; `resync$` ticks queue `Sync` for known keys with nothing queued; `Synced` is emitted once,
 * after the first list's items (tombstones included) have been processed. With `compact`, a key
 * keeps one queued delta (its newest) in its original place, bounding memory by keys.
 *
 * Recovery/Teardown: as {@link deltaFifo}: source completion drains then completes, errors pass
 * through at once, unsubscribing cancels processing in flight and drops the queue.
 *
 * @example
 * reflector$.pipe(realFifo({ knownObjects: cache, process: (item) => of(item).pipe(reflect(cache)) }))
 * @param config consumer, known objects, options
 * @returns the operator
 * @throws InvalidConfigError for a missing `process` or a bad `concurrency`
 */
export function realFifo<T extends KubeObject, R = never>(
  config: FifoConfig<T, R>,
): OperatorFunction<ReflectorEvent<T>, FifoEvent<T, R>> {
  return fifoOperator('real', config);
}
