// reflectorPodSet: folds list-and-watch events into the full set of pods after each change.
import { Observable, type OperatorFunction } from 'rxjs';
import { type Logger, silentLogger } from '../logger.ts';
import { objectKey } from '../object-key.ts';
import type { ReflectorEvent } from '../types.ts';
import type { Pod } from './types.ts';

/**
 * Keeps the pods a reflector reports, keyed by namespace/name as the kubelet's UndeltaStore does,
 * and emits the whole set after every Replace, Added, Updated and Deleted (bookmarks emit
 * nothing), so the apiserver source hands the mux full sets.
 *
 * ```
 * events: -r-a-d-b-|     r = Replace [p]  a = Added q  d = Deleted p  b = Bookmark
 * result: -R-A-D---|     R = [p]          A = [p, q]   D = [q]
 * ```
 *
 * @example
 * listWatch(podsOnNode).pipe(reflectorPodSet()).subscribe((pods) => console.log(pods.length));
 *
 * Recovery/Teardown: a Replace swaps the whole set (a relist). State lives in the subscription.
 *
 * @param config an optional logger for objects without a name
 * @returns an operator from reflector events to pod sets
 */
export function reflectorPodSet(
  config: { logger?: Logger } = {},
): OperatorFunction<ReflectorEvent<Pod>, Pod[]> {
  const logger = config.logger ?? silentLogger;
  return (events$) =>
    new Observable<Pod[]>((subscriber) => {
      let pods = new Map<string, Pod>();
      const keyOf = (pod: Pod): string | undefined => {
        try {
          return objectKey(pod);
        } catch (error) {
          logger.warn({ err: (error as Error).message }, 'pod without a name ignored');
          return undefined;
        }
      };
      return events$.subscribe({
        next: (event) => {
          switch (event.type) {
            case 'Replace': {
              const next = new Map<string, Pod>();
              for (const pod of event.items) {
                const key = keyOf(pod);
                if (key !== undefined) next.set(key, pod);
              }
              pods = next;
              break;
            }
            case 'Added':
            case 'Updated': {
              const key = keyOf(event.object);
              if (key === undefined) return;
              pods.set(key, event.object);
              break;
            }
            case 'Deleted': {
              const key = keyOf(event.object);
              if (key === undefined) return;
              pods.delete(key);
              break;
            }
            default:
              return;
          }
          subscriber.next([...pods.values()]);
        },
        error: (error) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
    });
}
