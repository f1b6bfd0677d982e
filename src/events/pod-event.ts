// podEvent: a core/v1 Event about a pod, as the kubelet's and kube-scheduler's event recorders write it.
import { randomBytes } from 'node:crypto';
import type { Pod } from '../../operators/api/core-v1.ts';
import type { KubeObject } from '../../operators/types.ts';

/** Who reports the event and how it is told. */
export interface PodEventFields {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  /** The reporting controller, e.g. `kubelet` or `default-scheduler` (source.component too). */
  component: string;
  /** The reporting instance; default the component. */
  instance?: string;
  /** source.host (the kubelet's node). */
  host?: string;
  /** events.k8s.io's action (the scheduler's `Scheduling`, `Binding`). */
  action?: string;
  /** involvedObject.fieldPath, e.g. `spec.containers{web}`. */
  fieldPath?: string;
  /** Record the pod's resourceVersion in involvedObject. */
  withResourceVersion?: boolean;
}

/**
 * A new core/v1 Event about `pod` (count 1, first and last timestamps at `now` truncated to the second,
 * as the API's second-precision times), named `<pod>.<unique hex>` in the pod's namespace.
 * @param pod the pod the event is about
 * @param fields type, reason, message and the reporter
 * @param now the time in ms
 * @returns the Event to create
 */
export function podEvent(pod: Pod, fields: PodEventFields, now: number): KubeObject {
  const stamp = new Date(Math.floor(now / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  const namespace = pod.metadata.namespace ?? 'default';
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: `${pod.metadata.name ?? 'pod'}.${(BigInt(Math.floor(now)) * 1_000_000n).toString(16)}${randomBytes(4).toString('hex')}`,
      namespace,
    },
    involvedObject: {
      apiVersion: 'v1',
      kind: 'Pod',
      namespace,
      name: pod.metadata.name,
      uid: pod.metadata.uid,
      ...(fields.withResourceVersion ? { resourceVersion: pod.metadata.resourceVersion } : {}),
      ...(fields.fieldPath ? { fieldPath: fields.fieldPath } : {}),
    },
    reason: fields.reason,
    message: fields.message,
    type: fields.type,
    ...(fields.action ? { action: fields.action } : {}),
    count: 1,
    firstTimestamp: stamp,
    lastTimestamp: stamp,
    source: { component: fields.component, ...(fields.host ? { host: fields.host } : {}) },
    reportingComponent: fields.component,
    reportingInstance: fields.instance ?? fields.component,
  };
}
