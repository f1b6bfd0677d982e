// replicaSetController: kube-controller-manager's replicaset (and replicationcontroller) controller — owner and pod informers, a work queue, expectations, claim, create/delete, status.
import { asyncScheduler, firstValueFrom, NEVER, Observable, type SchedulerLike, switchMap } from 'rxjs';
import type { Pod } from '../../../operators/api/core-v1.ts';
import { UIDTrackingControllerExpectations } from '../../../operators/controller/controller-expectations.ts';
import {
  adoptPatch,
  claimAction,
  getControllerOf,
  releasePatch,
} from '../../../operators/controller/controller-ref.ts';
import { isPodActive, isPodReady } from '../../../operators/controller/pod-deletion-order.ts';
import { replicaDiff } from '../../../operators/controller/replicaset/replica-diff.ts';
import { replicaPod } from '../../../operators/controller/replicaset/replica-pod.ts';
import {
  replicaSetStatus,
  replicaSetStatusUpToDate,
} from '../../../operators/controller/replicaset/replica-set-status.ts';
import {
  REPLICA_SET_GVK,
  REPLICATION_CONTROLLER_GVK,
  type ReplicaSet,
} from '../../../operators/controller/replicaset/replica-set-types.ts';
import { replicationControllerAsReplicaSet } from '../../../operators/controller/replicaset/replication-controller-as-replica-set.ts';
import { slowStartBatch } from '../../../operators/controller/slow-start-batch.ts';
import { ApiError, hasStatusCause } from '../../../operators/errors.ts';
import { NAMESPACE_INDEX } from '../../../operators/indexed-store.ts';
import { type LabelSelector, labelSelectorFromObject } from '../../../operators/label-selector.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type ReconcileOutcome, type ReconcileResult, reconcileWith } from '../../../operators/reconcile.ts';
import { DeletedFinalStateUnknown } from '../../../operators/types.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { PODS, REPLICA_SETS, REPLICATION_CONTROLLERS } from '../../../streams/resources.ts';
import { cachesSynced } from '../../informers/caches-synced.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';
import { controllerEventRecorder } from '../controller-event-recorder.ts';

