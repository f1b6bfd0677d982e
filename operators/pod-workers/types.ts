// The pod workers' vocabulary: update types, options, kill options, the runtime-only pod and the injected sync functions.
import type { ObservableInput } from 'rxjs';
import type { Pod } from '../api/core-v1.ts';

/** Why an update was sent, with the kubelet's names (SyncPodType). */
export type SyncPodType = 'sync' | 'update' | 'create' | 'kill';

/** Which of the three sync functions a pod is due for (PodWorkerState). */
export type PodWorkerState = 'SyncPod' | 'TerminatingPod' | 'TerminatedPod';

/** A pod the runtime reports that no configuration knows (kubecontainer.Pod): only a kill applies to it. */
export interface RunningPod {
  uid: string;
  name: string;
  namespace: string;
}

/** How a kill is asked for (KillPodOptions). */
export interface KillPodOptions {
  /** The pod is being evicted (sticky once set). */
  evict?: boolean;
  /** A grace period shorter than the pod's own; only ever shortens. */
  podTerminationGracePeriodSecondsOverride?: number;
  /** Called once the pod has terminated (or the kill was refused), exactly once. */
  completed?: () => void;
  /** Lets the caller shape the final status (e.g. an eviction's reason); passed to syncTerminatingPod. */
  podStatusFunc?: (pod: Pod) => void;
}

/** One update for one pod (UpdatePodOptions). Exactly one of `pod` or `runningPod` identifies it. */
export interface UpdatePodOptions {
  updateType: SyncPodType;
  /** When the change was first observed (ms); the oldest of coalesced updates is kept. */
  startTime?: number;
  pod?: Pod;
  mirrorPod?: Pod;
  runningPod?: RunningPod;
  killPodOptions?: KillPodOptions;
}

/**
 * What a pod worker calls. Each returns an ObservableInput; the worker takes the next update for the
 * pod only when it settles (completes or errors). `signal` aborts when the pod's sync is superseded
 * (termination requested or the grace period shortened while it runs); an aborted call should settle
 * soon, its outcome is ignored and the queued update runs next.
 */
export interface PodSyncer {
  /** Makes the pod run as its spec says; resolves true when the pod has reached a terminal phase. */
  syncPod(
    signal: AbortSignal,
    updateType: SyncPodType,
    pod: Pod,
    mirrorPod: Pod | undefined,
  ): ObservableInput<boolean>;
  /** Stops every container of the pod within `gracePeriodSeconds`; resolves when none runs. */
  syncTerminatingPod(
    signal: AbortSignal,
    pod: Pod,
    gracePeriodSeconds: number,
    podStatusFunc: ((pod: Pod) => void) | undefined,
  ): ObservableInput<void>;
  /** Stops a pod only the runtime knows. */
  syncTerminatingRuntimePod(signal: AbortSignal, runningPod: RunningPod): ObservableInput<void>;
  /** Releases what a terminated pod still holds (volumes, sandbox); resolves when done. */
  syncTerminatedPod(signal: AbortSignal, pod: Pod): ObservableInput<void>;
}

/** What SyncKnownPods reports for each pod still known (PodWorkerSync). */
export interface PodWorkerSync {
  state: PodWorkerState;
  /** Not in the desired set any more. */
  orphan: boolean;
  /** The worker holds a config pod (not only a runtime pod). */
  hasConfig: boolean;
  static: boolean;
}
