// kube-rx's informer as a trial subject: listWatch over the HTTP client, folded into a cache that notifies a HandlerView.
import type { Subscription } from 'rxjs';
import type { Backoff } from '../../operators/backoff.ts';
import type { Logger } from '../../operators/logger.ts';
import { objectKey } from '../../operators/object-key.ts';
import type { KubeObject, ReflectorEvent, ReflectorHealth } from '../../operators/types.ts';
import { listerWatcher } from '../../streams/api-client.ts';
import { kubeApiClient } from '../../streams/client-node/kube-api-client.ts';
import { listWatch } from '../../streams/list-watch.ts';
import type { HandlerView } from './fault-handler-view.ts';
import { CONFIG_MAPS, type TrialInformer, type TrialInformerFactory } from './fault-trial.ts';

/** Options of {@link kubeRxTrialInformer}; unset fields keep kube-rx's defaults. */
export interface KubeRxTrialInformerConfig {
  /** listWatch's inactivity window (ms). */
  inactivityTimeoutMs?: number;
  /** Request timeout of the client and of listWatch's list (ms). */
  requestTimeoutMs?: number;
  /** Start with a streaming watch-list; listWatch's default is true. */
  watchList?: boolean;
  /** The backoff policy of listWatch. */
  backoff?: () => Backoff;
  logger?: Logger;
  /** Receives the stream's health. */
  health?: (health: ReflectorHealth) => void;
}

/**
 * Applies one reflector event to a cache and tells the handler what changed, as client-go's
 * informer does: an add or update of a cached key is an update, a `Replace` updates what it
 * carries and deletes what it no longer carries (with the last known state).
 */
function apply(cache: Map<string, KubeObject>, event: ReflectorEvent, view: HandlerView): void {
  switch (event.type) {
    case 'Replace': {
      const next = new Map<string, KubeObject>();
      for (const item of event.items) next.set(objectKey(item), item);
      for (const [key, old] of cache) {
        if (!next.has(key)) {
          cache.delete(key);
          view.onDelete(old);
        }
      }
      for (const [key, item] of next) {
        const had = cache.has(key);
        cache.set(key, item);
        if (had) view.onUpdate(item);
        else view.onAdd(item);
      }
      return;
    }
    case 'Added':
    case 'Updated': {
      const key = objectKey(event.object);
      const had = cache.has(key);
      cache.set(key, event.object);
      if (had) view.onUpdate(event.object);
      else view.onAdd(event.object);
      return;
    }
    case 'Deleted': {
      const key = objectKey(event.object);
      if (cache.delete(key)) view.onDelete(event.object);
      return;
    }
    case 'Bookmark':
      return;
  }
}

/**
 * The trial subject for kube-rx: one `listWatch` of the trial's ConfigMaps through `kubeApiClient`,
 * folded into a key → object cache whose changes go to the trial's HandlerView.
 *
 * @example
 * await runConvergenceTrial({ ..., informer: kubeRxTrialInformer({ inactivityTimeoutMs: 1000 }) });
 * @param config timeouts, backoff, logger, health observer
 * @returns a factory the trial calls with the proxy's kubeconfig
 */
export function kubeRxTrialInformer(config: KubeRxTrialInformerConfig = {}): TrialInformerFactory {
  return ({ kubeconfig, namespace, view, seed }): TrialInformer => {
    const client = kubeApiClient({
      kubeConfig: { from: 'string', yaml: kubeconfig },
      ...(config.requestTimeoutMs !== undefined ? { requestTimeoutMs: config.requestTimeoutMs } : {}),
      ...(config.logger ? { logger: config.logger } : {}),
    });
    const cache = new Map<string, KubeObject>();
    const health = config.health;
    const subscription: Subscription = listWatch(listerWatcher(client, CONFIG_MAPS, { namespace }), {
      name: `trial-${seed}`,
      description: `v1/configmaps in ${namespace}`,
      ...(config.inactivityTimeoutMs !== undefined
        ? { inactivityTimeoutMs: config.inactivityTimeoutMs }
        : {}),
      ...(config.requestTimeoutMs !== undefined ? { requestTimeoutMs: config.requestTimeoutMs } : {}),
      ...(config.watchList !== undefined ? { watchList: config.watchList } : {}),
      ...(config.backoff ? { backoff: config.backoff } : {}),
      ...(config.logger ? { logger: config.logger } : {}),
      ...(health ? { health: { next: health } } : {}),
    }).subscribe({
      next: (event) => apply(cache, event, view),
      error: (error: unknown) => config.logger?.error({ err: error }, 'listWatch gave up'),
    });
    return {
      cache: () => new Map([...cache].map(([k, o]) => [k, o.metadata?.resourceVersion ?? ''])),
      stop: () => {
        subscription.unsubscribe();
        client.close();
      },
    };
  };
}
