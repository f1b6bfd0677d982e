// The Reflector as a deterministic state machine: inputs (list pages, watch events, ends, timers) in, requests and events out.
import {
  ApiError,
  InvalidInputError,
  isExpired,
  isTooLargeResourceVersion,
  KubeRxError,
} from '../operators/errors.ts';
import { objectKey } from '../operators/object-key.ts';
import {
  INITIAL_EVENTS_END_ANNOTATION,
  type KubeObject,
  type ObjectList,
  type ReflectorEvent,
  type ReflectorHealth,
  type ReflectorListReason,
  type ReflectorRestartReason,
  type Status,
  type WatchEvent,
} from '../operators/types.ts';
import type { ListOptions, WatchOptions } from './ports.ts';

/** client-go's default page size for the initial list. */
export const DEFAULT_PAGE_SIZE = 500;

/** What the machine needs to know that never changes during a run. */
export interface ReflectorSettings {
  /** Try the streaming watch-list (sendInitialEvents) before a paginated list. */
  watchList: boolean;
  /** Explicit page size; `undefined` applies client-go's rules (500, or no limit for a relist from a known rv). */
  pageSize: number | undefined;
  labelSelector: string | undefined;
  fieldSelector: string | undefined;
  /**
   * The kind (and apiVersion) this reflector is for. A watch event whose object says another kind is
   * dropped and logged, as client-go's expectedType/expectedGVK; objects that carry no kind are kept.
   */
  expectedKind?: { kind: string; apiVersion?: string } | undefined;
}

/** Where the machine is; `backoff.then` says what happens when the wait is over. */
export type ReflectorPhase =
  | { name: 'idle' }
  | { name: 'list'; pager: PagerState }
  | { name: 'watchList'; items: Map<string, KubeObject>; eventCount: number }
  | { name: 'watch'; propagateRV: boolean; pastInitialAdds: boolean }
  /** `reason`: why the wait began, the reason of the (re)list that follows it. */
  | { name: 'backoff'; then: 'cycle' | 'watch' | 'watchList'; reason: ReflectorRestartReason };

/** State of one paginated list (client-go's pager plus the reflector's relist-from-"" retry). */
export interface PagerState {
  /** The resourceVersion the list was asked at; a continuation that expires is re-listed whole at it. */
  requestedRV: string;
  /** 0 means no limit. */
  pageSize: number;
  items: KubeObject[];
  listRV: string | undefined;
  continueToken: string | undefined;
  paginated: boolean;
  /** True once an Expired/TooLarge list was retried from "" in this cycle. */
  retriedFromScratch: boolean;
}

/**
 * The reflector's memory across cycles. Invariant: `lastSyncRV` only moves to the resourceVersion of a
 * completed list, a bookmark, or a watch event that was emitted; `synced` never goes back to false.
 */
export interface ReflectorState {
  readonly settings: ReflectorSettings;
  phase: ReflectorPhase;
  lastSyncRV: string;
  /** The last list/watch at `lastSyncRV` said Expired or TooLarge: the next (re)list reads from "". */
  rvUnavailable: boolean;
  /** A list at rv "0" came back in several pages: keep paginating relists (sticky). */
  paginatedResult: boolean;
  synced: boolean;
  /**
   * A watch delivered a well-formed event or bookmark since the last failure; the next failure is then
   * not consecutive with it (see {@link ReflectorTransition.resetBackoff}).
   */
  progressed: boolean;
}

/** What the shell feeds in. `ms` durations and `veryShort` are measured by the shell on its clock. */
export type ReflectorInput =
  | { type: 'start' }
  | { type: 'listPage'; page: ObjectList }
  | { type: 'listFailed'; error: unknown }
  | { type: 'watchEvent'; event: WatchEvent }
  /**
   * The watch ended: cleanly (`error` undefined) or with an error. `veryShort`: it lasted under 1 s and
   * delivered no event (measured whatever the ending, so a connection that breaks at once is caught too).
   */
  | { type: 'watchEnded'; error?: unknown; veryShort: boolean }
  /** The watch delivered nothing for the inactivity window. */
  | { type: 'inactive'; ms: number }
  | { type: 'backoffDone' };

