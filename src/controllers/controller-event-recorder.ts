// controllerEventRecorder: writes a controller's core/v1 Events about an object (Completed, SuccessfulCreate, TaintManagerEviction, ...).
import { randomBytes } from 'node:crypto';
import { firstValueFrom } from 'rxjs';
import type { Logger } from '../../operators/logger.ts';
import type { KubeObject } from '../../operators/types.ts';
import type { ApiClient } from '../../streams/api-client.ts';
import { EVENTS } from '../../streams/resources.ts';

/** Records one Event about an object; never throws (a failed write is logged). */
export type RecordObjectEvent = (
  object: KubeObject,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
) => void;

/**
 * An Event writer with `component` as source (e.g. upstream's `job-controller`), one new Event per call,
 * about the given object (kind and apiVersion taken from it).
 *
 * @param client where Events are created
 * @param component the reporting component
 * @param logger where each event (and a failed write) is logged
 * @param now wall clock in ms
 */
export function controllerEventRecorder(
  client: ApiClient,
  component: string,
  logger: Logger,
  now: () => number,
): RecordObjectEvent {
  return (object, type, reason, message) => {
    const namespace = object.metadata?.namespace ?? 'default';
    const name = object.metadata?.name ?? 'object';
    logger.info({ object: `${namespace}/${name}`, type, reason }, message);
    const stamp = new Date(Math.floor(now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    const event: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${name}.${randomBytes(8).toString('hex')}`, namespace },
      involvedObject: {
        apiVersion: object.apiVersion ?? 'batch/v1',
        kind: object.kind ?? 'Job',
        namespace,
        name,
        uid: object.metadata?.uid,
      },
      reason,
      message,
      type,
      count: 1,
      firstTimestamp: stamp,
      lastTimestamp: stamp,
      source: { component },
      reportingComponent: component,
    };
    firstValueFrom(client.create(EVENTS, event, { namespace })).catch((error: unknown) =>
      logger.debug({ err: String(error), reason }, 'could not write event'),
    );
  };
}
