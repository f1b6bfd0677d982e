// metricsApi: serves metrics.k8s.io/v1beta1 NodeMetrics and PodMetrics from the kubelets' /metrics/resource, scraped on demand as metrics-server would scrape them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { asyncScheduler, firstValueFrom, type SchedulerLike, timer } from 'rxjs';
import type { Node, Pod } from '../../../operators/api/core-v1.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { ApiStatusError, methodNotAllowed, notFound } from '../api-status.ts';
import { kubeletEndpoint } from '../proxy/pod-proxy.ts';
import type { Registry } from '../registry.ts';
import { findResource } from '../resource-table.ts';
import {
  METRICS_GROUP,
  METRICS_GROUP_VERSION,
  METRICS_VERSION,
  metricsApiGroup,
  metricsApiResourceList,
} from './metrics-discovery.ts';
import { cpuQuantity, goDuration, memoryQuantity } from './metrics-quantity.ts';
import { MetricsStorage, type Usage } from './metrics-storage.ts';
import { type MetricsRow, metricsTable, wantsTable } from './metrics-table.ts';
import { parseResourceMetrics } from './parse-resource-metrics.ts';

/** Reads one kubelet's /metrics/resource. */
export type ResourceMetricsFetcher = (host: string, port: number) => Promise<string>;

/** What the metrics API reads and how often it scrapes. */
export interface MetricsApiOptions {
  registry: Registry;
  /** Default: HTTPS GET without verifying the kubelet's certificate (metrics-server's --kubelet-insecure-tls), 3 s timeout. */
  fetch?: ResourceMetricsFetcher;
  /** A request scrapes again only when the last scrape is older than this; default 1,000 ms. */
  minScrapeIntervalMs?: number;
  /** A node scraped for the first time is scraped again after this, so the first request has a window; default 1,000 ms. */
  firstWindowMs?: number;
  /** Wall clock in ms; default Date.now. */
  now?: () => number;
  /** Times the first-window wait; default RxJS's async scheduler. */
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/** The handler of every path under `/apis/metrics.k8s.io`. */
export interface MetricsApi {
  /** Serves `segments` (the path after `/apis/metrics.k8s.io`). @throws ApiStatusError */
  serve(req: IncomingMessage, res: ServerResponse, segments: string[], query: URLSearchParams): Promise<void>;
}

const SCRAPE_TIMEOUT_MS = 3_000;

function httpsFetch(host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host,
        port,
        path: '/metrics/resource',
        method: 'GET',
        rejectUnauthorized: false,
        timeout: SCRAPE_TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode === 200) resolve(body);
          else reject(new Error(`request failed, status: "${res.statusCode}"`));
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('context deadline exceeded')));
    req.on('error', reject);
    req.end();
  });
}

function usageJson(usage: Usage): { cpu: string; memory: string } {
  return { cpu: cpuQuantity(usage.cpuNanoCores), memory: memoryQuantity(usage.memoryBytes) };
}

function send(res: ServerResponse, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-cache, private',
  });
  res.end(text);
}

/**
 * The metrics.k8s.io/v1beta1 API. Each request first brings the storage up to date: when the last
 * scrape is older than `minScrapeIntervalMs`, every Node's kubelet (its preferred address and
 * `daemonEndpoints.kubeletEndpoint.Port`) is scraped at `/metrics/resource` in parallel; a node seen
 * for the first time is scraped once more after `firstWindowMs`, because CPU usage is a rate between
 * two points. Readings follow metrics-server: CPU in nanocores over the window between the last two
 * points, memory the last working set; a pod is listed only when Running and every container has a
 * window; a node or pod without a reading is left out of lists, and a get of it is NotFound
 * (`nodemetrics.metrics.k8s.io "NAME" not found`, `podmetrics.metrics.k8s.io "NS/NAME" not found`),
 * so `kubectl top` says "metrics not available yet". A kubelet that cannot be scraped is logged and
 * keeps its earlier points.
 */