/** What the shell must do next. Any command other than `continue` first abandons the in-flight request. */
export type ReflectorCommand =
  | { type: 'continue' }
  | { type: 'list'; options: ListOptions }
  | { type: 'watch'; options: WatchOptions }
  | { type: 'backoff'; error: unknown };

/** A log line the shell writes with its logger (the machine does no I/O). */
export interface ReflectorLog {
  level: 'debug' | 'info' | 'warn' | 'error';
  msg: string;
  fields?: Record<string, unknown>;
}

/**
 * One step's outcome.
 *
 * `resetBackoff`: this failure follows progress (a watch delivered a good event or bookmark since the
 * previous failure), so it is not consecutive with that one and the shell resets its backoff policy
 * before anything else. Consecutive failures keep client-go's growing waits (0.8, 1.6, 3.2 s, ...); a
 * failure after progress costs the first step again, or nothing when it resumes at once. client-go only
 * starts over after two minutes without a backoff, so a long-lived watch that meets a garbled line or an
 * error every few seconds waits longer and longer although every attempt got through; kube-rs's watcher
 * resets its backoff on each successful event for the same reason. Progress counts on watches only: a
 * list that succeeds, followed by a watch that fails at once, is still a run of consecutive failures, so
 * a server whose watches fail is not relisted every second.
 */
export interface ReflectorTransition {
  command: ReflectorCommand;
  emit?: ReflectorEvent;
  log?: ReflectorLog;
  resetBackoff?: boolean;
  /**
   * The watch (or streaming watch-list) in flight ended, or the list request failed, and is being
   * replaced (at once or after a backoff): why, and during what. Every end of a watch is one, the clean
   * close by the server included, so health and metrics count them all.
   */
  restart?: ReflectorRestart;
  /** This transition begins a (re)list, a paginated list or a streaming watch-list: why. */
  list?: ReflectorListReason;
}

/** What ended and why (see {@link ReflectorTransition.restart}). */
export interface ReflectorRestart {
  reason: ReflectorRestartReason;
  during: 'watch' | 'watchList' | 'list';
}

/**
 * The restart reason an error stands for: `closed` for no error, then broken connection, malformed
 * data, 410, too large resource version, throttling, a timed-out request, a very short watch, else `error`.
 */
export function restartReasonOf(error: unknown): ReflectorRestartReason {
  if (error === undefined) return 'closed';
  if (error instanceof InvalidInputError) return 'malformed';
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'KUBE_RX_TIMEOUT') return 'timeout';
  if (code === 'KUBE_RX_INACTIVE') return 'stalled';
  if (code === 'KUBE_RX_VERY_SHORT_WATCH') return 'veryShort';
  if (isConnectionBroken(error)) return 'connectionBroken';
  if (isExpired(error)) return 'expired';
  if (isTooLargeResourceVersion(error)) return 'tooLargeResourceVersion';
  if (isWatchRetriable(error)) return 'throttled';
  return 'error';
}

const CONTINUE_COMMAND: ReflectorCommand = { type: 'continue' };
const CONTINUE: ReflectorTransition = { command: CONTINUE_COMMAND };

/** A fresh machine, before its first cycle. */
export function initialReflectorState(settings: ReflectorSettings): ReflectorState {
  return {
    settings,
    phase: { name: 'idle' },
    lastSyncRV: '',
    rvUnavailable: false,
    paginatedResult: false,
    synced: false,
    progressed: false,
  };
}

/**
 * What a reflector remembers across runs (client-go keeps it in the Reflector object): the last synced
 * resourceVersion, whether it is known to be unavailable, and whether a list at "0" came back paginated.
 * Pass one to several `listWatch` subscriptions in turn (`listWatch(lw, { memory })`) and each resumes where
 * the previous stopped: the first list reads at the last synced resourceVersion instead of "0", falling back
 * to "" on 410 Gone or "too large resource version", as client-go's relist rules say.
 */