/** Settings of {@link replicaSetController}. */
export interface ReplicaSetControllerConfig {
  client: ApiClient;
  /** The shared informer factory; the caller starts it (the controller manager does, after every init). */
  informerFactory: InformerFactory;
  /** Which owner kind: apps/v1 ReplicaSet (default) or core/v1 ReplicationController, same logic. */
  kind?: 'ReplicaSet' | 'ReplicationController';
  /** `--concurrent-replicaset-syncs` (or `--concurrent-rc-syncs`); default 5. */
  workers?: number;
  /** Creations or deletions per sync; default 500 (upstream's BurstReplicas). */
  burstReplicas?: number;
  metrics?: WorkQueueMetricsProvider;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) =>
  `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
const isNotFound = (e: unknown) => e instanceof ApiError && e.statusCode === 404;
/** A create refused because the namespace is terminating: upstream treats it as done. */
const isNamespaceTerminating = (e: unknown) => hasStatusCause(e, 'NamespaceTerminating');

/**
 * Runs the replicaset controller (or, with `kind: 'ReplicationController'`, the replicationcontroller
 * controller) while subscribed. Owner adds, updates and deletes and the pod events of its pods queue the
 * owner; a sync checks its expectations, claims the namespace's active pods (adopting matching orphans
 * once a fresh GET shows the owner alive, releasing owned pods that stopped matching), creates the
 * missing pods in slow-start batches or deletes the cheapest surplus ones ({@link replicaDiff}), records
 * SuccessfulCreate/FailedCreate/SuccessfulDelete/FailedDelete Events, and writes the status through
 * updateStatus when it changed ({@link replicaSetStatus}).
 *
 * ```
 * rs:    --R(replicas 3)----------scale 1-------------------
 * pods:  ----create ×3------------------delete ×2-----------
 * rs':   ------------replicas 3-------------------replicas 1
 * ```
 *
 * @example
 * replicaSetController({ client, informerFactory: factory }).subscribe(); factory.start();
 *
 * Teardown: unsubscribing stops the queue, the workers and in-flight syncs (the informers belong to the factory).
 *
 * @param config the client, the shared informer factory, kind, workers, metrics
 * @returns the sync outcomes, one per key synced
 */
export function replicaSetController(
  config: ReplicaSetControllerConfig,
): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const isRC = config.kind === 'ReplicationController';
  const gvk = isRC ? REPLICATION_CONTROLLER_GVK : REPLICA_SET_GVK;
  const resource = isRC ? REPLICATION_CONTROLLERS : REPLICA_SETS;
  const component = isRC ? 'replication-controller' : 'replicaset-controller';
  const logger = (config.logger ?? silentLogger).child({ component });
  const { client } = config;
  const now = () => scheduler.now();
  const asRS = (o: ReplicaSet): ReplicaSet => (isRC ? replicationControllerAsReplicaSet(o) : o);

  return new Observable<ReconcileOutcome<string>>((subscriber) => {
    logger.info(`Starting ${isRC ? 'replicationcontroller' : 'replicaset'} controller`);
    const owners = config.informerFactory.forResource<ReplicaSet>(resource);
    const pods = config.informerFactory.forResource<Pod>(PODS);
    const queue = workQueue<string>({
      name: isRC ? 'replicationmanager' : 'replicaset',
      scheduler,
      ...(config.metrics ? { metrics: config.metrics } : {}),
    });
    const expectations = new UIDTrackingControllerExpectations(now);
    const record = controllerEventRecorder(client, component, logger, () => Date.now());
    const recordAbout = (rs: ReplicaSet, type: 'Normal' | 'Warning', reason: string, message: string) =>
      record({ ...rs, apiVersion: gvk.apiVersion, kind: gvk.kind }, type, reason, message);

    /** The key of the owner a controller reference names, when that owner is in the cache with that uid. */
    const ownerOf = (pod: Pod): string | undefined => {
      const ref = getControllerOf(pod);
      if (!ref || ref.kind !== gvk.kind) return undefined;
      const key = `${pod.metadata.namespace}/${ref.name}`;
      return owners.getStore().getByKey(key)?.metadata.uid === ref.uid ? key : undefined;
    };
    /** Every owner whose selector matches an orphan pod (they may adopt it). */
    const enqueueMatching = (pod: Pod) => {
      for (const o of owners.getStore().byIndex(NAMESPACE_INDEX, pod.metadata.namespace ?? '')) {
        if (selectorOf(asRS(o))?.matches(pod.metadata.labels ?? {})) queue.add(keyOf(o));
      }
    };
    /** The owner's selector, or undefined when it does not parse (upstream logs it and leaves the owner alone). */
    const selectorOf = (rs: ReplicaSet): LabelSelector | undefined => {
      try {
        return labelSelectorFromObject(rs.spec.selector);
      } catch (error) {
        logger.error({ owner: keyOf(rs), err: String(error) }, 'error converting pod selector to selector');
        return undefined;
      }
    };
    const minReadyMs = (key: string) => (owners.getStore().getByKey(key)?.spec.minReadySeconds ?? 0) * 1000;

    owners.addEventHandler({
      onAdd: (rs) => queue.add(keyOf(rs)),
      onUpdate: (old, rs) => {
        // a recreated owner of the same name: the old one's expectations go
        if (old.metadata.uid !== rs.metadata.uid) expectations.deleteExpectations(keyOf(old));
        queue.add(keyOf(rs));
      },
      onDelete: (o) => {
        const rs = o instanceof DeletedFinalStateUnknown ? (o.obj as ReplicaSet) : o;
        if (!rs?.metadata) return;
        expectations.deleteExpectations(keyOf(rs));
        queue.add(keyOf(rs));
      },
    });
    pods.addEventHandler({
      onAdd: (pod) => {
        if (pod.metadata.deletionTimestamp) {
          // restarted with a pod already being deleted: a deletion, not a creation
          const key = ownerOf(pod);
          if (key) {
            expectations.deletionObservedOf(key, keyOf(pod));
            queue.add(key);
          }
          return;
        }
        const ref = getControllerOf(pod);
        if (ref) {
          const key = ownerOf(pod);
          if (key) {
            expectations.creationObserved(key);
            queue.add(key);
          }
          return;
        }
        enqueueMatching(pod);
      },
      onUpdate: (old, pod) => {
        if (pod.metadata.resourceVersion === old.metadata.resourceVersion) return;
        const labelsChanged =
          JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(pod.metadata.labels ?? {});
        if (pod.metadata.deletionTimestamp) {
          // a graceful delete began: observed as the deletion now, for the new and (labels changed) the old owner
          const key = ownerOf(pod);
          if (key) {
            expectations.deletionObservedOf(key, keyOf(pod));
            queue.add(key);
          }
          if (labelsChanged) {
            const oldKey = ownerOf(old);
            if (oldKey && oldKey !== key) {
              expectations.deletionObservedOf(oldKey, keyOf(old));
              queue.add(oldKey);
            }
          }
          return;
        }
        const oldRef = getControllerOf(old);
        const ref = getControllerOf(pod);
        if (oldRef && oldRef.uid !== ref?.uid) {
          const oldKey = ownerOf(old);
          if (oldKey) queue.add(oldKey);
        }
        if (ref) {
          const key = ownerOf(pod);
          if (!key) return;
          queue.add(key);
          // a pod just ready with minReadySeconds: look again once it may count as available
          const ms = minReadyMs(key);
          if (ms > 0 && !isPodReady(old) && isPodReady(pod)) queue.addAfter(key, ms + 1000);
          return;
        }
        if (labelsChanged || oldRef) enqueueMatching(pod);
      },
      onDelete: (p) => {
        const pod = p instanceof DeletedFinalStateUnknown ? (p.obj as Pod) : p;
        if (!pod?.metadata) return;
        const key = ownerOf(pod);
        if (!key) return;
        expectations.deletionObservedOf(key, keyOf(pod));
        queue.add(key);
      },
    });

    /** The owner's active pods: kept and adopted ones; released and others' left out. */
    const claimPods = async (
      stored: ReplicaSet,
      rs: ReplicaSet,
      selector: LabelSelector,
      active: readonly Pod[],
    ): Promise<Pod[]> => {
      const out: Pod[] = [];
      let confirmed: boolean | undefined;
      for (const pod of active) {
        const action = claimAction(rs, pod, selector.matches(pod.metadata.labels ?? {}));
        if (action === 'keep') out.push(pod);
        if (action === 'ignore' || action === 'keep') continue;
        const ns = { namespace: pod.metadata.namespace ?? '' };
        if (action === 'adopt') {
          if (confirmed === undefined) {
            const live = await firstValueFrom(
              client.get<ReplicaSet>(resource, stored.metadata.name ?? '', ns),
            ).catch((e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)));
            confirmed =
              live !== undefined && live.metadata.uid === rs.metadata.uid && !live.metadata.deletionTimestamp;
          }
          if (!confirmed) continue;
          try {
            out.push(
              await firstValueFrom(
                client.patch<Pod>(PODS, pod.metadata.name ?? '', adoptPatch(rs, gvk, pod), 'strategic', ns),
              ),
            );
          } catch (e) {
            if (!isNotFound(e)) throw e;
          }
        } else {
          await firstValueFrom(
            client.patch(PODS, pod.metadata.name ?? '', releasePatch(rs, pod), 'strategic', ns),
          ).catch((e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)));
        }
      }
      return out;
    };

    /** The active pods of every sibling owned by the same controller (a Deployment's ReplicaSets). */
    const relatedPods = (rs: ReplicaSet, active: readonly Pod[]): Pod[] => {
      const parent = getControllerOf(rs);
      if (!parent) return [...active];
      const siblings = new Set(
        owners
          .getStore()
          .byIndex(NAMESPACE_INDEX, rs.metadata.namespace ?? '')
          .filter((o) => getControllerOf(o)?.uid === parent.uid)
          .map((o) => o.metadata.uid),
      );
      return pods
        .getStore()
        .byIndex(NAMESPACE_INDEX, rs.metadata.namespace ?? '')
        .filter((p) => isPodActive(p) && siblings.has(getControllerOf(p)?.uid));
    };

    const manageReplicas = async (key: string, rs: ReplicaSet, active: readonly Pod[]): Promise<unknown> => {
      const plan = replicaDiff({
        rs,
        active,
        now: now(),
        ...(config.burstReplicas !== undefined ? { burstReplicas: config.burstReplicas } : {}),
        ...(getControllerOf(rs) ? { related: relatedPods(rs, active) } : {}),
      });
      const ns = { namespace: rs.metadata.namespace ?? '' };
      if (plan.create > 0) {
        expectations.expectCreations(key, plan.create);
        const template = replicaPod(rs, gvk);
        const result = await slowStartBatch(plan.create, 1, async () => {
          try {
            const made = await firstValueFrom(client.create<Pod>(PODS, template, ns));
            recordAbout(rs, 'Normal', 'SuccessfulCreate', `Created pod: ${made.metadata.name}`);
          } catch (e) {
            if (isNamespaceTerminating(e)) return;
            recordAbout(
              rs,
              'Warning',
              'FailedCreate',
              `Error creating: ${e instanceof Error ? e.message : String(e)}`,
            );
            throw e;
          }
        });
        // the creations that failed or never started will not be observed
        for (let i = result.successes; i < plan.create; i++) expectations.creationObserved(key);
        return result.error;
      }
      if (plan.delete.length > 0) {
        expectations.expectDeletionsOf(key, plan.delete.map(keyOf));
        let first: unknown;
        await Promise.all(
          plan.delete.map(async (pod) => {
            try {
              await firstValueFrom(client.delete(PODS, pod.metadata.name ?? '', ns));
              recordAbout(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
            } catch (e) {
              // a deletion that failed will not be observed
              expectations.deletionObservedOf(key, keyOf(pod));
              if (isNotFound(e)) return;
              recordAbout(
                rs,
                'Warning',
                'FailedDelete',
                `Error deleting: ${e instanceof Error ? e.message : String(e)}`,
              );
              first ??= e;
            }
          }),
        );
        return first;
      }
      return undefined;
    };

    const writeStatus = async (stored: ReplicaSet, status: ReplicaSet['status']): Promise<ReplicaSet> => {
      const ns = { namespace: stored.metadata.namespace ?? '' };
      const write = (o: ReplicaSet) =>
        firstValueFrom(
          client.updateStatus<ReplicaSet>(
            resource,
            {
              ...o,
              status: { ...status!, observedGeneration: o.metadata.generation ?? 0 },
            },
            ns,
          ),
        );
      try {
        return await write(stored);
      } catch (e) {
        if (!(e instanceof ApiError && e.statusCode === 409)) throw e;
        // one retry on the latest version (upstream's statusUpdateRetries)
        return write(await firstValueFrom(client.get<ReplicaSet>(resource, stored.metadata.name ?? '', ns)));
      }
    };

    const sync = async (key: string): Promise<ReconcileResult> => {
      const stored = owners.getStore().getByKey(key);
      if (!stored) {
        expectations.deleteExpectations(key);
        return {};
      }
      const rs = asRS(stored);
      const needsSync = expectations.satisfiedExpectations(key);
      const active = pods
        .getStore()
        .byIndex(NAMESPACE_INDEX, rs.metadata.namespace ?? '')
        .filter(isPodActive);
      const selector = selectorOf(rs);
      if (!selector) return {};
      const claimed = await claimPods(stored, rs, selector, active);
      const manageError =
        needsSync && !rs.metadata.deletionTimestamp ? await manageReplicas(key, rs, claimed) : undefined;
      const status = replicaSetStatus(rs, claimed, manageError, now());
      let written = stored;
      if (!replicaSetStatusUpToDate(rs, status)) written = await writeStatus(stored, status);
      if (manageError !== undefined) throw manageError;
      const minReady = rs.spec.minReadySeconds ?? 0;
      const want = rs.spec.replicas ?? 1;
      const st = written.status;
      if (minReady > 0 && (st?.readyReplicas ?? 0) === want && (st?.availableReplicas ?? 0) !== want)
        return { requeueAfter: minReady * 1000 };
      return {};
    };

    // workers start once both caches have synced (upstream's WaitForNamedCacheSync): a sync on an empty pod
    // cache would create a second set of pods for every existing owner
    const sub = cachesSynced(owners, pods)
      .pipe(
        switchMap(() =>
          NEVER.pipe(reconcileWith<string>(sync, { queue, workers: config.workers ?? 5, scheduler, logger })),
        ),
      )
      .subscribe(subscriber);
    return () => {
      sub.unsubscribe();
      logger.info(`Shutting down ${isRC ? 'replicationcontroller' : 'replicaset'} controller`);
    };
  });
}
