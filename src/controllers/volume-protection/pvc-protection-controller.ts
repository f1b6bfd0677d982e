// pvcProtectionController: kube-controller-manager's persistentvolumeclaim-protection-controller — kubernetes.io/pvc-protection on every claim, removed from a deleted claim once no pod uses it.
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
import type { Pod } from '../../../operators/api/core-v1.ts';
import { podClaimNames, podUsesPvc } from '../../../operators/controller/volume-protection/pod-uses-pvc.ts';
import {
  isDeletionCandidate,
  needToAddFinalizer,
  PVC_PROTECTION_FINALIZER,
  withFinalizer,
} from '../../../operators/controller/volume-protection/protection-finalizer.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type ReconcileOutcome, reconcileWith } from '../../../operators/reconcile.ts';
import { DeletedFinalStateUnknown, type KubeObject } from '../../../operators/types.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { PERSISTENT_VOLUME_CLAIMS, PODS } from '../../../streams/resources.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';

/** The controller's name in `--controllers`. */
export const PVC_PROTECTION_CONTROLLER_NAME = 'persistentvolumeclaim-protection-controller';

/** Settings of {@link pvcProtectionController}. */
export interface PvcProtectionControllerConfig {
  client: ApiClient;
  informerFactory: InformerFactory;
  metrics?: WorkQueueMetricsProvider;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

const isTerminated = (pod: Pod) => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

/**
 * Runs the PVC protection controller while subscribed (one worker, as upstream). A claim without the
 * finalizer that is not being deleted gets it; a claim being deleted loses it when no scheduled pod uses it
 * ({@link podUsesPvc}), asked of the pod cache first and, when the cache finds none, of a live list of the
 * namespace's pods. Pods deleted, terminated or unscheduled queue the claims they reference.
 *
 * Teardown: unsubscribing stops the queue and the sync in flight.
 */
export function pvcProtectionController(
  config: PvcProtectionControllerConfig,
): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = config.logger ?? silentLogger;
  const claims = config.informerFactory.forResource<KubeObject>(PERSISTENT_VOLUME_CLAIMS);
  const pods = config.informerFactory.forResource<Pod>(PODS);
  const queue = workQueue<string>({
    name: 'pvcprotection',
    scheduler,
    ...(config.metrics ? { metrics: config.metrics } : {}),
  });
  const onClaim = (pvc: KubeObject) => {
    if (
      needToAddFinalizer(pvc, PVC_PROTECTION_FINALIZER) ||
      isDeletionCandidate(pvc, PVC_PROTECTION_FINALIZER)
    )
      queue.add(`${pvc.metadata?.namespace}/${pvc.metadata?.name}`);
  };
  const onPod = (pod: Pod, deleted: boolean) => {
    if (!deleted && !isTerminated(pod) && pod.spec?.nodeName) return;
    for (const claim of podClaimNames(pod)) queue.add(`${pod.metadata?.namespace}/${claim}`);
  };
  claims.addEventHandler({ onAdd: onClaim, onUpdate: (_old, pvc) => onClaim(pvc) });
  pods.addEventHandler({
    onAdd: (pod) => onPod(pod, false),
    onUpdate: (old, pod) => {
      onPod(pod, false);
      if (old.metadata?.uid !== pod.metadata?.uid) onPod(old, true);
    },
    onDelete: (pod) => {
      const last = pod instanceof DeletedFinalStateUnknown ? pod.obj : pod;
      if (last) onPod(last, true);
    },
  });

  const used = async (pvc: KubeObject) => {
    const ns = pvc.metadata?.namespace;
    if (
      pods
        .getStore()
        .list()
        .some((p) => p.metadata?.namespace === ns && podUsesPvc(p, pvc))
    )
      return true;
    const live = await firstValueFrom(config.client.list<Pod>(PODS, { namespace: ns ?? '' }));
    return live.items.some((p) => podUsesPvc(p, pvc));
  };

  const sync = async (key: string) => {
    const pvc = claims.getStore().getByKey(key);
    if (!pvc) return;
    const ns = pvc.metadata?.namespace ?? '';
    if (isDeletionCandidate(pvc, PVC_PROTECTION_FINALIZER)) {
      if (await used(pvc)) return;
      const finalizers = withFinalizer(pvc, PVC_PROTECTION_FINALIZER, false);
      await firstValueFrom(
        config.client.update(
          PERSISTENT_VOLUME_CLAIMS,
          { ...pvc, metadata: { ...pvc.metadata, finalizers } },
          { namespace: ns },
        ),
      );
      logger.info({ pvc: key }, 'Removed protection finalizer from PVC');
      return;
    }
    if (needToAddFinalizer(pvc, PVC_PROTECTION_FINALIZER)) {
      const finalizers = withFinalizer(pvc, PVC_PROTECTION_FINALIZER, true);
      await firstValueFrom(
        config.client.update(
          PERSISTENT_VOLUME_CLAIMS,
          { ...pvc, metadata: { ...pvc.metadata, finalizers } },
          { namespace: ns },
        ),
      );
      logger.debug({ pvc: key }, 'Added protection finalizer to PVC');
    }
  };

  logger.info('Starting PVC protection controller');
  return combineLatest([claims.hasSynced$, pods.hasSynced$]).pipe(
    first(([a, b]) => a && b),
    switchMap(() => NEVER.pipe(reconcileWith<string>(sync, { queue, workers: 1, scheduler, logger }))),
  );
}
