// ControllerExpectations: kube-controller-manager's record of creates and deletes a controller is waiting to see in its informer.

/** How long an unfulfilled expectation blocks a controller before it is treated as satisfied (upstream's 5 minutes). */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60_000;

interface Expectation {
  add: number;
  del: number;
  timestamp: number;
}

/**
 * Per controller key (`ns/name`), how many creations and deletions it has asked for and not yet seen
 * come back through its informer — so it does not act again on a stale cache and create twice. As
 * upstream's ControllerExpectations: `satisfiedExpectations` is true with no record, once both counts are
 * ≤ 0, or once the record is older than {@link EXPECTATIONS_TIMEOUT_MS}; `setExpectations` replaces the
 * record with a fresh timestamp; observations only decrement an existing record (counts may go below 0).
 * A controller calls `satisfiedExpectations` before listing pods, and `creationObserved` for every
 * create that failed (so it is not blocked for five minutes).
 */
export class ControllerExpectations {
  readonly #records = new Map<string, Expectation>();
  readonly #now: () => number;

  /** @param now the clock in ms (a scheduler's `now`), so tests run in virtual time */
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** The record of `key`: adds and dels still expected, when it was set. */
  get(key: string): Readonly<Expectation> | undefined {
    return this.#records.get(key);
  }

  setExpectations(key: string, add: number, del: number): void {
    this.#records.set(key, { add, del, timestamp: this.#now() });
  }

  expectCreations(key: string, adds: number): void {
    this.setExpectations(key, adds, 0);
  }

  expectDeletions(key: string, dels: number): void {
    this.setExpectations(key, 0, dels);
  }

  /** Lowers both counts of an existing record (no record: nothing). */
  lowerExpectations(key: string, add: number, del: number): void {
    const e = this.#records.get(key);
    if (!e) return;
    e.add -= add;
    e.del -= del;
  }

  /** Raises both counts of an existing record (no record: nothing). */
  raiseExpectations(key: string, add: number, del: number): void {
    const e = this.#records.get(key);
    if (!e) return;
    e.add += add;
    e.del += del;
  }

  creationObserved(key: string): void {
    this.lowerExpectations(key, 1, 0);
  }

  deletionObserved(key: string): void {
    this.lowerExpectations(key, 0, 1);
  }

  /** Whether the controller may sync `key`: no record, fulfilled, or expired. */
  satisfiedExpectations(key: string): boolean {
    const e = this.#records.get(key);
    if (!e) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return this.#now() - e.timestamp > EXPECTATIONS_TIMEOUT_MS;
  }

  /** Forgets `key` (its owner was deleted or not found). */
  deleteExpectations(key: string): void {
    this.#records.delete(key);
  }
}

/**
 * ControllerExpectations that remember which pods a deletion waits for (upstream's
 * UIDTrackingControllerExpectations, keyed by pod key): a pod seen first with a deletionTimestamp and
 * then gone counts once, and a pod the controller did not delete counts not at all.
 */
export class UIDTrackingControllerExpectations extends ControllerExpectations {
  readonly #deleting = new Map<string, Set<string>>();

  /** Expects the deletion of exactly these pods (by pod key). */
  expectDeletionsOf(key: string, podKeys: readonly string[]): void {
    this.#deleting.set(key, new Set(podKeys));
    this.expectDeletions(key, podKeys.length);
  }

  /** The pods whose deletion `key` still waits for. */
  getUIDs(key: string): ReadonlySet<string> | undefined {
    return this.#deleting.get(key);
  }

  /** Counts a deletion only when the pod is one `key` deleted, and only once. */
  deletionObservedOf(key: string, podKey: string): void {
    const pending = this.#deleting.get(key);
    if (!pending?.delete(podKey)) return;
    this.deletionObserved(key);
  }

  override deleteExpectations(key: string): void {
    super.deleteExpectations(key);
    this.#deleting.delete(key);
  }
}
