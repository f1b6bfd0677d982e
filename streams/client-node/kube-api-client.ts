// The ApiClient over HTTP: paths, query parameters, request timeouts, retried reads and rate-limited writes.
import {
  asyncScheduler,
  catchError,
  defer,
  forkJoin,
  map,
  Observable,
  of,
  retry,
  type SchedulerLike,
  type Subscription,
  switchMap,
  throwError,
  timeout,
  timer,
} from 'rxjs';
import { exponentialBackoff } from '../../operators/backoff.ts';
import {
  ApiError,
  InvalidConfigError,
  InvalidInputError,
  isTooLargeResourceVersion,
  KubeRxError,
  TimeoutError,
} from '../../operators/errors.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import type { KubeObject, ObjectList, Status, WatchEvent } from '../../operators/types.ts';
import type {
  ApiClient,
  ApiResourceList,
  DeleteCollectionOptions,
  DeleteOptions,
  MetadataOption,
  NamespaceOption,
  PatchOptions,
  PatchType,
  PodBinding,
  ResourceDescriptor,
  ServerResources,
  UpdateOptions,
  WriteOptions,
} from '../api-client.ts';
import type { ListOptions, WatchOptions } from '../ports.ts';
import { apiErrorFromAnswer } from './api-error-from-answer.ts';
import {
  type HttpAnswer,
  type HttpRequestSpec,
  type HttpTransport,
  nodeHttpTransport,
} from './http-transport.ts';
import { type KubeConfigSource, type KubeConnection, loadKubeConnection } from './kube-config.ts';
import { tokenBucket } from './token-bucket.ts';
import { decodeWatchLines } from './watch-decoder.ts';

/** Options of {@link kubeApiClient}; every field is optional. */
export interface KubeApiClientConfig {
  /** Where to find the cluster; default `{ from: 'default' }` ($KUBECONFIG, ~/.kube/config, in-cluster). */
  kubeConfig?: KubeConfigSource;
  /** Use this transport instead of one built from the kubeconfig (tests, custom HTTP stacks). */
  transport?: HttpTransport;
  /** Timeout of every list and get (retries included), write, and watch's response head; default 60 000 ms. */
  requestTimeoutMs?: number;
  /** Writes per second (`--kube-api-qps`); default 5 as client-go's rest.Config. `Infinity` disables. */
  qps?: number;
  /** Write burst (`--kube-api-burst`); default 10 as client-go's rest.Config. */
  burst?: number;
  /** Retries of a read after 429, 5xx or a broken connection; default 5. */
  maxReadRetries?: number;
  /** First retry delay of reads without Retry-After (doubling, jittered, capped at 10 s); default 500 ms. */
  retryInitialMs?: number;
  /** The `User-Agent` header; default `kube-rx`. */
  userAgent?: string;
  scheduler?: SchedulerLike;
  random?: () => number;
  logger?: Logger;
}

/** An ApiClient bound to one cluster. */
export interface KubeApiClient extends ApiClient {
  /** The server URL. */
  readonly server: string;
  /** The kubeconfig context's namespace (the service account's in-cluster), else `default`. */
  readonly namespace: string;
  /** Ends the client: closes idle keep-alive connections and releases the kubeconfig; requests already on the wire are not affected. */
  close(): void;
}

/** One request of a watch waiting for its response head (see `WatchOptions.responseHeadHedgeMs`). */
interface HeadAttempt {
  sub: Subscription | undefined;
}

const CONTENT_TYPES: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  json: 'application/json-patch+json',
  apply: 'application/apply-patch+yaml',
};

/**
 * Accept headers of metadata-only reads, as client-go's metadata client sends them minus protobuf: the
 * PartialObjectMetadata form first, then plain JSON so that a server without it still answers.
 */
export const METADATA_ACCEPT = {
  list: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json',
  object: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json',
} as const;

function acceptHeader(options: MetadataOption, form: keyof typeof METADATA_ACCEPT): Record<string, string> {
  return options.metadataOnly ? { Accept: METADATA_ACCEPT[form] } : {};
}

