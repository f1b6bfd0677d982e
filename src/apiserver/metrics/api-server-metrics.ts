// kube-apiserver's request, storage and watch metrics for the embedded API server, in a prom-client registry.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import type * as PromClient from 'prom-client';
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { requestAttributes } from '../auth/request-attributes.ts';

/** Upstream's buckets of apiserver_request_duration_seconds. */
export const REQUEST_DURATION_BUCKETS: readonly number[] = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
];

/** prom-client, loaded when the first server builds its metrics (importing the entry does not load it). */
const loadPromClient = (): typeof PromClient =>
  createRequire(import.meta.url)('prom-client') as typeof PromClient;

function seconds(): number {
  return performance.now() / 1000;
}

/** What a request is, in the labels of apiserver_request_total. */
export interface RequestLabels {
  verb: string;
  dry_run: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  scope: string;
  component: string;
}

/** The non-resource paths reported by name (others as `other`, to bound the label's values). */
const NON_RESOURCE_PATHS = new Set([
  '/api',
  '/apis',
  '/healthz',
  '/livez',
  '/readyz',
  '/version',
  '/metrics',
  '/openapi/v2',
  '/openapi/v3',
]);

/**
 * The labels of one request, as kube-apiserver's metrics name them: the verb is the HTTP method in
 * upper case, with LIST and WATCH for collection reads and APPLY for server-side apply; the scope is
 * `resource` (one object, or a create), `namespace` or `cluster`; a non-resource request has empty
 * group/version/resource and its path as `subresource`.
 */
export function requestLabels(method: string, url: URL, contentType: string | undefined): RequestLabels {
  const attrs = requestAttributes(method, url.pathname, url.searchParams, { username: '', groups: [] });
  const dryRun = url.searchParams.getAll('dryRun').includes('All') ? 'All' : '';
  const base = { dry_run: dryRun, component: 'apiserver' };
  if (!attrs.resourceRequest) {
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const known = NON_RESOURCE_PATHS.has(path)
      ? path
      : path.startsWith('/openapi/v3/')
        ? '/openapi/v3/'
        : path.startsWith('/api') && path.split('/').length <= 4
          ? '/apis/<group>/<version>'
          : 'other';
    return {
      ...base,
      verb: method.toUpperCase(),
      group: '',
      version: '',
      resource: '',
      subresource: known,
      scope: '',
    };
  }
  let verb = method.toUpperCase();
  if (attrs.verb === 'list') verb = 'LIST';
  else if (attrs.verb === 'watch') verb = 'WATCH';
  else if (attrs.verb === 'proxy' || attrs.subresource === 'exec' || attrs.subresource === 'attach')
    verb = 'CONNECT';
  else if (verb === 'PATCH' && (contentType ?? '').startsWith('application/apply-patch')) verb = 'APPLY';
  const scope =
    attrs.name !== '' && attrs.verb !== 'list' && attrs.verb !== 'watch'
      ? 'resource'
      : attrs.verb === 'create'
        ? 'resource'
        : attrs.namespace !== ''
          ? 'namespace'
          : 'cluster';
  return {
    ...base,
    verb,
    group: attrs.apiGroup,
    version: attrs.apiVersion,
    resource: attrs.resource,
    subresource: attrs.subresource,
    scope,
  };
}

/** A kind as the watch metrics label it. */
export interface WatchKind {
  group: string;
  version: string;
  kind: string;
}

/** What the registry reads at scrape time: objects stored per resource (`pods`, `deployments.apps`). */
export type StorageCounts = () => Iterable<readonly [resource: string, count: number]>;

/**
 * The embedded API server's metrics, with kube-apiserver's names and labels:
 * - `apiserver_request_total{verb,dry_run,group,version,resource,subresource,scope,component,code}`
 * - `apiserver_request_duration_seconds{verb,dry_run,group,version,resource,subresource,scope,component}`
 *   (upstream's buckets; watches included, as long requests)
 * - `apiserver_current_inflight_requests{request_kind}`: `readOnly` and `mutating`, watches excluded
 * - `apiserver_storage_objects{resource}`: read from the store at scrape time
 * - `apiserver_watch_events_total{group,version,kind}` and `apiserver_registered_watchers{group,version,kind}`
 *
 * Each server has its own registry (never prom-client's global one).
 */
