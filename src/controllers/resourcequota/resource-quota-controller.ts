// resourceQuotaController: kube-controller-manager's resourcequota controller — every ResourceQuota's status.hard and status.used recounted when quotas or the objects they count change, and on a full resync period.
import {
  asyncScheduler,
  firstValueFrom,
  merge,
  NEVER,
  type Observable,
  type SchedulerLike,
  switchMap,
  tap,
  timer,
} from 'rxjs';
import { quotaStatus, quotaStatusEqual } from '../../../operators/controller/resourcequota/quota-status.ts';
import { quotaResourceId } from '../../../operators/controller/resourcequota/quota-usage.ts';
import { NAMESPACE_INDEX } from '../../../operators/indexed-store.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type ReconcileOutcome, reconcileWith } from '../../../operators/reconcile.ts';
import { DeletedFinalStateUnknown, type KubeObject } from '../../../operators/types.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import type { ApiClient, ResourceDescriptor } from '../../../streams/api-client.ts';
import * as resources from '../../../streams/resources.ts';
import { cachesSynced } from '../../informers/caches-synced.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';

/** The controller's name in `--controllers`. */
export const RESOURCE_QUOTA_CONTROLLER_NAME = 'resourcequota-controller';
/** Upstream's `--resource-quota-sync-period` default: 5 minutes. */
export const DEFAULT_RESOURCE_QUOTA_SYNC_PERIOD_MS = 5 * 60 * 1000;

/** core/v1 ResourceQuota. */
export const RESOURCE_QUOTAS: ResourceDescriptor = Object.freeze({
  group: '',
  version: 'v1',
  plural: 'resourcequotas',
  kind: 'ResourceQuota',
  namespaced: true,
});

/** Settings of {@link resourceQuotaController}. */
export interface ResourceQuotaControllerConfig {
  client: ApiClient;
  /** The shared factory; the controller manager starts it. */
  informerFactory: InformerFactory;
  /** `--concurrent-resource-quota-syncs`, default 5. */
  workers?: number;
  /** `--resource-quota-sync-period`: every quota is recounted this often; default 5 m. */
  resyncPeriodMs?: number;
  metrics?: WorkQueueMetricsProvider;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

const idOf = (d: ResourceDescriptor) => (d.group ? `${d.group}/${d.plural}` : d.plural);

/** The namespaced resources kube-rx knows by `group/resource`, for `count/<resource>.<group>`. */
const KNOWN = new Map<string, ResourceDescriptor>(
  (Object.values(resources) as unknown[])
    .filter((d): d is ResourceDescriptor => typeof d === 'object' && d !== null && 'plural' in d)
    .filter((d) => d.namespaced)
    .map((d) => [idOf(d), d]),
);
KNOWN.set('resourcequotas', RESOURCE_QUOTAS);

/** Resources whose changes release or take quota at once (upstream's replenishment): watched by informers. */
const WATCHED = [
  resources.PODS,
  resources.SERVICES,
  resources.CONFIG_MAPS,
  resources.SECRETS,
  resources.PERSISTENT_VOLUME_CLAIMS,
  resources.REPLICATION_CONTROLLERS,
];

function unwrap(o: KubeObject | DeletedFinalStateUnknown<KubeObject>): KubeObject {
  return o instanceof DeletedFinalStateUnknown ? (o.obj as KubeObject) : o;
}

function terminal(pod: KubeObject): boolean {
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/**
 * Runs the resourcequota controller while subscribed: each quota's status ({@link quotaStatus}: hard from
 * spec.hard, used counted as the ResourceQuota admission plugin counts) is written when it differs. A
 * quota is synced when it is added or its spec changes, when an object it counts is deleted (or a pod
 * turns terminal or changes its resources), and every quota again each resync period. Pods, services,
 * config maps, secrets, claims and replication controllers come from the shared informers; other
 * `count/<resource>.<group>` names are listed from the API server at the sync.
 *
 * Teardown: unsubscribing stops the queue, the resync timer and the syncs in flight.
 * @param config the client, the shared factory, the workers and the resync period
 * @returns one outcome per quota synced
 */
export function resourceQuotaController(
  config: ResourceQuotaControllerConfig,
): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = config.logger ?? silentLogger;
  const f = config.informerFactory;
  const quotas = f.forResource<KubeObject>(RESOURCE_QUOTAS);
  const informers = new Map(WATCHED.map((d) => [idOf(d), f.forResource<KubeObject>(d)]));
  const queue = workQueue<string>({
    name: 'resourcequota_primary',
    scheduler,
    ...(config.metrics ? { metrics: config.metrics } : {}),
  });
  const keyOf = (o: KubeObject) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
  const enqueueNamespace = (o: KubeObject) => {
    for (const q of quotas.getStore().byIndex(NAMESPACE_INDEX, o.metadata?.namespace ?? ''))
      queue.add(keyOf(q));
  };
  quotas.addEventHandler({
    onAdd: (q) => queue.add(keyOf(q)),
    // our own status write comes back as an update; its sync finds nothing to write
    onUpdate: (_old, q) => queue.add(keyOf(q)),
    onDelete: (q) => queue.add(keyOf(unwrap(q))),
  });
  for (const [id, informer] of informers) {
    informer.addEventHandler({
      onAdd: enqueueNamespace,
      onUpdate: (old, o) => {
        if (id !== 'pods') return;
        if (terminal(o) !== terminal(old) || JSON.stringify(old.spec) !== JSON.stringify(o.spec))
          enqueueNamespace(o);
      },
      onDelete: (o) => enqueueNamespace(unwrap(o)),
    });
  }

  const sync = async (key: string) => {
    const quota = quotas.getStore().getByKey(key);
    if (!quota) return;
    const namespace = quota.metadata?.namespace ?? '';
    const listed = new Map<string, readonly KubeObject[]>();
    const hard = Object.keys(((quota.spec as { hard?: Record<string, unknown> })?.hard ?? {}) as object);
    for (const id of new Set(hard.map(quotaResourceId))) {
      const informer = informers.get(id);
      if (informer) listed.set(id, informer.getStore().byIndex(NAMESPACE_INDEX, namespace));
      else if (id === 'resourcequotas') listed.set(id, quotas.getStore().byIndex(NAMESPACE_INDEX, namespace));
      else {
        const def = KNOWN.get(id);
        if (def) listed.set(id, (await firstValueFrom(config.client.list(def, { namespace }))).items);
      }
    }
    const status = quotaStatus(quota, {
      serves: (id) => listed.has(id),
      list: (id) => listed.get(id) ?? [],
    });
    if (quotaStatusEqual(quota.status, status)) return;
    await firstValueFrom(config.client.updateStatus(RESOURCE_QUOTAS, { ...quota, status }));
    logger.debug({ quota: key, used: status.used }, 'Updated quota status');
  };

  const period = config.resyncPeriodMs ?? DEFAULT_RESOURCE_QUOTA_SYNC_PERIOD_MS;
  const resync = timer(period, period, scheduler).pipe(
    tap(() => {
      for (const q of quotas.getStore().list()) queue.add(keyOf(q));
    }),
    switchMap(() => NEVER),
  );
  logger.info('Starting resource quota controller');
  return cachesSynced({ scheduler }, quotas, ...informers.values()).pipe(
    switchMap(() =>
      merge(
        NEVER.pipe(reconcileWith<string>(sync, { queue, workers: config.workers ?? 5, scheduler, logger })),
        resync as Observable<never>,
      ),
    ),
  );
}
