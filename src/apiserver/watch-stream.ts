// One watch over HTTP: history replay or initial state, then live events as JSON lines, with bookmarks.
import type { ServerResponse } from 'node:http';
import type { Logger } from '../../operators/logger.ts';
import { INITIAL_EVENTS_END_ANNOTATION, type KubeObject } from '../../operators/types.ts';
import { ApiStatusError } from './api-status.ts';
import type { ObjectStore, StoredObject, StoreEvent } from './object-store.ts';
import { PROTOBUF_WATCH_CONTENT_TYPE } from './protobuf/content-types.ts';
import { encodeWatchFrame } from './protobuf/watch-frame.ts';
import { apiVersionOf, type ResourceDef, resourceId } from './resource-table.ts';
import type { Selector } from './selectors.ts';
import { type IncludeObject, partialObjectMetadata, toTable } from './table.ts';

/** How each event's object is rendered. */
export type WatchForm = 'json' | 'table' | 'metadata' | 'protobuf';

/** The parameters of one watch. */
export interface WatchRequest {
  def: ResourceDef;
  namespace: string | undefined;
  selector: Selector;
  /** undefined, "" or "0": start with the current state; else the rv to resume after. */
  resourceVersion: string | undefined;
  sendInitialEvents: boolean | undefined;
  allowWatchBookmarks: boolean;
  timeoutSeconds: number | undefined;
  bookmarkIntervalMs: number;
  /** Bytes queued on the socket above which the watcher is closed as too slow. */
  maxBufferedBytes: number;
  form: WatchForm;
  includeObject: IncludeObject;
}

/** A running watch; `close` ends the response. */
export interface ActiveWatch {
  close(): void;
}

/**
 * Serves one watch on `res`. The first events are the current state as synthetic ADDED (rv unset or
 * "0", or `sendInitialEvents=true`, then an initial-events-end BOOKMARK) or the history after the
 * given rv (an ERROR event with a 410 Expired Status when it is too old); then every matching
 * commit. An object moving into the selector arrives as ADDED, out of it as DELETED.
 *
 * Teardown: the subscription, the bookmark timer and the timeout are released when the client
 * goes away, the timeout passes, the watcher falls behind by more than `maxBufferedBytes`, or
 * `close` is called.
 */
