// statefulSetController: kube-controller-manager's statefulset controller — StatefulSet, pod, ControllerRevision and claim informers, the `statefulset` work queue, ordered pods, claims, revisions, rolling updates and status.
import { asyncScheduler, firstValueFrom, NEVER, Observable, type SchedulerLike, switchMap } from 'rxjs';
import type { Pod } from '../../../operators/api/core-v1.ts';
import {
  adoptPatch,
  claimAction,
  getControllerOf,
  releasePatch,
} from '../../../operators/controller/controller-ref.ts';
import { isMemberOf } from '../../../operators/controller/statefulset/stateful-pod-identity.ts';
import {
  applyRevision,
  equalRevision,
  newRevision,
  planRevisions,
  revisionsToTruncate,
} from '../../../operators/controller/statefulset/stateful-set-revision.ts';
import {
  planStatefulSetSync,
  type StatefulSetAction,
} from '../../../operators/controller/statefulset/stateful-set-sync.ts';
import {
  type ControllerRevision,
  type PersistentVolumeClaimObject,
  STATEFUL_SET_GVK,
  type StatefulSet,
  type StatefulSetStatus,
} from '../../../operators/controller/statefulset/stateful-set-types.ts';
import { ApiError, hasStatusCause } from '../../../operators/errors.ts';
import { NAMESPACE_INDEX } from '../../../operators/indexed-store.ts';
import { type LabelSelector, labelSelectorFromObject } from '../../../operators/label-selector.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type ReconcileOutcome, type ReconcileResult, reconcileWith } from '../../../operators/reconcile.ts';
import type { KubeObject, OwnerReference } from '../../../operators/types.ts';
import { DeletedFinalStateUnknown } from '../../../operators/types.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import type { ApiClient, ResourceDescriptor } from '../../../streams/api-client.ts';
import {
  CONTROLLER_REVISIONS,
  PERSISTENT_VOLUME_CLAIMS,
  PODS,
  STATEFUL_SETS,
} from '../../../streams/resources.ts';
import { cachesSynced } from '../../informers/caches-synced.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';
import { controllerEventRecorder } from '../controller-event-recorder.ts';

/** Settings of {@link statefulSetController}. */
export interface StatefulSetControllerConfig {
  client: ApiClient;
  /** The shared informer factory; the caller starts it (the controller manager does, after every init). */
  informerFactory: InformerFactory;
  /** `--concurrent-statefulset-syncs`; default 5. */
  workers?: number;
  metrics?: WorkQueueMetricsProvider;
  /** Time: availability (minReadySeconds), the queue's delays. */
  scheduler?: SchedulerLike;
  logger?: Logger;
}

