// The scheduler assembly: config → frameworks per profile, cache, queue, informer handlers and the scheduleOne loop.
import type { Registry as MetricsRegistry } from 'prom-client';
import { asyncScheduler, from, type Observable, type SchedulerLike } from 'rxjs';
import type { Pod } from '../../operators/api/core-v1.ts';
import { InvalidConfigError } from '../../operators/errors.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import {
  type Framework,
  newFramework,
  type ResolvedProfile,
} from '../../operators/scheduling/framework/framework.ts';
import {
  type ClusterEventWithHint,
  implementsPoint,
  type Plugin,
  type PodDisruptionBudget,
  type PreEnqueuePlugin,
  type Registry,
} from '../../operators/scheduling/framework/interface.ts';
import { inTreeRegistry } from '../../operators/scheduling/plugins/registry.ts';
import type { PriorityQueue } from '../../operators/scheduling/queue/priority-queue.ts';
import { type SchedulingQueue, schedulingQueue } from '../../operators/scheduling/queue/scheduling-queue.ts';
import type { KubeObject } from '../../operators/types.ts';
import type { ApiClient } from '../../streams/api-client.ts';
import {
  CSI_NODES,
  NAMESPACES,
  NODES,
  PERSISTENT_VOLUME_CLAIMS,
  PERSISTENT_VOLUMES,
  POD_DISRUPTION_BUDGETS,
  PODS,
  PRIORITY_CLASSES,
  REPLICA_SETS,
  SERVICES,
  STATEFUL_SETS,
  STORAGE_CLASSES,
} from '../../streams/resources.ts';
import { dropManagedFields } from '../informers/drop-managed-fields.ts';
import { type InformerFactory, informerFactory } from '../informers/informer-factory.ts';
import type { HandlerRegistration, SharedInformer } from '../informers/shared-informer.ts';
import { waitForCacheSync } from '../informers/wait-for-cache-sync.ts';
import { assemblyRegistry, namespaceLabels } from './assembly-registry.ts';
import { SchedulerCache } from './cache/scheduler-cache.ts';
import { Snapshot } from './cache/snapshot.ts';
import { type ExpandedProfile, expandProfile } from './config/expand-profile.ts';
import { type FieldError, invalid } from './config/field-error.ts';
import { throwFieldErrors } from './config/load-config.ts';
import { enabledPluginNames, setDefaults } from './config/set-defaults.ts';
import { EXTENSION_POINTS, type ExtensionPoint, type KubeSchedulerConfiguration } from './config/types.ts';
import { validateConfiguration } from './config/validate-configuration.ts';
import { addEventHandlers, registeredActions } from './event-handlers.ts';
import { buildExtenders } from './extender/build-extenders.ts';
import { withExtensionPointMetrics } from './extension-point-metrics.ts';
import { type PriorityClass, priorityResolver } from './priority-resolver.ts';
import { ScheduleOne } from './schedule-one.ts';
import { type SchedulerWrites, schedulerApi } from './scheduler-api.ts';
import { type SchedulerMetrics, schedulerMetrics } from './scheduler-metrics.ts';

/** Options of {@link newScheduler}; only `client` is required. */
export interface NewSchedulerOptions {
  client: ApiClient;
  /** The configuration (as read from `--config`; defaulted and validated here). Default: all defaults. */
  config?: KubeSchedulerConfiguration;
  /** User plugins by name, merged over the in-tree registry (a same name replaces the in-tree plugin). */
  outOfTreeRegistry?: Registry;
  /** Share informers with other components (e.g. the node agent's factory). Default: a new factory. */
  informers?: InformerFactory;
  /** Where the scheduler's metrics are registered. Default: none recorded. */
  metricsRegistry?: MetricsRegistry;
  /** The API writes; default through `client`. */
  api?: SchedulerWrites;
  /** Clock of the queue, permit timers and durations. Default asyncScheduler. */
  scheduler?: SchedulerLike;
  /** Tie-break randomness in [0, 1). Default Math.random. */
  random?: () => number;
  logger?: Logger;
}

