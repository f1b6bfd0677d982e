// listWatch: the Reflector as a cold observable — list (or stream) the state, then watch, recovering from every failure.
import {
  asyncScheduler,
  Observable,
  type PartialObserver,
  type SchedulerAction,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import { type Backoff, exponentialBackoff } from '../operators/backoff.ts';
import { ApiError, InvalidConfigError, KubeRxError, TimeoutError } from '../operators/errors.ts';
import { type Logger, silentLogger } from '../operators/logger.ts';
import {
  INITIAL_EVENTS_END_ANNOTATION,
  type KubeObject,
  type ReflectorEvent,
  type ReflectorHealth,
  type ReflectorListReason,
  type ReflectorRestartRecord,
} from '../operators/types.ts';
import {
  healthStateOf,
  initialReflectorState,
  type ReflectorCommand,
  type ReflectorInput,
  type ReflectorMemory,
  type ReflectorRestart,
  rememberReflectorState,
  resumeReflectorState,
  stepReflector,
} from './list-watch-state.ts';
import type { ListerWatcher, WatchOptions } from './ports.ts';
import { stallWindow } from './stall-window.ts';

/** What a metrics sink can read of one running listWatch at any time (a scrape). */
export interface ReflectorProgress {
  /** The last synced resourceVersion ('' before the first list). */
  resourceVersion: string;
  /** scheduler.now() of the last event or bookmark received, undefined before the first. */
  lastEventAt: number | undefined;
}

/**
 * Where listWatch reports its restarts, (re)lists and progress, for one resource; `reflectorMetrics`
 * (src/metrics/) writes them to Prometheus. Nothing is called per watch event: progress is read on demand.
 */
export interface ReflectorMetricsSink {
  /** A watch (the streaming watch-list included) ended, or a list request failed, and is being replaced. */
  restarted(restart: ReflectorRestart): void;
  /** A (re)list began: a paginated list or a streaming watch-list. */
  listed(reason: ReflectorListReason): void;
  /** Called on subscribe with a reader of the stream's progress; the returned function is called on teardown. */
  track(progress: () => ReflectorProgress): () => void;
}

/** Options of {@link listWatch}. Every field is optional; the defaults are client-go's unless noted. */
export interface ListWatchConfig {
  /** Start with a streaming watch-list (`sendInitialEvents`), falling back to a paginated list; default true. */
  watchList?: boolean;
  /** Page size of lists; default client-go's rules (500, and no limit when relisting from a known rv). */
  pageSize?: number;
  /** Watches ask the server to close after [min, 2·min) seconds; default 300, smaller values are raised to 300. */
  minWatchTimeoutSeconds?: number;
  /**
   * The longest a watch may deliver nothing (not even a bookmark) before it is abandoned and resumed from
   * its last resourceVersion; default 25 000 ms, 0 disables. Within it the window is learned (see
   * {@link stallFloorMs}).
   */
  inactivityTimeoutMs?: number;
  /**
   * The shortest learned window, default 1000 ms. While events flow the window is twice the longest of
   * the recent gaps between them, at least this; on a quiet watch it is twice the server's bookmark
   * interval; at most `inactivityTimeoutMs`. List pages are bounded the same way by the learned duration
   * of recent pages (at most `requestTimeoutMs`). A floor at or above `inactivityTimeoutMs` turns the
   * learning off (fixed windows: `inactivityTimeoutMs` and `requestTimeoutMs`).
   */
  stallFloorMs?: number;
  /**
   * Abandon a list page that has not answered in this long and retry after a backoff; default 60 000 ms,
   * 0 disables. A guard for lister-watchers without their own timeout: a client that retries inside one
   * list call keeps its attempts and waits within its own request timeout and hands back an error whose
   * wait would pass it (kubeApiClient does), so that this backoff honours its `Retry-After`.
   */
  requestTimeoutMs?: number;
  /** Makes the backoff policy of one subscription; default {@link exponentialBackoff} on `scheduler` and `random`. */
  backoff?: () => Backoff;
  labelSelector?: string;
  fieldSelector?: string;
  logger?: Logger;
  /** Clock and timers; default `asyncScheduler`. */
  scheduler?: SchedulerLike;
  /** Numbers in [0, 1) for watch timeouts and backoff jitter; default `Math.random`. */
  random?: () => number;
  /** Name in logs, e.g. the informer's name. */
  name?: string;
  /** What is listed, e.g. `v1/pods`, in logs and errors. */
  description?: string;
  /** Receives the stream's health on every change of state (and `stopped` on unsubscribe). */
  health?: PartialObserver<ReflectorHealth>;
  /**
   * Drop (and log, naming kind and key) watch events whose object is of another kind, as client-go's
   * reflector does with its expected type; objects without a `kind` are kept. The informer factory sets it.
   */
  expectedKind?: { kind: string; apiVersion?: string };
  /**
   * Remember the resourceVersion across subscriptions ({@link reflectorMemory}): a stopped and
   * resubscribed stream resumes from its last resourceVersion with client-go's relist rules instead of
   * starting over at "0". Without it, every subscription is a fresh reflector.
   */
  memory?: ReflectorMemory;
  /** Counts restarts and (re)lists and exposes progress, e.g. `reflectorMetrics(registry).sink('v1/pods')`. */
  metrics?: ReflectorMetricsSink;
}

const VERY_SHORT_WATCH_MS = 1000;

function nonNegative(field: string, value: number | undefined, fallback: number, integer = false): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
    throw new InvalidConfigError(
      `listWatch.${field}`,
      `must be a ${integer ? 'whole ' : ''}number >= 0, got ${value}`,
    );
  }
  return value;
}