export interface ReflectorMemory {
  lastSyncRV: string;
  rvUnavailable: boolean;
  paginatedResult: boolean;
}

/** An empty memory: the first run lists at "0" as a fresh reflector does. */
export function reflectorMemory(): ReflectorMemory {
  return { lastSyncRV: '', rvUnavailable: false, paginatedResult: false };
}

/** A fresh state for one run, starting from what `memory` remembers. */
export function resumeReflectorState(settings: ReflectorSettings, memory: ReflectorMemory): ReflectorState {
  return { ...initialReflectorState(settings), ...memory };
}

/** Copies what a run learnt back into `memory`. */
export function rememberReflectorState(state: ReflectorState, memory: ReflectorMemory): void {
  memory.lastSyncRV = state.lastSyncRV;
  memory.rvUnavailable = state.rvUnavailable;
  memory.paginatedResult = state.paginatedResult;
}

/** client-go's relistResourceVersion: "" after Expired/TooLarge, "0" before the first sync, else the last rv. */
export function relistResourceVersion(state: ReflectorState): string {
  if (state.rvUnavailable) return '';
  if (state.lastSyncRV === '') return '0';
  return state.lastSyncRV;
}

/** client-go's rewatchResourceVersion, for the watch-list: "" after Expired/TooLarge, else the last rv. */
export function rewatchResourceVersion(state: ReflectorState): string {
  return state.rvUnavailable ? '' : state.lastSyncRV;
}

/** client-go's page size rules for a list at `rv`. */
export function listPageSize(state: ReflectorState, rv: string): number {
  if (state.settings.pageSize !== undefined) return state.settings.pageSize;
  if (state.paginatedResult) return DEFAULT_PAGE_SIZE;
  if (rv !== '' && rv !== '0') return 0;
  return DEFAULT_PAGE_SIZE;
}

/** The health state a phase reports. */
export function healthStateOf(phase: ReflectorPhase): ReflectorHealth['state'] {
  switch (phase.name) {
    case 'idle':
      return 'starting';
    case 'list':
    case 'watchList':
      return 'listing';
    case 'watch':
      return 'watching';
    case 'backoff':
      return 'backingOff';
  }
}

function selectors(s: ReflectorSettings): { labelSelector?: string; fieldSelector?: string } {
  const out: { labelSelector?: string; fieldSelector?: string } = {};
  if (s.labelSelector) out.labelSelector = s.labelSelector;
  if (s.fieldSelector) out.fieldSelector = s.fieldSelector;
  return out;
}

function statusCode(error: unknown): number | undefined {
  if (error instanceof ApiError) return error.statusCode;
  return undefined;
}

/** 429, or a refused connection: the server is busy or away, so re-watch after a backoff instead of relisting. */
export function isWatchRetriable(error: unknown): boolean {
  if (statusCode(error) === 429) return true;
  const code = (error as { code?: unknown } | null)?.code;
  const causeCode = (
    (error as { cause?: { code?: unknown } } | null)?.cause as { code?: unknown } | undefined
  )?.code;
  return code === 'ECONNREFUSED' || causeCode === 'ECONNREFUSED';
}

const BROKEN_CONNECTION_CODES = new Set([
  'KUBE_RX_CONNECTION',
  'KUBE_RX_TIMEOUT',
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'ETIMEDOUT',
  'ERR_STREAM_PREMATURE_CLOSE',
  'UND_ERR_SOCKET',
]);

/**
 * The connection under a watch broke or timed out (reset, cut mid-body, premature end), as opposed to an
 * answer of the server. client-go's stream watcher treats an unexpected EOF, a probable EOF (reset, broken
 * pipe, closed connection) and a timeout as the normal end of the watch, and the reflector then re-watches
 * at once from the last resourceVersion; this predicate lets the machine do the same. A refused connection
 * is not included: it says the server is away, see {@link isWatchRetriable}.
 */
