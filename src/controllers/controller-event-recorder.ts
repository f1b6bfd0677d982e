// controllerEventRecorder: writes a controller's core/v1 Events about an object (Completed, SuccessfulCreate, TaintManagerEviction, ...) through client-go's correlator (aggregation, dedup, spam filter), on the controller manager's own Events client.
import { randomBytes } from 'node:crypto';
import { firstValueFrom } from 'rxjs';
import { ApiError } from '../../operators/errors.ts';
import type { Logger } from '../../operators/logger.ts';
import type { KubeObject } from '../../operators/types.ts';
import type { ApiClient, ResourceDescriptor } from '../../streams/api-client.ts';
import { EVENTS } from '../../streams/resources.ts';

/** Records one Event about an object; never throws (a failed write is logged). */
export type RecordObjectEvent = (
  object: KubeObject,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
) => void;

/** client-go's correlator defaults (tools/record/events_cache.go). */
const SPAM_BURST = 25;
const SPAM_QPS = 1 / 300;
const AGGREGATE_MAX_EVENTS = 10;
const AGGREGATE_INTERVAL_MS = 600_000;
const CACHE_SIZE = 4096;

interface Bucket {
  tokens: number;
  last: number;
}
interface Aggregate {
  messages: Set<string>;
  lastSeen: number;
}
interface Observed {
  name: string;
  namespace: string;
  count: number;
  firstTimestamp: string;
}

/** A Map that forgets its oldest entry beyond `CACHE_SIZE` (client-go keeps LRU caches of 4096). */
function remember<K, V>(map: Map<K, V>, key: K, value: V): V {
  map.delete(key);
  map.set(key, value);
  if (map.size > CACHE_SIZE) map.delete(map.keys().next().value as K);
  return value;
}

const stampOf = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/**
 * An Event writer with `component` as source (e.g. upstream's `job-controller`), about the given object
 * (kind and apiVersion taken from it), correlated as client-go's recorder does before anything is sent:
 *
 * - aggregation: once 10 Events with the same source, object, type and reason but different messages arrive
 *   within 10 minutes, the next ones become one Event "(combined from similar events): <message>";
 * - dedup: an Event equal to one already written (same key, message included) patches that Event's `count`
 *   and `lastTimestamp` instead of creating another;
 * - spam filter: per source, object and type a token bucket of 25, refilled one per 5 minutes; an Event
 *   without a token is dropped (logged only).
 *
 * So a Job creating 1,000 pods writes a few dozen Events, not 1,000, and the controller's API budget goes
 * to its work. The writes go to the client's Events client when it has one ({@link withEventsClient}).
 *
 * @param client where Events are written (its Events client, if {@link withEventsClient} gave it one)
 * @param component the reporting component
 * @param logger where each event (and a dropped or failed write) is logged
 * @param now wall clock in ms
 */