export class ApiServerMetrics {
  readonly registry: Registry;
  readonly #requests: Counter<string>;
  readonly #durations: Histogram<string>;
  readonly #inflight: Gauge<string>;
  readonly #watchEvents: Counter<string>;
  readonly #watchers: Gauge<string>;

  constructor(storageCounts: StorageCounts) {
    const { Counter, Gauge, Histogram, Registry } = loadPromClient();
    this.registry = new Registry();
    const registers = [this.registry];
    const requestLabelNames = [
      'verb',
      'dry_run',
      'group',
      'version',
      'resource',
      'subresource',
      'scope',
      'component',
    ];
    this.#requests = new Counter({
      name: 'apiserver_request_total',
      help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      labelNames: [...requestLabelNames, 'code'],
      registers,
    });
    this.#durations = new Histogram({
      name: 'apiserver_request_duration_seconds',
      help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      labelNames: requestLabelNames,
      buckets: [...REQUEST_DURATION_BUCKETS],
      registers,
    });
    this.#inflight = new Gauge({
      name: 'apiserver_current_inflight_requests',
      help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
      labelNames: ['request_kind'],
      registers,
    });
    this.#inflight.set({ request_kind: 'readOnly' }, 0);
    this.#inflight.set({ request_kind: 'mutating' }, 0);
    new Gauge({
      name: 'apiserver_storage_objects',
      help: 'Number of stored objects at the time of last check split by kind.',
      labelNames: ['resource'],
      registers,
      collect() {
        this.reset();
        for (const [resource, count] of storageCounts()) this.set({ resource }, count);
      },
    });
    this.#watchEvents = new Counter({
      name: 'apiserver_watch_events_total',
      help: 'Number of events sent in watch clients',
      labelNames: ['group', 'version', 'kind'],
      registers,
    });
    this.#watchers = new Gauge({
      name: 'apiserver_registered_watchers',
      help: 'Number of currently registered watchers for a given resources',
      labelNames: ['group', 'version', 'kind'],
      registers,
    });
  }

  /**
   * Marks a request as begun; call the returned function once with the response code when it ends.
   * Watches are not counted in flight (upstream counts long-running requests apart).
   */
  begin(labels: RequestLabels, nowSeconds: () => number): (code: number) => void {
    const longRunning = labels.verb === 'WATCH' || labels.verb === 'CONNECT';
    const kind = labels.verb === 'GET' || labels.verb === 'LIST' ? 'readOnly' : 'mutating';
    if (!longRunning) this.#inflight.inc({ request_kind: kind });
    const started = nowSeconds();
    let ended = false;
    return (code) => {
      if (ended) return;
      ended = true;
      if (!longRunning) this.#inflight.dec({ request_kind: kind });
      this.#requests.inc({ ...labels, code: String(code) });
      this.#durations.observe({ ...labels }, Math.max(0, nowSeconds() - started));
    };
  }

  /** One watch registered; call the returned function once when it ends. */
  watchStarted(kind: WatchKind): () => void {
    this.#watchers.inc({ ...kind });
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#watchers.dec({ ...kind });
    };
  }

  /** One event (bookmarks and errors included) sent to a watcher of `kind`. */
  watchEvent(kind: WatchKind): void {
    this.#watchEvents.inc({ ...kind });
  }

  /** Records one HTTP request: begun now, ended with its status code when the response closes. */
  observe(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const end = this.begin(requestLabels(req.method ?? 'GET', url, req.headers['content-type']), seconds);
    res.once('close', () => end(res.statusCode));
  }

  /**
   * Registers a watch of `kind` served on `res` and counts each event written to it; returns the
   * function to call when the watch ends.
   */
  watch(res: ServerResponse, kind: WatchKind): () => void {
    const labels = { group: kind.group, version: kind.version, kind: kind.kind };
    const write = res.write;
    res.write = ((...args: Parameters<typeof write>) => {
      this.watchEvent(labels);
      return write.apply(res, args);
    }) as typeof write;
    return this.watchStarted(labels);
  }

  /** The exposition text. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}
