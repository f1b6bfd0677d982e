// sourcesReady: the kubelet's SourcesReady, true once every configured source has been heard from.
import { Observable, type OperatorFunction } from 'rxjs';
import type { PodUpdate } from './types.ts';

/**
 * Emits `true` and completes once an update from every named source has passed, as the kubelet's
 * sync loop marks a source seen after handling any update from it. Sources that send full sets
 * (every kube-rx pod source does) produce at least one update on their first set, the empty ADD
 * when it holds nothing new, so this is "every source has delivered its first set".
 *
 * ```
 * updates: -f--h--|     f = ADD file []   h = ADD http [p]
 * result:  ----(t|)     with sources ['file', 'http']
 * ```
 *
 * @example
 * updates$.pipe(sourcesReady(['file', 'api'])).subscribe(() => log.info('all sources ready'));
 *
 * @param sources the configured source names; none means ready at once
 * @returns an operator emitting `true` once
 */
export function sourcesReady(sources: Iterable<string>): OperatorFunction<PodUpdate, true> {
  const expected = new Set(sources);
  return (updates$) =>
    new Observable<true>((subscriber) => {
      const waiting = new Set(expected);
      if (waiting.size === 0) {
        subscriber.next(true);
        subscriber.complete();
        return;
      }
      return updates$.subscribe({
        next: (update) => {
          waiting.delete(update.source);
          if (waiting.size === 0) {
            subscriber.next(true);
            subscriber.complete();
          }
        },
        error: (error) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
    });
}
