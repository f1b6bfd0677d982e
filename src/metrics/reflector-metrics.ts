// listWatch's metrics sink with prom-client: restarts and (re)lists by reason, the last resourceVersion and event time per resource.
import { createRequire } from 'node:module';
import type * as PromClient from 'prom-client';
import type { Metric, Registry } from 'prom-client';
import type { ReflectorMetricsSink, ReflectorProgress } from '../../streams/list-watch.ts';

/** The sinks of one registry, one per resource label. */
export interface ReflectorMetrics {
  /** The sink of one resource (e.g. `v1/pods`); pass it as listWatch's or an informer's `metrics`. */
  sink(resource: string): ReflectorMetricsSink;
  /** The registry the families live in. */
  readonly registry: Registry;
}

/** prom-client, loaded by the first call: importing the informers entry does not load it for a process without metrics. */
const loadPromClient = (): typeof PromClient =>
  createRequire(import.meta.url)('prom-client') as typeof PromClient;

/** Per registry, per resource, the readers of its running streams (the latest subscribed is reported). */
const READERS = new WeakMap<Registry, Map<string, (() => ReflectorProgress)[]>>();

function reuse<M extends Metric<string>>(registry: Registry, name: string, create: () => M): M {
  return (registry.getSingleMetric(name) as M | undefined) ?? create();
}

/**
 * Prometheus metrics of listWatch streams, labelled by `resource`:
 * - `kube_rx_reflector_watch_restarts_total{resource,reason}`: watches (the streaming watch-list
 *   included) that ended and list requests that failed, each replaced by a new request, by reason
 *   (`closed`, `connectionBroken`, `expired`, `tooLargeResourceVersion`, `throttled`, `malformed`,
 *   `stalled`, `timeout`, `veryShort`, `error`).
 * - `kube_rx_reflector_lists_total{resource,reason}`: (re)lists begun, paginated or streaming, by reason
 *   (`initial`, or the restart reason that led to it).
 * - `kube_rx_reflector_last_resource_version{resource}`: the last synced resourceVersion, when it is a
 *   number (etcd's are; the value is opaque to clients, so it is only a progress indicator).
 * - `kube_rx_reflector_last_event_timestamp_seconds{resource}`: when the last event or bookmark arrived
 *   (the stream's scheduler time in seconds; Unix time with the default scheduler).
 *
 * The gauges are read from the running streams at scrape time: nothing is recorded per watch event.
 * Calling it twice with one registry shares the families.
 *
 * @example
 * const metrics = reflectorMetrics(registry);
 * listWatch(podsLw, { metrics: metrics.sink('v1/pods') });
 * @param registry where the families are registered; default a new Registry (never the global one)
 * @returns the sinks, one per resource
 */
export function reflectorMetrics(registry?: Registry): ReflectorMetrics {
  const { Counter, Gauge, Registry: RegistryClass } = loadPromClient();
  registry ??= new RegistryClass();
  const registers = [registry];
  const readers = READERS.get(registry) ?? new Map<string, (() => ReflectorProgress)[]>();
  READERS.set(registry, readers);
  const latest = (resource: string): ReflectorProgress | undefined => {
    const list = readers.get(resource);
    return list && list.length > 0 ? list[list.length - 1]!() : undefined;
  };
  const restarts = reuse(
    registry,
    'kube_rx_reflector_watch_restarts_total',
    () =>
      new Counter({
        name: 'kube_rx_reflector_watch_restarts_total',
        help: 'Watches (initial streaming lists included) and list requests that ended or failed and were replaced, by reason.',
        labelNames: ['resource', 'reason'] as const,
        registers,
      }),
  );
  const lists = reuse(
    registry,
    'kube_rx_reflector_lists_total',
    () =>
      new Counter({
        name: 'kube_rx_reflector_lists_total',
        help: 'Lists and streaming watch-lists begun, by reason (initial, or the restart that caused them).',
        labelNames: ['resource', 'reason'] as const,
        registers,
      }),
  );
  reuse(
    registry,
    'kube_rx_reflector_last_resource_version',
    () =>
      new Gauge({
        name: 'kube_rx_reflector_last_resource_version',
        help: 'The last resourceVersion the reflector synced to, when it is numeric.',
        labelNames: ['resource'] as const,
        registers,
        collect() {
          for (const resource of readers.keys()) {
            const text = latest(resource)?.resourceVersion;
            const rv = Number(text);
            if (text && /^\d+$/.test(text) && Number.isFinite(rv)) this.set({ resource }, rv);
          }
        },
      }),
  );
  reuse(
    registry,
    'kube_rx_reflector_last_event_timestamp_seconds',
    () =>
      new Gauge({
        name: 'kube_rx_reflector_last_event_timestamp_seconds',
        help: 'When the reflector last received a watch event or bookmark, in seconds.',
        labelNames: ['resource'] as const,
        registers,
        collect() {
          for (const resource of readers.keys()) {
            const at = latest(resource)?.lastEventAt;
            if (at !== undefined) this.set({ resource }, at / 1000);
          }
        },
      }),
  );
  return {
    registry,
    sink(resource) {
      lists.inc({ resource, reason: 'initial' }, 0);
      return {
        restarted: (restart) => restarts.inc({ resource, reason: restart.reason }),
        listed: (reason) => lists.inc({ resource, reason }),
        track(progress) {
          const own = readers.get(resource) ?? [];
          readers.set(resource, own);
          own.push(progress);
          return () => {
            const i = own.indexOf(progress);
            if (i >= 0) own.splice(i, 1);
          };
        },
      };
    },
  };
}
