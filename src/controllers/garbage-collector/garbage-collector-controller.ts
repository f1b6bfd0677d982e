// garbageCollectorController: kube-controller-manager's garbage collector — metadata informers on every deletable resource feed the owner graph; attemptToDelete and attemptToOrphan workers delete, orphan and finish foreground deletions.
import { createRequire } from 'node:module';
import {
  asyncScheduler,
  catchError,
  combineLatest,
  EMPTY,
  exhaustMap,
  first,
  firstValueFrom,
  map,
  merge,
  NEVER,
  Observable,
  of,
  race,
  type SchedulerLike,
  Subject,
  switchMap,
  timer,
} from 'rxjs';
import {
  type AttemptToDeleteDecision,
  attemptToDeleteDecision,
  type PropagationPolicy,
} from '../../../operators/controller/garbage-collector/attempt-to-delete-decision.ts';
import type { OwnerLookup } from '../../../operators/controller/garbage-collector/classify-owner-references.ts';
import {
  gcPatches,
  type MetadataMergePatch,
} from '../../../operators/controller/garbage-collector/gc-patches.ts';
import {
  FINALIZER_ORPHAN_DEPENDENTS,
  type GraphActions,
  type GraphEvent,
  identityText,
  type ObjectIdentity,
  OwnerGraph,
} from '../../../operators/controller/garbage-collector/owner-graph.ts';
import { ApiError, KubeRxError } from '../../../operators/errors.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type ReconcileOutcome, type ReconcileResult, reconcileWith } from '../../../operators/reconcile.ts';
import {
  DeletedFinalStateUnknown,
  type KubeObject,
  type ObjectMeta,
  type OwnerReference,
} from '../../../operators/types.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import { type ApiClient, listerWatcher, type ResourceDescriptor } from '../../../streams/api-client.ts';
import { metadataInformer, type PartialObjectMetadata } from '../../informers/metadata-informer.ts';
import type { HandlerRegistration } from '../../informers/shared-informer.ts';
import { controllerEventRecorder } from '../controller-event-recorder.ts';
import {
  type DiscoveredResource,
  deletableResources,
  type ResourceDiscovery,
} from './deletable-resources.ts';

/** Settings of {@link garbageCollectorController}; only `client` is required. */
export interface GarbageCollectorConfig {
  client: ApiClient;
  /** The resources to watch, asked again every `resyncPeriodMs`; default {@link deletableResources} over `client`. */
  discovery?: ResourceDiscovery;
  /** `--concurrent-gc-syncs`: workers of each queue; default 20. */
  workers?: number;
  /** How often discovery is asked again (upstream's 30 s). */
  resyncPeriodMs?: number;
  /** Resources never watched; default core and events.k8s.io Events (upstream's ignored resources). */
  ignored?: (resource: ResourceDescriptor) => boolean;
  metrics?: WorkQueueMetricsProvider;
  /** Where `garbagecollector_controller_resources_sync_error_total` is registered, if given. */
  metricsRegistry?: import('prom-client').Registry;
  /** Wall clock for Event timestamps; default `Date.now`. */
  now?: () => number;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/** An owner reference's apiVersion and kind the collector cannot map to a watched resource (retried). */
export class RestMappingError extends KubeRxError {
  constructor(apiVersion: string, kind: string) {
    super('KUBE_RX_REST_MAPPING', `unable to get REST mapping for ${apiVersion}/${kind}`);
  }
}

const isEvent = (d: ResourceDescriptor) =>
  d.plural === 'events' && (d.group === '' || d.group === 'events.k8s.io');
const status = (e: unknown) => (e instanceof ApiError ? e.statusCode : 0);
const apiVersionOf = (d: ResourceDescriptor) => (d.group ? `${d.group}/${d.version}` : d.version);
const resourceKey = (d: ResourceDescriptor) => `${d.plural}.${d.group}/${d.version}`;
const ABSENT_OWNER_CACHE_SIZE = 500;
const CONFLICT_RETRIES = 5;

/**
 * Runs the garbage collector while subscribed. Discovery (every `resyncPeriodMs`) names the deletable
 * resources; each gets a metadata-only informer whose events feed an {@link OwnerGraph}. The graph's
 * answers fill two rate-limited queues (`garbage_collector_attempt_to_delete`,
 * `garbage_collector_attempt_to_orphan`) worked by `workers` workers each, once the first informers have
 * synced:
 *
 * - attemptToDelete follows {@link attemptToDeleteDecision}: a live GET of the item (absence confirmed by
 *   uid becomes a virtual delete), live GETs of its owners (absent ones remembered in a 500-entry cache),
 *   then a patch removing dangling references, a delete (background, foreground or orphan, guarded by uid
 *   and resourceVersion), or, for an owner in foreground deletion, the removal of `foregroundDeletion`
 *   once no blocking dependent is left;
 * - attemptToOrphan removes the owner's reference from each dependent, then its `orphan` finalizer.
 *
 * ```
 * rs (delete, Foreground): --F(finalizer)--------------------(finalizer removed)→gone
 * pods:                    ----delete a,b----a gone--b gone--
 * ```
 *
 * @example
 * garbageCollectorController({ client, workers: 20 }).subscribe();
 *
 * Teardown: unsubscribing stops discovery, the informers, both queues and their workers (aborting writes in flight).
 *
 * @param config the client, discovery, workers, resync period, metrics
 * @returns the outcomes of both queues' reconciles
 */
export function garbageCollectorController(
  config: GarbageCollectorConfig,
): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = (config.logger ?? silentLogger).child({ component: 'garbage-collector-controller' });
  const { client } = config;
  const discovery = config.discovery ?? deletableResources(client, logger);
  const ignored = config.ignored ?? isEvent;
  const workers = config.workers ?? 20;

