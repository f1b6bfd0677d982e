// podConfigMux: named pod sources merged through one serial podConfig, as the kubelet's Mux feeds PodConfig.
import { map, merge, type Observable } from 'rxjs';
import { InvalidConfigError } from '../errors.ts';
import { type PodConfigConfig, podConfig } from './pod-config.ts';
import type { Pod, PodUpdate } from './types.ts';

/**
 * Subscribes every named source (each an observable of that source's full pod set) and merges
 * their sets through one `podConfig`, so every source's sets are applied in its own order and the
 * notifications of different sources never interleave.
 *
 * ```
 * file: -a------|      a = [p]
 * http: ---b----|      b = [q]
 * out:  -A-B----|      A = ADD file [p]  B = ADD http [q]
 * ```
 *
 * @example
 * podConfigMux({ file: filePodSource(cfg), mine: of([myPod]) }).subscribe(handle);
 *
 * Recovery/Teardown: a source that errors errors the mux (sources log their own expected
 * failures and keep going); unsubscribing unsubscribes every source.
 *
 * @param sources source name to its observable of full pod sets; names must be non-empty
 * @param config passed to `podConfig`
 * @returns the merged pod updates
 * @throws InvalidConfigError when a source name is empty
 */
export function podConfigMux(
  sources: Readonly<Record<string, Observable<readonly Pod[]>>>,
  config: PodConfigConfig = {},
): Observable<PodUpdate> {
  for (const name of Object.keys(sources)) {
    if (name === '') throw new InvalidConfigError('sources', 'a pod source needs a non-empty name');
  }
  return merge(
    ...Object.entries(sources).map(([source, pods$]) => pods$.pipe(map((pods) => ({ source, pods })))),
  ).pipe(podConfig(config));
}
