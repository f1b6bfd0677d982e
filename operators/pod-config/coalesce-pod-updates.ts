// coalescePodUpdates: hands PodUpdates to a slow consumer one at a time, holding only the latest state per pod.
import { from, Observable, type ObservableInput, type OperatorFunction, type Subscription } from 'rxjs';
import { type Logger, silentLogger } from '../logger.ts';
import type { Pod, PodOperation, PodUpdate } from './types.ts';

export interface CoalescePodUpdatesConfig {
  logger?: Logger;
}

type PodChange = 'ADD' | 'UPDATE' | 'DELETE' | 'RECONCILE';

/** What is pending for one pod of one source: at most a REMOVE of what the consumer knew, then one change. */
interface Pending {
  readonly source: string;
  readonly seq: number;
  removed?: Pod;
  change?: PodChange;
  pod?: Pod;
}

const RANK: Record<PodChange, number> = { RECONCILE: 1, UPDATE: 2, DELETE: 3, ADD: 4 };
const ORDER: PodOperation[] = ['REMOVE', 'ADD', 'UPDATE', 'DELETE', 'RECONCILE'];

/**
 * Pulled consumption of pod updates: each update is handed to `handle` only when the previous
 * one's processing (an ObservableInput) has completed, and is emitted downstream after that.
 * While the consumer is busy, updates are folded per pod (source + UID), so the backlog never
 * holds more than one pending REMOVE and one pending change per pod, plus the latest SET:
 * ADD then UPDATE hands out one ADD of the latest pod, ADD then REMOVE hands out nothing,
 * UPDATE then RECONCILE one UPDATE, anything then DELETE one DELETE, REMOVE then ADD (a UID that
 * came back) a REMOVE then an ADD. A SET supersedes every pending change before it. A source
 * whose updates folded away entirely is still announced with an empty ADD, so the consumer's
 * sources-ready bookkeeping sees it. Handed-out updates are grouped per source in the kubelet's
 * order: REMOVE, ADD, UPDATE, DELETE, RECONCILE.
 *
 * ```
 * source:  -a-u-v-|            a = ADD s [p1]  u = UPDATE s [p1']  v = UPDATE s [p1'']
 * handle:   takes 5 frames
 * result:  ------A----(V|)    A = ADD s [p1]  V = UPDATE s [p1'']  (u folded into v)
 * ```
 *
 * @example
 * podConfigMux(sources).pipe(coalescePodUpdates((u) => syncPods(u))).subscribe();
 *
 * Recovery/Teardown: a handler that throws or errors is logged and the next update is handed
 * out. Unsubscribing drops what is pending and unsubscribes the running handler.
 *
 * @param handle processes one update; the next is handed out when it completes
 * @param config an optional logger
 * @returns an operator emitting each update once it has been handled
 */
export function coalescePodUpdates(
  handle: (update: PodUpdate) => ObservableInput<unknown>,
  config: CoalescePodUpdatesConfig = {},
): OperatorFunction<PodUpdate, PodUpdate> {
  const logger = config.logger ?? silentLogger;
  return (updates$) =>
    new Observable<PodUpdate>((subscriber) => {
      let seq = 0;
      let snapshot: PodUpdate | undefined;
      const pending = new Map<string, Pending>();
      const announced = new Set<string>();
      const unannounced: string[] = [];
      let busy = false;
      let pumping = false;
      let done = false;
      let inner: Subscription | undefined;

      const keyOf = (source: string, pod: Pod) => `${source}\u0000${pod.metadata?.uid ?? ''}`;

      const fold = (update: PodUpdate) => {
        if (!announced.has(update.source) && !unannounced.includes(update.source)) {
          unannounced.push(update.source);
        }
        if (update.op === 'SET') {
          snapshot = update;
          pending.clear();
          return;
        }
        for (const pod of update.pods) {
          const key = keyOf(update.source, pod);
          const entry = pending.get(key);
          if (update.op === 'REMOVE') {
            if (!entry) pending.set(key, { source: update.source, seq: seq++, removed: pod });
            else if (entry.removed) {
              entry.removed = pod;
              entry.change = undefined;
              entry.pod = undefined;
            } else if (entry.change === 'ADD') pending.delete(key);
            else {
              entry.removed = pod;
              entry.change = undefined;
              entry.pod = undefined;
            }
            continue;
          }
          const change = update.op as PodChange;
          if (!entry) pending.set(key, { source: update.source, seq: seq++, change, pod });
          else if (!entry.change) {
            entry.change = change;
            entry.pod = pod;
          } else {
            if (entry.change !== 'ADD' && RANK[change] > RANK[entry.change]) {
              entry.change = change === 'ADD' ? 'UPDATE' : change;
            }
            entry.pod = pod;
          }
        }
      };

      const take = (): PodUpdate | undefined => {
        if (snapshot) {
          const out = snapshot;
          snapshot = undefined;
          return out;
        }
        let first: Pending | undefined;
        for (const entry of pending.values()) if (!first || entry.seq < first.seq) first = entry;
        if (first) {
          const source = first.source;
          const entries = [...pending.entries()]
            .filter(([, e]) => e.source === source)
            .sort(([, a], [, b]) => a.seq - b.seq);
          for (const op of ORDER) {
            const pods: Pod[] = [];
            for (const [key, e] of entries) {
              if (op === 'REMOVE') {
                if (!e.removed) continue;
                pods.push(e.removed);
                e.removed = undefined;
                if (!e.change) pending.delete(key);
              } else if (!e.removed && e.change === op) {
                pods.push(e.pod!);
                pending.delete(key);
              }
            }
            if (pods.length > 0) return { op, source, pods };
          }
        }
        const quiet = unannounced.find((s) => ![...pending.values()].some((e) => e.source === s));
        if (quiet !== undefined) return { op: 'ADD', source: quiet, pods: [] };
        return undefined;
      };

      const handOut = (update: PodUpdate) => {
        announced.add(update.source);
        const i = unannounced.indexOf(update.source);
        if (i >= 0) unannounced.splice(i, 1);
        busy = true;
        let finished = false;
        const finish = () => {
          if (finished) return;
          finished = true;
          inner = undefined;
          busy = false;
          subscriber.next(update);
          pump();
        };
        try {
          inner = from(handle(update)).subscribe({
            error: (error) => {
              logger.error(
                { err: (error as Error)?.message, op: update.op, source: update.source },
                'pod update handler failed',
              );
              finish();
            },
            complete: finish,
          });
          if (finished) inner = undefined;
        } catch (error) {
          logger.error(
            { err: (error as Error)?.message, op: update.op, source: update.source },
            'pod update handler threw',
          );
          finish();
        }
      };

      const pump = () => {
        if (pumping) return;
        pumping = true;
        try {
          while (!busy && !subscriber.closed) {
            const next = take();
            if (!next) {
              if (done) subscriber.complete();
              break;
            }
            handOut(next);
          }
        } finally {
          pumping = false;
        }
        if (!busy && !subscriber.closed && (snapshot || pending.size > 0)) pump();
      };

      const upstream = updates$.subscribe({
        next: (update) => {
          fold(update);
          pump();
        },
        error: (error) => subscriber.error(error),
        complete: () => {
          done = true;
          pump();
        },
      });
      return () => {
        upstream.unsubscribe();
        inner?.unsubscribe();
        pending.clear();
      };
    });
}