/** A built scheduler; nothing runs until `start` (informers) and a subscription to `run$` (the loop). */
export interface Scheduler {
  /** The defaulted configuration. */
  readonly config: KubeSchedulerConfiguration;
  /** Each profile as its framework runs it. */
  readonly profiles: readonly ExpandedProfile[];
  readonly frameworks: ReadonlyMap<string, Framework>;
  readonly cache: SchedulerCache;
  readonly queue: PriorityQueue;
  readonly scheduleOne: ScheduleOne;
  /** The informers it reads (shared through the factory). */
  readonly informers: {
    readonly pods: SharedInformer<KubeObject>;
    readonly nodes: SharedInformer<KubeObject>;
    readonly priorityClasses: SharedInformer<KubeObject>;
    readonly podDisruptionBudgets: SharedInformer<KubeObject>;
    /** The storage kinds the volume plugins read and whose changes move waiting pods. */
    readonly persistentVolumeClaims: SharedInformer<KubeObject>;
    readonly persistentVolumes: SharedInformer<KubeObject>;
    readonly storageClasses: SharedInformer<KubeObject>;
    readonly csiNodes: SharedInformer<KubeObject>;
  };
  /**
   * Registers the informer handlers, starts the informers and waits for their caches (PriorityClasses
   * first, so pods get their priority). @returns false when `signal` aborted first
   */
  start(signal?: AbortSignal): Promise<boolean>;
  /** True once `start` has synced. */
  hasSynced(): boolean;
  /**
   * The scheduling loop and the queue's flushes while subscribed: one pod in a scheduling cycle at a time.
   * Gate it on leadership: `leader$.pipe(switchMap((lead) => (lead ? scheduler.run$ : EMPTY)))`.
   */
  readonly run$: Observable<void>;
  /** Stops everything: the handlers, the queue (ending `run$`), binding requests; waits for bindings to end. */
  stop(): Promise<void>;
}

const POINT_GUARDS: Record<ExtensionPoint, (p: Plugin) => boolean> = implementsPoint;

/** Which points a plugin instance implements. */
function pointsOf(plugin: Plugin): Set<ExtensionPoint> {
  return new Set(EXTENSION_POINTS.filter((point) => POINT_GUARDS[point](plugin)));
}

/**
 * Builds a scheduler as kube-scheduler's `scheduler.New`: the configuration defaulted and validated (with
 * the in-tree and out-of-tree plugin names), one framework per profile (MultiPoint expanded per extension
 * point), the cache and snapshot, the scheduling queue (the first profile's QueueSort, every profile's
 * PreEnqueue plugins and queueing hints), and the scheduleOne loop. Informers come from `informers`.
 *
 * @example
 * const scheduler = newScheduler({ client, outOfTreeRegistry: { MyPlugin: (args, handle) => new MyPlugin() } });
 * await scheduler.start(AbortSignal.timeout(60_000));
 * const sub = scheduler.run$.subscribe();
 * // ... later
 * sub.unsubscribe(); await scheduler.stop();
 *
 * Teardown: `stop()` removes the handlers, closes the queue, aborts binding requests and waits for them;
 * the informer factory is shut down only when the scheduler created it.
 * @param options the client, configuration, registries, metrics and clock
 * @returns the scheduler
 * @throws InvalidConfigError naming the field (`profiles[0].plugins.filter.enabled[1]`, ...) for a bad config
 */
