// serviceAccountsController: kube-controller-manager's serviceaccount controller — a `default` ServiceAccount in every active namespace.
import { asyncScheduler, firstValueFrom, NEVER, type Observable, type SchedulerLike, switchMap } from 'rxjs';
import type { Namespace } from '../../../operators/controller/namespace/namespace-types.ts';
import { ApiError, hasStatusCause } from '../../../operators/errors.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type ReconcileOutcome, reconcileWith } from '../../../operators/reconcile.ts';
import { DeletedFinalStateUnknown, type KubeObject } from '../../../operators/types.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { NAMESPACES, SERVICE_ACCOUNTS } from '../../../streams/resources.ts';
import { cachesSynced } from '../../informers/caches-synced.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';

/** The controller's name in `--controllers`. */
export const SERVICE_ACCOUNT_CONTROLLER_NAME = 'serviceaccount-controller';

/** Settings of {@link serviceAccountsController}. */
export interface ServiceAccountsControllerConfig {
  client: ApiClient;
  /** The shared factory; the controller manager starts it. */
  informerFactory: InformerFactory;
  /** The accounts every namespace must have; default `['default']`. */
  serviceAccounts?: readonly string[];
  /** Upstream starts one worker. */
  workers?: number;
  metrics?: WorkQueueMetricsProvider;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/** NamespaceTerminatingCause: a create refused because the namespace is being deleted. */
const namespaceTerminating = (error: unknown): boolean => hasStatusCause(error, 'NamespaceTerminating');

/**
 * Runs the serviceaccount controller while subscribed: a namespace added or updated, or a ServiceAccount
 * deleted, queues its namespace; the sync creates each missing account (`default`) when the namespace is
 * Active. AlreadyExists, and a refusal because the namespace is terminating, count as done; other failures
 * are retried with the queue's backoff.
 *
 * ```
 * namespaces:       --a---------------
 * serviceaccounts:  ---------(a/default deleted)--
 * creates:          --C(a)---C(a)-----
 * ```
 *
 * Teardown: unsubscribing stops the queue and the syncs in flight; the factory is the manager's.
 * @param config the client, the shared factory, the accounts and workers
 * @returns one outcome per namespace synced
 */
export function serviceAccountsController(
  config: ServiceAccountsControllerConfig,
): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = config.logger ?? silentLogger;
  const wanted = config.serviceAccounts ?? ['default'];
  const namespaces = config.informerFactory.forResource<Namespace>(NAMESPACES);
  const accounts = config.informerFactory.forResource<KubeObject>(SERVICE_ACCOUNTS);
  const queue = workQueue<string>({
    name: 'serviceaccount',
    scheduler,
    ...(config.metrics ? { metrics: config.metrics } : {}),
  });
  const enqueue = (ns: Namespace) => {
    if (ns.metadata?.name) queue.add(ns.metadata.name);
  };
  namespaces.addEventHandler({ onAdd: enqueue, onUpdate: (_old, ns) => enqueue(ns) });
  accounts.addEventHandler({
    onDelete: (sa) => {
      const object = sa instanceof DeletedFinalStateUnknown ? sa.obj : sa;
      if (object?.metadata?.namespace) queue.add(object.metadata.namespace);
    },
  });

  const sync = async (key: string) => {
    const ns = namespaces.getStore().getByKey(key);
    // a namespace that is not active gets nothing new
    if (ns?.status?.phase !== 'Active') return;
    const failures: unknown[] = [];
    for (const name of wanted) {
      if (accounts.getStore().getByKey(`${key}/${name}`)) continue;
      try {
        await firstValueFrom(
          config.client.create(
            SERVICE_ACCOUNTS,
            { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: key } },
            { namespace: key },
          ),
        );
      } catch (error) {
        if ((error instanceof ApiError && error.statusCode === 409) || namespaceTerminating(error)) continue;
        failures.push(error);
      }
    }
    if (failures.length > 0) throw failures.length === 1 ? failures[0] : new AggregateError(failures);
  };

  logger.info({ controller: SERVICE_ACCOUNT_CONTROLLER_NAME }, 'Starting controller');
  return cachesSynced(namespaces, accounts).pipe(
    switchMap(() =>
      NEVER.pipe(reconcileWith<string>(sync, { queue, workers: config.workers ?? 1, scheduler, logger })),
    ),
  );
}