/**
 * Lists and watches one resource as client-go's Reflector does, as a cold observable: each subscription
 * runs its own loop. A complete (re)list arrives as ONE `Replace`; then the watch's changes one by one;
 * bookmarks advance the resourceVersion.
 *
 * ```
 * list:   -(L|)                       L = items {a} at rv 5         then  -(M|)  M = {a, c} at rv 9
 * watch:   --c-b-e                    c = ADDED c@6, b = BOOKMARK@7, e = ERROR 410
 * output: -R-A-B 802ms S              R = Replace{a}@5, A = Added c, B = Bookmark 7, S = Replace{a,c}@9
 * ```
 * (the 410 costs an 800 ms backoff, then a relist; see the first marble test)
 *
 * Recovery: a watch that ends cleanly, whose connection breaks (reset, cut mid-body, timeout) or that
 * stays silent past its learned window (twice the longest recent gap between events while they flow, at
 * least `stallFloorMs`; twice the bookmark interval on a quiet watch; at most `inactivityTimeoutMs`) is
 * resumed at once from the last resourceVersion, as client-go treats an unexpected EOF; a list page is
 * bounded the same way by the learned duration of recent pages (at most `requestTimeoutMs`);
 * one that ends within a second without an event backs off, then relists. Garbled data resumes from the
 * last good resourceVersion, at once if the watch made progress since the last failure, else after a
 * backoff. 429 re-watches after a backoff; 410 Gone, "too large resource version" and other errors relist
 * after a backoff (800 ms doubling to 30 s, jitter; `Retry-After` is honoured). The backoff starts over
 * when a watch delivered a good event or bookmark since the previous failure, so only consecutive
 * failures wait longer and longer. Only a custom backoff that gives up ends the stream, with an error.
 * Every watch carries `responseHeadHedgeMs` (with learning on): four times the slowest recent answered
 * request (a list page, a watch-list's first event), 2 × `stallFloorMs` before any, within the floor and
 * `inactivityTimeoutMs`; an HTTP client then sends a watch whose response head is that late once more
 * beside it, so a request the server will never answer does not hold the stream up to the ceiling.
 *
 * Health and metrics: every restart (a watch's or watch-list's end, a failed list) and every (re)list is a
 * new `config.health` value (`restarts`, `lastRestart`, `lists`, `lastList`) and a call of `config.metrics`.
 *
 * Teardown: unsubscribing aborts the in-flight list or watch at once and releases every timer.
 *
 * @example
 * listWatch(podsLw, { name: 'pods', scheduler })
 *   .pipe(scan((cache, e) => applyReflectorEvent(cache, e), new Map()))
 *   .subscribe(...)
 * @param lw the lister-watcher port of one resource
 * @param config page size, timeouts, backoff, selectors, logger, clock, randomness and health observer
 * @returns the reflector's events: `Replace`, `Added`, `Updated`, `Deleted`, `Bookmark`
 */