const COMPONENT = 'statefulset-controller';
const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) =>
  `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
const isNotFound = (e: unknown) => e instanceof ApiError && e.statusCode === 404;
const isAlreadyExists = (e: unknown) =>
  e instanceof ApiError && e.statusCode === 409 && e.reason === 'AlreadyExists';
const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
const ignoreNotFound = (e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e));
const labelsOf = (o: KubeObject) => JSON.stringify(Object.entries(o.metadata?.labels ?? {}).sort());
const STATUS_FIELDS = [
  'observedGeneration',
  'replicas',
  'readyReplicas',
  'currentReplicas',
  'updatedReplicas',
  'availableReplicas',
  'currentRevision',
  'updateRevision',
  'collisionCount',
] as const;

/**
 * Runs the statefulset controller while subscribed. StatefulSet events and the events of the pods they
 * control (or could adopt) queue the set; a sync claims the namespace's pods named `<set>-<n>` that match the
 * selector and the set's ControllerRevisions, finds or writes the update revision (a new one, or an older
 * equal one renumbered: a rollback), plans with {@link planStatefulSetSync} and carries the plan out: claims
 * `<template>-<set>-<n>` then pods created (one at a time under OrderedReady, all at once under Parallel),
 * finished pods deleted to be recreated, scale-down from the highest ordinal, rolling updates from the
 * highest ordinal down to the partition, Events `SuccessfulCreate`/`SuccessfulDelete`/`FailedCreate`... as
 * upstream words them; then writes the status and deletes history beyond revisionHistoryLimit.
 *
 * ```
 * sts:  --S(replicas 3)-------------------------------------
 * pods: ----create web-0--(ready)--create web-1--(ready)--create web-2
 * ```
 *
 * Teardown: unsubscribing stops the queue, the workers and in-flight syncs (the informers belong to the factory).
 *
 * @param config the client, the shared informer factory, workers, metrics, scheduler, logger
 * @returns the sync outcomes, one per key synced
 */
export function statefulSetController(
  config: StatefulSetControllerConfig,
): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = (config.logger ?? silentLogger).child({ component: COMPONENT });
  const { client } = config;
  const now = () => scheduler.now();

  return new Observable<ReconcileOutcome<string>>((subscriber) => {
    logger.info('Starting controller');
    const sets = config.informerFactory.forResource<StatefulSet>(STATEFUL_SETS);
    const pods = config.informerFactory.forResource<Pod>(PODS);
    const revisions = config.informerFactory.forResource<ControllerRevision>(CONTROLLER_REVISIONS);
    const claims = config.informerFactory.forResource<PersistentVolumeClaimObject>(PERSISTENT_VOLUME_CLAIMS);
    const queue = workQueue<string>({
      name: 'statefulset',
      scheduler,
      ...(config.metrics ? { metrics: config.metrics } : {}),
    });
    const record = controllerEventRecorder(client, COMPONENT, logger, now);
    const recordAbout = (set: StatefulSet, type: 'Normal' | 'Warning', reason: string, message: string) =>
      record(
        { ...set, apiVersion: STATEFUL_SET_GVK.apiVersion, kind: STATEFUL_SET_GVK.kind },
        type,
        reason,
        message,
      );

    const selectorOf = (set: StatefulSet): LabelSelector | undefined => {
      try {
        return labelSelectorFromObject(set.spec.selector);
      } catch (error) {
        logger.error({ statefulSet: keyOf(set), err: String(error) }, 'invalid selector');
        return undefined;
      }
    };
    const resolve = (namespace: string, ref: OwnerReference | undefined): StatefulSet | undefined => {
      if (!ref || ref.kind !== STATEFUL_SET_GVK.kind) return undefined;
      const set = sets.getStore().getByKey(`${namespace}/${ref.name}`);
      return set?.metadata.uid === ref.uid ? set : undefined;
    };
    const enqueueOwner = (pod: Pod) => {
      const set = resolve(pod.metadata.namespace ?? '', getControllerOf(pod));
      if (set) queue.add(keyOf(set));
    };
    const enqueueMatching = (pod: Pod) => {
      for (const set of sets.getStore().byIndex(NAMESPACE_INDEX, pod.metadata.namespace ?? '')) {
        if (selectorOf(set)?.matches(pod.metadata.labels ?? {})) queue.add(keyOf(set));
      }
    };

    sets.addEventHandler({
      onAdd: (s) => queue.add(keyOf(s)),
      onUpdate: (_old, s) => queue.add(keyOf(s)),
      onDelete: (o) => {
        const s = o instanceof DeletedFinalStateUnknown ? (o.obj as StatefulSet) : o;
        if (s?.metadata) queue.add(keyOf(s));
      },
    });
    pods.addEventHandler({
      onAdd: (p) => {
        if (getControllerOf(p)) enqueueOwner(p);
        else if (!p.metadata.deletionTimestamp) enqueueMatching(p);
      },
      onUpdate: (old, p) => {
        if (old.metadata.resourceVersion === p.metadata.resourceVersion) return;
        const oldRef = getControllerOf(old);
        const ref = getControllerOf(p);
        if (oldRef && oldRef.uid !== ref?.uid) enqueueOwner(old);
        if (ref) enqueueOwner(p);
        else if (oldRef || labelsOf(old) !== labelsOf(p)) enqueueMatching(p);
      },
      onDelete: (o) => {
        const p = o instanceof DeletedFinalStateUnknown ? (o.obj as Pod) : o;
        if (p?.metadata) enqueueOwner(p);
      },
    });

    /** Objects of `resource` the set controls: kept and adopted ones (orphans adopted once a fresh GET shows the set alive). */
    const claim = async <T extends KubeObject>(
      set: StatefulSet,
      resource: ResourceDescriptor,
      candidates: readonly T[],
      matches: (o: T) => boolean,
    ): Promise<T[]> => {
      const out: T[] = [];
      let confirmed: boolean | undefined;
      const ns = { namespace: set.metadata.namespace ?? '' };
      for (const o of candidates) {
        const action = claimAction(set, o, matches(o));
        if (action === 'keep') out.push(o);
        if (action === 'ignore' || action === 'keep') continue;
        if (action === 'release') {
          await firstValueFrom(
            client.patch(resource, o.metadata?.name ?? '', releasePatch(set, o), 'strategic', ns),
          ).catch(ignoreNotFound);
          continue;
        }
        if (confirmed === undefined) {
          const live = await firstValueFrom(
            client.get<StatefulSet>(STATEFUL_SETS, set.metadata.name ?? '', ns),
          ).catch(ignoreNotFound);
          confirmed = live?.metadata.uid === set.metadata.uid && !live?.metadata.deletionTimestamp;
        }
        if (!confirmed) continue;
        const adopted = await firstValueFrom(
          client.patch<T>(
            resource,
            o.metadata?.name ?? '',
            adoptPatch(set, STATEFUL_SET_GVK, o),
            'strategic',
            ns,
          ),
        ).catch(ignoreNotFound);
        if (adopted) out.push(adopted);
      }
      return out;
    };

    /** Makes the plan's update revision exist: created (a name taken by other data bumps collisionCount) or renumbered. */
    const writeRevision = async (
      set: StatefulSet,
      write: { type: 'create' | 'bump'; revision: ControllerRevision },
    ): Promise<ControllerRevision> => {
      const ns = { namespace: set.metadata.namespace ?? '' };
      if (write.type === 'bump') {
        return firstValueFrom(client.update<ControllerRevision>(CONTROLLER_REVISIONS, write.revision, ns));
      }
      let collisionCount = set.status?.collisionCount ?? 0;
      let candidate = write.revision;
      for (;;) {
        try {
          return await firstValueFrom(client.create<ControllerRevision>(CONTROLLER_REVISIONS, candidate, ns));
        } catch (e) {
          if (!isAlreadyExists(e)) throw e;
          const existing = await firstValueFrom(
            client.get<ControllerRevision>(CONTROLLER_REVISIONS, candidate.metadata.name ?? '', ns),
          );
          if (equalRevision(existing, candidate)) return existing;
          collisionCount++;
          candidate = newRevision(set, candidate.revision, collisionCount);
          set.status = { ...(set.status ?? { replicas: 0 }), collisionCount };
        }
      }
    };

    /** Creates each of the claims not already there; a claim being deleted is an error (the pod must wait). */
    const createClaims = async (set: StatefulSet, pod: Pod, wanted: PersistentVolumeClaimObject[]) => {
      const ns = { namespace: set.metadata.namespace ?? '' };
      for (const c of wanted) {
        const name = c.metadata.name ?? '';
        const existing = claims.getStore().getByKey(`${ns.namespace}/${name}`);
        if (existing?.metadata.deletionTimestamp) throw new Error(`pvc ${name} is being deleted`);
        if (existing) continue;
        try {
          await firstValueFrom(client.create(PERSISTENT_VOLUME_CLAIMS, c, ns));
          recordAbout(
            set,
            'Normal',
            'SuccessfulCreate',
            `create Claim ${name} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} success`,
          );
        } catch (e) {
          if (isAlreadyExists(e)) continue;
          recordAbout(
            set,
            'Warning',
            'FailedCreate',
            `create Claim ${name} for Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${messageOf(e)}`,
          );
          throw e;
        }
      }
    };

    /** One action, with upstream's pod Events ("create Pod web-0 in StatefulSet web successful"). */
    const run = async (set: StatefulSet, a: StatefulSetAction) => {
      const ns = { namespace: set.metadata.namespace ?? '' };
      const name = a.pod.metadata.name ?? '';
      const verb = a.type === 'create' ? 'Create' : a.type === 'delete' ? 'Delete' : 'Update';
      if (a.type === 'claims') return createClaims(set, a.pod, a.claims);
      if (a.type === 'claimOwners') {
        const patch = { metadata: { ownerReferences: a.claim.metadata.ownerReferences ?? [] } };
        await firstValueFrom(
          client.patch(PERSISTENT_VOLUME_CLAIMS, a.claim.metadata.name ?? '', patch, 'merge', ns),
        ).catch(ignoreNotFound);
        return;
      }
      try {
        if (a.type === 'create') {
          await createClaims(set, a.pod, a.claims);
          await firstValueFrom(client.create(PODS, a.pod, ns));
        } else if (a.type === 'update') {
          await firstValueFrom(client.update(PODS, a.pod, ns));
        } else {
          if (a.why === 'update') {
            logger.info(
              { statefulSet: keyOf(set), pod: name },
              'Pod of StatefulSet is terminating for update',
            );
          }
          await firstValueFrom(client.delete(PODS, name, ns)).catch(ignoreNotFound);
        }
        recordAbout(
          set,
          'Normal',
          `Successful${verb}`,
          `${verb.toLowerCase()} Pod ${name} in StatefulSet ${set.metadata.name} successful`,
        );
      } catch (e) {
        if (a.type === 'create' && isAlreadyExists(e)) return;
        if (hasStatusCause(e, 'NamespaceTerminating')) return;
        recordAbout(
          set,
          'Warning',
          `Failed${verb}`,
          `${verb.toLowerCase()} Pod ${name} in StatefulSet ${set.metadata.name} failed error: ${messageOf(e)}`,
        );
        throw e;
      }
    };

    const writeStatus = async (set: StatefulSet, status: StatefulSetStatus) => {
      const same = STATUS_FIELDS.every((f) => (set.status?.[f] ?? 0) === (status[f] ?? 0));
      if (same) return;
      await firstValueFrom(
        client.updateStatus<StatefulSet>(
          STATEFUL_SETS,
          { ...set, status: { ...(set.status ?? {}), ...status } },
          { namespace: set.metadata.namespace ?? '' },
        ),
      );
    };

    const sync = async (key: string): Promise<ReconcileResult> => {
      const cached = sets.getStore().getByKey(key);
      if (!cached) {
        logger.debug({ statefulSet: key }, 'StatefulSet has been deleted');
        return {};
      }
      const set: StatefulSet = structuredClone(cached);
      const selector = selectorOf(set);
      if (!selector) return {};
      const namespace = set.metadata.namespace ?? '';
      const revs = await claim(
        set,
        CONTROLLER_REVISIONS,
        revisions.getStore().byIndex(NAMESPACE_INDEX, namespace),
        (r) => selector.matches(r.metadata.labels ?? {}),
      );
      const owned = await claim(
        set,
        PODS,
        pods.getStore().byIndex(NAMESPACE_INDEX, namespace),
        (p) => selector.matches(p.metadata.labels ?? {}) && isMemberOf(set, p),
      );
      const revisionPlan = planRevisions(set, revs);
      let { current, update } = revisionPlan;
      if (revisionPlan.write) {
        const written = await writeRevision(set, revisionPlan.write);
        if (current.metadata.name === update.metadata.name) current = written;
        update = written;
      }
      const plan = planStatefulSetSync({
        set,
        pods: owned,
        currentSet: applyRevision(set, current),
        currentRevision: current.metadata.name ?? '',
        updateSet: applyRevision(set, update),
        updateRevision: update.metadata.name ?? '',
        now: now(),
        claims: new Map(
          claims
            .getStore()
            .byIndex(NAMESPACE_INDEX, namespace)
            .map((c) => [c.metadata.name ?? '', c]),
        ),
      });
      const parallel = set.spec.podManagementPolicy === 'Parallel';
      if (parallel) {
        // claim ownership first, so a claim is owned by its pod before that pod may go
        for (const a of plan.actions) if (a.type === 'claimOwners') await run(set, a);
        const rest = plan.actions.filter((a) => a.type !== 'claimOwners');
        const results = await Promise.allSettled(rest.map((a) => run(set, a)));
        const failed = results.find((r) => r.status === 'rejected');
        if (failed) throw (failed as PromiseRejectedResult).reason;
      } else {
        for (const a of plan.actions) await run(set, a);
      }
      await writeStatus(set, plan.status);
      const all = [...revs, ...(revisionPlan.write?.type === 'create' ? [update] : [])];
      for (const r of revisionsToTruncate(set, owned, all, current, update)) {
        await firstValueFrom(client.delete(CONTROLLER_REVISIONS, r.metadata.name ?? '', { namespace })).catch(
          ignoreNotFound,
        );
      }
      return plan.requeueAfter !== undefined ? { requeueAfter: plan.requeueAfter } : {};
    };

    // workers start once the caches have synced (upstream's WaitForNamedCacheSync)
    const sub = cachesSynced(sets, pods, revisions, claims)
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
