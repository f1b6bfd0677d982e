// informerFactory: one shared informer per resource for a whole program (client-go's SharedInformerFactory).
import type { Subscription } from 'rxjs';
import { InvalidConfigError } from '../../operators/errors.ts';
import type { FifoMode } from '../../operators/fifo-queue.ts';
import type { Indexers } from '../../operators/indexed-store.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import type { KubeObject } from '../../operators/types.ts';
import type {
  ApiClient,
  MetadataOption,
  NamespaceOption,
  ResourceDescriptor,
} from '../../streams/api-client.ts';
import type { ReflectorMetricsSink } from '../../streams/list-watch.ts';
import type { ListerWatcher, ListOptions, WatchOptions } from '../../streams/ports.ts';
import { metadataInformer, type PartialObjectMetadata } from './metadata-informer.ts';
import { type SharedInformer, type SharedInformerConfig, sharedInformer } from './shared-informer.ts';
import { waitForCacheSync } from './wait-for-cache-sync.ts';

/** Options of {@link informerFactory}; only `client` is required. */
export interface InformerFactoryConfig {
  client: ApiClient;
  /** Watch only this namespace (namespaced resources); default all namespaces. */
  namespace?: string;
  /** Resync period of every informer; default 0 (never). */
  defaultResyncMs?: number;
  /** Resync periods by resource name (`pods`, `deployments.apps`), overriding the default. */
  customResyncMs?: Readonly<Record<string, number>>;
  /** Edits the options of every list and watch (e.g. set a label selector); called on a copy. */
  tweakListOptions?: (options: ListOptions & WatchOptions) => void;
  /** Transform of every informer (e.g. `dropManagedFields`). */
  transform?: (object: KubeObject) => KubeObject;
  /** List-watch options of every informer. */
  listWatch?: SharedInformerConfig['listWatch'];
  fifo?: FifoMode;
  scheduler?: SharedInformerConfig['scheduler'];
  logger?: Logger;
  /**
   * `explicit` (default, client-go's): informers run only once `start()` is called, so every handler
   * registered before it sees the initial list, and they stop for good at `shutdown()`. `refCount`: they
   * also start with their first handler or subscriber and stop when the last leaves (the standalone
   * informer's default).
   */
  lifecycle?: SharedInformerConfig['lifecycle'];
  /**
   * Where every informer reports its restarts and lists (e.g. `reflectorMetrics(registry)`): the factory
   * asks it for one sink per informer, labelled by the informer's name (`pods`, `deployments.apps`,
   * `pods (metadata)`), unless `listWatch.metrics` is set.
   */
  metrics?: { sink(resource: string): ReflectorMetricsSink };
}

/** Options of one informer of a factory. */
export interface ForResourceOptions<T extends KubeObject = KubeObject> {
  /** Indexes of the informer; on a later call for the same resource, the ones it lacks are added. */
  indexers?: Indexers<T>;
}

/** Shares informers by resource; see {@link informerFactory}. */
export interface InformerFactory {
  /** The informer of a resource, created on first use; the same one for every later call. */
  forResource<T extends KubeObject = KubeObject>(
    resource: ResourceDescriptor,
    options?: ForResourceOptions<T>,
  ): SharedInformer<T>;
  /**
   * The metadata-only informer of a resource (separate from its full-object informer): its lists and
   * watches ask the server for PartialObjectMetadata, so spec and status never cross the wire.
   */
  metadataForResource(
    resource: ResourceDescriptor,
    options?: ForResourceOptions<PartialObjectMetadata>,
  ): SharedInformer<PartialObjectMetadata>;
  /** Starts every informer created so far that is not started yet (call again after creating more). No-op after shutdown. */
  start(): void;
  /**
   * Waits for every started informer to sync.
   * @returns by resource name, whether it synced before `signal` aborted
   */
  waitForCacheSync(signal?: AbortSignal): Promise<Record<string, boolean>>;
  /** Releases what `start` holds: informers stop (for good, with the explicit lifecycle). Later `start` calls do nothing. */
  shutdown(): void;
}

/** `pods`, `deployments.apps`: how a factory names resources (the key of `customResyncMs` and of results). */
export function resourceName(resource: ResourceDescriptor, metadataOnly = false): string {
  const base = resource.group ? `${resource.plural}.${resource.group}` : resource.plural;
  return metadataOnly ? `${base} (metadata)` : base;
}

/**
 * A factory of shared informers over one ApiClient: `forResource` returns the same informer for the same
 * resource, so every part of a program shares one list-watch and one cache per resource.
 *
 * Lifecycle (client-go's by default): `start()` starts every informer created so far, after the
 * controllers have registered their handlers, so each handler sees the whole initial list once;
 * `shutdown()` stops them for good, and a handler added after that throws `InformerStoppedError`. With
 * `lifecycle: 'refCount'`, handlers and `events()` subscribers start informers too, and they stop when
 * nothing uses them.
 *
 * @example
 * const factory = informerFactory({ client: api, transform: dropManagedFields });
 * const pods = factory.forResource<Pod>(PODS);
 * pods.addEventHandler({ onAdd: (p) => queue.add(objectKey(p)) });
 * factory.start();
 * await factory.waitForCacheSync(AbortSignal.timeout(60_000));
 * @param config the client, namespace, resyncs, list option tweaks, transform and list-watch options
 * @returns the factory
 * @throws InvalidConfigError when `client` is missing
 */
