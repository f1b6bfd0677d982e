// Ports: the small interfaces through which streams talk to an API server, real or fake.
import type { Observable } from 'rxjs';
import type { KubeObject, ObjectList, WatchEvent } from '../operators/types.ts';

/** Options of a list call, with the API server's query parameter names. */
export interface ListOptions {
  resourceVersion?: string;
  resourceVersionMatch?: 'NotOlderThan' | 'Exact';
  limit?: number;
  continue?: string;
  labelSelector?: string;
  fieldSelector?: string;
  timeoutSeconds?: number;
}

/**
 * Options of a watch call, with the API server's query parameter names, plus one hint to the client that
 * is not sent to the server (`responseHeadHedgeMs`).
 */
export interface WatchOptions {
  resourceVersion?: string;
  resourceVersionMatch?: 'NotOlderThan' | 'Exact';
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean;
  timeoutSeconds?: number;
  labelSelector?: string;
  fieldSelector?: string;
  /**
   * A hint for HTTP clients, never a query parameter: when the watch's response head (status line and
   * headers) has not arrived after this many ms, send the same request once more beside it and keep
   * whichever head comes first, aborting the other. The first request keeps its place (an API server
   * queuing it under priority and fairness still answers it); a request that will never be answered no
   * longer holds the watch up to the inactivity window. Absent or 0: no second request. listWatch sets it
   * from the pace of answered requests; fakes and clients without a response head ignore it.
   */
  responseHeadHedgeMs?: number;
}

/**
 * Lists and watches one resource.
 *
 * Contract:
 * - `list` emits exactly one page and completes, or errors (an `ApiError` for an error Status).
 * - `watch` opens the watch on subscribe and emits its events in order; `ERROR` events are values
 *   (a 410 arrives as `{type:'ERROR', object:{code:410,...}}`), a closed connection completes, a
 *   broken one errors. A line that is not a watch event is an error (`InvalidInputError`).
 * - Unsubscribing from either aborts its request at once.
 */
export interface ListerWatcher<T extends KubeObject = KubeObject> {
  list(options: ListOptions): Observable<ObjectList<T>>;
  watch(options: WatchOptions): Observable<WatchEvent<T>>;
}