export function serveWatch(
  store: ObjectStore,
  req: WatchRequest,
  res: ServerResponse,
  log: Logger,
  onEnd: () => void,
): ActiveWatch {
  const { def, namespace, selector } = req;
  const id = resourceId(def);
  const prefix = def.namespaced && namespace ? `${namespace}/` : '';
  let ended = false;
  let headersSent = false;
  let unsubscribe: (() => void) | undefined;
  let bookmarkTimer: NodeJS.Timeout | undefined;
  let timeoutTimer: NodeJS.Timeout | undefined;
  let lastRv = 0;

  const end = (why: string) => {
    if (ended) return;
    ended = true;
    unsubscribe?.();
    if (bookmarkTimer) clearInterval(bookmarkTimer);
    if (timeoutTimer) clearTimeout(timeoutTimer);
    log.debug({ resource: id, why }, 'watch ended');
    if (why === 'too slow') res.destroy();
    else if (!res.writableEnded) res.end();
    onEnd();
  };

  const matches = (key: string, object: KubeObject) =>
    (prefix === '' || key.startsWith(prefix)) && (selector.empty || selector.matches(object));

  const render = (type: string, object: KubeObject, json: string | undefined): string | Uint8Array => {
    if (req.form === 'protobuf') return encodeWatchFrame(type, object);
    if (req.form === 'json') return `{"type":"${type}","object":${json ?? JSON.stringify(object)}}\n`;
    // A Status (an ERROR event) passes through every form unchanged, as kube-apiserver sends it.
    if (type === 'ERROR') return `${JSON.stringify({ type, object })}\n`;
    if (req.form === 'metadata')
      return `${JSON.stringify({ type, object: partialObjectMetadata(object) })}\n`;
    if (type === 'BOOKMARK') return `${JSON.stringify({ type, object })}\n`;
    const table = toTable(
      def,
      [object],
      { includeObject: req.includeObject, noHeaders: headersSent },
      {
        resourceVersion: object.metadata?.resourceVersion,
      },
    );
    headersSent = true;
    return `${JSON.stringify({ type, object: table })}\n`;
  };

  const write = (line: string | Uint8Array) => {
    if (ended) return;
    res.write(line);
    if (res.writableLength > req.maxBufferedBytes) {
      log.warn({ resource: id, buffered: res.writableLength }, 'closing a watcher that cannot keep up');
      end('too slow');
    }
  };

  const bookmark = (rv: number, initialEnd: boolean) => {
    const object: KubeObject = {
      kind: def.kind,
      apiVersion: apiVersionOf(def),
      metadata: {
        resourceVersion: String(rv),
        ...(initialEnd ? { annotations: { [INITIAL_EVENTS_END_ANNOTATION]: 'true' } } : {}),
      },
    };
    write(render('BOOKMARK', object, undefined));
  };

  const onEvent = (e: StoreEvent) => {
    if (e.resource !== id || e.rv <= lastRv) return;
    lastRv = e.rv;
    const now = matches(e.key, e.object);
    if (e.type === 'ADDED') {
      if (now) write(render('ADDED', e.object, e.json));
      return;
    }
    const before = e.prev !== undefined && matches(e.key, e.prev.object);
    if (e.type === 'DELETED') {
      if (before || now) write(render('DELETED', e.object, e.json));
    } else if (before && now) write(render('MODIFIED', e.object, e.json));
    else if (now) write(render('ADDED', e.object, e.json));
    else if (before) write(render('DELETED', e.object, e.json));
  };

  res.on('close', () => end('client closed'));
  res.writeHead(200, {
    'Content-Type': req.form === 'protobuf' ? PROTOBUF_WATCH_CONTENT_TYPE : 'application/json',
    'Cache-Control': 'no-cache, private',
  });
  res.flushHeaders();

  const rvText = req.resourceVersion ?? '';
  const fromState =
    req.sendInitialEvents === true ||
    (req.sendInitialEvents === undefined && (rvText === '' || rvText === '0'));
  try {
    if (fromState) {
      const current: [string, StoredObject][] = [];
      for (const entry of store.current(id)) if (matches(entry[0], entry[1].object)) current.push(entry);
      current.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      lastRv = Math.max(store.currentRv, /^\d+$/.test(rvText) ? Number(rvText) : 0);
      for (const [, stored] of current) write(render('ADDED', stored.object, stored.json));
      if (req.sendInitialEvents === true) bookmark(lastRv, true);
    } else {
      const from = /^\d+$/.test(rvText) ? Number(rvText) : Number.NaN;
      if (Number.isNaN(from)) {
        throw new ApiStatusError(
          400,
          'BadRequest',
          `resourceVersion: invalid value ${JSON.stringify(rvText)}`,
        );
      }
      const replay = from > store.currentRv ? [] : store.eventsAfter(from);
      lastRv = from;
      for (const e of replay) onEvent(e);
      lastRv = Math.max(lastRv, from);
    }
  } catch (error) {
    if (error instanceof ApiStatusError) {
      write(render('ERROR', error.status, undefined));
      end('error');
      return { close: () => end('closed') };
    }
    throw error;
  }
  if (ended) return { close: () => {} };
  unsubscribe = store.subscribe(onEvent);
  if (req.allowWatchBookmarks && req.bookmarkIntervalMs > 0) {
    bookmarkTimer = setInterval(
      () => bookmark(Math.max(lastRv, store.currentRv), false),
      req.bookmarkIntervalMs,
    );
  }
  if (req.timeoutSeconds !== undefined && req.timeoutSeconds > 0) {
    timeoutTimer = setTimeout(() => end('timeout'), req.timeoutSeconds * 1000);
  }
  return { close: () => end('server closing') };
}
