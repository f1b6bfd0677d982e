// Test fixtures for the scheduling queue: pods, a virtual clock, plugins that gate or hint as told.
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type {
  ClusterEventWithHint,
  PreEnqueuePlugin,
  QueueingHintFn,
} from '../../../../operators/scheduling/framework/interface.ts';
import { newStatus } from '../../../../operators/scheduling/framework/status.ts';
import {
  PriorityQueue,
  type PriorityQueueConfig,
} from '../../../../operators/scheduling/queue/priority-queue.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';

export interface PodOptions {
  namespace?: string;
  uid?: string;
  priority?: number;
  nodeName?: string;
  labels?: Record<string, string>;
  gates?: string[];
  nominatedNodeName?: string;
  schedulerName?: string;
  cpu?: string;
  resourceVersion?: string;
}

/** A pod named `name` (uid `name` unless given). */
export function pod(name: string, o: PodOptions = {}): Pod {
  return {
    metadata: {
      name,
      namespace: o.namespace ?? 'ns',
      uid: o.uid ?? name,
      labels: o.labels,
      resourceVersion: o.resourceVersion,
    },
    spec: {
      containers: [{ name: 'c', image: 'i', resources: o.cpu ? { requests: { cpu: o.cpu } } : undefined }],
      priority: o.priority,
      nodeName: o.nodeName,
      schedulingGates: o.gates?.map((g) => ({ name: g })),
      schedulerName: o.schedulerName,
    },
    status: o.nominatedNodeName ? { nominatedNodeName: o.nominatedNodeName } : {},
  };
}

/** The SchedulingGates plugin as the queue sees it: gated while spec.schedulingGates is non-empty. */
export const schedulingGates: PreEnqueuePlugin = {
  name: 'SchedulingGates',
  preEnqueue: (p) =>
    p.spec.schedulingGates?.length
      ? newStatus(
          'UnschedulableAndUnresolvable',
          `waiting for scheduling gates: ${p.spec.schedulingGates.map((g) => g.name).join(',')}`,
        )
      : undefined,
};

export const queueHint: QueueingHintFn = () => 'Queue';
export const skipHint: QueueingHintFn = () => 'QueueSkip';

/** A queue on a virtual clock, with the default profile's hints. */
export function newQueue(
  hints: Record<string, readonly ClusterEventWithHint[]> = {},
  config: PriorityQueueConfig = {},
): { q: PriorityQueue; clock: VirtualClock } {
  const clock = new VirtualClock();
  const q = new PriorityQueue({
    scheduler: clock.scheduler,
    queueingHints: { 'default-scheduler': hints },
    ...config,
  });
  return { q, clock };
}

/** Pops the pod and fails it as rejected by `plugins` (none: an error), returning the info. */
export function popAndReject(q: PriorityQueue, ...plugins: string[]) {
  const p = q.pop();
  if (!p) throw new Error('nothing to pop');
  p.unschedulablePlugins = new Set(plugins);
  return p;
}

export function names(pods: readonly Pod[]): string[] {
  return pods.map((p) => p.metadata.name!).sort();
}