export function isConnectionBroken(error: unknown): boolean {
  if (isWatchRetriable(error)) return false;
  const code = (error as { code?: unknown } | null)?.code;
  const causeCode = (
    (error as { cause?: { code?: unknown } } | null)?.cause as { code?: unknown } | undefined
  )?.code;
  return (
    (typeof code === 'string' && BROKEN_CONNECTION_CODES.has(code)) ||
    (typeof causeCode === 'string' && BROKEN_CONNECTION_CODES.has(causeCode))
  );
}

/** Turns a watch ERROR event's object into an error: an ApiError for a Status, a KubeRxError otherwise. */
export function errorFromWatchEvent(object: unknown): Error {
  const status = object as Status | undefined;
  if (status && typeof status === 'object' && (status.kind === 'Status' || typeof status.code === 'number')) {
    return new ApiError(status.code ?? 500, status);
  }
  return new KubeRxError(
    'KUBE_RX_WATCH_ERROR',
    `watch ERROR event with a non-Status object: ${preview(object)}`,
  );
}

/** A short printable preview of a value for logs. */
export function preview(value: unknown, max = 200): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text;
}

/** Why an event cannot be applied, or undefined when it is well formed. */
export function malformedReason(event: unknown): string | undefined {
  if (!event || typeof event !== 'object') return 'not a watch event object';
  const { type, object } = event as { type?: unknown; object?: unknown };
  if (
    type !== 'ADDED' &&
    type !== 'MODIFIED' &&
    type !== 'DELETED' &&
    type !== 'BOOKMARK' &&
    type !== 'ERROR'
  ) {
    return `unknown watch event type ${preview(type, 40)}`;
  }
  if (type === 'ERROR') return undefined;
  if (!object || typeof object !== 'object') return 'event has no object';
  const meta = (object as KubeObject).metadata;
  if (!meta || typeof meta !== 'object') return 'object has no metadata';
  if (meta.resourceVersion !== undefined && typeof meta.resourceVersion !== 'string') {
    return 'metadata.resourceVersion is not a string';
  }
  // A bookmark exists to carry a resourceVersion; an object event without one is applied (fakes and some
  // aggregated APIs send them, and client-go applies them) and leaves the last resourceVersion as it was.
  if (type === 'BOOKMARK') {
    return meta.resourceVersion ? undefined : 'bookmark has no metadata.resourceVersion';
  }
  if (typeof meta.name !== 'string' || meta.name === '') return 'object has no metadata.name';
  return undefined;
}

/** A log line when the event's object is of another kind than the reflector expects, else undefined. */
function unexpectedKind(settings: ReflectorSettings, obj: KubeObject): ReflectorLog | undefined {
  const expected = settings.expectedKind;
  if (!expected || obj.kind === undefined) return undefined;
  const kindDiffers = obj.kind !== expected.kind;
  const versionDiffers =
    expected.apiVersion !== undefined &&
    obj.apiVersion !== undefined &&
    obj.apiVersion !== expected.apiVersion;
  if (!kindDiffers && !versionDiffers) return undefined;
  let key: string | undefined;
  try {
    key = objectKey(obj);
  } catch {
    key = undefined;
  }
  return {
    level: 'error',
    msg: 'unexpected watch event object kind; dropping it',
    fields: {
      expectedKind: expected.kind,
      expectedApiVersion: expected.apiVersion,
      actualKind: obj.kind,
      actualApiVersion: obj.apiVersion,
      key,
    },
  };
}

function beginCycle(state: ReflectorState, reason: ReflectorListReason): ReflectorTransition {
  const t = state.settings.watchList ? beginWatchList(state) : beginList(state);
  t.list = reason;
  return t;
}

