// deploymentController: kube-controller-manager's deployment controller — Deployment, ReplicaSet and pod informers, the `deployment` work queue, claim, rollouts, Events and status.
import { asyncScheduler, firstValueFrom, NEVER, Observable, type SchedulerLike, switchMap } from 'rxjs';
import type { Pod } from '../../../operators/api/core-v1.ts';
import {
  adoptPatch,
  claimAction,
  getControllerOf,
  releasePatch,
} from '../../../operators/controller/controller-ref.ts';
import {
  collisionStatus,
  type DeploymentEvent,
  type DeploymentSyncPlan,
  planDeploymentSync,
  replicaSetCreateFailed,
  selectsEverything,
} from '../../../operators/controller/deployment/deployment-sync.ts';
import {
  DEPLOYMENT_GVK,
  type Deployment,
  type DeploymentStatus,
  REVISION_ANNOTATION,
} from '../../../operators/controller/deployment/deployment-types.ts';
import { equalIgnoreHash } from '../../../operators/controller/deployment/pod-template-hash.ts';
import type { ReplicaSet } from '../../../operators/controller/replicaset/replica-set-types.ts';
import { ApiError, hasStatusCause } from '../../../operators/errors.ts';
import { NAMESPACE_INDEX } from '../../../operators/indexed-store.ts';
import { type LabelSelector, labelSelectorFromObject } from '../../../operators/label-selector.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type ReconcileOutcome, type ReconcileResult, reconcileWith } from '../../../operators/reconcile.ts';
import type { OwnerReference } from '../../../operators/types.ts';
import { DeletedFinalStateUnknown } from '../../../operators/types.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { DEPLOYMENTS, PODS, REPLICA_SETS } from '../../../streams/resources.ts';
import { cachesSynced } from '../../informers/caches-synced.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';
import { controllerEventRecorder } from '../controller-event-recorder.ts';

/** Settings of {@link deploymentController}. */
export interface DeploymentControllerConfig {
  client: ApiClient;
  /** The shared informer factory; the caller starts it (the controller manager does, after every init). */
  informerFactory: InformerFactory;
  /** `--concurrent-deployment-syncs`; default 5. */
  workers?: number;
  metrics?: WorkQueueMetricsProvider;
  /** Time: the progress-deadline requeue, condition times, the queue's delays. */
  scheduler?: SchedulerLike;
  logger?: Logger;
}

