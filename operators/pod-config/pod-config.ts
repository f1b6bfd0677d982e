// podConfig: the kubelet's PodConfig merge point as an operator, source updates in, ordered PodUpdates out.
import { asyncScheduler, Observable, type OperatorFunction, type SchedulerLike } from 'rxjs';
import { InvalidInputError } from '../errors.ts';
import { type Logger, silentLogger } from '../logger.ts';
import { PodStorage } from './pod-storage.ts';
import type { PodConfigMode, PodUpdate, SourceUpdate } from './types.ts';

export interface PodConfigConfig {
  /** Default `Incremental`, the mode the kubelet's sync loop consumes. */
  mode?: PodConfigMode;
  /** Supplies the time written into the config.seen annotation; default `asyncScheduler`. */
  scheduler?: SchedulerLike;
  logger?: Logger;
  /** Each value emits a SET of every source's pods under the source `*` (the kubelet's Sync). */
  resync$?: Observable<unknown>;
}

/**
 * Merges per-source pod updates as the kubelet's podStorage does and emits the resulting
 * PodUpdates: in Incremental mode REMOVE, ADD, UPDATE, DELETE, the empty "source ready" ADD on a
 * source's first set when nothing else was added, updated or deleted, then RECONCILE.
 *
 * Processing is serial: one update's notifications are all emitted, in order, before the next
 * update (even one pushed re-entrantly by a subscriber) is merged.
 *
 * ```
 * source: -a-b-|      a = {source:'f', pods:[p]}   b = {source:'f', pods:[]}
 * result: -A-R-|      A = ADD f [p]                R = REMOVE f [p]
 * ```
 *
 * @example
 * updates$.pipe(podConfig({ mode: 'Incremental' })).subscribe((u) => console.log(u.op, u.source));
 *
 * Recovery/Teardown: the per-source state lives in the subscription; a new subscription starts
 * empty. Unsubscribing drops the queue and unsubscribes the source and `resync$`.
 *
 * @param config mode, clock, logger and resync trigger
 * @returns an operator from source updates to pod updates
 */
export function podConfig(config: PodConfigConfig = {}): OperatorFunction<SourceUpdate, PodUpdate> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = config.logger ?? silentLogger;
  return (source$) =>
    new Observable<PodUpdate>((subscriber) => {
      const storage = new PodStorage({ mode: config.mode, now: () => scheduler.now(), logger });
      const queue: (() => PodUpdate[] | 'complete')[] = [];
      let draining = false;
      const run = (job: () => PodUpdate[] | 'complete') => {
        queue.push(job);
        if (draining) return;
        draining = true;
        try {
          while (queue.length > 0 && !subscriber.closed) {
            const out = queue.shift()!();
            if (out === 'complete') {
              subscriber.complete();
              break;
            }
            for (const update of out) {
              if (subscriber.closed) break;
              subscriber.next(update);
            }
          }
        } catch (error) {
          subscriber.error(error);
        } finally {
          draining = false;
        }
      };
      const subscription = source$.subscribe({
        next: (update) =>
          run(() => {
            if (typeof update?.source !== 'string' || update.source === '') {
              throw new InvalidInputError('source update', 'source', 'a source name is required');
            }
            return storage.merge(update);
          }),
        error: (error) => subscriber.error(error),
        complete: () => run(() => 'complete'),
      });
      if (config.resync$) {
        subscription.add(config.resync$.subscribe(() => run(() => [storage.sync()])));
      }
      return subscription;
    });
}