function resourceName(r: ResourceDescriptor): string {
  return r.group ? `${r.plural}.${r.group}/${r.version}` : `${r.version}/${r.plural}`;
}

function pathOf(r: ResourceDescriptor, namespace: string | undefined, name?: string, sub?: string): string {
  const prefix = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const ns = r.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  const tail = name === undefined ? '' : `/${encodeURIComponent(name)}${sub ? `/${sub}` : ''}`;
  return `${prefix}${ns}/${r.plural}${tail}`;
}

function query(params: Record<string, string | number | boolean | undefined>): string {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') q.set(key, String(value));
  const s = q.toString();
  return s ? `?${s}` : '';
}

function requireName(r: ResourceDescriptor, name: string | undefined, field = 'metadata.name'): string {
  if (typeof name !== 'string' || name === '') {
    throw new InvalidInputError(resourceName(r), field, 'a name is required');
  }
  return name;
}

function requireNamespace(r: ResourceDescriptor, namespace: string | undefined): string | undefined {
  if (r.namespaced && !namespace) {
    throw new InvalidInputError(
      resourceName(r),
      'metadata.namespace',
      'a namespaced resource needs a namespace',
    );
  }
  return r.namespaced ? namespace : undefined;
}

function retryableRead(error: unknown): boolean {
  if (error instanceof ApiError) {
    return (error.statusCode === 429 || error.statusCode >= 500) && !isTooLargeResourceVersion(error);
  }
  return error instanceof KubeRxError && error.code === 'KUBE_RX_CONNECTION';
}

/**
 * An ApiClient that talks HTTP to the cluster of a kubeconfig (or through a given transport).
 *
 * - Watches are plain streamed GETs read line by line: they stay open as long as the server keeps them
 *   (no client-side 30 s abort); a line that is not a watch event errors the watch with InvalidInputError.
 * - Every list, get and write has a request timeout (TimeoutError); a watch's timeout covers its
 *   response head only. A watch given `responseHeadHedgeMs` whose head has not come by then is sent once
 *   more beside the first; the first head wins and the other request is aborted.
 * - Reads (list, get) retry 429, 5xx and broken connections with exponential backoff and jitter, waiting
 *   `Retry-After` when the server sends it, all within one request timeout: a wait that would pass it is
 *   not taken and the last error (with its `Retry-After`) is returned; writes retry only a 429 that
 *   carries `Retry-After`.
 * - Writes pass a token bucket (qps 5, burst 10 by default); the timeout includes the wait, so a write
 *   stuck behind the limiter or on a hung server fails with a TimeoutError naming the write.
 *
 * @example
 * const api = kubeApiClient({ kubeConfig: { from: 'file', path: 'kubeconfig.yaml' } });
 * const pods$ = listWatch(listerWatcher(api, PODS, { namespace: 'default' }));
 * @param config kubeconfig source or transport, timeouts, rate limits, retries, clock, logger
 * @returns the client; `close()` it to drop idle connections
 * @throws InvalidConfigError when an option is out of range or the kubeconfig has no server
 */
