// daemonSetController: kube-controller-manager's daemonset controller — daemon set, pod, node and revision informers, a work queue, expectations, history, one pod per eligible node, rolling updates, status.
import { asyncScheduler, firstValueFrom, NEVER, Observable, type SchedulerLike, switchMap } from 'rxjs';
import type { Node, Pod } from '../../../operators/api/core-v1.ts';
import { UIDTrackingControllerExpectations } from '../../../operators/controller/controller-expectations.ts';
import {
  adoptPatch,
  claimAction,
  getControllerOf,
  releasePatch,
} from '../../../operators/controller/controller-ref.ts';
import { daemonPod } from '../../../operators/controller/daemonset/daemon-pod.ts';
import { daemonPodTargetNode } from '../../../operators/controller/daemonset/daemon-pod-node-affinity.ts';
import {
  daemonSetHistoryPlan,
  revisionsToDelete,
} from '../../../operators/controller/daemonset/daemon-set-history.ts';
import { daemonSetPlan } from '../../../operators/controller/daemonset/daemon-set-plan.ts';
import {
  daemonSetStatus,
  daemonSetStatusUpToDate,
} from '../../../operators/controller/daemonset/daemon-set-status.ts';
import {
  CONTROLLER_REVISION_HASH_LABEL,
  type ControllerRevision,
  DAEMON_SET_BURST_REPLICAS,
  DAEMON_SET_GVK,
  type DaemonSet,
} from '../../../operators/controller/daemonset/daemon-set-types.ts';
import { FailedPodsBackoff } from '../../../operators/controller/daemonset/failed-pods-backoff.ts';
import { nodeShouldRunDaemonPod } from '../../../operators/controller/daemonset/node-should-run-daemon-pod.ts';
import { slowStartBatch } from '../../../operators/controller/slow-start-batch.ts';
import { ApiError, hasStatusCause } from '../../../operators/errors.ts';
import { NAMESPACE_INDEX } from '../../../operators/indexed-store.ts';
import { type LabelSelector, labelSelectorFromObject } from '../../../operators/label-selector.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type ReconcileOutcome, type ReconcileResult, reconcileWith } from '../../../operators/reconcile.ts';
import { DeletedFinalStateUnknown, type KubeObject } from '../../../operators/types.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import type { ApiClient, ResourceDescriptor } from '../../../streams/api-client.ts';
import { CONTROLLER_REVISIONS, DAEMON_SETS, NODES, PODS } from '../../../streams/resources.ts';
import { cachesSynced } from '../../informers/caches-synced.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';
import { controllerEventRecorder } from '../controller-event-recorder.ts';

