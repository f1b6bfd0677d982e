// FailedPodsBackoff: the per daemon set and node backoff before a failed daemon pod is deleted again (upstream's failedPodsBackoff: 1 s doubling to 15 min), a pure map over times given by the caller.
/** Upstream's initial and maximum delays. */
export const FAILED_POD_BACKOFF_INITIAL_MS = 1_000;
export const FAILED_POD_BACKOFF_MAX_MS = 15 * 60_000;

/**
 * Delays per key (`<namespace>/<daemon set>/<node>`), as client-go's flowcontrol.Backoff. Invariant: a key's
 * delay is between the initial and the maximum; it restarts from the initial one once the key has been
 * quiet for twice the maximum.
 *
 * @example
 * const b = new FailedPodsBackoff();
 * b.next('default/ds/n1', 0);           // delay 1 s from t=0
 * b.inBackoff('default/ds/n1', 500);    // → 500 (ms left)
 */
export class FailedPodsBackoff {
  readonly #entries = new Map<string, { delay: number; at: number }>();
  readonly #initial: number;
  readonly #max: number;

  constructor(initialMs = FAILED_POD_BACKOFF_INITIAL_MS, maxMs = FAILED_POD_BACKOFF_MAX_MS) {
    this.#initial = initialMs;
    this.#max = maxMs;
  }

  /** Records an attempt at `now`: the delay doubles (up to the maximum), or starts at the initial one. */
  next(key: string, now: number): void {
    const e = this.#entries.get(key);
    const delay = !e || now - e.at > 2 * this.#max ? this.#initial : Math.min(e.delay * 2, this.#max);
    this.#entries.set(key, { delay, at: now });
  }

  /** The milliseconds left of the key's delay since its last attempt, or 0 when it is not backing off. */
  inBackoff(key: string, now: number): number {
    const e = this.#entries.get(key);
    if (!e) return 0;
    return Math.max(0, e.at + e.delay - now);
  }

  /** Forgets keys quiet for twice the maximum (upstream's periodic GC). */
  gc(now: number): void {
    for (const [k, e] of this.#entries) if (now - e.at > 2 * this.#max) this.#entries.delete(k);
  }
}
