// Test helper: a PodSyncer that records every call and settles each one when the test says so (or after a set time).
import { Observable, type SchedulerLike } from 'rxjs';
import type { Pod } from '../../../operators/api/core-v1.ts';
import type { PodSyncer, RunningPod, SyncPodType } from '../../../operators/pod-workers/types.ts';

/** One recorded call of a sync function. */
export interface SyncCall {
  kind: 'sync' | 'terminating' | 'terminatingRuntime' | 'terminated';
  uid: string;
  updateType?: SyncPodType;
  pod?: Pod;
  gracePeriod?: number;
  signal: AbortSignal;
  /** Settles the call: a value for syncPod (isTerminal), or an error. */
  resolve(terminal?: boolean): void;
  reject(error: unknown): void;
  settled: boolean;
}

/** Options: settle automatically after `delayMs` of scheduler time (default: manual). */
export interface FakeSyncerOptions {
  scheduler?: SchedulerLike;
  delayMs?: number;
  /** For automatic settling: syncPod's result and failures. */
  terminal?: (pod: Pod) => boolean;
  fail?: (call: SyncCall) => unknown;
}

/** A recording syncer; `calls` lists every call in order, `running` counts unsettled calls per UID. */
export function fakeSyncer(options: FakeSyncerOptions = {}): PodSyncer & {
  calls: SyncCall[];
  maxConcurrentPerPod: number;
  open(): SyncCall[];
  at(index: number): SyncCall;
} {
  const calls: SyncCall[] = [];
  const running = new Map<string, number>();
  const state = { maxConcurrentPerPod: 0 };
  const make = <T>(partial: Omit<SyncCall, 'resolve' | 'reject' | 'settled'>, value: (t?: boolean) => T) =>
    new Observable<T>((subscriber) => {
      const call = partial as SyncCall;
      call.settled = false;
      const count = (running.get(call.uid) ?? 0) + 1;
      running.set(call.uid, count);
      state.maxConcurrentPerPod = Math.max(state.maxConcurrentPerPod, count);
      const finish = () => {
        call.settled = true;
        running.set(call.uid, (running.get(call.uid) ?? 1) - 1);
      };
      call.resolve = (terminal) => {
        if (call.settled) return;
        finish();
        subscriber.next(value(terminal));
        subscriber.complete();
      };
      call.reject = (error) => {
        if (call.settled) return;
        finish();
        subscriber.error(error);
      };
      calls.push(call);
      if (options.scheduler && options.delayMs !== undefined) {
        const action = options.scheduler.schedule(() => {
          const failure = options.fail?.(call);
          if (failure !== undefined) call.reject(failure);
          else
            call.resolve(
              call.pod && call.kind === 'sync' ? (options.terminal?.(call.pod) ?? false) : undefined,
            );
        }, options.delayMs);
        return () => action.unsubscribe();
      }
      return undefined;
    });
  return {
    calls,
    get maxConcurrentPerPod() {
      return state.maxConcurrentPerPod;
    },
    open: () => calls.filter((c) => !c.settled),
    at: (index) => {
      const call = calls[index];
      if (!call) throw new Error(`no call #${index}; calls: ${calls.map((c) => c.kind).join(',')}`);
      return call;
    },
    syncPod: (signal, updateType, pod) =>
      make({ kind: 'sync', uid: pod.metadata.uid ?? '', updateType, pod, signal }, (t) => t === true),
    syncTerminatingPod: (signal, pod, gracePeriod) =>
      make({ kind: 'terminating', uid: pod.metadata.uid ?? '', pod, gracePeriod, signal }, () => undefined),
    syncTerminatingRuntimePod: (signal, runningPod: RunningPod) =>
      make({ kind: 'terminatingRuntime', uid: runningPod.uid, signal }, () => undefined),
    syncTerminatedPod: (signal, pod) =>
      make({ kind: 'terminated', uid: pod.metadata.uid ?? '', pod, signal }, () => undefined),
  };
}

/** A pod with one container; `static` gives it a file source annotation. */
export function testPod(
  uid: string,
  name: string,
  namespace = 'ns',
  extra: { static?: boolean; phase?: string; deleted?: boolean; grace?: number; deletionGrace?: number } = {},
): Pod {
  return {
    metadata: {
      uid,
      name,
      namespace,
      ...(extra.static ? { annotations: { 'kubernetes.io/config.source': 'file' } } : {}),
      ...(extra.deleted ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
      ...(extra.deletionGrace !== undefined ? { deletionGracePeriodSeconds: extra.deletionGrace } : {}),
    },
    spec: {
      containers: [{ name: 'c', image: 'busybox' }],
      ...(extra.grace !== undefined ? { terminationGracePeriodSeconds: extra.grace } : {}),
    },
    status: extra.phase ? { phase: extra.phase } : {},
  };
}