export function informerFactory(config: InformerFactoryConfig): InformerFactory {
  if (
    !config?.client ||
    typeof config.client.list !== 'function' ||
    typeof config.client.watch !== 'function'
  ) {
    throw new InvalidConfigError('client', 'an ApiClient is required');
  }
  const logger = (config.logger ?? silentLogger).child({ component: 'informerFactory' });
  const informers = new Map<string, SharedInformer<KubeObject>>();
  const holds = new Map<string, Subscription>();
  let shutDown = false;

  const listerWatcherFor = (
    resource: ResourceDescriptor,
    metadataOnly = false,
  ): ListerWatcher<KubeObject> => {
    const scope: NamespaceOption & MetadataOption = {};
    if (resource.namespaced && config.namespace) scope.namespace = config.namespace;
    if (metadataOnly) scope.metadataOnly = true;
    const tweak = <O extends ListOptions | WatchOptions>(
      options: O,
    ): O & NamespaceOption & MetadataOption => {
      const copy = { ...options } as O & NamespaceOption & MetadataOption;
      config.tweakListOptions?.(copy as ListOptions & WatchOptions);
      // the factory, not the tweak, decides where to look and in which form
      delete copy.namespace;
      delete copy.metadataOnly;
      return { ...copy, ...scope };
    };
    return {
      list: (options) => config.client.list(resource, tweak(options)),
      watch: (options) => config.client.watch(resource, tweak(options)),
    };
  };

  const common = (name: string): Omit<SharedInformerConfig, 'source'> => {
    const out: Omit<SharedInformerConfig, 'source'> = {
      name,
      defaultResyncMs: config.customResyncMs?.[name] ?? config.defaultResyncMs ?? 0,
      lifecycle: config.lifecycle ?? 'explicit',
    };
    if (config.transform) out.transform = config.transform;
    if (config.listWatch) out.listWatch = config.listWatch;
    if (config.metrics && !config.listWatch?.metrics) {
      out.listWatch = { ...out.listWatch, metrics: config.metrics.sink(name) };
    }
    if (config.fifo) out.fifo = config.fifo;
    if (config.scheduler) out.scheduler = config.scheduler;
    if (config.logger) out.logger = config.logger;
    return out;
  };

  const existing = <T extends KubeObject>(name: string, options?: ForResourceOptions<T>) => {
    const informer = informers.get(name) as SharedInformer<T> | undefined;
    if (informer && options?.indexers) {
      const have = informer.getStore().getIndexers();
      const missing = Object.fromEntries(
        Object.entries(options.indexers).filter(([n]) => !Object.hasOwn(have, n)),
      );
      if (Object.keys(missing).length > 0) informer.addIndexers(missing);
    }
    return informer;
  };

  return {
    forResource<T extends KubeObject = KubeObject>(
      resource: ResourceDescriptor,
      options?: ForResourceOptions<T>,
    ) {
      const name = resourceName(resource);
      const found = existing(name, options);
      if (found) return found;
      const base = common(name);
      const apiVersion = resource.group ? `${resource.group}/${resource.version}` : resource.version;
      const informer = sharedInformer<KubeObject>({
        ...base,
        listWatch: { ...base.listWatch, expectedKind: { kind: resource.kind, apiVersion } },
        source: listerWatcherFor(resource),
        ...(options?.indexers ? { indexers: options.indexers as Indexers<KubeObject> } : {}),
      });
      informers.set(name, informer);
      logger.debug({ resource: name }, 'created an informer');
      return informer as unknown as SharedInformer<T>;
    },

    metadataForResource(resource, options) {
      const name = resourceName(resource, true);
      const found = existing(name, options);
      if (found) return found as unknown as SharedInformer<PartialObjectMetadata>;
      const informer = metadataInformer({
        ...(common(name) as Omit<SharedInformerConfig<PartialObjectMetadata>, 'source'>),
        source: listerWatcherFor(resource, true),
        ...(options?.indexers ? { indexers: options.indexers } : {}),
      });
      informers.set(name, informer as unknown as SharedInformer<KubeObject>);
      return informer;
    },

    start() {
      if (shutDown) return;
      for (const [name, informer] of informers) {
        if (!holds.has(name)) holds.set(name, informer.start());
      }
    },

    async waitForCacheSync(signal?: AbortSignal) {
      const started = [...holds.keys()];
      const results = await Promise.all(
        started.map((name) => waitForCacheSync(signal, informers.get(name)!)),
      );
      return Object.fromEntries(started.map((name, i) => [name, results[i]!]));
    },

    shutdown() {
      shutDown = true;
      for (const hold of holds.values()) hold.unsubscribe();
      holds.clear();
    },
  };
}