export function listWatch<T extends KubeObject = KubeObject>(
  lw: ListerWatcher<T>,
  config: ListWatchConfig = {},
): Observable<ReflectorEvent<T>> {
  const pageSize =
    config.pageSize === undefined ? undefined : nonNegative('pageSize', config.pageSize, 0, true);
  const minWatchTimeoutSeconds = Math.max(
    300,
    nonNegative('minWatchTimeoutSeconds', config.minWatchTimeoutSeconds, 300),
  );
  const inactivityMs = nonNegative('inactivityTimeoutMs', config.inactivityTimeoutMs, 25_000);
  const requestTimeoutMs = nonNegative('requestTimeoutMs', config.requestTimeoutMs, 60_000);
  const stallFloorMs = nonNegative('stallFloorMs', config.stallFloorMs, 1000);
  const learning = inactivityMs > 0 && stallFloorMs < inactivityMs;
  const settings = {
    watchList: config.watchList ?? true,
    pageSize,
    labelSelector: config.labelSelector,
    fieldSelector: config.fieldSelector,
    expectedKind: config.expectedKind,
  };

  return new Observable<ReflectorEvent<T>>((subscriber) => {
    const scheduler = config.scheduler ?? asyncScheduler;
    const random = config.random ?? Math.random;
    const name = config.name ?? 'reflector';
    const description = config.description ?? '<unspecified>';
    const log = (config.logger ?? silentLogger).child({
      component: 'listWatch',
      reflector: name,
      resource: description,
    });
    const backoff = config.backoff ? config.backoff() : exponentialBackoff({ scheduler, random });
    const memory = config.memory;
    const state = memory ? resumeReflectorState(settings, memory) : initialReflectorState(settings);
    const stall = stallWindow({ floorMs: stallFloorMs, ceilingMs: inactivityMs });
    const metrics = config.metrics;

    let closed = false;
    /** Generation of the current request or timer; inputs of older generations are stale and dropped. */
    let generation = 0;
    let request: Subscription | undefined;
    let timer: Subscription | undefined;
    let inactivity: Subscription | undefined;
    let lastActivity = 0;
    let lastEventAt: number | undefined;
    let lastError: ReflectorHealth['lastError'];
    let restarts = 0;
    let lastRestart: ReflectorRestartRecord | undefined;
    let lists = 0;
    let lastList: ReflectorHealth['lastList'];
    /** When the inactivity timer is due (scheduler time). */
    let inactivityDue = 0;
    /** Objects in the last complete list, the expected size of a list without a limit. */
    let lastListSize = 0;
    /** The streaming watch-list in flight: when it began, its events and the last one's time. */
    let streaming: { startedAt: number; events: number; lastAt: number } | undefined;

    // A trampoline: inputs raised while an input is being handled (synchronous sources) wait their turn.
    const queue: { gen: number; input: ReflectorInput }[] = [];
    let head = 0;
    let draining = false;

    const dispatch = (gen: number, input: ReflectorInput) => {
      if (closed || gen !== generation) return;
      if (draining) {
        queue.push({ gen, input });
        return;
      }
      draining = true;
      try {
        handle(input);
        while (!closed && head < queue.length) {
          const next = queue[head++]!;
          if (next.gen === generation) handle(next.input);
        }
      } finally {
        queue.length = 0;
        head = 0;
        draining = false;
      }
    };

    // what was last published, to publish only changes
    let publishedState: ReflectorHealth['state'] | undefined;
    let publishedSynced = false;
    let publishedErrorAt: number | undefined;
    let publishedRestarts = 0;
    let publishedLists = 0;
    const publishHealth = () => {
      const observer = config.health;
      if (!observer?.next) return;
      const healthState = closed ? 'stopped' : healthStateOf(state.phase);
      if (
        healthState === publishedState &&
        state.synced === publishedSynced &&
        lastError?.at === publishedErrorAt &&
        restarts === publishedRestarts &&
        lists === publishedLists
      ) {
        return;
      }
      publishedState = healthState;
      publishedSynced = state.synced;
      publishedErrorAt = lastError?.at;
      publishedRestarts = restarts;
      publishedLists = lists;
      const snapshot: ReflectorHealth = { state: healthState, synced: state.synced, restarts, lists };
      if (state.lastSyncRV) snapshot.resourceVersion = state.lastSyncRV;
      if (lastEventAt !== undefined) snapshot.lastEventAt = lastEventAt;
      if (lastError) snapshot.lastError = lastError;
      if (lastRestart) snapshot.lastRestart = lastRestart;
      if (lastList) snapshot.lastList = lastList;
      try {
        observer.next(snapshot);
      } catch (error) {
        log.error({ err: error }, 'health observer threw');
      }
    };

    const record = (restart: ReflectorRestart | undefined, list: ReflectorListReason | undefined) => {
      const at = scheduler.now();
      if (restart) {
        restarts++;
        lastRestart = { reason: restart.reason, during: restart.during, at };
        if (restart.reason === 'stalled') stall.stalled();
        try {
          metrics?.restarted(restart);
        } catch (error) {
          log.error({ err: error }, 'metrics sink threw');
        }
      }
      if (list) {
        lists++;
        lastList = { reason: list, at };
        try {
          metrics?.listed(list);
        } catch (error) {
          log.error({ err: error }, 'metrics sink threw');
        }
      }
    };

    const handle = (input: ReflectorInput) => {
      const before = state.phase.name;
      const t = stepReflector(state, input);
      if (memory) rememberReflectorState(state, memory);
      if (t.log) log[t.log.level](t.log.fields ?? {}, t.log.msg);
      if (t.restart || t.list) record(t.restart, t.list);
      if (before === 'watchList' && state.phase.name !== 'watchList') streamEnded();
      if (t.emit?.type === 'Replace') {
        lastListSize = t.emit.items.length;
        if (before === 'watchList') stall.initialEventsEnded();
      }
      if (t.emit) subscriber.next(t.emit as ReflectorEvent<T>);
      if (closed) return;
      if (t.resetBackoff) backoff.reset();
      run(t.command);
      publishHealth();
    };

    /**
     * A streaming list ended (complete or not): its pace is evidence for the list that may follow, so a
     * fallback list is bounded by what the stream showed, and its size is the expected size of that list.
     */
    const streamEnded = () => {
      const s = streaming;
      streaming = undefined;
      if (!s || s.events === 0) return;
      lastListSize = Math.max(lastListSize, s.events);
      if (learning) stall.pageAnswered(s.lastAt - s.startedAt, s.events);
    };

    const abandon = () => {
      generation++;
      const r = request;
      const tm = timer;
      const ia = inactivity;
      request = timer = inactivity = undefined;
      r?.unsubscribe();
      tm?.unsubscribe();
      ia?.unsubscribe();
    };

    /** Holds the request's handle, or aborts it at once if it was superseded or torn down meanwhile. */
    const keep = (gen: number, sub: Subscription) => {
      if (closed || gen !== generation) sub.unsubscribe();
      else request = sub;
    };

    const window = () => (learning ? stall.window() : inactivityMs);
    const scheduleInactivity = (gen: number, delay: number) => {
      inactivityDue = scheduler.now() + delay;
      inactivity = scheduler.schedule(function check(this: SchedulerAction<undefined>) {
        const now = scheduler.now();
        const idle = now - lastActivity;
        const limit = window();
        if (idle >= limit) dispatch(gen, { type: 'inactive', ms: idle });
        else {
          inactivityDue = now + limit - idle;
          this.schedule(undefined, limit - idle);
        }
      }, delay);
    };
    const armInactivity = (gen: number) => {
      if (inactivityMs <= 0) return;
      lastActivity = scheduler.now();
      stall.watchStarted(lastActivity);
      scheduleInactivity(gen, window());
    };
    /** Learns from an arrival; brings the timer forward when the learned window shrank below it. */
    const arrived = (gen: number, now: number, bookmark: boolean) => {
      stall.arrived(now, bookmark);
      if (inactivityDue - now <= stallFloorMs) return;
      const limit = stall.window();
      if (now + limit < inactivityDue && inactivity) {
        inactivity.unsubscribe();
        scheduleInactivity(gen, limit);
      }
    };

    const run = (command: ReflectorCommand) => {
      switch (command.type) {
        case 'continue':
          return;
        case 'list': {
          abandon();
          const gen = generation;
          let answered = false;
          const startedAt = scheduler.now();
          if (requestTimeoutMs > 0) {
            const limit = command.options.limit ?? 0;
            const expected = limit > 0 ? Math.min(limit, Math.max(lastListSize, 1)) : lastListSize;
            const pageMs = learning ? stall.pageWindow(requestTimeoutMs, expected) : requestTimeoutMs;
            timer = scheduler.schedule(() => {
              if (learning) stall.pageTimedOut(pageMs);
              dispatch(gen, {
                type: 'listFailed',
                error: new TimeoutError(`list ${description}`, pageMs),
              });
            }, pageMs);
          }
          const sub = lw.list(command.options).subscribe({
            next: (page) => {
              if (answered) return;
              answered = true;
              if (learning) {
                const items = Array.isArray(page?.items) ? page.items.length : 0;
                const ms = scheduler.now() - startedAt;
                stall.pageAnswered(ms, items);
                stall.headAnswered(ms);
              }
              dispatch(gen, { type: 'listPage', page });
            },
            error: (error: unknown) => dispatch(gen, { type: 'listFailed', error }),
            complete: () => {
              if (!answered) {
                dispatch(gen, {
                  type: 'listFailed',
                  error: new KubeRxError(
                    'KUBE_RX_EMPTY_LIST',
                    `list ${description} completed without a page`,
                  ),
                });
              }
            },
          });
          keep(gen, sub);
          return;
        }
        case 'watch': {
          abandon();
          const gen = generation;
          const startedAt = scheduler.now();
          let events = 0;
          const options: WatchOptions = {
            ...command.options,
            timeoutSeconds: Math.floor(minWatchTimeoutSeconds * (1 + random())),
          };
          if (learning) options.responseHeadHedgeMs = stall.headWindow();
          armInactivity(gen);
          const stream = command.options.sendInitialEvents
            ? { startedAt, events: 0, lastAt: startedAt }
            : undefined;
          streaming = stream;
          // A watch that ends before subscribe() returns counts as very short even with events, so that a
          // source replaying the same events synchronously cannot spin the loop without a backoff.
          let opening = true;
          const veryShort = () =>
            (events === 0 || opening) && scheduler.now() - startedAt < VERY_SHORT_WATCH_MS;
          const sub = lw.watch(options).subscribe({
            next: (event) => {
              events++;
              const now = scheduler.now();
              lastActivity = lastEventAt = now;
              if (stream) {
                // a watch-list's first event comes right after its response head: the server's pace
                if (learning && stream.events === 0) stall.headAnswered(now - startedAt);
                stream.events++;
                stream.lastAt = now;
              }
              if (learning) {
                arrived(
                  gen,
                  now,
                  event?.type === 'BOOKMARK' &&
                    event.object?.metadata?.annotations?.[INITIAL_EVENTS_END_ANNOTATION] !== 'true',
                );
              }
              dispatch(gen, { type: 'watchEvent', event });
            },
            error: (error: unknown) => dispatch(gen, { type: 'watchEnded', error, veryShort: veryShort() }),
            complete: () => dispatch(gen, { type: 'watchEnded', veryShort: veryShort() }),
          });
          opening = false;
          keep(gen, sub);
          return;
        }
        case 'backoff': {
          abandon();
          const gen = generation;
          const error = command.error;
          let waitMs = backoff.next();
          if (waitMs === undefined) {
            closed = true;
            subscriber.error(
              new KubeRxError(
                'KUBE_RX_GAVE_UP',
                `listWatch ${description}: backoff gave up: ${messageOf(error)}`,
                {
                  cause: error,
                },
              ),
            );
            return;
          }
          if (
            error instanceof ApiError &&
            error.retryAfterSeconds !== undefined &&
            (error.statusCode === 429 || error.statusCode >= 500)
          ) {
            waitMs = Math.max(waitMs, error.retryAfterSeconds * 1000);
          }
          lastError = {
            message: messageOf(error),
            at: scheduler.now(),
            ...(error instanceof KubeRxError ? { code: error.code } : {}),
          };
          log.debug({ waitMs }, 'backing off');
          timer = scheduler.schedule(() => dispatch(gen, { type: 'backoffDone' }), waitMs);
          return;
        }
      }
    };

    const untrack = metrics?.track(() => ({
      resourceVersion: state.lastSyncRV,
      lastEventAt,
    }));
    publishHealth();
    dispatch(generation, { type: 'start' });

    return () => {
      closed = true;
      abandon();
      publishHealth();
      untrack?.();
    };
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