export function newScheduler(options: NewSchedulerOptions): Scheduler {
  const logger = (options.logger ?? silentLogger).child({ component: 'scheduler' });
  const ownInformers = !options.informers;
  const informers =
    options.informers ??
    informerFactory({ client: options.client, transform: dropManagedFields, logger: options.logger });
  const storage = {
    persistentVolumeClaims: informers.forResource(PERSISTENT_VOLUME_CLAIMS),
    persistentVolumes: informers.forResource(PERSISTENT_VOLUMES),
    storageClasses: informers.forResource(STORAGE_CLASSES),
    csiNodes: informers.forResource(CSI_NODES),
  };
  const lookups = {
    namespaces: informers.forResource(NAMESPACES),
    services: informers.forResource(SERVICES),
    replicaSets: informers.forResource(REPLICA_SETS),
    statefulSets: informers.forResource(STATEFUL_SETS),
    ...storage,
  };
  const registry: Registry = {
    ...inTreeRegistry,
    ...assemblyRegistry(lookups),
    ...options.outOfTreeRegistry,
  };
  const known = new Set(Object.keys(registry));
  const defaulted = setDefaults(options.config ?? {}, { available: (n) => known.has(n) });
  const errors = validateConfiguration(defaulted, { knownPlugins: known });
  if (errors.length) throwFieldErrors('config', errors);
  // HTTP extenders (ignorable ones last); their ignoredByScheduler resources go to NodeResourcesFit's args.
  const built = buildExtenders(defaulted);
  const config = built.config;

  const clock = options.scheduler ?? asyncScheduler;
  const pods = informers.forResource(PODS);
  const nodes = informers.forResource(NODES);
  const priorityClasses = informers.forResource(PRIORITY_CLASSES);
  const pdbs = informers.forResource(POD_DISRUPTION_BUDGETS);
  const resolvePod = priorityResolver(() => priorityClasses.getStore().list() as unknown as PriorityClass[]);
  const getPod = (namespace: string, name: string): Pod | undefined => {
    const pod = pods.getStore().getByKey(`${namespace}/${name}`) as Pod | undefined;
    return pod ? resolvePod(pod) : undefined;
  };
  const metrics: SchedulerMetrics | undefined = options.metricsRegistry
    ? schedulerMetrics(options.metricsRegistry)
    : undefined;
  const api = options.api ?? schedulerApi(options.client);
  const cache = new SchedulerCache({ logger: options.logger });
  const snapshot = new Snapshot();
  let sq: SchedulingQueue | undefined;
  const queueRef = (): PriorityQueue => sq!.queue;

  const deps = {
    snapshot: () => snapshot,
    api,
    scheduler: clock,
    logger: options.logger ?? silentLogger,
    parallelism: config.parallelism ?? 16,
    nominatedPodsForNode: (node: string) => (sq ? queueRef().nominatedPodsForNode(node) : []),
    getPod,
    podDisruptionBudgets: () => pdbs.getStore().list() as unknown as PodDisruptionBudget[],
    activate: (list: readonly Pod[]) => queueRef().activate(list),
  };

  const frameworks = new Map<string, Framework>();
  const profiles: ExpandedProfile[] = [];
  const problems: FieldError[] = [];
  (config.profiles ?? []).forEach((profile, i) => {
    const path = `profiles[${i}]`;
    const args = Object.fromEntries((profile.pluginConfig ?? []).map((pc) => [pc.name, pc.args ?? {}]));
    const probe = newFramework(
      { schedulerName: profile.schedulerName ?? '', plugins: {}, pluginArgs: {} },
      registry,
      deps,
    );
    const points = new Map<string, Set<ExtensionPoint>>();
    for (const name of enabledPluginNames(profile.plugins)) {
      try {
        points.set(name, pointsOf(registry[name]!(args[name], probe)));
      } catch (error) {
        problems.push(
          invalid(`${path}.pluginConfig`, name, `initializing plugin "${name}": ${(error as Error).message}`),
        );
        points.set(name, new Set());
      }
    }
    const expanded = expandProfile(path, profile, (name) => points.get(name) ?? new Set());
    problems.push(...expanded.errors);
    if (expanded.errors.length) return;
    profiles.push(expanded.profile);
    try {
      const fwk = newFramework(expanded.profile as ResolvedProfile, registry, deps);
      frameworks.set(
        expanded.profile.schedulerName,
        metrics ? withExtensionPointMetrics(fwk, metrics, clock) : fwk,
      );
    } catch (error) {
      if (error instanceof InvalidConfigError)
        problems.push(invalid(`${path}.${error.field}`, '', error.message));
      else throw error;
    }
    if ((expanded.profile.plugins.bind ?? []).length === 0)
      problems.push(invalid(`${path}.plugins.bind`, [], 'at least one bind plugin is needed'));
  });
  if (problems.length) throwFieldErrors('config', problems);

  const first = frameworks.values().next().value!;
  const preEnqueuePlugins: Record<string, readonly PreEnqueuePlugin[]> = {};
  const queueingHints: Record<string, Record<string, readonly ClusterEventWithHint[]>> = {};
  for (const [name, fwk] of frameworks) {
    preEnqueuePlugins[name] = fwk.preEnqueuePlugins;
    queueingHints[name] = Object.fromEntries(fwk.enqueueExtensions().map((e) => [e.plugin, e.events]));
  }
  sq = schedulingQueue({
    less: (a, b) => first.queueSortLess(a, b),
    preEnqueuePlugins,
    queueingHints,
    podInitialBackoffMs: (config.podInitialBackoffSeconds ?? 1) * 1000,
    podMaxBackoffMs: (config.podMaxBackoffSeconds ?? 10) * 1000,
    scheduler: clock,
    logger: options.logger ?? silentLogger,
    ...(metrics ? { metrics: metrics.queue } : {}),
    podLister: getPod,
    namespaceLabels: namespaceLabels(lookups),
  });
  const queue = sq.queue;

  const scheduleOne = new ScheduleOne({
    queue,
    cache,
    snapshot,
    frameworks,
    api,
    getPod,
    percentageOfNodesToScore: config.percentageOfNodesToScore ?? 0,
    ...(built.extenders.length > 0 ? { extenders: built.extenders } : {}),
    scheduler: clock,
    ...(options.random ? { random: options.random } : {}),
    ...(metrics ? { metrics } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });

  let registrations: HandlerRegistration[] = [];
  let synced = false;
  let stopped: Promise<void> | undefined;
  const loopSq = sq;

  return {
    config,
    profiles,
    frameworks,
    cache,
    queue,
    scheduleOne,
    informers: { pods, nodes, priorityClasses, podDisruptionBudgets: pdbs, ...storage },
    async start(signal) {
      informers.start();
      if (!(await waitForCacheSync(signal, priorityClasses))) return false;
      registrations = addEventHandlers({
        pods,
        nodes,
        cache,
        queue,
        profiles: new Set(frameworks.keys()),
        storage,
        registeredActions: registeredActions(queueingHints),
        resolvePod,
        rejectWaitingPod: (pod) => {
          const fwk = frameworks.get(pod.spec?.schedulerName ?? 'default-scheduler');
          return fwk?.rejectWaitingPod(pod.metadata.uid ?? '', '', 'removed') ?? false;
        },
        logger: options.logger ?? silentLogger,
      });
      informers.start();
      const ok = await waitForCacheSync(
        signal,
        pods,
        nodes,
        pdbs,
        ...Object.values(lookups),
        ...registrations,
      );
      synced = ok;
      if (ok) logger.info({ profiles: [...frameworks.keys()] }, 'scheduler caches synced');
      return ok;
    },
    hasSynced: () => synced,
    run$: loopSq.run((p) => from(scheduleOne.run(p))),
    stop() {
      stopped ??= (async () => {
        for (const r of registrations) r.remove();
        queue.close();
        scheduleOne.stop();
        built.close();
        await scheduleOne.drain();
        if (ownInformers) informers.shutdown();
      })();
      return stopped;
    },
  };
}
