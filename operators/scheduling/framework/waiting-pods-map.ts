// Waiting pods: pods held at Permit until every waiting plugin allows them, one rejects them, or a timeout fires.
import type { SchedulerLike, Subscription } from 'rxjs';
import type { Pod } from '../../api/core-v1.ts';
import { newStatus, type Status, SUCCESS } from './status.ts';

/** Permit timeouts are capped at 15 minutes, as upstream's maxTimeout. */
export const MAX_PERMIT_TIMEOUT_MS = 15 * 60 * 1000;

/** Formats a duration in Go's time.Duration style for whole or fractional seconds/minutes ("10s", "1m30s", "500ms"). */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const totalSeconds = ms / 1000;
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds - hours * 3600) / 60);
  const seconds = totalSeconds - hours * 3600 - minutes * 60;
  let out = '';
  if (hours > 0) out += `${hours}h`;
  if (hours > 0 || minutes > 0) out += `${minutes}m`;
  out += `${Number(seconds.toFixed(9))}s`;
  return out;
}

/**
 * A pod waiting at Permit. Invariants: `pendingPlugins()` shrinks on each `allow`; the first of
 * "last plugin allowed", `reject` or a timeout settles `done` exactly once and cancels every timer.
 */
export class WaitingPod {
  readonly pod: Pod;
  readonly #pending: Map<string, Subscription | undefined>;
  #settled = false;
  #resolve!: (s: Status) => void;
  /** Settles with Success (all allowed) or the rejection status. */
  readonly done: Promise<Status>;

  constructor(pod: Pod, pluginsWaitTimeMs: ReadonlyMap<string, number>, scheduler: SchedulerLike) {
    this.pod = pod;
    this.done = new Promise((resolve) => {
      this.#resolve = resolve;
    });
    this.#pending = new Map();
    for (const [plugin, ms] of pluginsWaitTimeMs) {
      this.#pending.set(plugin, undefined);
      const waitMs = Math.min(Math.max(ms, 0), MAX_PERMIT_TIMEOUT_MS);
      const sub = scheduler.schedule(() => {
        this.reject(
          plugin,
          `rejected due to timeout after waiting ${formatGoDuration(waitMs)} at plugin ${plugin}`,
        );
      }, waitMs);
      if (this.#pending.has(plugin)) this.#pending.set(plugin, sub);
    }
  }

  get settled(): boolean {
    return this.#settled;
  }

  /** The plugins that have not allowed the pod yet. */
  pendingPlugins(): string[] {
    return [...this.#pending.keys()];
  }

  /** `plugin` allows the pod; when no plugin is left pending the pod is allowed. */
  allow(plugin: string): void {
    if (this.#settled) return;
    const timer = this.#pending.get(plugin);
    timer?.unsubscribe();
    this.#pending.delete(plugin);
    if (this.#pending.size === 0) this.#settle(SUCCESS);
  }

  /** `plugin` rejects the pod with `message` (Unschedulable). */
  reject(plugin: string, message: string): void {
    if (this.#settled) return;
    this.#settle({ ...newStatus('Unschedulable', message), plugin });
  }

  #settle(status: Status): void {
    this.#settled = true;
    for (const timer of this.#pending.values()) timer?.unsubscribe();
    this.#resolve(status);
  }
}

/** uid → waiting pod. */
export class WaitingPodsMap {
  readonly #pods = new Map<string, WaitingPod>();

  add(uid: string, wp: WaitingPod): void {
    this.#pods.set(uid, wp);
  }

  remove(uid: string): void {
    this.#pods.delete(uid);
  }

  get(uid: string): WaitingPod | undefined {
    return this.#pods.get(uid);
  }

  forEach(fn: (wp: WaitingPod) => void): void {
    for (const wp of [...this.#pods.values()]) fn(wp);
  }

  get size(): number {
    return this.#pods.size;
  }
}
