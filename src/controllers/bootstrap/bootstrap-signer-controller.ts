// bootstrapSignerController: kube-controller-manager's bootstrap-signer-controller — kube-public/cluster-info signed with every signing bootstrap token (jws-kubeconfig-<id>).
import {
  asyncScheduler,
  combineLatest,
  first,
  firstValueFrom,
  NEVER,
  type Observable,
  type SchedulerLike,
  switchMap,
} from 'rxjs';
import {
  BOOTSTRAP_TOKEN_NAMESPACE,
  type BootstrapTokenSecret,
  SECRET_TYPE_BOOTSTRAP_TOKEN,
  signingToken,
} from '../../../operators/controller/bootstrap/bootstrap-token.ts';
import { signedClusterInfo } from '../../../operators/controller/bootstrap/signed-cluster-info.ts';
import { ApiError } from '../../../operators/errors.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type ReconcileOutcome, reconcileWith } from '../../../operators/reconcile.ts';
import type { KubeObject } from '../../../operators/types.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { CONFIG_MAPS, SECRETS } from '../../../streams/resources.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';

/** The fields of a ConfigMap the signer reads. */
interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

/** The controller's name in `--controllers` (off by default, as upstream's). */
export const BOOTSTRAP_SIGNER_CONTROLLER_NAME = 'bootstrap-signer-controller';
/** The ConfigMap signed: kube-public/cluster-info. */
export const CLUSTER_INFO = { namespace: 'kube-public', name: 'cluster-info' } as const;

/** Settings of {@link bootstrapSignerController}. */
export interface BootstrapSignerControllerConfig {
  client: ApiClient;
  informerFactory: InformerFactory;
  metrics?: WorkQueueMetricsProvider;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/**
 * Runs the bootstrap signer while subscribed: any change to cluster-info or to a bootstrap token secret in
 * kube-system queues one key; its sync recomputes `jws-kubeconfig-<id>` for each token that may sign
 * ({@link signingToken}), drops signatures of tokens gone or expired, and updates the ConfigMap only when a
 * signature changed. Conflicts and NotFound are left to the next event, as upstream's (one worker).
 *
 * Teardown: unsubscribing stops the queue and the sync in flight.
 */
export function bootstrapSignerController(
  config: BootstrapSignerControllerConfig,
): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = config.logger ?? silentLogger;
  const configMaps = config.informerFactory.forResource<ConfigMap>(CONFIG_MAPS);
  const secrets = config.informerFactory.forResource<BootstrapTokenSecret>(SECRETS);
  const queue = workQueue<string>({
    name: 'bootstrap_signer_queue',
    scheduler,
    ...(config.metrics ? { metrics: config.metrics } : {}),
  });
  const key = `${CLUSTER_INFO.namespace}/${CLUSTER_INFO.name}`;
  const poke = () => queue.add(key);
  const isClusterInfo = (cm: ConfigMap) =>
    cm.metadata?.namespace === CLUSTER_INFO.namespace && cm.metadata?.name === CLUSTER_INFO.name;
  const isToken = (s: BootstrapTokenSecret) =>
    s.type === SECRET_TYPE_BOOTSTRAP_TOKEN && s.metadata?.namespace === BOOTSTRAP_TOKEN_NAMESPACE;
  configMaps.addEventHandler({
    onAdd: (cm) => {
      if (isClusterInfo(cm)) poke();
    },
    onUpdate: (_old, cm) => {
      if (isClusterInfo(cm)) poke();
    },
  });
  secrets.addEventHandler({
    onAdd: (s) => {
      if (isToken(s)) poke();
    },
    onUpdate: (_old, s) => {
      if (isToken(s)) poke();
    },
    // a tombstone may hide the type: any deletion re-signs, which changes nothing when no token went
    onDelete: () => poke(),
  });

  const sync = async () => {
    const cm = configMaps.getStore().getByKey(key);
    if (!cm) return;
    const now = scheduler.now();
    const tokens = new Map<string, { id: string; secret: string }>();
    for (const s of secrets.getStore().list()) {
      if (!isToken(s)) continue;
      const t = signingToken(s, now);
      if (!t) continue;
      if (tokens.has(t.id)) {
        logger.info(
          { tokenID: t.id, ignoredSecret: s.metadata?.name },
          'Duplicate bootstrap tokens found for id, ignoring on the duplicate secret',
        );
        continue;
      }
      tokens.set(t.id, t);
    }
    const data = signedClusterInfo(cm.data, [...tokens.values()]);
    if (!data) return;
    try {
      await firstValueFrom(
        config.client.update(CONFIG_MAPS, { ...cm, data }, { namespace: CLUSTER_INFO.namespace }),
      );
    } catch (error) {
      if (error instanceof ApiError && (error.statusCode === 409 || error.statusCode === 404)) return;
      logger.info({ err: String(error) }, 'Error updating ConfigMap');
    }
  };

  logger.info({ controller: 'bootstrap_signer' }, 'Starting controller');
  return combineLatest([configMaps.hasSynced$, secrets.hasSynced$]).pipe(
    first(([a, b]) => a && b),
    switchMap(() => NEVER.pipe(reconcileWith<string>(sync, { queue, workers: 1, scheduler, logger }))),
  );
}
