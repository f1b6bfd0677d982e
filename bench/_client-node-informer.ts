// @kubernetes/client-node's makeInformer as a convergence-trial subject, restarted on error as its docs advise.
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import type { TrialInformer, TrialInformerFactory } from '../src/testing/fault-trial.ts';

/** Options of {@link clientNodeTrialInformer}. */
export interface ClientNodeTrialInformerConfig {
  /** Delay before `start()` is called again after an error (the documented recovery); default 1000 ms. */
  restartDelayMs?: number;
}

/**
 * The trial subject for @kubernetes/client-node 2.x: `makeInformer` on the trial's ConfigMaps, its
 * add/update/delete callbacks feeding the HandlerView, and `start()` called again `restartDelayMs`
 * after every `error` callback (client-node does not reconnect by itself after most errors).
 * @param config restart delay
 * @returns a factory the trial calls with the proxy's kubeconfig
 */
export function clientNodeTrialInformer(config: ClientNodeTrialInformerConfig = {}): TrialInformerFactory {
  const restartDelayMs = config.restartDelayMs ?? 1000;
  return async ({ kubeconfig, namespace, view }): Promise<TrialInformer> => {
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    const api = kc.makeApiClient(CoreV1Api);
    const informer = makeInformer<V1ConfigMap>(kc, `/api/v1/namespaces/${namespace}/configmaps`, () =>
      api.listNamespacedConfigMap({ namespace }),
    );
    let stopped = false;
    let restart: NodeJS.Timeout | undefined;
    informer.on('add', (o) => view.onAdd(o as never));
    informer.on('update', (o) => view.onUpdate(o as never));
    informer.on('delete', (o) => view.onDelete(o as never));
    informer.on('error', () => {
      if (stopped) return;
      clearTimeout(restart);
      restart = setTimeout(() => {
        if (!stopped) informer.start().catch(() => {});
      }, restartDelayMs);
    });
    informer.start().catch(() => {});
    return {
      cache: () =>
        new Map(
          informer
            .list(namespace)
            .map((o) => [`${o.metadata?.namespace}/${o.metadata?.name}`, o.metadata?.resourceVersion ?? '']),
        ),
      stop: async () => {
        stopped = true;
        clearTimeout(restart);
        await informer.stop();
      },
    };
  };
}
