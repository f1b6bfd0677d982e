// kubeletEventRecorder: writes the kubelet's core/v1 Events about a pod (Created, Started, Killing, BackOff, ...).
import { firstValueFrom } from 'rxjs';
import type { Pod } from '../../operators/api/core-v1.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import type { ApiClient } from '../../streams/api-client.ts';
import { EVENTS } from '../../streams/resources.ts';
import { podEvent } from '../events/pod-event.ts';

/** Records one Event about a pod; never throws (a failed write is logged). */
export type RecordPodEvent = (
  pod: Pod,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
  fieldPath?: string,
) => void;

/**
 * An Event writer with the kubelet as source (`component: kubelet`, `host: <node>`).
 *
 * @param client the API client (undefined: events are only logged)
 * @param nodeName the node, reported as the event's host
 * @param logger where each event (and a failed write) is logged
 * @param now wall clock in ms
 * @returns the recorder
 */
export function kubeletEventRecorder(
  client: ApiClient | undefined,
  nodeName: string,
  logger: Logger = silentLogger,
  now: () => number = Date.now,
): RecordPodEvent {
  return (pod, type, reason, message, fieldPath) => {
    logger.info({ pod: `${pod.metadata.namespace}/${pod.metadata.name}`, type, reason }, message);
    if (!client) return;
    const event = podEvent(
      pod,
      {
        type,
        reason,
        message,
        component: 'kubelet',
        instance: nodeName,
        host: nodeName,
        ...(fieldPath ? { fieldPath } : {}),
      },
      now(),
    );
    const namespace = pod.metadata.namespace ?? 'default';
    firstValueFrom(client.create(EVENTS, event, { namespace })).catch((error: unknown) =>
      logger.debug({ err: String(error), reason }, 'could not write event'),
    );
  };
}
