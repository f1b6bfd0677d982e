// disruptionController: kube-controller-manager's disruption controller — every PodDisruptionBudget's status kept from its pods and their controllers' scale, so evictions honour budgets.
import { asyncScheduler, firstValueFrom, NEVER, type Observable, type SchedulerLike, switchMap } from 'rxjs';
import { budgetStatus } from '../../../operators/controller/disruption/budget-status.ts';
import { NAMESPACE_INDEX } from '../../../operators/indexed-store.ts';
import { labelSelectorFromObject } from '../../../operators/label-selector.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { deepEqual } from '../../../operators/pod-config/deep-equal.ts';
import { type ReconcileOutcome, reconcileWith } from '../../../operators/reconcile.ts';
import { DeletedFinalStateUnknown, type KubeObject } from '../../../operators/types.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import {
  DEPLOYMENTS,
  POD_DISRUPTION_BUDGETS,
  PODS,
  REPLICA_SETS,
  REPLICATION_CONTROLLERS,
  STATEFUL_SETS,
} from '../../../streams/resources.ts';
import { cachesSynced } from '../../informers/caches-synced.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';
import { controllerEventRecorder } from '../controller-event-recorder.ts';

/** The controller's name in `--controllers`. */
export const DISRUPTION_CONTROLLER_NAME = 'disruption-controller';

/** Settings of {@link disruptionController}. */
export interface DisruptionControllerConfig {
  client: ApiClient;
  /** The shared factory; the controller manager starts it. */
  informerFactory: InformerFactory;
  /** Upstream runs one worker. */
  workers?: number;
  metrics?: WorkQueueMetricsProvider;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

type Obj = Record<string, unknown>;

function keyOf(o: KubeObject): string {
  return `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
}

function selects(pdb: KubeObject, pod: KubeObject): boolean {
  try {
    return labelSelectorFromObject((pdb.spec as Obj | undefined)?.selector as never).matches(
      pod.metadata?.labels ?? {},
    );
  } catch {
    return false;
  }
}

/**
 * Runs the disruption controller while subscribed: each budget is synced when it or one of its pods
 * changes ({@link budgetStatus}), and again when an eviction recorded in status.disruptedPods reaches its
 * 2-minute expiry. Pods' controllers (Deployment through its ReplicaSet, ReplicaSet, StatefulSet,
 * ReplicationController) come from the shared informers. A write conflict is retried with back-off.
 *
 * Teardown: unsubscribing stops the queue and the syncs in flight.
 * @param config the client, the shared factory and the workers
 * @returns one outcome per budget synced
 */
export function disruptionController(
  config: DisruptionControllerConfig,
): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = config.logger ?? silentLogger;
  const f = config.informerFactory;
  const pdbs = f.forResource<KubeObject>(POD_DISRUPTION_BUDGETS);
  const pods = f.forResource<KubeObject>(PODS);
  const byKind: Record<string, ReturnType<typeof f.forResource<KubeObject>>> = {
    Deployment: f.forResource<KubeObject>(DEPLOYMENTS),
    ReplicaSet: f.forResource<KubeObject>(REPLICA_SETS),
    StatefulSet: f.forResource<KubeObject>(STATEFUL_SETS),
    ReplicationController: f.forResource<KubeObject>(REPLICATION_CONTROLLERS),
  };
  const queue = workQueue<string>({
    name: 'disruption',
    scheduler,
    ...(config.metrics ? { metrics: config.metrics } : {}),
  });
  const record = controllerEventRecorder(config.client, DISRUPTION_CONTROLLER_NAME, logger, () =>
    scheduler.now(),
  );
  const enqueueFor = (pod: KubeObject) => {
    for (const pdb of pdbs.getStore().byIndex(NAMESPACE_INDEX, pod.metadata?.namespace ?? ''))
      if (selects(pdb, pod)) queue.add(keyOf(pdb));
  };
  pdbs.addEventHandler({
    onAdd: (p) => queue.add(keyOf(p)),
    onUpdate: (_o, p) => queue.add(keyOf(p)),
    onDelete: (p) => queue.add(keyOf(p instanceof DeletedFinalStateUnknown ? (p.obj as KubeObject) : p)),
  });
  pods.addEventHandler({
    onAdd: enqueueFor,
    onUpdate: (old, pod) => {
      enqueueFor(pod);
      if (JSON.stringify(old.metadata?.labels) !== JSON.stringify(pod.metadata?.labels)) enqueueFor(old);
    },
    onDelete: (p) => enqueueFor(p instanceof DeletedFinalStateUnknown ? (p.obj as KubeObject) : p),
  });

  const sync = async (key: string) => {
    const pdb = pdbs.getStore().getByKey(key);
    if (!pdb) return;
    const namespace = pdb.metadata?.namespace ?? '';
    const selected = pods
      .getStore()
      .byIndex(NAMESPACE_INDEX, namespace)
      .filter((p) => selects(pdb, p));
    const lookup = (kind: string, _apiVersion: string, name: string) =>
      byKind[kind]?.getStore().getByKey(`${namespace}/${name}`);
    const now = scheduler.now();
    const result = budgetStatus(pdb, selected, lookup, now);
    for (const e of result.events) record(pdb, e.type, e.reason, e.message);
    if (result.recheckAtMs !== undefined) queue.addAfter(key, Math.max(0, result.recheckAtMs - now));
    if (deepEqual(result.status, pdb.status ?? {})) return;
    await firstValueFrom(
      config.client.updateStatus(POD_DISRUPTION_BUDGETS, { ...pdb, status: result.status }),
    );
    logger.debug({ pdb: key, disruptionsAllowed: result.status.disruptionsAllowed }, 'Updated budget status');
  };

  logger.info('Starting disruption controller');
  return cachesSynced({ scheduler }, pdbs, pods, ...Object.values(byKind)).pipe(
    switchMap(() =>
      NEVER.pipe(reconcileWith<string>(sync, { queue, workers: config.workers ?? 1, scheduler, logger })),
    ),
  );
}
