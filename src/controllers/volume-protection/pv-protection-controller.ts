// pvProtectionController: kube-controller-manager's persistentvolume-protection-controller — kubernetes.io/pv-protection on every volume, removed from a deleted volume once it is not Bound.
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
  isDeletionCandidate,
  needToAddFinalizer,
  PV_PROTECTION_FINALIZER,
  withFinalizer,
} from '../../../operators/controller/volume-protection/protection-finalizer.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type ReconcileOutcome, reconcileWith } from '../../../operators/reconcile.ts';
import type { KubeObject } from '../../../operators/types.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { PERSISTENT_VOLUMES } from '../../../streams/resources.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';

/** The controller's name in `--controllers`. */
export const PV_PROTECTION_CONTROLLER_NAME = 'persistentvolume-protection-controller';

/** Settings of {@link pvProtectionController}. */
export interface PvProtectionControllerConfig {
  client: ApiClient;
  informerFactory: InformerFactory;
  metrics?: WorkQueueMetricsProvider;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/**
 * Runs the PV protection controller while subscribed (one worker, as upstream): a volume without the
 * finalizer that is not being deleted gets it; a volume being deleted loses it unless its phase is Bound.
 *
 * Teardown: unsubscribing stops the queue and the sync in flight.
 */
export function pvProtectionController(
  config: PvProtectionControllerConfig,
): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = config.logger ?? silentLogger;
  const volumes = config.informerFactory.forResource<KubeObject & { status?: { phase?: string } }>(
    PERSISTENT_VOLUMES,
  );
  const queue = workQueue<string>({
    name: 'pvprotection',
    scheduler,
    ...(config.metrics ? { metrics: config.metrics } : {}),
  });
  const onVolume = (pv: KubeObject) => {
    if (needToAddFinalizer(pv, PV_PROTECTION_FINALIZER) || isDeletionCandidate(pv, PV_PROTECTION_FINALIZER))
      queue.add(pv.metadata?.name ?? '');
  };
  volumes.addEventHandler({ onAdd: onVolume, onUpdate: (_old, pv) => onVolume(pv) });

  const sync = async (name: string) => {
    const pv = volumes.getStore().getByKey(name);
    if (!pv) return;
    const remove = isDeletionCandidate(pv, PV_PROTECTION_FINALIZER);
    if (remove && pv.status?.phase === 'Bound') return;
    if (!remove && !needToAddFinalizer(pv, PV_PROTECTION_FINALIZER)) return;
    const finalizers = withFinalizer(pv, PV_PROTECTION_FINALIZER, !remove);
    await firstValueFrom(
      config.client.update(PERSISTENT_VOLUMES, { ...pv, metadata: { ...pv.metadata, finalizers } }),
    );
    logger.info(
      { pv: name },
      remove ? 'Removed protection finalizer from PV' : 'Added protection finalizer to PV',
    );
  };

  logger.info('Starting PV protection controller');
  return volumes.hasSynced$.pipe(
    first((synced) => synced),
    switchMap(() => NEVER.pipe(reconcileWith<string>(sync, { queue, workers: 1, scheduler, logger }))),
  );
}
