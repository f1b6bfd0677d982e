// QueuedPodInfo: a pod as the scheduling queue holds it, with its attempts, backoff counts and rejecting plugins.
import type { Pod, PodAffinityTerm } from '../../api/core-v1.ts';
import type { ClusterEvent, QueuedPodRef } from '../framework/interface.ts';
import { newPodInfo, type PodInfo } from '../framework/node-info.ts';

/** The profile a pod asks for when `spec.schedulerName` is empty. */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

/**
 * One queued pod. Invariants: `timestamp` is when it last entered the queue (scheduler time, ms);
 * `backoffExpiration` is a cache the queue clears whenever the counts or the timestamp change;
 * a pod is gated exactly when `gatingPlugin` is set (a PreEnqueue plugin rejected it).
 * The scheduling loop owns the object between `pop` and `addUnschedulableIfNotPresent`/`done`,
 * and sets `unschedulablePlugins`/`pendingPlugins` from the cycle's diagnosis before requeueing.
 */
export class QueuedPodInfo implements QueuedPodRef {
  /** The latest version of the pod (an update of a queued pod replaces it here). */
  pod: Pod;
  timestamp: number;
  /** When it first entered activeQ (a gated pod gets it only once ungated). */
  initialAttemptTimestamp: number | undefined = undefined;
  /** Incremented at every pop. */
  attempts = 0;
  /** Times a plugin rejected it (the backoff count unless it is erroring). */
  unschedulableCount = 0;
  /** Consecutive failures with an error; reset by a rejection. */
  consecutiveErrorsCount = 0;
  /** Cached backoff expiry (ms); undefined means "compute again". */
  backoffExpiration: number | undefined = undefined;
  /** Plugins that rejected it with Unschedulable / UnschedulableAndUnresolvable (or gated it). */
  unschedulablePlugins: Set<string>;
  /** Plugins that rejected it with Pending: a Queue hint from one of them skips the backoff. */
  pendingPlugins = new Set<string>();
  /** The PreEnqueue plugin that gates it, if any. */
  gatingPlugin: string | undefined = undefined;
  /** The events the gating plugin registered: only they may ungate it. */
  gatingPluginEvents: readonly ClusterEvent[] = [];
  /** Set when the leftover flush moved it out of unschedulablePods; cleared when it comes back. */
  wasFlushedFromUnschedulable = false;
  #podInfo: PodInfo | undefined;
  #affinityTerms: readonly PodAffinityTerm[] | undefined;

  constructor(pod: Pod, timestamp: number, unschedulablePlugins: Iterable<string> = []) {
    this.pod = pod;
    this.timestamp = timestamp;
    this.unschedulablePlugins = new Set(unschedulablePlugins);
  }

  /** The pod's computed info (requests, ports, affinity), built on first use for the current pod. */
  get podInfo(): PodInfo {
    if (this.#podInfo === undefined || this.#podInfo.pod !== this.pod) this.#podInfo = newPodInfo(this.pod);
    return this.#podInfo;
  }

  /** The pod's required affinity and anti-affinity terms (what an assigned pod's arrival may satisfy). */
  get requiredAffinityTerms(): readonly PodAffinityTerm[] {
    if (this.#affinityTerms === undefined) {
      const a = this.pod.spec.affinity;
      this.#affinityTerms = [
        ...(a?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
        ...(a?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
      ];
    }
    return this.#affinityTerms;
  }

  /** The profile (scheduler name) this pod asks for. */
  get schedulerName(): string {
    return this.pod.spec.schedulerName || DEFAULT_SCHEDULER_NAME;
  }

  get uid(): string {
    return this.pod.metadata.uid ?? '';
  }

  /** True while a PreEnqueue plugin gates it. */
  get gated(): boolean {
    return this.gatingPlugin !== undefined;
  }

  /** Replaces the pod with a newer version of it (the derived infos are rebuilt on demand). */
  update(pod: Pod): void {
    if (pod === this.pod) return;
    this.pod = pod;
    this.#affinityTerms = undefined;
  }
}

/** The queue's key of a pod: `namespace/name`. */
export function podKey(pod: Pod): string {
  return `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
}
