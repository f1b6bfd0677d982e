// CrashLoopBackOff: the kubelet's per-container restart backoff (10 s doubling to 5 min, forgotten after 10 min).

interface Entry {
  backoffMs: number;
  lastUpdate: number;
}

/** Settings; the kubelet's defaults. */
export interface CrashLoopBackOffConfig {
  /** default 10 000 */
  initialMs?: number;
  /** default 300 000 */
  maxMs?: number;
}

/**
 * The restart backoff of flowcontrol.Backoff as the kubelet uses it: per key (pod and container), the
 * delay starts at 10 s and doubles up to 5 min on every restart; an entry not touched for twice the
 * maximum (10 min, e.g. a container that ran that long) starts over. Time is passed in.
 *
 * Invariant: memory is one entry per key; {@link gc} drops entries older than twice the maximum.
 */
export class CrashLoopBackOff {
  private readonly entries = new Map<string, Entry>();
  private readonly initialMs: number;
  private readonly maxMs: number;

  constructor(config: CrashLoopBackOffConfig = {}) {
    this.initialMs = config.initialMs ?? 10_000;
    this.maxMs = config.maxMs ?? 300_000;
  }

  /** The current delay of `key`, 0 if none. */
  get(key: string): number {
    return this.entries.get(key)?.backoffMs ?? 0;
  }

  /** Whether `key` is still backing off from an event at `eventTime` (IsInBackOffSince). */
  isInBackOffSince(key: string, eventTime: number, now: number): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    if (this.hasExpired(eventTime, entry.lastUpdate)) return false;
    return now - eventTime < entry.backoffMs;
  }

  /** Records a restart at `now`: starts at the initial delay, or doubles up to the maximum (Next). */
  next(key: string, now: number): void {
    const entry = this.entries.get(key);
    if (!entry || this.hasExpired(now, entry.lastUpdate)) {
      this.entries.set(key, { backoffMs: this.initialMs, lastUpdate: now });
      return;
    }
    entry.backoffMs = Math.min(entry.backoffMs * 2, this.maxMs);
    entry.lastUpdate = now;
  }

  /** Forgets `key`. */
  reset(key: string): void {
    this.entries.delete(key);
  }

  /** Drops every entry not touched for twice the maximum. */
  gc(now: number): void {
    for (const [key, entry] of this.entries)
      if (now - entry.lastUpdate > 2 * this.maxMs) this.entries.delete(key);
  }

  /** Drops every entry whose key starts with `prefix` (a pod that is gone). */
  forgetPrefix(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Stable for twice the maximum since the last restart: the backoff starts over. */
  private hasExpired(eventTime: number, lastUpdate: number): boolean {
    return eventTime - lastUpdate > this.maxMs * 2;
  }
}

/** The backoff key of a container of a pod: `name_namespace_uid_container_hash`. */
export function crashLoopKey(
  pod: { name: string; namespace: string; uid: string },
  container: string,
  hash: string,
): string {
  return `${pod.name}_${pod.namespace}_${pod.uid}_${container}_${hash}`;
}

/** The waiting message of a container in CrashLoopBackOff, as the kubelet writes it. */
export function crashLoopMessage(
  delayMs: number,
  container: string,
  pod: { name: string; namespace: string; uid: string },
): string {
  return `back-off ${formatGoDuration(delayMs)} restarting failed container=${container} pod=${pod.name}_${pod.namespace}(${pod.uid})`;
}

/** Go's time.Duration String for whole seconds: `10s`, `5m0s`, `2m40s`. */
export function formatGoDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${seconds % 60}s`;
  return `${Math.floor(minutes / 60)}h${minutes % 60}m${seconds % 60}s`;
}