function beginList(state: ReflectorState, fields?: ReflectorLog): ReflectorTransition {
  const rv = relistResourceVersion(state);
  return startPager(state, rv, listPageSize(state, rv), false, fields);
}

/** Marks `t` as the replacement of what ended `during` for `reason`; a new cycle is a relist for it too. */
function restarted(
  t: ReflectorTransition,
  reason: ReflectorRestartReason,
  during: ReflectorRestart['during'],
): ReflectorTransition {
  t.restart = { reason, during };
  if (t.command.type === 'list' && t.command.options.continue === undefined) t.list = reason;
  else if (t.command.type === 'watch' && t.command.options.sendInitialEvents) t.list = reason;
  return t;
}

function startPager(
  state: ReflectorState,
  rv: string,
  pageSize: number,
  retriedFromScratch: boolean,
  log?: ReflectorLog,
): ReflectorTransition {
  state.phase = {
    name: 'list',
    pager: {
      requestedRV: rv,
      pageSize,
      items: [],
      listRV: undefined,
      continueToken: undefined,
      paginated: false,
      retriedFromScratch,
    },
  };
  const options: ListOptions = { resourceVersion: rv, ...selectors(state.settings) };
  if (pageSize > 0) options.limit = pageSize;
  const t: ReflectorTransition = { command: { type: 'list', options } };
  if (log) t.log = log;
  return t;
}

function beginWatchList(state: ReflectorState): ReflectorTransition {
  state.phase = { name: 'watchList', items: new Map(), eventCount: 0 };
  return {
    command: {
      type: 'watch',
      options: {
        resourceVersion: rewatchResourceVersion(state),
        resourceVersionMatch: 'NotOlderThan',
        sendInitialEvents: true,
        allowWatchBookmarks: true,
        ...selectors(state.settings),
      },
    },
  };
}

function beginWatch(state: ReflectorState, log?: ReflectorLog): ReflectorTransition {
  const rv = state.lastSyncRV;
  state.phase = { name: 'watch', propagateRV: rv !== '' && rv !== '0', pastInitialAdds: false };
  const t: ReflectorTransition = {
    command: {
      type: 'watch',
      options: { resourceVersion: rv, allowWatchBookmarks: true, ...selectors(state.settings) },
    },
  };
  if (log) t.log = log;
  return t;
}

function backoff(
  state: ReflectorState,
  then: 'cycle' | 'watch' | 'watchList',
  error: unknown,
  log?: ReflectorLog,
): ReflectorTransition {
  const during = phaseDuring(state.phase);
  const reason = restartReasonOf(error);
  state.phase = { name: 'backoff', then, reason };
  const t: ReflectorTransition = { command: { type: 'backoff', error } };
  if (log) t.log = log;
  if (during) t.restart = { reason, during };
  return failure(state, t);
}

function phaseDuring(phase: ReflectorPhase): ReflectorRestart['during'] | undefined {
  if (phase.name === 'watch' || phase.name === 'watchList' || phase.name === 'list') return phase.name;
  return undefined;
}

/** Marks `t` as a failure: it resets the backoff when progress came before it, and progress starts over. */
function failure(state: ReflectorState, t: ReflectorTransition): ReflectorTransition {
  if (state.progressed) t.resetBackoff = true;
  state.progressed = false;
  return t;
}

/**
 * Garbled data on a watch: resume from the last good resourceVersion, at once when the watch made progress
 * since the last failure (each immediate resume then needs a new good event, so a server that sends the
 * same garbage again cannot make it spin), else after a backoff.
 */