export function controllerEventRecorder(
  client: ApiClient,
  component: string,
  logger: Logger,
  now: () => number,
): RecordObjectEvent {
  const sink = EVENTS_CLIENTS.get(client) ?? client;
  const spam = new Map<string, Bucket>();
  const aggregates = new Map<string, Aggregate>();
  const observed = new Map<string, Observed>();

  const allowed = (key: string, at: number): boolean => {
    const bucket = spam.get(key) ?? { tokens: SPAM_BURST, last: at };
    bucket.tokens = Math.min(SPAM_BURST, bucket.tokens + ((at - bucket.last) / 1000) * SPAM_QPS);
    bucket.last = at;
    remember(spam, key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  };

  const write = async (event: KubeObject, seen: Observed | undefined, namespace: string) => {
    if (seen) {
      try {
        await firstValueFrom(
          sink.patch(
            EVENTS,
            seen.name,
            { count: seen.count, lastTimestamp: event.lastTimestamp, message: event.message },
            'merge',
            { namespace },
          ),
        );
        return;
      } catch (error) {
        if (!(error instanceof ApiError && error.statusCode === 404)) throw error;
        // the Event is gone (expired): write it anew, as client-go does
      }
    }
    await firstValueFrom(sink.create(EVENTS, event, { namespace }));
  };

  return (object, type, reason, message) => {
    const namespace = object.metadata?.namespace ?? 'default';
    const name = object.metadata?.name ?? 'object';
    logger.info({ object: `${namespace}/${name}`, type, reason }, message);
    const at = now();
    const stamp = stampOf(at);
    const involved = {
      apiVersion: object.apiVersion ?? 'batch/v1',
      kind: object.kind ?? 'Job',
      namespace,
      name,
      uid: object.metadata?.uid,
    };
    const objectKey = [component, involved.kind, namespace, name, involved.uid ?? '', involved.apiVersion];

    // aggregation: many messages of one reason about one object become one combined Event
    const aggregateKey = [...objectKey, type, reason].join('\u0000');
    let aggregate = aggregates.get(aggregateKey);
    if (!aggregate || at - aggregate.lastSeen > AGGREGATE_INTERVAL_MS)
      aggregate = { messages: new Set(), lastSeen: at };
    aggregate.lastSeen = at;
    remember(aggregates, aggregateKey, aggregate);
    let text = message;
    let key = `${aggregateKey}\u0000${message}`;
    if (aggregate.messages.size < AGGREGATE_MAX_EVENTS || aggregate.messages.has(message)) {
      aggregate.messages.add(message);
    } else {
      text = `(combined from similar events): ${message}`;
      key = aggregateKey;
    }

    // dedup: the same Event again is a count on the one written
    const previous = observed.get(key);
    const seen: Observed = previous
      ? { ...previous, count: previous.count + 1 }
      : { name: `${name}.${randomBytes(8).toString('hex')}`, namespace, count: 1, firstTimestamp: stamp };
    remember(observed, key, seen);

    // spam filter: per source, object and type
    if (!allowed([...objectKey, type].join('\u0000'), at)) {
      logger.debug({ object: `${namespace}/${name}`, reason }, 'event dropped by the spam filter');
      return;
    }
    const event: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: seen.name, namespace },
      involvedObject: involved,
      reason,
      message: text,
      type,
      count: seen.count,
      firstTimestamp: seen.firstTimestamp,
      lastTimestamp: stamp,
      source: { component },
      reportingComponent: component,
    };
    write(event, previous ? seen : undefined, namespace).catch((error: unknown) =>
      logger.debug({ err: String(error), reason }, 'could not write event'),
    );
  };
}

/** The Events client given to a client by {@link withEventsClient}. */
const EVENTS_CLIENTS = new WeakMap<ApiClient, ApiClient>();

/**
 * The controllers' client with a separate client for Events, as kube-controller-manager's event broadcaster
 * has: a recorder made on the returned client ({@link controllerEventRecorder}) writes through `events`, so
 * Events spend their own rate limit, not the controllers' `--kube-api-qps`. Every other call goes to
 * `client` unchanged, and so does an Event written directly with the returned client.
 *
 * @param client the controllers' client
 * @param events the Events client (its own QPS and burst)
 * @returns a client that behaves as `client`
 */
export function withEventsClient(client: ApiClient, events: ApiClient): ApiClient {
  const routed: ApiClient = {
    list: (r, o) => client.list(r, o),
    watch: (r, o) => client.watch(r, o),
    get: (r, n, o) => client.get(r, n, o),
    create: (r, o, w) => client.create(r, o, w),
    update: (r, o, w) => client.update(r, o, w),
    updateStatus: (r, o, w) => client.updateStatus(r, o, w),
    patch: (r: ResourceDescriptor, n, p, t, o) => client.patch(r, n, p, t, o),
    delete: (r, n, o) => client.delete(r, n, o),
    bind: (b, o) => client.bind(b, o),
    // the optional calls too: the namespace controller and the garbage collector need discovery
    ...(client.deleteCollection && {
      deleteCollection: (r: ResourceDescriptor, o) => client.deleteCollection!(r, o),
    }),
    ...(client.serverPreferredResources && {
      serverPreferredResources: () => client.serverPreferredResources!(),
    }),
  };
  EVENTS_CLIENTS.set(routed, events);
  return routed;
}
