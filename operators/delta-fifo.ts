// deltaFifo: client-go's DeltaFIFO as an operator from reflector events to the consumer's results.
import type { OperatorFunction } from 'rxjs';
import { type FifoConfig, type FifoEvent, fifoOperator } from './fifo-queue-operator.ts';
import type { KubeObject, ReflectorEvent } from './types.ts';

/**
 * Queues reflector events per key as client-go's DeltaFIFO does and hands each key's accumulated
 * deltas to `process`, pulled: the next item goes out only when a processing completes, never two
 * of one key at once.
 *
 * ```
 * source:  auv|          a = Added x, u = Updated x, v = Updated x
 * process: each item takes 4 frames, then emits its delta types
 * output:  S---A---(B|)  S = Synced, A = Processed x [Added], B = Processed x [Updated,Updated]
 * ```
 *
 * Semantics (see FifoQueue): deltas of a key accumulate while it waits and the key keeps its place
 * in line; two consecutive Deleted collapse (a real final state beats a tombstone); a `Replace`
 * queues `Sync` (or `Replaced` with `emitDeltaTypeReplaced`) for each listed object and a tombstone
 * for each queued or known key it no longer lists; a Delete of a key neither queued nor known is
 * dropped; `resync$` ticks queue `Sync` for known keys with nothing queued; `Synced` is emitted once,
 * after the first list's last item has been processed (at once if the first event is not a Replace);
 * `Bookmark` events are ignored. Objects without a key are logged and skipped.
 *
 * Recovery/Teardown: the queue lives per subscription. Source completion drains the queue, then
 * completes; a source or `resync$` error errors at once. Unsubscribing cancels processing in flight
 * and drops the queue. A failed processing is logged, emitted as `Failed`, and the item is done
 * (not retried; retries belong to a work queue).
 *
 * @example
 * reflector$.pipe(deltaFifo({ knownObjects: cache, process: (item) => of(item).pipe(reflect(cache)) }))
 * @param config consumer, known objects, options
 * @returns the operator
 * @throws InvalidConfigError for a missing `process` or a bad `concurrency`
 */
export function deltaFifo<T extends KubeObject, R = never>(
  config: FifoConfig<T, R>,
): OperatorFunction<ReflectorEvent<T>, FifoEvent<T, R>> {
  return fifoOperator('delta', config);
}
