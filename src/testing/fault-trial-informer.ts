// kube-rx's shared informer as a trial subject: over the HTTP client, its handler feeding a HandlerView.
import type { Backoff } from '../../operators/backoff.ts';
import type { Logger } from '../../operators/logger.ts';
import { isTombstone, type KubeObject, type ReflectorHealth } from '../../operators/types.ts';
import { listerWatcher } from '../../streams/api-client.ts';
import { kubeApiClient } from '../../streams/client-node/kube-api-client.ts';
import { CONFIG_MAPS } from '../../streams/resources.ts';
import { sharedInformer } from '../informers/shared-informer.ts';
import type { TrialInformer, TrialInformerFactory } from './fault-trial.ts';

/** Options of {@link kubeRxTrialInformer}; unset fields keep kube-rx's defaults. */
export interface KubeRxTrialInformerConfig {
  /** listWatch's inactivity window (ms). */
  inactivityTimeoutMs?: number;
  /** listWatch's shortest learned window (ms); at or above the inactivity window, fixed windows. */
  stallFloorMs?: number;
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
 * The trial subject for kube-rx: a `sharedInformer` of the trial's ConfigMaps through `kubeApiClient`,
 * with one handler whose add/update/delete callbacks go to the trial's HandlerView (a tombstone's last
 * known state counts as the deleted object).
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
    const informer = sharedInformer<KubeObject>({
      source: listerWatcher(client, CONFIG_MAPS, { namespace }),
      name: `trial-${seed}`,
      listWatch: {
        description: `v1/configmaps in ${namespace}`,
        ...(config.inactivityTimeoutMs !== undefined
          ? { inactivityTimeoutMs: config.inactivityTimeoutMs }
          : {}),
        ...(config.requestTimeoutMs !== undefined ? { requestTimeoutMs: config.requestTimeoutMs } : {}),
        ...(config.stallFloorMs !== undefined ? { stallFloorMs: config.stallFloorMs } : {}),
        ...(config.watchList !== undefined ? { watchList: config.watchList } : {}),
        ...(config.backoff ? { backoff: config.backoff } : {}),
      },
      ...(config.logger ? { logger: config.logger } : {}),
    });
    const health = config.health ? informer.health$.subscribe(config.health) : undefined;
    const registration = informer.addEventHandler({
      onAdd: (object) => view.onAdd(object),
      onUpdate: (_old, object) => view.onUpdate(object),
      onDelete: (object) => {
        if (!isTombstone(object)) view.onDelete(object);
        else view.onDelete(object.obj ?? { metadata: keyMetadata(object.key) });
      },
    });
    return {
      cache: () =>
        new Map(
          informer
            .getStore()
            .list()
            .map((o) => [`${o.metadata?.namespace}/${o.metadata?.name}`, o.metadata?.resourceVersion ?? '']),
        ),
      stop: () => {
        registration.remove();
        health?.unsubscribe();
        client.close();
      },
    };
  };
}

function keyMetadata(key: string): { namespace?: string; name: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