/** Settings of {@link daemonSetController}. */
export interface DaemonSetControllerConfig {
  client: ApiClient;
  /** The shared informer factory; the caller starts it (the controller manager does, after every init). */
  informerFactory: InformerFactory;
  /** `--concurrent-daemonset-syncs`; default 2. */
  workers?: number;
  /** Creations or deletions per sync; default 250 (upstream's BurstReplicas). */
  burstReplicas?: number;
  metrics?: WorkQueueMetricsProvider;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) =>
  `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
const isNotFound = (e: unknown) => e instanceof ApiError && e.statusCode === 404;
const isConflict = (e: unknown) => e instanceof ApiError && e.statusCode === 409;
const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
const unwrap = <T>(o: T | DeletedFinalStateUnknown): T | undefined =>
  o instanceof DeletedFinalStateUnknown ? (o.obj as T) : o;

/**
 * Runs the daemonset controller while subscribed. Daemon set, pod, node and ControllerRevision events queue
 * the daemon sets concerned; a sync claims the namespace's pods and revisions (adopting matching orphans,
 * releasing owned ones that stopped matching), makes sure a ControllerRevision holds the current template
 * ({@link daemonSetHistoryPlan}), creates a pod for every eligible node without one and deletes pods that
 * must go, or — with nothing else to do — replaces old-revision pods as the update strategy allows
 * ({@link daemonSetPlan}), trims old revisions, and writes the status counts ({@link daemonSetStatus}).
 *
 * ```
 * nodes: --n1--n2-----------n3------------
 * ds:    ----D----------------------------
 * pods:  -----create n1,n2---create n3----
 * ```
 *
 * @example
 * daemonSetController({ client, informerFactory: factory }).subscribe(); factory.start();
 *
 * Teardown: unsubscribing stops the queue, the workers and in-flight syncs (the informers belong to the factory).
 *
 * @param config the client, the shared informer factory, workers, metrics
 * @returns the sync outcomes, one per key synced
 */
export function daemonSetController(config: DaemonSetControllerConfig): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = (config.logger ?? silentLogger).child({ component: 'daemonset-controller' });
  const { client } = config;
  const burst = config.burstReplicas ?? DAEMON_SET_BURST_REPLICAS;
  const now = () => scheduler.now();

  return new Observable<ReconcileOutcome<string>>((subscriber) => {
    logger.info('Starting daemon sets controller');
    const sets = config.informerFactory.forResource<DaemonSet>(DAEMON_SETS);
    const pods = config.informerFactory.forResource<Pod>(PODS);
    const nodes = config.informerFactory.forResource<Node>(NODES);
    const revisions = config.informerFactory.forResource<ControllerRevision>(CONTROLLER_REVISIONS);
    const queue = workQueue<string>({
      name: 'daemonset',
      scheduler,
      ...(config.metrics ? { metrics: config.metrics } : {}),
    });
    const expectations = new UIDTrackingControllerExpectations(now);
    const failedBackoff = new FailedPodsBackoff();
    const record = controllerEventRecorder(client, 'daemonset-controller', logger, () => Date.now());
    const recordAbout = (ds: DaemonSet, type: 'Normal' | 'Warning', reason: string, message: string) =>
      record({ ...ds, ...DAEMON_SET_GVK }, type, reason, message);

    const selectorOf = (ds: DaemonSet): LabelSelector | undefined => {
      try {
        return labelSelectorFromObject(ds.spec.selector);
      } catch (error) {
        logger.error(
          { daemonset: keyOf(ds), err: String(error) },
          'error converting pod selector to selector',
        );
        return undefined;
      }
    };
    /** The key of the daemon set a controller reference names, when it is in the cache with that uid. */
    const ownerOf = (o: KubeObject): string | undefined => {
      const ref = getControllerOf(o);
      if (!ref || ref.kind !== DAEMON_SET_GVK.kind) return undefined;
      const key = `${o.metadata?.namespace ?? ''}/${ref.name}`;
      return sets.getStore().getByKey(key)?.metadata.uid === ref.uid ? key : undefined;
    };
    const enqueueMatching = (o: KubeObject) => {
      for (const ds of sets.getStore().byIndex(NAMESPACE_INDEX, o.metadata?.namespace ?? '')) {
        if (selectorOf(ds)?.matches(o.metadata?.labels ?? {})) queue.add(keyOf(ds));
      }
    };
    const allSets = () => sets.getStore().list();

    sets.addEventHandler({
      onAdd: (ds) => queue.add(keyOf(ds)),
      onUpdate: (old, ds) => {
        if (old.metadata.uid !== ds.metadata.uid) expectations.deleteExpectations(keyOf(old));
        queue.add(keyOf(ds));
      },
      onDelete: (o) => {
        const ds = unwrap(o);
        if (!ds?.metadata) return;
        expectations.deleteExpectations(keyOf(ds));
        queue.add(keyOf(ds));
      },
    });
    pods.addEventHandler({
      onAdd: (pod) => {
        const key = ownerOf(pod);
        if (key) {
          if (pod.metadata.deletionTimestamp) expectations.deletionObservedOf(key, keyOf(pod));
          else expectations.creationObserved(key);
          queue.add(key);
        } else if (!getControllerOf(pod)) enqueueMatching(pod);
      },
      onUpdate: (old, pod) => {
        if (pod.metadata.resourceVersion === old.metadata.resourceVersion) return;
        const key = ownerOf(pod);
        if (key && pod.metadata.deletionTimestamp && !old.metadata.deletionTimestamp)
          expectations.deletionObservedOf(key, keyOf(pod));
        const oldKey = ownerOf(old);
        if (oldKey && oldKey !== key) queue.add(oldKey);
        if (key) {
          queue.add(key);
          const ms = (sets.getStore().getByKey(key)?.spec.minReadySeconds ?? 0) * 1000;
          if (ms > 0) queue.addAfter(key, ms + 1000);
        } else if (!getControllerOf(pod)) enqueueMatching(pod);
      },
      onDelete: (p) => {
        const pod = unwrap(p);
        if (!pod?.metadata) return;
        const key = ownerOf(pod);
        if (!key) return;
        expectations.deletionObservedOf(key, keyOf(pod));
        queue.add(key);
      },
    });
    const decisionsDiffer = (a: Node, b: Node, ds: DaemonSet) => {
      const x = nodeShouldRunDaemonPod(a, ds);
      const y = nodeShouldRunDaemonPod(b, ds);
      return x.shouldRun !== y.shouldRun || x.shouldContinueRunning !== y.shouldContinueRunning;
    };
    nodes.addEventHandler({
      onAdd: (node) => {
        for (const ds of allSets()) if (nodeShouldRunDaemonPod(node, ds).shouldRun) queue.add(keyOf(ds));
      },
      onUpdate: (old, node) => {
        for (const ds of allSets()) if (decisionsDiffer(old, node, ds)) queue.add(keyOf(ds));
      },
      onDelete: () => {
        for (const ds of allSets()) queue.add(keyOf(ds));
      },
    });
    revisions.addEventHandler({
      onAdd: (r) => {
        const key = ownerOf(r);
        if (key) queue.add(key);
        else if (!getControllerOf(r)) enqueueMatching(r);
      },
      onUpdate: (_old, r) => {
        const key = ownerOf(r);
        if (key) queue.add(key);
      },
      onDelete: (o) => {
        const r = unwrap(o);
        const key = r?.metadata ? ownerOf(r) : undefined;
        if (key) queue.add(key);
      },
    });

    /** The objects of `resource` the daemon set owns, adopting matching orphans and releasing owned mismatches. */
    const claim = async <T extends KubeObject>(
      resource: ResourceDescriptor,
      candidates: readonly T[],
      ds: DaemonSet,
      selector: LabelSelector,
    ): Promise<T[]> => {
      const out: T[] = [];
      let confirmed: boolean | undefined;
      for (const o of candidates) {
        const action = claimAction(ds, o, selector.matches(o.metadata?.labels ?? {}));
        if (action === 'keep') out.push(o);
        if (action === 'ignore' || action === 'keep') continue;
        const ns = { namespace: o.metadata?.namespace ?? '' };
        const name = o.metadata?.name ?? '';
        if (action === 'adopt') {
          if (confirmed === undefined) {
            const live = await firstValueFrom(
              client.get<DaemonSet>(DAEMON_SETS, ds.metadata.name ?? '', ns),
            ).catch((e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)));
            confirmed = live?.metadata.uid === ds.metadata.uid && !live?.metadata.deletionTimestamp;
          }
          if (!confirmed) continue;
          try {
            out.push(
              await firstValueFrom(
                client.patch<T>(resource, name, adoptPatch(ds, DAEMON_SET_GVK, o), 'strategic', ns),
              ),
            );
          } catch (e) {
            if (!isNotFound(e)) throw e;
          }
        } else {
          await firstValueFrom(client.patch(resource, name, releasePatch(ds, o), 'strategic', ns)).catch(
            (e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)),
          );
        }
      }
      return out;
    };

    /** Makes the history match the daemon set; returns the current hash and the old revisions. */
    const constructHistory = async (
      ds: DaemonSet,
      claimedRevisions: ControllerRevision[],
      claimedPods: Pod[],
    ) => {
      const plan = daemonSetHistoryPlan(ds, claimedRevisions);
      const ns = { namespace: ds.metadata.namespace ?? '' };
      for (const dup of plan.duplicates) {
        const dupHash = dup.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL];
        for (const pod of claimedPods) {
          if (pod.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] !== dupHash) continue;
          const patch = { metadata: { labels: { [CONTROLLER_REVISION_HASH_LABEL]: plan.hash } } };
          await firstValueFrom(client.patch(PODS, pod.metadata.name ?? '', patch, 'strategic', ns)).catch(
            (e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)),
          );
        }
        await firstValueFrom(client.delete(CONTROLLER_REVISIONS, dup.metadata.name ?? '', ns)).catch(
          (e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)),
        );
      }
      if (plan.current && plan.renumber !== undefined) {
        await firstValueFrom(
          client.patch(
            CONTROLLER_REVISIONS,
            plan.current.metadata.name ?? '',
            { revision: plan.renumber },
            'merge',
            ns,
          ),
        );
      }
      if (plan.create) {
        try {
          await firstValueFrom(client.create<ControllerRevision>(CONTROLLER_REVISIONS, plan.create, ns));
        } catch (e) {
          if (!isConflict(e)) throw e;
          const existing = await firstValueFrom(
            client.get<ControllerRevision>(CONTROLLER_REVISIONS, plan.create.metadata.name ?? '', ns),
          );
          const same = JSON.stringify(existing.data) === JSON.stringify(plan.create.data);
          if (!same || getControllerOf(existing)?.uid !== ds.metadata.uid) {
            // a hash collision: count it so the next hash differs
            const collisionCount = (ds.status?.collisionCount ?? 0) + 1;
            await firstValueFrom(
              client.updateStatus<DaemonSet>(
                DAEMON_SETS,
                { ...ds, status: { ...(ds.status ?? emptyStatus()), collisionCount } },
                ns,
              ),
            );
            throw new Error(`found a hash collision for DaemonSet ${keyOf(ds)} - bumping collisionCount`);
          }
        }
      }
      return plan;
    };

    const syncNodes = async (key: string, ds: DaemonSet, create: string[], del: Pod[], hash: string) => {
      const ns = { namespace: ds.metadata.namespace ?? '' };
      const toCreate = create.slice(0, burst);
      const toDelete = del.slice(0, burst);
      expectations.expectCreations(key, toCreate.length);
      expectations.expectDeletionsOf(key, toDelete.map(keyOf));
      let first: unknown;
      if (toCreate.length > 0) {
        let i = 0;
        const result = await slowStartBatch(toCreate.length, 1, async () => {
          const node = toCreate[i++] as string;
          try {
            const made = await firstValueFrom(client.create<Pod>(PODS, daemonPod(ds, node, hash), ns));
            recordAbout(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${made.metadata.name}`);
          } catch (e) {
            if (hasStatusCause(e, 'NamespaceTerminating')) return;
            recordAbout(ds, 'Warning', 'FailedCreate', `Error creating: ${messageOf(e)}`);
            throw e;
          }
        });
        for (let j = result.successes; j < toCreate.length; j++) expectations.creationObserved(key);
        first = result.error;
      }
      await Promise.all(
        toDelete.map(async (pod) => {
          if (pod.status?.phase === 'Failed')
            recordAbout(
              ds,
              'Warning',
              'FailedDaemonPod',
              `Found failed daemon pod ${keyOf(pod)} on node ${pod.spec.nodeName ?? ''}, will try to kill it`,
            );
          try {
            await firstValueFrom(client.delete(PODS, pod.metadata.name ?? '', ns));
            recordAbout(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
          } catch (e) {
            expectations.deletionObservedOf(key, keyOf(pod));
            if (isNotFound(e)) return;
            recordAbout(ds, 'Warning', 'FailedDelete', `Error deleting: ${messageOf(e)}`);
            first ??= e;
          }
        }),
      );
      return first;
    };

    const writeStatus = async (ds: DaemonSet, status: DaemonSet['status']) => {
      const ns = { namespace: ds.metadata.namespace ?? '' };
      const write = (o: DaemonSet) =>
        firstValueFrom(
          client.updateStatus<DaemonSet>(DAEMON_SETS, { ...o, status: { ...o.status, ...status! } }, ns),
        );
      try {
        return await write(ds);
      } catch (e) {
        if (!isConflict(e)) throw e;
        return write(await firstValueFrom(client.get<DaemonSet>(DAEMON_SETS, ds.metadata.name ?? '', ns)));
      }
    };

    const sync = async (key: string): Promise<ReconcileResult> => {
      const ds = sets.getStore().getByKey(key);
      if (!ds) {
        expectations.deleteExpectations(key);
        return {};
      }
      const selector = selectorOf(ds);
      if (!selector) return {};
      if (selector.isEmpty()) {
        recordAbout(
          ds,
          'Warning',
          'SelectingAll',
          'This daemon set is selecting all pods. A non-empty selector is required.',
        );
        return {};
      }
      if (ds.metadata.deletionTimestamp) return {};
      const namespace = ds.metadata.namespace ?? '';
      const claimedPods = await claim(
        PODS,
        pods.getStore().byIndex(NAMESPACE_INDEX, namespace),
        ds,
        selector,
      );
      const claimedRevisions = await claim(
        CONTROLLER_REVISIONS,
        revisions.getStore().byIndex(NAMESPACE_INDEX, namespace),
        ds,
        selector,
      );
      const history = await constructHistory(ds, claimedRevisions, claimedPods);
      const nodeList = nodes.getStore().list();
      let error: unknown;
      let retryAfter: number | undefined;
      const satisfied = expectations.satisfiedExpectations(key);
      if (satisfied) {
        const plan = daemonSetPlan({
          ds,
          nodes: nodeList,
          pods: claimedPods,
          hash: history.hash,
          now: now(),
        });
        // a failed pod is deleted again only after its node's backoff (1 s doubling to 15 min); while it
        // waits, its node gets no new pod either (with surge upstream would create one at once, and a kubelet
        // that keeps refusing pods would see a new one every sync)
        const waiting = new Set<string>();
        const toDelete = plan.delete.filter((pod) => {
          if (pod.status?.phase !== 'Failed') return true;
          const node = daemonPodTargetNode(pod) ?? '';
          const backoffKey = `${key}/${node}`;
          const left = failedBackoff.inBackoff(backoffKey, now());
          if (left > 0) {
            retryAfter = Math.min(retryAfter ?? left, left);
            waiting.add(node);
            return false;
          }
          failedBackoff.next(backoffKey, now());
          return true;
        });
        const toCreate = plan.create.filter((node) => !waiting.has(node));
        if (toCreate.length > 0 || toDelete.length > 0)
          error = await syncNodes(key, ds, toCreate, toDelete, history.hash);
        const ns = { namespace };
        for (const r of revisionsToDelete(ds, history.old, claimedPods)) {
          await firstValueFrom(client.delete(CONTROLLER_REVISIONS, r.metadata.name ?? '', ns)).catch(
            (e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)),
          );
        }
        failedBackoff.gc(now());
      }
      const status = daemonSetStatus(ds, nodeList, claimedPods, history.hash, now(), satisfied);
      if (!daemonSetStatusUpToDate(ds, status)) await writeStatus(ds, status);
      if (error !== undefined) throw error;
      const minReady = ds.spec.minReadySeconds ?? 0;
      if (minReady > 0 && status.numberReady !== status.numberAvailable)
        retryAfter = Math.min(retryAfter ?? minReady * 1000, minReady * 1000);
      return retryAfter !== undefined ? { requeueAfter: retryAfter } : {};
    };

    // workers start once every cache has synced: a sync on an empty pod cache would double every daemon pod
    const sub = cachesSynced(sets, pods, nodes, revisions)
      .pipe(
        switchMap(() =>
          NEVER.pipe(reconcileWith<string>(sync, { queue, workers: config.workers ?? 2, scheduler, logger })),
        ),
      )
      .subscribe(subscriber);
    return () => {
      sub.unsubscribe();
      logger.info('Shutting down daemon sets controller');
    };
  });
}

const emptyStatus = () => ({
  currentNumberScheduled: 0,
  numberMisscheduled: 0,
  desiredNumberScheduled: 0,
  numberReady: 0,
});
