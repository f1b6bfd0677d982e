// RateLimitedTimedQueue: the node lifecycle controller's per-zone queue of nodes to taint NoExecute, released through a token bucket (upstream's scheduler.RateLimitedTimedQueue), pure.

/** One queued node: its name, uid, when it was queued and when it may next be tried (ms). */
export interface TimedValue {
  readonly value: string;
  readonly uid: string;
  readonly addedAt: number;
  readonly processAt: number;
}

/** The burst of every eviction limiter (upstream's EvictionRateLimiterBurst). */
export const EVICTION_RATE_LIMITER_BURST = 1;

/**
 * A unique queue of node names ordered by `processAt` (then by insertion), drained through a token bucket
 * of `qps` tokens per second and a burst of 1 that starts full. A qps ≤ 0 lets nothing through.
 *
 * Invariants: a name is queued at most once, and a name handed out and settled as {@link done} is not
 * queued again until it is removed (a node already tainted is not tainted twice); {@link next} hands out the head only when a token is taken
 * and the head is due, so at most ⌊burst + qps·t⌋ values are handed out in any t seconds; a token is spent
 * on each value handed out, whether the caller then succeeds or not (as upstream's Try).
 *
 * Time is passed in (ms); the queue never reads a clock.
 */
export class RateLimitedTimedQueue {
  #items: TimedValue[] = [];
  /** Names added and not removed: those handed out and settled with {@link done} stay here. */
  #set = new Set<string>();
  #qps: number;
  #tokens: number;
  #last: number;

  /**
   * @param qps tokens per second (`--node-eviction-rate`, default 0.1); ≤ 0 never releases
   * @param now the current time, ms
   */
  constructor(qps: number, now: number) {
    this.#qps = qps;
    this.#tokens = EVICTION_RATE_LIMITER_BURST;
    this.#last = now;
  }

  /** The limiter's rate, tokens per second. */
  get qps(): number {
    return this.#qps;
  }

  /** Queued values, head first. */
  get values(): readonly TimedValue[] {
    return this.#items;
  }

  /**
   * Queues `value` (due now) unless the name is known: queued, or handed out and settled with {@link done}
   * without a {@link remove} since. True when added.
   */
  add(value: string, uid: string, now: number): boolean {
    if (this.#set.has(value)) return false;
    this.#set.add(value);
    this.#insert({ value, uid, addedAt: now, processAt: now });
    return true;
  }

  /** Forgets `value` (queued or done), so a later {@link add} queues it again; true when it was known. */
  remove(value: string): boolean {
    if (!this.#set.delete(value)) return false;
    this.#items = this.#items.filter((i) => i.value !== value);
    return true;
  }

  /** Whether `value` is known (queued or done and not removed). */
  has(value: string): boolean {
    return this.#set.has(value);
  }

  /**
   * The head, when a token can be taken and the head is due (the token is then spent); undefined otherwise.
   * The value stays queued: the caller settles it with {@link done} or {@link retryAt}.
   */
  next(now: number): TimedValue | undefined {
    const head = this.#items[0];
    if (!head || !this.#tryAccept(now)) return undefined;
    return now < head.processAt ? undefined : head;
  }

  /** Takes a value handed out by {@link next} off the queue; its name stays known until {@link remove}. */
  done(value: TimedValue): void {
    this.#items = this.#items.filter((i) => i.value !== value.value);
  }

  /** Moves a value handed out by {@link next} to be tried again at `at` (unless it was removed meanwhile). */
  retryAt(value: TimedValue, at: number): void {
    if (!this.#set.has(value.value)) return;
    this.done(value);
    this.#insert({ ...value, processAt: at });
  }

  /**
   * Replaces the limiter by one of `qps` (nothing changes when the rate is the same). A new bucket starts
   * full, but when the old one had no token left the new one starts empty too, so a swap does not hand out
   * an extra eviction.
   */
  swapLimiter(qps: number, now: number): void {
    if (qps === this.#qps) return;
    const exhausted = !this.#tryAccept(now);
    this.#qps = qps;
    this.#last = now;
    this.#tokens = qps > 0 && !exhausted ? EVICTION_RATE_LIMITER_BURST : 0;
  }

  #tryAccept(now: number): boolean {
    if (this.#qps <= 0) return false;
    const elapsed = Math.max(0, now - this.#last);
    this.#tokens = Math.min(EVICTION_RATE_LIMITER_BURST, this.#tokens + (elapsed / 1000) * this.#qps);
    this.#last = Math.max(this.#last, now);
    // a hair of tolerance: tenths of a token summed in floating point fall just short of one
    if (this.#tokens < 1 - 1e-9) return false;
    this.#tokens = Math.max(0, this.#tokens - 1);
    return true;
  }

  #insert(value: TimedValue): void {
    // after every value due no later: equal times keep their order of arrival
    const at = this.#items.findIndex((i) => i.processAt > value.processAt);
    if (at < 0) this.#items.push(value);
    else this.#items.splice(at, 0, value);
  }
}