export function metricsApi(options: MetricsApiOptions): MetricsApi {
  const { registry } = options;
  const fetch = options.fetch ?? httpsFetch;
  const now = options.now ?? Date.now;
  const scheduler = options.scheduler ?? asyncScheduler;
  const minInterval = options.minScrapeIntervalMs ?? 1_000;
  const firstWindow = options.firstWindowMs ?? 1_000;
  const logger = (options.logger ?? silentLogger).child({ component: 'metrics-api' });
  const storage = new MetricsStorage();
  const podsDef = findResource(registry.table, '', 'v1', 'pods')!;
  const nodesDef = findResource(registry.table, '', 'v1', 'nodes')!;
  let lastScrape = Number.NEGATIVE_INFINITY;
  let inFlight: Promise<void> | undefined;
  const scrapedNodes = new Set<string>();

  const nodes = (): Node[] => registry.list(nodesDef, undefined, {}).items.map((i) => i.object as Node);

  /** Scrapes every node once; @returns the nodes scraped for the first time. */
  const scrapeAll = async (): Promise<string[]> => {
    const current = nodes();
    const names = new Set(current.map((n) => n.metadata.name ?? ''));
    for (const name of scrapedNodes) {
      if (!names.has(name)) {
        scrapedNodes.delete(name);
        storage.forget(name);
      }
    }
    const fresh: string[] = [];
    await Promise.all(
      current.map(async (node) => {
        const name = node.metadata.name ?? '';
        try {
          const { host, port } = kubeletEndpoint(node);
          const text = await fetch(host, port);
          storage.store(name, parseResourceMetrics(text, now()));
          if (!scrapedNodes.has(name)) fresh.push(name);
          scrapedNodes.add(name);
        } catch (error) {
          logger.info({ node: name, err: (error as Error).message }, 'Failed to scrape node');
        }
      }),
    );
    lastScrape = now();
    return fresh;
  };

  const refresh = (): Promise<void> => {
    if (inFlight) return inFlight;
    if (now() - lastScrape < minInterval) return Promise.resolve();
    inFlight = (async () => {
      const fresh = await scrapeAll();
      if (fresh.some((name) => !storage.hasWindow(name))) {
        await firstValueFrom(timer(firstWindow, scheduler));
        await scrapeAll();
      }
    })().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };

  const nodeMetrics = (node: Node): MetricsRow | undefined => {
    const name = node.metadata.name ?? '';
    const reading = storage.nodeUsage(name);
    if (!reading) return undefined;
    const object = {
      kind: 'NodeMetrics',
      apiVersion: METRICS_GROUP_VERSION,
      metadata: {
        name,
        creationTimestamp: new Date(now()).toISOString().replace(/\.\d+Z$/, 'Z'),
        ...(node.metadata.labels ? { labels: node.metadata.labels } : {}),
      },
      timestamp: new Date(reading.timestamp).toISOString().replace(/\.\d+Z$/, 'Z'),
      window: goDuration(reading.windowMs),
      usage: usageJson(reading.usage),
    };
    return { name, ...reading.usage, window: object.window, object };
  };

  const podMetrics = (pod: Pod): MetricsRow | undefined => {
    if (pod.status?.phase !== 'Running') return undefined;
    const reading = storage.podUsage(pod.metadata.namespace ?? 'default', pod.metadata.name ?? '');
    if (!reading) return undefined;
    const object = {
      kind: 'PodMetrics',
      apiVersion: METRICS_GROUP_VERSION,
      metadata: {
        name: pod.metadata.name,
        namespace: pod.metadata.namespace,
        creationTimestamp: new Date(now()).toISOString().replace(/\.\d+Z$/, 'Z'),
        ...(pod.metadata.labels ? { labels: pod.metadata.labels } : {}),
      },
      timestamp: new Date(reading.timestamp).toISOString().replace(/\.\d+Z$/, 'Z'),
      window: goDuration(reading.windowMs),
      containers: reading.containers.map((c) => ({ name: c.name, usage: usageJson(c.usage) })),
    };
    const sum = (key: keyof Usage) => reading.containers.reduce((total, c) => total + c.usage[key], 0);
    return {
      name: pod.metadata.name ?? '',
      cpuNanoCores: sum('cpuNanoCores'),
      memoryBytes: sum('memoryBytes'),
      window: object.window,
      object,
    };
  };

  const list = (kind: string, items: object[]) => ({
    kind,
    apiVersion: METRICS_GROUP_VERSION,
    metadata: {},
    items,
  });

  const selectors = (q: URLSearchParams) => ({
    labelSelector: q.get('labelSelector') ?? undefined,
    fieldSelector: q.get('fieldSelector') ?? undefined,
  });

  return {
    async serve(req, res, segments, q) {
      const method = req.method ?? 'GET';
      if (segments.length === 0) return send(res, metricsApiGroup());
      if (segments[0] !== METRICS_VERSION) {
        throw new ApiStatusError(404, 'NotFound', 'the server could not find the requested resource');
      }
      const rest = segments.slice(1);
      if (rest.length === 0) return send(res, metricsApiResourceList());
      let namespace: string | undefined;
      let parts = rest;
      if (rest[0] === 'namespaces' && rest.length >= 3) {
        namespace = rest[1];
        parts = rest.slice(2);
      }
      const [resource, name, ...extra] = parts;
      const known = (resource === 'nodes' && namespace === undefined) || resource === 'pods';
      if (!known || extra.length > 0) {
        throw new ApiStatusError(404, 'NotFound', 'the server could not find the requested resource');
      }
      if (method !== 'GET') throw methodNotAllowed(method, `${resource}.${METRICS_GROUP}`);
      if (q.get('watch') === 'true' || q.get('watch') === '1') {
        throw methodNotAllowed('watch', `${resource}.${METRICS_GROUP}`);
      }
      await refresh();
      const table = wantsTable(req.headers.accept);
      const one = (row: MetricsRow) => send(res, table ? metricsTable([row]) : row.object);
      const many = (kind: string, rows: MetricsRow[]) =>
        send(
          res,
          table
            ? metricsTable(rows)
            : list(
                kind,
                rows.map((r) => r.object),
              ),
        );
      if (resource === 'nodes') {
        if (name !== undefined) {
          const node = registry.get(nodesDef, undefined, name).object as Node;
          const metrics = nodeMetrics(node);
          if (!metrics) throw notFound({ group: METRICS_GROUP, name }, 'nodemetrics');
          return one(metrics);
        }
        const found = registry.list(nodesDef, undefined, selectors(q)).items.map((i) => i.object as Node);
        return many(
          'NodeMetricsList',
          found.flatMap((n) => nodeMetrics(n) ?? []),
        );
      }
      if (name !== undefined) {
        const pod = registry.get(podsDef, namespace ?? 'default', name).object as Pod;
        const metrics = podMetrics(pod);
        if (!metrics)
          throw notFound({ group: METRICS_GROUP, name: `${namespace ?? 'default'}/${name}` }, 'podmetrics');
        return one(metrics);
      }
      const pods = registry
        .list(podsDef, namespace, selectors(q))
        .items.map((i) => i.object as Pod)
        .sort(
          (a, b) =>
            (a.metadata.namespace ?? '').localeCompare(b.metadata.namespace ?? '') ||
            (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''),
        );
      return many(
        'PodMetricsList',
        pods.flatMap((p) => podMetrics(p) ?? []),
      );
    },
  };
}
