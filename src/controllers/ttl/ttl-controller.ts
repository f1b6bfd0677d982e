// ttlController: kube-controller-manager's ttl controller — every node annotated with the TTL its kubelet may cache objects for, by cluster size.
import {
  asyncScheduler,
  first,
  firstValueFrom,
  NEVER,
  type Observable,
  type SchedulerLike,
  switchMap,
} from 'rxjs';
import type { Node } from '../../../operators/api/core-v1.ts';
import {
  desiredTtlSeconds,
  INITIAL_TTL_STATE,
  nextTtlState,
  OBJECT_TTL_ANNOTATION,
  type TtlState,
} from '../../../operators/controller/ttl/ttl-boundary.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type ReconcileOutcome, reconcileWith } from '../../../operators/reconcile.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { NODES } from '../../../streams/resources.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';

/** The controller's name in `--controllers`. */
export const TTL_CONTROLLER_NAME = 'ttl-controller';

/** Settings of {@link ttlController}. */
export interface TtlControllerConfig {
  client: ApiClient;
  /** The shared factory; the controller manager starts it. */
  informerFactory: InformerFactory;
  /** Upstream starts 5 workers. */
  workers?: number;
  metrics?: WorkQueueMetricsProvider;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/**
 * Runs the ttl controller while subscribed: it counts nodes as they are added and deleted
 * ({@link nextTtlState}) and keeps `node.alpha.kubernetes.io/ttl` on every node at the TTL of the cluster's
 * size interval (0 s up to 100 nodes, 15 s up to 500, ...), patching a node only when its annotation differs.
 * Every node update queues the node, so a change of interval reaches every node within a status period.
 *
 * Teardown: unsubscribing stops the queue and the syncs in flight.
 * @param config the client, the shared factory and the workers
 * @returns one outcome per node synced
 */
export function ttlController(config: TtlControllerConfig): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = config.logger ?? silentLogger;
  const nodes = config.informerFactory.forResource<Node>(NODES);
  const queue = workQueue<string>({
    name: 'ttlcontroller',
    scheduler,
    ...(config.metrics ? { metrics: config.metrics } : {}),
  });
  let state: TtlState = INITIAL_TTL_STATE;
  const name = (n: Node) => n.metadata.name ?? '';
  nodes.addEventHandler({
    onAdd: (n) => {
      state = nextTtlState(state, 1);
      queue.add(name(n));
    },
    onUpdate: (_old, n) => {
      queue.add(name(n));
    },
    onDelete: () => {
      state = nextTtlState(state, -1);
    },
  });

  const sync = async (key: string) => {
    const node = nodes.getStore().getByKey(key);
    if (!node) return;
    const desired = desiredTtlSeconds(state);
    const raw = node.metadata.annotations?.[OBJECT_TTL_ANNOTATION];
    if (raw !== undefined && /^[+-]?\d+$/.test(raw) && Number(raw) === desired) return;
    await firstValueFrom(
      config.client.patch(
        NODES,
        key,
        { metadata: { annotations: { [OBJECT_TTL_ANNOTATION]: String(desired) } } },
        'strategic',
      ),
    );
    logger.debug({ node: key, ttlSeconds: desired }, 'Changed ttl annotation');
  };

  logger.info('Starting TTL controller');
  // workers start once the node cache has synced, as upstream's: the count is the whole list by then
  return nodes.hasSynced$.pipe(
    first((synced) => synced),
    switchMap(() =>
      NEVER.pipe(reconcileWith<string>(sync, { queue, workers: config.workers ?? 5, scheduler, logger })),
    ),
  );
}
