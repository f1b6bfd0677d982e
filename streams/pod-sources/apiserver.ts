// apiserverPodSource: the pods bound to this node, list-and-watched from the API server, as full pod sets.
import type { Observable, SchedulerLike } from 'rxjs';
import type { Logger } from '../../operators/logger.ts';
import { reflectorPodSet } from '../../operators/pod-config/reflector-pod-set.ts';
import type { Pod } from '../../operators/pod-config/types.ts';
import type { ReflectorEvent } from '../../operators/types.ts';
import { listWatch } from '../list-watch.ts';
import type { ListerWatcher } from '../ports.ts';

/** List-and-watch as this source uses it; default `listWatch` from streams/list-watch.ts. */
export type ListWatchFn = (lw: ListerWatcher<Pod>) => Observable<ReflectorEvent<Pod>>;

export interface ApiserverPodSourceConfig {
  /** Pods in all namespaces; this source adds the `spec.nodeName=<node>` field selector. */
  listerWatcher: ListerWatcher<Pod>;
  nodeName: string;
  /** The reflector; default `listWatch(lw, { fieldSelector, scheduler, logger })`. */
  listWatch?: ListWatchFn;
  /** Clock of the default reflector; default `asyncScheduler`. */
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/**
 * Emits the full set of pods bound to `nodeName` after the first list and after every change the
 * watch reports (relists replace the set), as the kubelet's apiserver source feeds an UndeltaStore
 * and sends its whole content each time. An empty first list emits an empty set.
 *
 * ```
 * reflector: -r--a--u--d-|    r = Replace [p]  a = Added q  u = Updated p'  d = Deleted p'
 * result:    -R--A--U--D-|    R = [p]          A = [p, q]   U = [p', q]     D = [q]
 * ```
 *
 * @example
 * apiserverPodSource({ listerWatcher: podsLw, nodeName: 'node-1' }).subscribe((pods) => console.log(pods.length));
 *
 * Recovery/Teardown: retries, relists and backoff are the reflector's. Unsubscribing stops the
 * list-and-watch.
 *
 * @param config the pods' ListerWatcher, the node name, the reflector and a logger
 * @returns a cold observable of full pod sets
 */
export function apiserverPodSource(config: ApiserverPodSourceConfig): Observable<Pod[]> {
  const selector = `spec.nodeName=${config.nodeName}`;
  const scoped: ListerWatcher<Pod> = {
    list: (options) => config.listerWatcher.list({ ...options, fieldSelector: selector }),
    watch: (options) => config.listerWatcher.watch({ ...options, fieldSelector: selector }),
  };
  const reflect: ListWatchFn =
    config.listWatch ??
    ((lw) =>
      listWatch(lw, {
        fieldSelector: selector,
        scheduler: config.scheduler,
        logger: config.logger,
        name: 'kubelet-pods',
        description: 'v1/pods',
      }));
  return reflect(scoped).pipe(reflectorPodSet({ logger: config.logger }));
}