function resumeAfterGarbage(state: ReflectorState, error: unknown, log: ReflectorLog): ReflectorTransition {
  if (!state.progressed) return backoff(state, 'watch', error, log);
  return restarted(failure(state, beginWatch(state, log)), 'malformed', 'watch');
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function onListPage(state: ReflectorState, pager: PagerState, page: ObjectList): ReflectorTransition {
  if (!page || typeof page !== 'object' || !Array.isArray(page.items)) {
    return onListFailed(
      state,
      pager,
      new InvalidInputError('list response', 'items', `not a list: ${preview(page)}`),
    );
  }
  if (pager.listRV === undefined) pager.listRV = page.metadata?.resourceVersion ?? '';
  for (const item of page.items) pager.items.push(item);
  const token = page.metadata?.continue;
  if (token) {
    pager.continueToken = token;
    pager.paginated = true;
    const options: ListOptions = { continue: token, ...selectors(state.settings) };
    if (pager.pageSize > 0) options.limit = pager.pageSize;
    return { command: { type: 'list', options } };
  }
  // The list is complete: it replaces everything the consumer knew.
  if (pager.requestedRV === '0' && pager.paginated) state.paginatedResult = true;
  state.rvUnavailable = false;
  state.lastSyncRV = pager.listRV;
  state.synced = true;
  const items = pager.items;
  const t = beginWatch(state);
  t.emit = { type: 'Replace', items, resourceVersion: pager.listRV };
  return t;
}

function onListFailed(state: ReflectorState, pager: PagerState, error: unknown): ReflectorTransition {
  // A continuation page whose snapshot expired: list everything in one request at the original rv.
  if (pager.continueToken !== undefined && isExpired(error)) {
    pager.continueToken = undefined;
    pager.items = [];
    pager.listRV = undefined;
    const options: ListOptions = { resourceVersion: pager.requestedRV, ...selectors(state.settings) };
    return restarted(
      {
        command: { type: 'list', options },
        log: {
          level: 'info',
          msg: 'continue token expired; listing again without pages',
          fields: { rv: pager.requestedRV },
        },
      },
      'expired',
      'list',
    );
  }
  // The rv itself is gone or ahead of the server: read from "" (a consistent read) at once.
  if ((isExpired(error) || isTooLargeResourceVersion(error)) && !pager.retriedFromScratch) {
    state.rvUnavailable = true;
    const t = startPager(state, relistResourceVersion(state), pager.pageSize, true, {
      level: 'info',
      msg: 'list resourceVersion unavailable; listing from the latest state',
      fields: { rv: pager.requestedRV, error: errorText(error) },
    });
    return restarted(t, restartReasonOf(error), 'list');
  }
  return backoff(state, 'cycle', error, {
    level: 'warn',
    msg: 'list failed',
    fields: { error: errorText(error) },
  });
}

/** Status cause ResourceVersionTooLarge, which errors.ts's message check does not cover. */
function onWatchListEvent(
  state: ReflectorState,
  phase: Extract<ReflectorPhase, { name: 'watchList' }>,
  event: WatchEvent,
): ReflectorTransition {
  const reason = malformedReason(event);
  if (reason) {
    return watchListFailed(
      state,
      new InvalidInputError('watch event', reason.includes('type') ? 'type' : 'object.metadata', reason),
      { event: preview(event) },
    );
  }
  if (event.type === 'ERROR') {
    return onWatchListEnded(state, phase, errorFromWatchEvent(event.object), false);
  }
  const obj = event.object;
  if (event.type !== 'BOOKMARK') {
    const log = unexpectedKind(state.settings, obj);
    if (log) return { command: CONTINUE_COMMAND, log };
  }
  phase.eventCount++;
  state.progressed = true;
  if (event.type === 'BOOKMARK') {
    if (obj.metadata?.annotations?.[INITIAL_EVENTS_END_ANNOTATION] !== 'true') return CONTINUE;
    const rv = obj.metadata!.resourceVersion!;
    state.rvUnavailable = false;
    state.lastSyncRV = rv;
    state.synced = true;
    const items = [...phase.items.values()];
    state.phase = { name: 'watch', propagateRV: true, pastInitialAdds: true };
    return { command: { type: 'continue' }, emit: { type: 'Replace', items, resourceVersion: rv } };
  }
  const key = objectKey(obj);
  if (event.type === 'DELETED') phase.items.delete(key);
  else phase.items.set(key, obj);
  return CONTINUE;
}

function watchListFailed(
  state: ReflectorState,
  error: unknown,
  fields?: Record<string, unknown>,
): ReflectorTransition {
  const t = beginList(state, {
    level: 'warn',
    msg: 'watch-list failed; falling back to a paginated list',
    fields: { error: errorText(error), ...fields },
  });
  return restarted(t, restartReasonOf(error), 'watchList');
}

function onWatchListEnded(
  state: ReflectorState,
  phase: Extract<ReflectorPhase, { name: 'watchList' }>,
  error: unknown,
  veryShort: boolean,
): ReflectorTransition {
  if (error === undefined || isConnectionBroken(error)) {
    if (veryShort && phase.eventCount === 0) {
      return watchListFailed(
        state,
        error ?? new KubeRxError('KUBE_RX_VERY_SHORT_WATCH', 'watch-list closed at once with no events'),
      );
    }
    const t = beginWatchList(state);
    if (error !== undefined) {
      t.log = {
        level: 'info',
        msg: 'watch-list connection broke; streaming again',
        fields: { error: errorText(error) },
      };
    }
    return restarted(t, restartReasonOf(error), 'watchList');
  }
  if (isWatchRetriable(error)) {
    return backoff(state, 'watchList', error, {
      level: 'info',
      msg: 'watch-list throttled; backing off',
      fields: { error: errorText(error) },
    });
  }
  if (isExpired(error) || isTooLargeResourceVersion(error)) {
    state.rvUnavailable = true;
    const t = beginWatchList(state);
    t.log = {
      level: 'info',
      msg: 'watch-list resourceVersion unavailable; streaming the latest state',
      fields: {},
    };
    return restarted(t, restartReasonOf(error), 'watchList');
  }
  return watchListFailed(state, error);
}

function onWatchEvent(
  state: ReflectorState,
  phase: Extract<ReflectorPhase, { name: 'watch' }>,
  event: WatchEvent,
): ReflectorTransition {
  const reason = malformedReason(event);
  if (reason) {
    const error = new InvalidInputError(
      'watch event',
      reason.includes('type') ? 'type' : 'object.metadata',
      reason,
    );
    return resumeAfterGarbage(state, error, {
      level: 'error',
      msg: 'malformed watch event; resuming the watch from the last good resourceVersion',
      fields: { reason, rv: state.lastSyncRV, event: preview(event) },
    });
  }
  if (event.type === 'ERROR') return onWatchEnded(state, errorFromWatchEvent(event.object), false);
  const obj = event.object;
  if (event.type !== 'BOOKMARK') {
    const log = unexpectedKind(state.settings, obj);
    if (log) return { command: CONTINUE_COMMAND, log };
  }
  const rv = obj.metadata?.resourceVersion;
  let emit: ReflectorEvent;
  switch (event.type) {
    case 'ADDED':
      emit = { type: 'Added', object: obj };
      break;
    case 'MODIFIED':
      phase.pastInitialAdds = true;
      emit = { type: 'Updated', object: obj };
      break;
    case 'DELETED':
      phase.pastInitialAdds = true;
      emit = { type: 'Deleted', object: obj };
      break;
    default:
      phase.pastInitialAdds = true;
      emit = { type: 'Bookmark', resourceVersion: rv! };
  }
  if (rv && (phase.propagateRV || phase.pastInitialAdds)) state.lastSyncRV = rv;
  state.progressed = true;
  return { command: CONTINUE_COMMAND, emit };
}

function onWatchEnded(state: ReflectorState, error: unknown, veryShort: boolean): ReflectorTransition {
  // A clean close and a broken connection both end the watch normally (client-go's stream watcher); only
  // one that ends within a second without an event is suspect: back off, then relist.
  if (error === undefined || isConnectionBroken(error)) {
    if (veryShort) {
      // Events of a watch judged very short (a source replaying synchronously) are not progress.
      state.progressed = false;
      return backoff(
        state,
        'cycle',
        new KubeRxError(
          'KUBE_RX_VERY_SHORT_WATCH',
          error === undefined
            ? 'watch closed within a second with no events'
            : `watch broke within a second with no events: ${errorText(error)}`,
          error === undefined ? undefined : { cause: error },
        ),
        {
          level: 'warn',
          msg: 'very short watch: ended within a second with no events',
          fields: { rv: state.lastSyncRV, ...(error === undefined ? {} : { error: errorText(error) }) },
        },
      );
    }
    if (error === undefined) {
      const t = beginWatch(state, {
        level: 'debug',
        msg: 'watch closed; re-watching',
        fields: { rv: state.lastSyncRV },
      });
      return restarted(t, 'closed', 'watch');
    }
    const t = beginWatch(state, {
      level: 'info',
      msg: 'watch connection broke; re-watching from the last resourceVersion',
      fields: { rv: state.lastSyncRV, error: errorText(error) },
    });
    return restarted(t, 'connectionBroken', 'watch');
  }
  const fields = { rv: state.lastSyncRV, error: errorText(error) };
  if (error instanceof InvalidInputError) {
    return resumeAfterGarbage(state, error, {
      level: 'error',
      msg: 'garbled watch data; resuming the watch from the last good resourceVersion',
      fields: { ...fields, input: preview(error.input) },
    });
  }
  if (isExpired(error)) {
    return backoff(state, 'cycle', error, { level: 'info', msg: 'watch expired; relisting', fields });
  }
  if (isWatchRetriable(error)) {
    return backoff(state, 'watch', error, { level: 'info', msg: 'watch throttled; backing off', fields });
  }
  return backoff(state, 'cycle', error, {
    level: 'warn',
    msg: 'watch ended with an error; relisting',
    fields,
  });
}

/**
 * Advances the machine by one input. Deterministic and free of I/O and clocks; it updates `state` in
 * place (one writer: the shell that owns it) and returns what to do next, what to emit and what to log.
 *
 * @param state the machine's state, updated in place
 * @param input what happened
 * @returns the command for the shell, plus an optional event and log line
 */
export function stepReflector(state: ReflectorState, input: ReflectorInput): ReflectorTransition {
  const phase = state.phase;
  switch (input.type) {
    case 'start':
      return beginCycle(state, 'initial');
    case 'backoffDone':
      if (phase.name !== 'backoff') return CONTINUE;
      if (phase.then === 'watch') return beginWatch(state);
      if (phase.then === 'watchList') {
        const t = beginWatchList(state);
        t.list = phase.reason;
        return t;
      }
      return beginCycle(state, phase.reason);
    case 'listPage':
      return phase.name === 'list' ? onListPage(state, phase.pager, input.page) : CONTINUE;
    case 'listFailed':
      return phase.name === 'list' ? onListFailed(state, phase.pager, input.error) : CONTINUE;
    case 'watchEvent':
      if (phase.name === 'watch') return onWatchEvent(state, phase, input.event);
      if (phase.name === 'watchList') return onWatchListEvent(state, phase, input.event);
      return CONTINUE;
    case 'watchEnded':
      if (phase.name === 'watch') return onWatchEnded(state, input.error, input.veryShort);
      if (phase.name === 'watchList') return onWatchListEnded(state, phase, input.error, input.veryShort);
      return CONTINUE;
    case 'inactive': {
      const fields = { rv: state.lastSyncRV, silentMs: input.ms };
      if (phase.name === 'watch') {
        const t = beginWatch(state, {
          level: 'warn',
          msg: 'watch silent for the inactivity window; re-watching',
          fields,
        });
        return restarted(t, 'stalled', 'watch');
      }
      if (phase.name === 'watchList') {
        return watchListFailed(
          state,
          new KubeRxError('KUBE_RX_INACTIVE', `watch-list silent for ${input.ms} ms`),
        );
      }
      return CONTINUE;
    }
  }
}
