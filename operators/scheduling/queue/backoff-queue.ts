// BackoffQueue: the two heaps of pods waiting out a backoff (rejected by plugins / failed with an error).
import type { QueuedPodRef } from '../framework/interface.ts';
import { KeyedHeap } from './keyed-heap.ts';
import { podKey, type QueuedPodInfo } from './queued-pod-info.ts';

/** The ordering window of podBackoffQ and the period of its flush, in ms. */
export const BACKOFF_ORDERING_WINDOW_MS = 1000;

export interface BackoffQueueConfig {
  /** The scheduler's clock, in ms. */
  now: () => number;
  /** Backoff after the first failure (ms). Default 1000. */
  podInitialBackoffMs?: number;
  /** Cap of the doubling backoff (ms); 0 turns backoff off. Default 10000. */
  podMaxBackoffMs?: number;
  /** activeQ's order: breaks ties between equal expiries in podBackoffQ when popping from it is on. */
  less: (a: QueuedPodRef, b: QueuedPodRef) => boolean;
  /** SchedulerPopFromBackoffQ: whole-second ordering windows and priority tie-breaks. Default true. */
  popFromBackoffQ?: boolean;
}

/**
 * podBackoffQ (pods a plugin rejected) and podErrorBackoffQ (pods that failed with an error), both
 * ordered by backoff expiry; podBackoffQ breaks ties with activeQ's order when popping from it is on.
 *
 * Invariants: a pod is in at most one of the two heaps; the backoff duration for count n ≥ 1 is
 * initial·2^(n−1) capped at max, where n is the consecutive error count when above 0, else the
 * unschedulable count (v1.34+); n = 0 or max = 0 means no backoff. With popFromBackoffQ the expiry
 * is truncated to a whole second and a pod whose expiry window is not before now's window is
 * still backing off.
 */
export class BackoffQueue {
  readonly podInitialBackoffMs: number;
  readonly podMaxBackoffMs: number;
  readonly popFromBackoffQ: boolean;
  private readonly now: () => number;
  private readonly podBackoffQ: KeyedHeap<QueuedPodInfo>;
  private readonly podErrorBackoffQ: KeyedHeap<QueuedPodInfo>;

  constructor(config: BackoffQueueConfig) {
    this.now = config.now;
    this.podInitialBackoffMs = config.podInitialBackoffMs ?? 1000;
    this.podMaxBackoffMs = config.podMaxBackoffMs ?? 10_000;
    this.popFromBackoffQ = config.popFromBackoffQ ?? true;
    const byExpiry = (a: QueuedPodInfo, b: QueuedPodInfo) => this.backoffTime(a) < this.backoffTime(b);
    const byExpiryThenPriority = (a: QueuedPodInfo, b: QueuedPodInfo) => {
      const ea = this.backoffTime(a);
      const eb = this.backoffTime(b);
      return ea !== eb ? ea < eb : config.less(a, b);
    };
    this.podBackoffQ = new KeyedHeap(
      (p: QueuedPodInfo) => podKey(p.pod),
      this.popFromBackoffQ ? byExpiryThenPriority : byExpiry,
    );
    this.podErrorBackoffQ = new KeyedHeap((p: QueuedPodInfo) => podKey(p.pod), byExpiry);
  }

  /** `t` truncated to its ordering window (unchanged when popping from backoffQ is off). */
  alignToWindow(t: number): number {
    return this.popFromBackoffQ ? Math.floor(t / BACKOFF_ORDERING_WINDOW_MS) * BACKOFF_ORDERING_WINDOW_MS : t;
  }

  /** The backoff duration (ms) the pod's counts give. */
  backoffDuration(p: QueuedPodInfo): number {
    const count = p.consecutiveErrorsCount > 0 ? p.consecutiveErrorsCount : p.unschedulableCount;
    if (count === 0 || this.podMaxBackoffMs === 0) return 0;
    let d = this.podInitialBackoffMs;
    for (let i = 1; i < count; i++) {
      if (d > this.podMaxBackoffMs - d) return this.podMaxBackoffMs;
      d += d;
    }
    return d;
  }

  /** When the pod's backoff ends (ms, window-aligned, cached); -Infinity when it has none. */
  backoffTime(p: QueuedPodInfo): number {
    const duration = this.backoffDuration(p);
    if (duration === 0) return Number.NEGATIVE_INFINITY;
    if (p.backoffExpiration === undefined) p.backoffExpiration = this.alignToWindow(p.timestamp + duration);
    return p.backoffExpiration;
  }

  /** True while the pod must still wait (its expiry window is not before now's). */
  isPodBackingoff(p: QueuedPodInfo): boolean {
    return !(this.backoffTime(p) < this.alignToWindow(this.now()));
  }

  /** Adds the pod to the heap its rejectors choose (none: the error heap), out of the other one. */
  add(p: QueuedPodInfo): void {
    const key = podKey(p.pod);
    if (p.unschedulablePlugins.size === 0 && p.pendingPlugins.size === 0) {
      this.podBackoffQ.delete(key);
      this.podErrorBackoffQ.addOrUpdate(p);
    } else {
      this.podErrorBackoffQ.delete(key);
      this.podBackoffQ.addOrUpdate(p);
    }
  }

  /** Pops every pod whose backoff is done, regular heap first, each heap up to its first waiting pod. */
  popAllBackoffCompleted(): QueuedPodInfo[] {
    const done: QueuedPodInfo[] = [];
    for (const heap of [this.podBackoffQ, this.podErrorBackoffQ]) {
      for (let head = heap.peek(); head && !this.isPodBackingoff(head); head = heap.peek()) {
        done.push(heap.pop()!);
      }
    }
    return done;
  }

  /** Pops podBackoffQ's head even if it is still backing off (activeQ is empty). */
  popBackoff(): QueuedPodInfo | undefined {
    return this.podBackoffQ.pop();
  }

  /** Number of pods in podBackoffQ alone (what popping from backoffQ may take). */
  lenBackoff(): number {
    return this.podBackoffQ.length;
  }

  /** Replaces the held pod with the same key by `pod`; returns its info, or undefined if not held. */
  update(key: string, pod: QueuedPodInfo['pod']): QueuedPodInfo | undefined {
    for (const heap of [this.podBackoffQ, this.podErrorBackoffQ]) {
      const p = heap.get(key);
      if (p) {
        p.update(pod);
        heap.addOrUpdate(p);
        return p;
      }
    }
    return undefined;
  }

  /** Removes the pod held under `key`; returns it, or undefined. */
  delete(key: string): QueuedPodInfo | undefined {
    return this.podBackoffQ.delete(key) ?? this.podErrorBackoffQ.delete(key);
  }

  get(key: string): QueuedPodInfo | undefined {
    return this.podBackoffQ.get(key) ?? this.podErrorBackoffQ.get(key);
  }

  has(key: string): boolean {
    return this.podBackoffQ.has(key) || this.podErrorBackoffQ.has(key);
  }

  /** The held pods: podBackoffQ's, then podErrorBackoffQ's. */
  list(): QueuedPodInfo[] {
    return [...this.podBackoffQ.list(), ...this.podErrorBackoffQ.list()];
  }

  get length(): number {
    return this.podBackoffQ.length + this.podErrorBackoffQ.length;
  }
}
