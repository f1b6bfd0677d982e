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

/** Options of a watch call, with the API server's query parameter names. */
export interface WatchOptions {
  resourceVersion?: string;
  resourceVersionMatch?: 'NotOlderThan' | 'Exact';
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean;
  timeoutSeconds?: number;
  labelSelector?: string;
  fieldSelector?: string;
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