export function kubeApiClient(config: KubeApiClientConfig = {}): KubeApiClient {
  const scheduler = config.scheduler ?? asyncScheduler;
  const random = config.random ?? Math.random;
  const requestTimeoutMs = config.requestTimeoutMs ?? 60_000;
  if (!(requestTimeoutMs > 0)) {
    throw new InvalidConfigError('requestTimeoutMs', `must be > 0, got ${requestTimeoutMs}`);
  }
  const maxReadRetries = config.maxReadRetries ?? 5;
  if (!(maxReadRetries >= 0) || !Number.isInteger(maxReadRetries)) {
    throw new InvalidConfigError('maxReadRetries', `must be a whole number >= 0, got ${maxReadRetries}`);
  }
  const retryInitialMs = config.retryInitialMs ?? 500;
  const writes = tokenBucket({ qps: config.qps ?? 5, burst: config.burst ?? 10, scheduler });
  const logger = (config.logger ?? silentLogger).child({ component: 'api-client' });

  let connection: KubeConnection | undefined;
  let transport = config.transport;
  if (!transport) {
    connection = loadKubeConnection(config.kubeConfig ?? { from: 'default' });
    const c = connection;
    logger.info({ server: c.server, ...c.summary }, 'connecting to the API server');
    transport = nodeHttpTransport({
      server: c.server,
      requestOptions: async () => {
        const options = await c.requestOptions();
        return options;
      },
    });
  }
  const http = transport;
  const baseHeaders: Record<string, string> = { 'User-Agent': config.userAgent ?? 'kube-rx' };

  const decode = <T>(answer: HttpAnswer, what: string): T => {
    if (answer.statusCode < 200 || answer.statusCode >= 300) throw apiErrorFromAnswer(answer);
    try {
      return JSON.parse(answer.body) as T;
    } catch {
      throw new InvalidInputError(
        what,
        'body',
        `answer is not JSON: ${JSON.stringify(answer.body.slice(0, 200))}`,
      );
    }
  };

  const withTimeout = <T>(what: string) =>
    timeout<T, Observable<never>>({
      first: requestTimeoutMs,
      with: () => throwError(() => new TimeoutError(what, requestTimeoutMs)),
      scheduler,
    });

  /**
   * A read and its retries share ONE request timeout, as a request context spans its retries in
   * client-go: each attempt may use what is left of it, and a wait (backoff or `Retry-After`) that would
   * end past it is not taken; the error is handed to the caller instead, `Retry-After` and all, so that
   * the caller's own backoff (listWatch's) honours it, rather than a timeout cutting the wait short.
   */
  const read = <T>(what: string, spec: HttpRequestSpec): Observable<T> =>
    defer(() => {
      const deadline = scheduler.now() + requestTimeoutMs;
      const backoff = exponentialBackoff({
        initialMs: retryInitialMs,
        maxMs: 10_000,
        scheduler,
        random,
        resetAfterMs: 0,
      });
      const once$ = defer(() => {
        logger.trace({ method: spec.method, path: spec.path }, 'request');
        return http.request({ ...spec, headers: { ...baseHeaders, ...spec.headers } }).pipe(
          timeout<HttpAnswer, Observable<never>>({
            first: Math.max(0, deadline - scheduler.now()),
            with: () => throwError(() => new TimeoutError(what, requestTimeoutMs)),
            scheduler,
          }),
          map((answer) => decode<T>(answer, what)),
        );
      });
      return once$.pipe(
        retry({
          count: maxReadRetries,
          delay: (error: unknown, attempt) => {
            if (!retryableRead(error)) return throwError(() => error);
            const retryAfter = error instanceof ApiError ? error.retryAfterSeconds : undefined;
            const waitMs = retryAfter !== undefined ? Math.max(0, retryAfter * 1000) : (backoff.next() ?? 0);
            if (scheduler.now() + waitMs >= deadline) {
              logger.info(
                { what, attempt, waitMs, err: (error as Error).message },
                'not retrying a read: the wait would pass its request timeout',
              );
              return throwError(() => error);
            }
            logger.info({ what, attempt, waitMs, err: (error as Error).message }, 'retrying a read');
            return timer(waitMs, scheduler);
          },
        }),
      );
    });

  const write = <T>(what: string, spec: HttpRequestSpec): Observable<T> => {
    const once$ = defer(() =>
      writes.take().pipe(
        switchMap(() => {
          logger.trace({ method: spec.method, path: spec.path }, 'request');
          return http.request({
            ...spec,
            headers: { ...baseHeaders, 'Content-Type': 'application/json', ...spec.headers },
          });
        }),
      ),
    ).pipe(
      withTimeout<HttpAnswer>(what),
      map((answer) => decode<T>(answer, what)),
    );
    return once$.pipe(
      retry({
        count: maxReadRetries,
        delay: (error: unknown) => {
          if (
            error instanceof ApiError &&
            error.statusCode === 429 &&
            error.retryAfterSeconds !== undefined
          ) {
            return timer(Math.max(0, error.retryAfterSeconds * 1000), scheduler);
          }
          return throwError(() => error);
        },
      }),
    );
  };

  const writeOptions = (options: WriteOptions | PatchOptions = {}) => ({
    dryRun: options.dryRun ? 'All' : undefined,
    fieldManager: options.fieldManager,
    force: 'force' in options && options.force !== undefined ? options.force : undefined,
  });

  const watch = <T extends KubeObject>(
    resource: ResourceDescriptor,
    options: WatchOptions & NamespaceOption & MetadataOption = {},
  ): Observable<WatchEvent<T>> => {
    const what = `watch ${resourceName(resource)}`;
    return defer(() => {
      const path =
        pathOf(resource, options.namespace) +
        query({
          watch: 'true',
          resourceVersion: options.resourceVersion,
          resourceVersionMatch: options.resourceVersionMatch,
          allowWatchBookmarks: options.allowWatchBookmarks,
          sendInitialEvents: options.sendInitialEvents,
          timeoutSeconds: options.timeoutSeconds,
          labelSelector: options.labelSelector,
          fieldSelector: options.fieldSelector,
        });
      logger.trace({ method: 'GET', path }, 'watch');
      const spec: HttpRequestSpec = {
        method: 'GET',
        path,
        headers: { ...baseHeaders, ...acceptHeader(options, 'object') },
      };
      const hedgeMs = options.responseHeadHedgeMs;
      const text$ = new Observable<string>((subscriber) => {
        /** The requests still waiting for their head: the first, and the hedge once it is sent. */
        const waiting = new Set<HeadAttempt>();
        let winner: HeadAttempt | undefined;
        let head: { statusCode: number; headers: HttpAnswer['headers'] } | undefined;
        let errorBody = '';
        let hedge: Subscription | undefined;
        const drop = (keep?: HeadAttempt) => {
          for (const attempt of waiting) if (attempt !== keep) attempt.sub?.unsubscribe();
          waiting.clear();
          hedge?.unsubscribe();
        };
        const headTimer = scheduler.schedule(() => {
          drop();
          subscriber.error(new TimeoutError(what, requestTimeoutMs));
        }, requestTimeoutMs);

        const send = (): void => {
          const attempt: HeadAttempt = { sub: undefined };
          waiting.add(attempt);
          const settle = () => {
            waiting.delete(attempt);
            // before any head, an end is passed on only when no other request is still waiting for one
            return winner === attempt || (winner === undefined && waiting.size === 0);
          };
          attempt.sub = http.stream(spec).subscribe({
            next: (part) => {
              if (part.type === 'head') {
                if (winner) return;
                winner = attempt;
                headTimer.unsubscribe();
                drop(attempt);
                head = { statusCode: part.statusCode, headers: part.headers };
              } else if (winner !== attempt || !head) {
                return;
              } else if (head.statusCode >= 200 && head.statusCode < 300) {
                subscriber.next(part.text);
              } else if (errorBody.length < 65_536) {
                errorBody += part.text;
              }
            },
            error: (error) => {
              if (settle()) subscriber.error(error);
            },
            complete: () => {
              if (!settle()) return;
              if (head && (head.statusCode < 200 || head.statusCode >= 300)) {
                subscriber.error(apiErrorFromAnswer({ ...head, body: errorBody }));
              } else subscriber.complete();
            },
          });
        };

        send();
        if (
          hedgeMs !== undefined &&
          hedgeMs > 0 &&
          Number.isFinite(hedgeMs) &&
          !winner &&
          !subscriber.closed
        ) {
          hedge = scheduler.schedule(() => {
            if (winner || waiting.size === 0) return;
            logger.info({ what, hedgeMs }, 'no response head yet; sending the watch again beside it');
            send();
          }, hedgeMs);
        }
        return () => {
          headTimer.unsubscribe();
          drop();
          winner?.sub?.unsubscribe();
        };
      });
      return text$.pipe(decodeWatchLines(resourceName(resource))) as Observable<WatchEvent<T>>;
    });
  };

  const client: KubeApiClient = {
    server: connection?.server ?? '',
    namespace: connection?.namespace ?? 'default',
    close: () => connection?.close(),

    list: <T extends KubeObject>(
      resource: ResourceDescriptor,
      options: ListOptions & NamespaceOption & MetadataOption = {},
    ) =>
      defer(() =>
        read<ObjectList<T>>(`list ${resourceName(resource)}`, {
          method: 'GET',
          headers: acceptHeader(options, 'list'),
          path:
            pathOf(resource, options.namespace) +
            query({
              resourceVersion: options.resourceVersion,
              resourceVersionMatch: options.resourceVersionMatch,
              limit: options.limit,
              continue: options.continue,
              labelSelector: options.labelSelector,
              fieldSelector: options.fieldSelector,
              timeoutSeconds: options.timeoutSeconds,
            }),
        }),
      ),

    watch,

    get: <T extends KubeObject>(
      resource: ResourceDescriptor,
      name: string,
      options: NamespaceOption & MetadataOption = {},
    ) =>
      defer(() => {
        const n = requireName(resource, name, 'name');
        const ns = requireNamespace(resource, options.namespace);
        return read<T>(`get ${resourceName(resource)} ${ns ? `${ns}/` : ''}${n}`, {
          method: 'GET',
          headers: acceptHeader(options, 'object'),
          path: pathOf(resource, ns, n),
        });
      }),

    create: <T extends KubeObject>(resource: ResourceDescriptor, object: T, options: WriteOptions = {}) =>
      defer(() => {
        const ns = requireNamespace(resource, options.namespace || object.metadata?.namespace);
        const label = object.metadata?.name ?? object.metadata?.generateName ?? '';
        return write<T>(`create ${resourceName(resource)} ${ns ? `${ns}/` : ''}${label}`, {
          method: 'POST',
          path: pathOf(resource, ns) + query(writeOptions(options)),
          body: JSON.stringify(object),
        });
      }),

    update: <T extends KubeObject>(resource: ResourceDescriptor, object: T, options: UpdateOptions = {}) =>
      defer(() => {
        const n = requireName(resource, object.metadata?.name);
        const ns = requireNamespace(resource, options.namespace || object.metadata?.namespace);
        const sub = options.subresource ? ` ${options.subresource}` : '';
        return write<T>(`update${sub} ${resourceName(resource)} ${ns ? `${ns}/` : ''}${n}`, {
          method: 'PUT',
          path: pathOf(resource, ns, n, options.subresource) + query(writeOptions(options)),
          body: JSON.stringify(object),
        });
      }),

    updateStatus: <T extends KubeObject>(
      resource: ResourceDescriptor,
      object: T,
      options: WriteOptions = {},
    ) =>
      defer(() => {
        const n = requireName(resource, object.metadata?.name);
        const ns = requireNamespace(resource, options.namespace || object.metadata?.namespace);
        return write<T>(`update status of ${resourceName(resource)} ${ns ? `${ns}/` : ''}${n}`, {
          method: 'PUT',
          path: pathOf(resource, ns, n, 'status') + query(writeOptions(options)),
          body: JSON.stringify(object),
        });
      }),

    patch: <T extends KubeObject>(
      resource: ResourceDescriptor,
      name: string,
      patch: unknown,
      type: PatchType,
      options: PatchOptions = {},
    ) =>
      defer(() => {
        const n = requireName(resource, name, 'name');
        const ns = requireNamespace(resource, options.namespace);
        const contentType = CONTENT_TYPES[type];
        if (!contentType)
          throw new InvalidInputError(
            `patch ${resourceName(resource)}`,
            'type',
            `unknown patch type ${String(type)}`,
          );
        return write<T>(`patch ${resourceName(resource)} ${ns ? `${ns}/` : ''}${n}`, {
          method: 'PATCH',
          path: pathOf(resource, ns, n, options.subresource) + query(writeOptions(options)),
          headers: { 'Content-Type': contentType },
          body: typeof patch === 'string' ? patch : JSON.stringify(patch),
        });
      }),

    delete: (resource: ResourceDescriptor, name: string, options: DeleteOptions = {}) =>
      defer(() => {
        const n = requireName(resource, name, 'name');
        const ns = requireNamespace(resource, options.namespace);
        const body: Record<string, unknown> = { apiVersion: 'v1', kind: 'DeleteOptions' };
        if (options.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = options.gracePeriodSeconds;
        if (options.propagationPolicy) body.propagationPolicy = options.propagationPolicy;
        if (options.preconditions) body.preconditions = options.preconditions;
        if (options.dryRun) body.dryRun = ['All'];
        return write<KubeObject | Status>(`delete ${resourceName(resource)} ${ns ? `${ns}/` : ''}${n}`, {
          method: 'DELETE',
          path: pathOf(resource, ns, n),
          body: JSON.stringify(body),
        });
      }),

    deleteCollection: (resource: ResourceDescriptor, options: DeleteCollectionOptions = {}) =>
      defer(() => {
        const ns = requireNamespace(resource, options.namespace);
        const body: Record<string, unknown> = { apiVersion: 'v1', kind: 'DeleteOptions' };
        if (options.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = options.gracePeriodSeconds;
        if (options.propagationPolicy) body.propagationPolicy = options.propagationPolicy;
        if (options.dryRun) body.dryRun = ['All'];
        return write<KubeObject | Status>(
          `delete collection ${resourceName(resource)}${ns ? ` in ${ns}` : ''}`,
          {
            method: 'DELETE',
            path:
              pathOf(resource, ns) +
              query({ labelSelector: options.labelSelector, fieldSelector: options.fieldSelector }),
            body: JSON.stringify(body),
          },
        );
      }),

    serverPreferredResources: () =>
      defer(() => {
        const get = <T>(path: string) => read<T>(`discovery ${path}`, { method: 'GET', path });
        const core$ = get<{ versions?: string[] }>('/api').pipe(map((a) => a.versions?.[0] ?? 'v1'));
        const groups$ = get<{ groups?: { preferredVersion?: { groupVersion?: string } }[] }>('/apis').pipe(
          map((a) => (a.groups ?? []).flatMap((g) => g.preferredVersion?.groupVersion ?? [])),
        );
        return forkJoin([core$, groups$]).pipe(
          switchMap(([core, groupVersions]) =>
            forkJoin(
              [core, ...groupVersions].map((gv) =>
                get<{ resources?: ApiResourceList['resources'] }>(
                  gv.includes('/') ? `/apis/${gv}` : `/api/${gv}`,
                ).pipe(
                  map((l) => ({
                    list: { groupVersion: gv, resources: l.resources ?? [] } as ApiResourceList,
                  })),
                  catchError((error: unknown) =>
                    of({
                      failed: {
                        groupVersion: gv,
                        message: error instanceof Error ? error.message : String(error),
                      },
                    }),
                  ),
                ),
              ),
            ),
          ),
          map(
            (answers): ServerResources => ({
              lists: answers.flatMap((a) => ('list' in a ? [a.list] : [])),
              failed: answers.flatMap((a) => ('failed' in a ? [a.failed] : [])),
            }),
          ),
        );
      }),

    bind: (binding: PodBinding, options: WriteOptions = {}) =>
      defer(() => {
        const pods: ResourceDescriptor = {
          group: '',
          version: 'v1',
          plural: 'pods',
          kind: 'Pod',
          namespaced: true,
        };
        const n = requireName(pods, binding.name, 'name');
        const ns = requireNamespace(pods, binding.namespace);
        if (!binding.nodeName)
          throw new InvalidInputError('pods/binding', 'target.name', 'a node name is required');
        const metadata: Record<string, string> = { name: n, namespace: ns! };
        if (binding.uid) metadata.uid = binding.uid;
        return write<Status>(`bind pod ${ns}/${n} to ${binding.nodeName}`, {
          method: 'POST',
          path: pathOf(pods, ns, n, 'binding') + query(writeOptions(options)),
          body: JSON.stringify({
            apiVersion: 'v1',
            kind: 'Binding',
            metadata,
            target: { apiVersion: 'v1', kind: 'Node', name: binding.nodeName },
          }),
        });
      }),
  };
  return client;
}