  return new Observable<ReconcileOutcome<string>>((subscriber) => {
    logger.info('Starting controller');
    const graph = new OwnerGraph();
    const mapping = new Map<string, ResourceDescriptor>();
    const monitors = new Map<string, HandlerRegistration>();
    const absentOwners = new Set<string>();
    const syncErrors = registerSyncErrors(config.metricsRegistry);
    const record = controllerEventRecorder(
      client,
      'garbage-collector-controller',
      logger,
      config.now ?? Date.now,
    );
    const queueConfig = { scheduler, ...(config.metrics ? { metrics: config.metrics } : {}) };
    const attemptToDelete = workQueue<string>({
      name: 'garbage_collector_attempt_to_delete',
      ...queueConfig,
    });
    const attemptToOrphan = workQueue<string>({
      name: 'garbage_collector_attempt_to_orphan',
      ...queueConfig,
    });

    const rememberAbsent = (key: string) => {
      absentOwners.delete(key);
      absentOwners.add(key);
      if (absentOwners.size > ABSENT_OWNER_CACHE_SIZE)
        absentOwners.delete(absentOwners.values().next().value!);
    };
    const apply = (actions: GraphActions) => {
      for (const id of actions.absentOwners) rememberAbsent(identityText(id));
      for (const { dependent, owner } of actions.invalidNamespaceReferences) {
        const ownerId = { ...owner, namespace: dependent.namespace };
        record(
          {
            apiVersion: dependent.apiVersion,
            kind: dependent.kind,
            metadata: { name: dependent.name, namespace: dependent.namespace, uid: dependent.uid },
          },
          'Warning',
          'OwnerRefInvalidNamespace',
          `ownerRef ${identityText(ownerId)} does not exist in namespace "${dependent.namespace}"`,
        );
      }
      for (const uid of actions.attemptToDelete) attemptToDelete.add(uid);
      for (const uid of actions.attemptToDeleteRateLimited) attemptToDelete.addRateLimited(uid);
      for (const uid of actions.attemptToOrphan) attemptToOrphan.add(uid);
    };
    const change = (event: GraphEvent) => apply(graph.process(event));

    /**
     * The watched resource of an apiVersion and kind, at any version the server serves it at; another version
     * is not guessed: a reference to a version no longer served is left alone, as upstream's REST mapper does.
     */
    const resourceFor = (apiVersion: string, kind: string): ResourceDescriptor => {
      const found = mapping.get(`${apiVersion}\u0000${kind}`);
      if (found) return found;
      throw new RestMappingError(apiVersion, kind);
    };

    const eventOf = (
      d: ResourceDescriptor,
      type: GraphEvent['type'],
      o: KubeObject,
      old?: KubeObject,
    ): GraphEvent => {
      const m = o.metadata ?? {};
      return {
        type,
        identity: {
          apiVersion: apiVersionOf(d),
          kind: d.kind,
          name: m.name ?? '',
          uid: m.uid ?? '',
          namespace: m.namespace ?? '',
        },
        owners: m.ownerReferences ?? [],
        beingDeleted: m.deletionTimestamp !== undefined,
        finalizers: m.finalizers ?? [],
        ...(old
          ? {
              old: {
                beingDeleted: old.metadata?.deletionTimestamp !== undefined,
                finalizers: old.metadata?.finalizers ?? [],
              },
            }
          : {}),
      };
    };

    const monitor = (d: ResourceDescriptor): HandlerRegistration => {
      const informer = metadataInformer({
        name: `${resourceKey(d)} (gc)`,
        source: listerWatcher(client, d, { metadataOnly: true }),
        scheduler,
        logger,
      });
      return informer.addEventHandler({
        onAdd: (o: PartialObjectMetadata) => change(eventOf(d, 'add', o)),
        onUpdate: (old: PartialObjectMetadata, o: PartialObjectMetadata) =>
          change(eventOf(d, 'update', o, old)),
        onDelete: (o) => {
          const obj = o instanceof DeletedFinalStateUnknown ? o.obj : o;
          if (obj?.metadata?.uid) change(eventOf(d, 'delete', obj));
        },
      });
    };

    /** Starts informers of new resources and stops those of resources no longer served. */
    const resyncMonitors = (found: readonly DiscoveredResource[]): HandlerRegistration[] => {
      const wanted = new Map(found.filter((d) => !ignored(d)).map((d) => [resourceKey(d), d]));
      const before = [...monitors.keys()].sort().join(',');
      for (const [key, reg] of monitors)
        if (!wanted.has(key)) {
          reg.remove();
          monitors.delete(key);
        }
      mapping.clear();
      for (const [key, d] of wanted) {
        mapping.set(`${apiVersionOf(d)}\u0000${d.kind}`, d);
        for (const v of d.otherVersions ?? [])
          mapping.set(`${d.group ? `${d.group}/${v}` : v}\u0000${d.kind}`, d);
        if (!monitors.has(key)) monitors.set(key, monitor(d));
      }
      const after = [...monitors.keys()].sort().join(',');
      if (before !== after)
        logger.info(
          { resources: monitors.size },
          'syncing garbage collector with updated resources from discovery',
        );
      return [...monitors.values()];
    };

    // ---- live reads and writes ----

    const namespaceFor = (d: ResourceDescriptor, namespace: string) => (d.namespaced ? { namespace } : {});

    const getLatest = async (id: ObjectIdentity): Promise<ObjectMeta | null> => {
      const d = resourceFor(id.apiVersion, id.kind);
      // a virtual node named from a cluster-scoped dependent: no object of a namespaced kind lives outside a namespace
      if (d.namespaced && id.namespace === '') return null;
      try {
        const o = await firstValueFrom(
          client.get(d, id.name, { ...namespaceFor(d, id.namespace), metadataOnly: true }),
        );
        return o.metadata ?? {};
      } catch (e) {
        if (status(e) === 404) return null;
        throw e;
      }
    };

    const lookupOwner = async (ref: OwnerReference, item: ObjectIdentity): Promise<OwnerLookup> => {
      const coordinates = { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid };
      const d = resourceFor(ref.apiVersion, ref.kind);
      // checked before the absent-owner cache: an invalid reference never makes a cluster-scoped object garbage
      if (item.namespace === '' && d.namespaced) {
        logger.info(
          { item: identityText(item), owner: ref.name },
          'item is cluster-scoped, but refers to a namespaced owner',
        );
        return { state: 'invalid' };
      }
      if (
        absentOwners.has(identityText({ ...coordinates, namespace: '' })) ||
        absentOwners.has(identityText({ ...coordinates, namespace: item.namespace }))
      )
        return { state: 'absent' };
      const cacheKey = identityText({ ...coordinates, namespace: d.namespaced ? item.namespace : '' });
      let owner: KubeObject;
      try {
        owner = await firstValueFrom(
          client.get(d, ref.name, { ...namespaceFor(d, item.namespace), metadataOnly: true }),
        );
      } catch (e) {
        if (status(e) !== 404) throw e;
        rememberAbsent(cacheKey);
        return { state: 'absent' };
      }
      if (owner.metadata?.uid !== ref.uid) {
        rememberAbsent(cacheKey);
        return { state: 'absent' };
      }
      return {
        state: 'present',
        beingDeleted: owner.metadata?.deletionTimestamp !== undefined,
        finalizers: owner.metadata?.finalizers ?? [],
      };
    };

    /** GET, compute a patch, write it guarded by resourceVersion; again on 409. Nothing when gone or nothing to change. */
    const patchLatest = async (
      id: ObjectIdentity,
      compute: (m: ObjectMeta) => MetadataMergePatch | undefined,
    ) => {
      const d = resourceFor(id.apiVersion, id.kind);
      for (let attempt = 1; ; attempt++) {
        const latest = await getLatest(id);
        if (!latest || latest.uid !== id.uid) return;
        const patch = compute(latest);
        if (!patch) return;
        try {
          await firstValueFrom(client.patch(d, id.name, patch, 'merge', namespaceFor(d, id.namespace)));
          return;
        } catch (e) {
          if (status(e) === 404) return;
          if (status(e) !== 409 || attempt >= CONFLICT_RETRIES) throw e;
        }
      }
    };

    const virtualDelete = (id: ObjectIdentity) =>
      change({
        type: 'delete',
        identity: id,
        owners: [],
        beingDeleted: false,
        finalizers: [],
        virtual: true,
      });

    /** Deletes guarded by uid and resourceVersion; on a conflict, again by uid alone if the owners did not change. */
    const deleteObject = async (
      id: ObjectIdentity,
      latest: ObjectMeta,
      policy: PropagationPolicy,
    ): Promise<'deleted' | 'gone'> => {
      const d = resourceFor(id.apiVersion, id.kind);
      const del = (preconditions: { uid: string; resourceVersion?: string }) =>
        firstValueFrom(
          client.delete(d, id.name, {
            ...namespaceFor(d, id.namespace),
            propagationPolicy: policy,
            preconditions,
          }),
        );
      try {
        await del({
          uid: id.uid,
          ...(latest.resourceVersion ? { resourceVersion: latest.resourceVersion } : {}),
        });
        return 'deleted';
      } catch (e) {
        if (status(e) === 404) return 'gone';
        if (status(e) !== 409 || !latest.resourceVersion) throw e;
      }
      const live = await getLatest(id);
      if (!live || live.uid !== id.uid) return 'gone';
      if (JSON.stringify(live.ownerReferences ?? []) !== JSON.stringify(latest.ownerReferences ?? []))
        throw new KubeRxError('KUBE_RX_CONFLICT', `the owners of ${identityText(id)} changed; looking again`);
      try {
        await del({ uid: id.uid });
        return 'deleted';
      } catch (e) {
        if (status(e) === 404) return 'gone';
        throw e;
      }
    };

    // ---- the two workers ----

    const syncDelete = async (uid: string): Promise<ReconcileResult> => {
      const node = graph.node(uid);
      if (!node) return {};
      const id = node.identity;
      let latest: ObjectMeta | null | undefined;
      let owners: OwnerLookup[] | undefined;
      for (;;) {
        const decision: AttemptToDeleteDecision = attemptToDeleteDecision({
          node,
          dependents: graph.dependentsOf(uid),
          blockingDependents: graph.blockingDependentsOf(uid),
          ...(latest !== undefined ? { latest } : {}),
          ...(owners ? { owners } : {}),
        });
        switch (decision.action) {
          case 'get':
            latest = await getLatest(id);
            continue;
          case 'lookupOwners':
            owners = await Promise.all(decision.references.map((ref) => lookupOwner(ref, id)));
            continue;
          case 'virtualDelete':
            virtualDelete(id);
            return {};
          case 'invalidReference':
            return {};
          case 'removeFinalizer':
            logger.debug({ item: identityText(id) }, 'remove DeleteDependents finalizer for item');
            await patchLatest(id, (m) => gcPatches.removeFinalizer(m, decision.finalizer));
            break;
          case 'attemptToDelete':
            for (const dep of decision.uids) attemptToDelete.add(dep);
            break;
          case 'removeOwnerReferences':
            logger.debug(
              { item: identityText(id), owners: decision.uids },
              'remove dangling references and waiting references for item',
            );
            await patchLatest(id, (m) => gcPatches.removeOwnerReferences(m, decision.uids));
            break;
          case 'delete': {
            let current = latest!;
            if (decision.unblockFirst) {
              await patchLatest(id, gcPatches.unblockOwnerReferences);
              // the delete is guarded by the resourceVersion the unblocking wrote
              const after = await getLatest(id);
              if (!after || after.uid !== id.uid) {
                virtualDelete(id);
                return {};
              }
              current = after;
            }
            logger.debug({ item: identityText(id), propagationPolicy: decision.policy }, 'Deleting item');
            if ((await deleteObject(id, current, decision.policy)) === 'gone') {
              virtualDelete(id);
              return {};
            }
            break;
          }
          case 'done':
            break;
        }
        break;
      }
      // a node not yet seen by an informer is looked at again until it is (upstream's issue 56121)
      return graph.node(uid)?.virtual ? { requeue: true } : {};
    };

    const syncOrphan = async (uid: string): Promise<ReconcileResult> => {
      const owner = graph.node(uid);
      if (!owner) return {};
      const failures: string[] = [];
      await Promise.all(
        graph.dependentsOf(uid).map(async (dep) => {
          try {
            await patchLatest(dep.identity, (m) => gcPatches.removeOwnerReferences(m, [uid]));
          } catch (e) {
            failures.push(`orphaning ${identityText(dep.identity)} failed, ${String(e)}`);
          }
        }),
      );
      if (failures.length > 0)
        throw new KubeRxError(
          'KUBE_RX_ORPHAN',
          `failed to orphan dependents of owner ${identityText(owner.identity)}, got errors: ${failures.join('; ')}`,
        );
      await patchLatest(owner.identity, (m) => gcPatches.removeFinalizer(m, FINALIZER_ORPHAN_DEPENDENTS));
      return {};
    };

    // ---- discovery, then the workers once the first informers have synced ----

    const period = config.resyncPeriodMs ?? 30_000;
    const synced$ = new Subject<readonly HandlerRegistration[]>();
    const discovery$ = timer(0, period, scheduler).pipe(
      exhaustMap(() =>
        discovery().pipe(
          catchError((e: unknown) => {
            logger.info({ err: String(e) }, 'failed to discover preferred resources');
            return of([] as readonly DiscoveredResource[]);
          }),
        ),
      ),
      switchMap((found) => {
        if (found.length === 0) {
          // a failed discovery keeps the monitors it has (upstream skips the sync)
          syncErrors?.inc();
          logger.info('no resources reported by discovery, skipping garbage collector sync');
          return EMPTY;
        }
        try {
          synced$.next(resyncMonitors(found));
        } catch (e) {
          syncErrors?.inc();
          logger.error({ err: String(e) }, 'failed to sync resource monitors');
        }
        return EMPTY;
      }),
    );
    // workers start once the first monitors have synced, or after one period anyway (upstream's initial sync timeout)
    const workers$ = synced$.pipe(
      first(),
      switchMap((regs) =>
        race(
          combineLatest(regs.map((r) => r.hasSynced$)).pipe(
            first((all) => all.every(Boolean)),
            map(() => 'Garbage collector: all resource monitors have synced'),
          ),
          timer(period, scheduler).pipe(
            map(() => 'Garbage collector: not all resource monitors could be synced, proceeding anyways'),
          ),
        ),
      ),
      first(),
      switchMap((message) => {
        logger.info(message);
        return merge(
          NEVER.pipe(
            reconcileWith<string>(syncDelete, { queue: attemptToDelete, workers, scheduler, logger }),
          ),
          NEVER.pipe(
            reconcileWith<string>(syncOrphan, { queue: attemptToOrphan, workers, scheduler, logger }),
          ),
        );
      }),
    );
    const sub = merge(discovery$, workers$).subscribe(subscriber);
    return () => {
      sub.unsubscribe();
      for (const reg of monitors.values()) reg.remove();
      monitors.clear();
      attemptToDelete.shutDown();
      attemptToOrphan.shutDown();
      logger.info('Shutting down controller');
    };
  });
}

/** Upstream's `garbagecollector_controller_resources_sync_error_total`, when a registry is given. */
function registerSyncErrors(
  registry: import('prom-client').Registry | undefined,
): { inc(): void } | undefined {
  if (!registry) return undefined;
  const name = 'garbagecollector_controller_resources_sync_error_total';
  const existing = registry.getSingleMetric(name) as import('prom-client').Counter | undefined;
  if (existing) return existing;
  // prom-client is loaded only when a registry is served
  const { Counter } = createRequire(import.meta.url)('prom-client') as typeof import('prom-client');
  return new Counter({
    name,
    help: 'Number of garbage collector resources sync errors',
    registers: [registry],
  });
}
