// The learned stall window of listWatch: how long a watch may stay silent, or a list page unanswered, before it is abandoned.

/** Options of {@link stallWindow}. */
export interface StallWindowConfig {
  /** The shortest window, in ms (a flowing stream that stops is abandoned after this long). */
  floorMs: number;
  /** The longest window of a watch, in ms (listWatch's `inactivityTimeoutMs`). */
  ceilingMs: number;
}

/** How many recent gaps between arrivals the flow estimate keeps. */
export const FLOW_SAMPLES = 16;
/** Gaps a watch must have delivered (since its flow was last forgotten) before they set its window. */
export const MIN_FLOW_SAMPLES = 4;
/** The window is this many times the longest recent gap (or bookmark interval). */
export const GAP_FACTOR = 2;
/** How many recent bookmark intervals the cadence estimate keeps. */
export const BOOKMARK_SAMPLES = 4;
/** How many recent list pages the list estimate keeps. */
export const PAGE_SAMPLES = 8;
/** A list page may take this many times the longest recent page (scaled by its expected size). */
export const PAGE_FACTOR = 4;
/** How many recent answered requests the response-head estimate keeps. */
export const HEAD_SAMPLES = 8;
/** A watch's response head is hedged after this many times the slowest recent answer. */
export const HEAD_FACTOR = 4;

/**
 * The learned window: pure (times are passed in, read by the caller from its SchedulerLike) and owned by
 * one listWatch subscription.
 *
 * Invariants: the watch window is always within [floor, ceiling]; it is the ceiling until something was
 * learned. While events flow (at least {@link MIN_FLOW_SAMPLES} gaps since the flow was last forgotten)
 * it is {@link GAP_FACTOR} × the longest of the last {@link FLOW_SAMPLES} gaps between arrivals (events
 * and bookmarks alike, on one watch: the wait for a watch's first arrival is not a gap), so a busy stream that stops is abandoned after the floor, while a slow one keeps a
 * window well above its usual gaps. Without a flow it is {@link GAP_FACTOR} × the longest recent interval
 * between the server's periodic bookmarks (a quiet, healthy watch receives one well inside its window, so
 * it is never abandoned more often than its bookmark cadence requires). The flow is forgotten when a
 * watch is abandoned as stalled (the next watch may be quiet: nothing was lost) and when the initial
 * events of a watch-list end (their pace says nothing of the live rate); the bookmark cadence, a property
 * of the server, is kept. After a stall, until a flow or a bookmark cadence is learned again, the next watch
 * is on probation: {@link GAP_FACTOR} × the window the stalled one was abandoned at, doubling at each stall
 * in a row up to the ceiling, so a watch that hangs from its first byte is abandoned within seconds and a
 * quiet one without bookmarks costs at most log2(ceiling / floor) extra watches.
 *
 * List pages: the port hands out whole pages, not bytes, so a list is bounded by the learned duration of
 * its pages: {@link PAGE_FACTOR} × the longest of the last {@link PAGE_SAMPLES} pages, scaled up by the
 * page's expected size, within [floor, the list's ceiling]. A page abandoned at its window counts as a
 * page that took that long, so windows that were too short grow fourfold at each retry.
 *
 * Response heads: how long a watch may wait for its response head (status line and headers) before the
 * HTTP client sends it again beside the first (`WatchOptions.responseHeadHedgeMs`) is
 * {@link HEAD_FACTOR} × the slowest of the last {@link HEAD_SAMPLES} answered requests (a list page's
 * whole answer, a watch-list's first event), within [floor, ceiling]; until a request was answered it is
 * {@link GAP_FACTOR} × the floor (2 s at the defaults): nothing is known of the server yet, and the hedge
 * leaves the first request waiting where it is, so a short bound costs at most one extra request.
 */
export interface StallWindow {
  /** A watch (or watch-list) request began at `at`. */
  watchStarted(at: number): void;
  /** Something arrived on the watch at `at`; `bookmark` for the server's periodic bookmarks. */
  arrived(at: number, bookmark: boolean): void;
  /** The watch-list's initial events ended (its end bookmark): forget their pace. */
  initialEventsEnded(): void;
  /** The watch was abandoned as stalled: forget the flow, keep the bookmark cadence. */
  stalled(): void;
  /** How long the current watch may stay silent, in ms. */
  window(): number;
  /** A list page of `items` objects answered after `ms`. */
  pageAnswered(ms: number, items: number): void;
  /** A list page was abandoned after `ms` without an answer. */
  pageTimedOut(ms: number): void;
  /**
   * How long a list page expected to hold `expectedItems` objects may take, in ms, at most `ceilingMs`;
   * `ceilingMs` until a page was answered.
   */
  pageWindow(ceilingMs: number, expectedItems: number): number;
  /** A request was answered `ms` after it was sent (a list page, a watch-list's first event). */
  headAnswered(ms: number): void;
  /** How long a watch may wait for its response head before it is hedged, in ms, within [floor, ceiling]. */
  headWindow(): number;
}

function clamp(value: number, floor: number, ceiling: number): number {
  return Math.min(ceiling, Math.max(floor, value));
}

