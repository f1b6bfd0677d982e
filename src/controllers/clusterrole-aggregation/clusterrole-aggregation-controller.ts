// clusterRoleAggregationController: kube-controller-manager's clusterrole-aggregation-controller — each ClusterRole with an aggregationRule kept at the union of the rules of the ClusterRoles it selects.
import {
  asyncScheduler,
  first,
  firstValueFrom,
  NEVER,
  type Observable,
  type SchedulerLike,
  switchMap,
} from 'rxjs';
import {
  aggregatedRules,
  type ClusterRole,
  sameRules,
} from '../../../operators/controller/clusterrole-aggregation/aggregated-rules.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type ReconcileOutcome, reconcileWith } from '../../../operators/reconcile.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import type { ApiClient, ResourceDescriptor } from '../../../streams/api-client.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';

/** The controller's name in `--controllers`. */
export const CLUSTERROLE_AGGREGATION_CONTROLLER_NAME = 'clusterrole-aggregation-controller';

/** rbac.authorization.k8s.io/v1 ClusterRoles. */
export const CLUSTER_ROLES: ResourceDescriptor = Object.freeze({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: 'clusterroles',
  kind: 'ClusterRole',
  namespaced: false,
});

/** Settings of {@link clusterRoleAggregationController}. */
export interface ClusterRoleAggregationControllerConfig {
  client: ApiClient;
  informerFactory: InformerFactory;
  /** Upstream runs 5 workers. */
  workers?: number;
  metrics?: WorkQueueMetricsProvider;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/**
 * Runs the aggregation controller while subscribed: any ClusterRole added, updated or deleted queues every
 * ClusterRole that has an aggregationRule; its sync computes {@link aggregatedRules} and updates the role
 * when they differ from its rules (an invalid selector or a failed write is retried with backoff).
 *
 * Teardown: unsubscribing stops the queue and the syncs in flight.
 */
export function clusterRoleAggregationController(
  config: ClusterRoleAggregationControllerConfig,
): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = config.logger ?? silentLogger;
  const roles = config.informerFactory.forResource<ClusterRole>(CLUSTER_ROLES);
  const queue = workQueue<string>({
    name: 'ClusterRoleAggregator',
    scheduler,
    ...(config.metrics ? { metrics: config.metrics } : {}),
  });
  const enqueueAggregated = () => {
    for (const r of roles.getStore().list()) if (r.aggregationRule) queue.add(r.metadata?.name ?? '');
  };
  roles.addEventHandler({
    onAdd: enqueueAggregated,
    onUpdate: enqueueAggregated,
    onDelete: enqueueAggregated,
  });

  const sync = async (name: string) => {
    const role = roles.getStore().getByKey(name);
    if (!role) return;
    const rules = aggregatedRules(role, roles.getStore().list());
    if (rules === undefined || sameRules(rules, role.rules)) return;
    await firstValueFrom(config.client.update(CLUSTER_ROLES, { ...role, rules }));
    logger.debug({ clusterRole: name, rules: rules.length }, 'Aggregated ClusterRole rules');
  };

  logger.info('Starting ClusterRoleAggregator controller');
  return roles.hasSynced$.pipe(
    first((synced) => synced),
    switchMap(() =>
      NEVER.pipe(reconcileWith<string>(sync, { queue, workers: config.workers ?? 5, scheduler, logger })),
    ),
  );
}
