// The scheduler's API writes over an ApiClient: bind, delete a victim, pod status patches, and core/v1 Events.
import type { Observable } from 'rxjs';
import type { Pod, PodCondition } from '../../operators/api/core-v1.ts';
import type { SchedulerApi } from '../../operators/scheduling/framework/interface.ts';
import type { ApiClient } from '../../streams/api-client.ts';
import { EVENTS, PODS } from '../../streams/resources.ts';
import { podEvent } from '../events/pod-event.ts';

/** Subscribes, resolving with the last value; aborting `signal` unsubscribes (aborting the request). */
export function callApi<T>(call$: Observable<T>, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    let last: T | undefined;
    let sub: { unsubscribe(): void } | undefined;
    const onAbort = () => {
      sub?.unsubscribe();
      reject(signal!.reason);
    };
    // Listen before subscribing: a call that ends synchronously must still remove its listener, or the
    // shared signal collects one per call (and each add then walks them all).
    signal?.addEventListener('abort', onAbort, { once: true });
    sub = call$.subscribe({
      next: (v) => {
        last = v;
      },
      error: (e: unknown) => {
        signal?.removeEventListener('abort', onAbort);
        reject(e);
      },
      complete: () => {
        signal?.removeEventListener('abort', onAbort);
        resolve(last as T);
      },
    });
  });
}

/** What the scheduler writes, beyond the plugins' SchedulerApi: Events and the failure's status patch. */
export interface SchedulerWrites extends SchedulerApi {
  /**
   * Records a core/v1 Event about a pod (`Scheduled`, `FailedScheduling`), reported by `reportingController`
   * (the profile's scheduler name) with `action` (`Scheduling`/`Binding`).
   */
  recordEvent(
    pod: Pod,
    type: 'Normal' | 'Warning',
    reason: string,
    action: string,
    message: string,
    reportingController: string,
    signal?: AbortSignal,
  ): Promise<void>;
  /** Patches status: the condition (added or replaced by type) and, when given, nominatedNodeName ('' clears). */
  patchPodStatus(
    pod: Pod,
    condition: PodCondition | undefined,
    nominatedNodeName: string | undefined,
    signal?: AbortSignal,
  ): Promise<void>;
}

/**
 * The scheduler's writes through `client`.
 * @param client the API client
 * @param options `instance` is reportingInstance of Events (the host and process); `now` gives timestamps
 * @returns the writes
 */
export function schedulerApi(
  client: ApiClient,
  options: { instance?: string; now?: () => number } = {},
): SchedulerWrites {
  const now = options.now ?? Date.now;
  const patchStatus = (pod: Pod, status: Record<string, unknown>, signal?: AbortSignal) =>
    callApi(
      client.patch(PODS, pod.metadata.name ?? '', { status }, 'strategic', {
        namespace: pod.metadata.namespace,
        subresource: 'status',
      }),
      signal,
    ).then(() => undefined);
  return {
    async bind(pod, nodeName, signal) {
      await callApi(
        client.bind(
          {
            namespace: pod.metadata.namespace ?? 'default',
            name: pod.metadata.name ?? '',
            nodeName,
            ...(pod.metadata.uid ? { uid: pod.metadata.uid } : {}),
          },
          {},
        ),
        signal,
      );
    },
    async deletePod(pod, signal) {
      await callApi(
        client.delete(PODS, pod.metadata.name ?? '', {
          namespace: pod.metadata.namespace,
          ...(pod.spec.terminationGracePeriodSeconds !== undefined
            ? { gracePeriodSeconds: pod.spec.terminationGracePeriodSeconds }
            : {}),
          ...(pod.metadata.uid ? { preconditions: { uid: pod.metadata.uid } } : {}),
        }),
        signal,
      );
    },
    patchPodCondition(pod, condition, signal) {
      return patchStatus(pod, { conditions: [condition] }, signal);
    },
    setNominatedNodeName(pod, nodeName, signal) {
      return patchStatus(pod, { nominatedNodeName: nodeName === '' ? null : nodeName }, signal);
    },
    patchPodStatus(pod, condition, nominatedNodeName, signal) {
      const status: Record<string, unknown> = {};
      if (condition) status.conditions = [condition];
      if (nominatedNodeName !== undefined)
        status.nominatedNodeName = nominatedNodeName === '' ? null : nominatedNodeName;
      return patchStatus(pod, status, signal);
    },
    async recordEvent(pod, type, reason, action, message, reportingController, signal) {
      const event = podEvent(
        pod,
        {
          type,
          reason,
          message,
          action,
          component: reportingController,
          instance: options.instance ?? reportingController,
          withResourceVersion: true,
        },
        now(),
      );
      const namespace = pod.metadata.namespace ?? 'default';
      await callApi(client.create(EVENTS, event, { namespace }), signal);
    },
  };
}