/** The largest of the first `count` entries of a ring. */
function maxOf(ring: Float64Array, count: number): number {
  let max = 0;
  const n = Math.min(count, ring.length);
  for (let i = 0; i < n; i++) if (ring[i]! > max) max = ring[i]!;
  return max;
}

/**
 * Makes the learned window of one listWatch subscription.
 *
 * ```
 * arrivals: a-a-a-a-a-a-a ........... (silence)
 * window:   25s ... 1s (floor: gaps of ms)    → abandoned 1 s after the last arrival
 * bookmarks every 10 s, nothing else           → window 20 s: never abandoned
 * ```
 * @example
 * const w = stallWindow({ floorMs: 1000, ceilingMs: 25_000 });
 * w.watchStarted(0); for (let t = 10; t <= 100; t += 10) w.arrived(t, false);
 * w.window(); // 1000
 * @param config floor and ceiling (ms); a floor at or above the ceiling fixes the window at the ceiling
 * @returns the window's state and its questions
 */
export function stallWindow(config: StallWindowConfig): StallWindow {
  const floor = Math.min(config.floorMs, config.ceilingMs);
  const ceiling = config.ceilingMs;
  const gaps = new Float64Array(FLOW_SAMPLES);
  let gapCount = 0;
  let gapNext = 0;
  /** The last arrival on the current watch; undefined before its first. */
  let lastArrival: number | undefined;
  const bookmarkGaps = new Float64Array(BOOKMARK_SAMPLES);
  let bookmarkCount = 0;
  let bookmarkNext = 0;
  let lastBookmark = 0;
  const pageMs = new Float64Array(PAGE_SAMPLES);
  const pagePerItemMs = new Float64Array(PAGE_SAMPLES);
  let pageCount = 0;
  let pageNext = 0;
  const headMs = new Float64Array(HEAD_SAMPLES);
  let headCount = 0;
  let headNext = 0;

  /** After a stall, the window of the next watch until something is learned; none before any stall. */
  let probation: number | undefined;
  const current = (): number => {
    if (floor >= ceiling) return ceiling;
    if (gapCount >= MIN_FLOW_SAMPLES) return clamp(GAP_FACTOR * maxOf(gaps, gapCount), floor, ceiling);
    if (bookmarkCount > 0) return clamp(GAP_FACTOR * maxOf(bookmarkGaps, bookmarkCount), floor, ceiling);
    return probation ?? ceiling;
  };

  const pushPage = (ms: number, perItem: number) => {
    pageMs[pageNext] = ms;
    pagePerItemMs[pageNext] = perItem;
    pageNext = (pageNext + 1) % PAGE_SAMPLES;
    pageCount++;
  };

  return {
    watchStarted(at) {
      lastArrival = undefined;
      lastBookmark = at;
    },
    arrived(at, bookmark) {
      // the wait for a watch's first arrival is the server's answer time (its response head), not a gap
      // of the stream: under load it can be seconds, and a window learned from it would hold a stream
      // that then stops for as long
      if (lastArrival !== undefined) {
        gaps[gapNext] = at - lastArrival;
        gapNext = (gapNext + 1) % FLOW_SAMPLES;
        gapCount++;
      }
      lastArrival = at;
      if (bookmark) {
        bookmarkGaps[bookmarkNext] = at - lastBookmark;
        bookmarkNext = (bookmarkNext + 1) % BOOKMARK_SAMPLES;
        bookmarkCount++;
        lastBookmark = at;
      }
    },
    initialEventsEnded() {
      gapCount = 0;
      gapNext = 0;
    },
    stalled() {
      // the next watch is on probation: twice the window this one was abandoned at, doubling at each
      // stall in a row, until a flow or the bookmark cadence is learned (so a watch that hangs from its
      // first byte after a stall is not given the whole ceiling, and a quiet one is retried a bounded
      // number of times: log2(ceiling / floor) at most)
      probation = clamp(GAP_FACTOR * current(), floor, ceiling);
      gapCount = 0;
      gapNext = 0;
    },
    window: current,
    pageAnswered(ms, items) {
      pushPage(ms, ms / Math.max(1, items));
    },
    pageTimedOut(ms) {
      pushPage(ms, 0);
    },
    pageWindow(ceilingMs, expectedItems) {
      if (pageCount === 0 || floor >= ceiling) return ceilingMs;
      const byPage = maxOf(pageMs, pageCount);
      const byItems = maxOf(pagePerItemMs, pageCount) * Math.max(1, expectedItems);
      return clamp(PAGE_FACTOR * Math.max(byPage, byItems), Math.min(floor, ceilingMs), ceilingMs);
    },
    headAnswered(ms) {
      headMs[headNext] = Math.max(0, ms);
      headNext = (headNext + 1) % HEAD_SAMPLES;
      headCount++;
    },
    headWindow() {
      if (headCount === 0) return clamp(GAP_FACTOR * floor, floor, ceiling);
      return clamp(HEAD_FACTOR * maxOf(headMs, headCount), floor, ceiling);
    },
  };
}