const COMPONENT = 'deployment-controller';
const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) =>
  `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
const isNotFound = (e: unknown) => e instanceof ApiError && e.statusCode === 404;
const isAlreadyExists = (e: unknown) =>
  e instanceof ApiError && e.statusCode === 409 && e.reason === 'AlreadyExists';
const isNamespaceTerminating = (e: unknown) => hasStatusCause(e, 'NamespaceTerminating');
const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
const labelsOf = (o: { metadata?: { labels?: Record<string, string> } }) =>
  JSON.stringify(Object.entries(o.metadata?.labels ?? {}).sort());

/**
 * Runs the deployment controller while subscribed. Deployment events, the events of the ReplicaSets they
 * control (or could adopt) and, for Recreate, pod deletions queue the Deployment; a sync claims the
 * namespace's ReplicaSets by the Deployment's selector (adopting orphans once a fresh GET shows the
 * Deployment alive, releasing sets that stopped matching), plans with {@link planDeploymentSync} and carries
 * the plan out: creates the new ReplicaSet (`<name>-<pod-template-hash>`; a name taken by another template
 * bumps status.collisionCount), resizes sets (merge patches of spec.replicas and the replica annotations,
 * "Scaled up replica set … from … to …" Events, reason ScalingReplicaSet), deletes history beyond
 * revisionHistoryLimit, writes the status when it changed and the revision annotation, and looks again at the
 * progress deadline through the scheduler. A paused Deployment is only scaled and cleaned up.
 *
 * ```
 * deploy: --D(replicas 3)---------set env------------------------
 * rs:     ----create a 3----------create b 1--a 2--b 2--a 1--b 3--a 0
 * status: ------------3/3 ready------------------updated 3, available 3
 * ```
 *
 * @example
 * deploymentController({ client, informerFactory: factory }).subscribe(); factory.start();
 *
 * Teardown: unsubscribing stops the queue, the workers and in-flight syncs (the informers belong to the factory).
 *
 * @param config the client, the shared informer factory, workers, metrics, scheduler, logger
 * @returns the sync outcomes, one per key synced
 */
export function deploymentController(
  config: DeploymentControllerConfig,
): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = (config.logger ?? silentLogger).child({ component: COMPONENT });
  const { client } = config;
  const now = () => scheduler.now();

  return new Observable<ReconcileOutcome<string>>((subscriber) => {
    logger.info('Starting controller');
    const deployments = config.informerFactory.forResource<Deployment>(DEPLOYMENTS);
    const replicaSets = config.informerFactory.forResource<ReplicaSet>(REPLICA_SETS);
    const pods = config.informerFactory.forResource<Pod>(PODS);
    const queue = workQueue<string>({
      name: 'deployment',
      scheduler,
      ...(config.metrics ? { metrics: config.metrics } : {}),
    });
    const record = controllerEventRecorder(client, COMPONENT, logger, now);
    const recordAbout = (d: Deployment, e: DeploymentEvent) =>
      record(
        { ...d, apiVersion: DEPLOYMENT_GVK.apiVersion, kind: DEPLOYMENT_GVK.kind },
        e.type,
        e.reason,
        e.message,
      );

    /** The selector, or undefined when it does not parse (upstream logs it and leaves the Deployment alone). */
    const selectorOf = (d: Deployment): LabelSelector | undefined => {
      try {
        return labelSelectorFromObject(d.spec.selector);
      } catch (error) {
        logger.error({ deployment: keyOf(d), err: String(error) }, 'invalid selector');
        return undefined;
      }
    };
    /** The Deployment a controller reference names, when it is in the cache with that uid. */
    const resolve = (namespace: string, ref: OwnerReference | undefined): Deployment | undefined => {
      if (!ref || ref.kind !== DEPLOYMENT_GVK.kind) return undefined;
      const d = deployments.getStore().getByKey(`${namespace}/${ref.name}`);
      return d?.metadata.uid === ref.uid ? d : undefined;
    };
    /** Every Deployment with a non-empty selector matching an orphan set's labels (they may adopt it). */
    const enqueueMatching = (rs: ReplicaSet) => {
      for (const d of deployments.getStore().byIndex(NAMESPACE_INDEX, rs.metadata.namespace ?? '')) {
        if (selectsEverything(d.spec.selector)) continue;
        if (selectorOf(d)?.matches(rs.metadata.labels ?? {})) queue.add(keyOf(d));
      }
    };
    const enqueueOwner = (rs: ReplicaSet) => {
      const d = resolve(rs.metadata.namespace ?? '', getControllerOf(rs));
      if (d) queue.add(keyOf(d));
    };

    /** The pods controlled by the Deployment's sets (what Recreate waits on). */
    const podsOf = (d: Deployment, rsList: readonly ReplicaSet[]): Pod[] => {
      const uids = new Set(rsList.map((rs) => rs.metadata.uid));
      return pods
        .getStore()
        .byIndex(NAMESPACE_INDEX, d.metadata.namespace ?? '')
        .filter((p) => uids.has(getControllerOf(p)?.uid));
    };

    deployments.addEventHandler({
      onAdd: (d) => queue.add(keyOf(d)),
      onUpdate: (_old, d) => queue.add(keyOf(d)),
      onDelete: (o) => {
        const d = o instanceof DeletedFinalStateUnknown ? (o.obj as Deployment) : o;
        if (d?.metadata) queue.add(keyOf(d));
      },
    });
    replicaSets.addEventHandler({
      onAdd: (rs) => {
        if (getControllerOf(rs) || rs.metadata.deletionTimestamp) enqueueOwner(rs);
        else enqueueMatching(rs);
      },
      onUpdate: (old, rs) => {
        if (old.metadata.resourceVersion === rs.metadata.resourceVersion) return;
        const oldRef = getControllerOf(old);
        const ref = getControllerOf(rs);
        const refChanged = oldRef?.uid !== ref?.uid;
        if (refChanged && oldRef) enqueueOwner(old);
        if (ref) {
          enqueueOwner(rs);
          return;
        }
        if (refChanged || labelsOf(old) !== labelsOf(rs)) enqueueMatching(rs);
      },
      onDelete: (o) => {
        const rs = o instanceof DeletedFinalStateUnknown ? (o.obj as ReplicaSet) : o;
        if (rs?.metadata) enqueueOwner(rs);
      },
    });
    pods.addEventHandler({
      // a Recreate rollout waits for the old pods: the last one gone queues the Deployment
      onDelete: (p) => {
        const pod = p instanceof DeletedFinalStateUnknown ? (p.obj as Pod) : p;
        const ref = getControllerOf(pod ?? {});
        if (!pod?.metadata || ref?.kind !== 'ReplicaSet') return;
        const rs = replicaSets.getStore().getByKey(`${pod.metadata.namespace}/${ref.name}`);
        if (!rs || rs.metadata.uid !== ref.uid) return;
        const d = resolve(rs.metadata.namespace ?? '', getControllerOf(rs));
        const recreate = d?.spec.strategy?.type === 'Recreate';
        if (!d || !recreate) return;
        const owned = replicaSets
          .getStore()
          .byIndex(NAMESPACE_INDEX, d.metadata.namespace ?? '')
          .filter((s) => getControllerOf(s)?.uid === d.metadata.uid);
        if (podsOf(d, owned).length === 0) queue.add(keyOf(d));
      },
    });

    /** The Deployment's ReplicaSets: kept and adopted ones; released and others' left out. */
    const claimReplicaSets = async (d: Deployment, selector: LabelSelector): Promise<ReplicaSet[]> => {
      const out: ReplicaSet[] = [];
      let confirmed: boolean | undefined;
      const ns = { namespace: d.metadata.namespace ?? '' };
      for (const rs of replicaSets.getStore().byIndex(NAMESPACE_INDEX, ns.namespace)) {
        const action = claimAction(d, rs, selector.matches(rs.metadata.labels ?? {}));
        if (action === 'keep') out.push(rs);
        if (action === 'ignore' || action === 'keep') continue;
        if (action === 'adopt') {
          if (confirmed === undefined) {
            const live = await firstValueFrom(
              client.get<Deployment>(DEPLOYMENTS, d.metadata.name ?? '', ns),
            ).catch((e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)));
            confirmed = live?.metadata.uid === d.metadata.uid && !live?.metadata.deletionTimestamp;
          }
          if (!confirmed) continue;
          try {
            out.push(
              await firstValueFrom(
                client.patch<ReplicaSet>(
                  REPLICA_SETS,
                  rs.metadata.name ?? '',
                  adoptPatch(d, DEPLOYMENT_GVK, rs),
                  'strategic',
                  ns,
                ),
              ),
            );
          } catch (e) {
            if (!isNotFound(e)) throw e;
          }
        } else {
          await firstValueFrom(
            client.patch(REPLICA_SETS, rs.metadata.name ?? '', releasePatch(d, rs), 'strategic', ns),
          ).catch((e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)));
        }
      }
      return out;
    };

    const writeStatus = (d: Deployment, status: DeploymentStatus) =>
      firstValueFrom(
        client.updateStatus<Deployment>(
          DEPLOYMENTS,
          { ...d, status },
          { namespace: d.metadata.namespace ?? '' },
        ),
      );

    /** Carries out the plan's ReplicaSet writes in order; a result to return early, or undefined to go on. */
    const runWrites = async (
      d: Deployment,
      plan: DeploymentSyncPlan,
    ): Promise<ReconcileResult | undefined> => {
      const ns = { namespace: d.metadata.namespace ?? '' };
      for (const w of plan.writes) {
        const name = w.replicaSet.metadata.name ?? '';
        if (w.type === 'delete') {
          await firstValueFrom(client.delete(REPLICA_SETS, name, ns)).catch((e: unknown) =>
            isNotFound(e) ? undefined : Promise.reject(e),
          );
          continue;
        }
        if (w.type === 'update') {
          // a merge patch of what the controller owns: no conflict with the replicaset controller's status writes
          const patch = {
            metadata: { annotations: w.replicaSet.metadata.annotations ?? {} },
            spec: {
              replicas: w.replicaSet.spec.replicas,
              minReadySeconds: w.replicaSet.spec.minReadySeconds ?? 0,
            },
          };
          await firstValueFrom(client.patch(REPLICA_SETS, name, patch, 'merge', ns));
          if (w.event) recordAbout(d, w.event);
          continue;
        }
        try {
          await firstValueFrom(client.create<ReplicaSet>(REPLICA_SETS, w.replicaSet, ns));
          if (w.event) recordAbout(d, w.event);
        } catch (e) {
          if (isAlreadyExists(e)) {
            const existing =
              replicaSets.getStore().getByKey(`${ns.namespace}/${name}`) ??
              (await firstValueFrom(client.get<ReplicaSet>(REPLICA_SETS, name, ns)));
            if (
              getControllerOf(existing)?.uid === d.metadata.uid &&
              equalIgnoreHash(d.spec.template, existing.spec.template)
            ) {
              // ours already (a slow cache): the next sync sees it
              return { requeue: true };
            }
            const next = collisionStatus(d);
            await writeStatus(d, next);
            logger.info(
              { deployment: keyOf(d), collisionCount: next.collisionCount },
              'Found a hash collision for deployment - bumping collisionCount to resolve it',
            );
            throw e;
          }
          if (isNamespaceTerminating(e)) return {};
          const failed = replicaSetCreateFailed(d, name, messageOf(e), now());
          if (failed.status) await writeStatus(d, failed.status).catch(() => undefined);
          recordAbout(d, failed.event);
          throw e;
        }
      }
      return undefined;
    };

    const sync = async (key: string): Promise<ReconcileResult> => {
      const d = deployments.getStore().getByKey(key);
      if (!d) {
        logger.debug({ deployment: key }, 'Deployment has been deleted');
        return {};
      }
      let rsList: ReplicaSet[] = [];
      if (!selectsEverything(d.spec.selector)) {
        const selector = selectorOf(d);
        if (!selector) return {};
        rsList = await claimReplicaSets(d, selector);
      }
      const plan = planDeploymentSync({
        deployment: d,
        replicaSets: rsList,
        pods: d.spec.strategy?.type === 'Recreate' ? podsOf(d, rsList) : [],
        now: now(),
      });
      const early = await runWrites(d, plan);
      if (early) return early;
      if (plan.status) await writeStatus(d, plan.status);
      if (plan.revision !== undefined) {
        await firstValueFrom(
          client.patch(
            DEPLOYMENTS,
            d.metadata.name ?? '',
            { metadata: { annotations: { [REVISION_ANNOTATION]: plan.revision } } },
            'merge',
            { namespace: d.metadata.namespace ?? '' },
          ),
        );
      }
      for (const e of plan.events) recordAbout(d, e);
      if (plan.error) throw new Error(plan.error);
      if (plan.requeueAfter !== undefined) return { requeueAfter: plan.requeueAfter };
      return plan.requeue ? { requeue: true } : {};
    };

    // workers start once the three caches have synced (upstream's WaitForNamedCacheSync)
    const sub = cachesSynced(deployments, replicaSets, pods)
      .pipe(
        switchMap(() =>
          NEVER.pipe(reconcileWith<string>(sync, { queue, workers: config.workers ?? 5, scheduler, logger })),
        ),
      )
      .subscribe(subscriber);
    return () => {
      sub.unsubscribe();
      logger.info('Shutting down controller');
    };
  });
}
