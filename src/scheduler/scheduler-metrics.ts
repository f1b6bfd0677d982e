// kube-scheduler's metrics with upstream's names, on a prom-client registry, and the queue's metrics sink.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { SchedulingQueueMetrics } from '../../operators/scheduling/queue/priority-queue.ts';

const exponential = (start: number, factor: number, count: number): number[] =>
  Array.from({ length: count }, (_, i) => start * factor ** i);

/** The scheduler's metrics. `result` is `scheduled`, `unschedulable` or `error` as upstream. */
export interface SchedulerMetrics {
  readonly queue: SchedulingQueueMetrics;
  /** scheduler_schedule_attempts_total and scheduler_scheduling_attempt_duration_seconds. */
  attempt(result: 'scheduled' | 'unschedulable' | 'error', profile: string, seconds: number): void;
  /** scheduler_pod_scheduling_sli_duration_seconds: first attempt to bound, by attempts. */
  podScheduled(attempts: number, seconds: number): void;
  /** scheduler_framework_extension_point_duration_seconds. */
  extensionPoint(point: string, status: string, profile: string, seconds: number): void;
  /** scheduler_preemption_attempts_total / scheduler_preemption_victims. */
  /** One preemption attempt (a PostFilter run); `victims` when it evicted pods for a chosen node. */
  preemption(victims: number | undefined): void;
}

/**
 * Registers the scheduler's metrics on `registry` (each name once per registry).
 * @param registry the prom-client registry served on /metrics
 * @returns the metrics recorders
 */
export function schedulerMetrics(registry: Registry): SchedulerMetrics {
  const reuse = <T>(name: string, make: () => T): T =>
    (registry.getSingleMetric(name) as T | undefined) ?? make();
  const pending = reuse(
    'scheduler_pending_pods',
    () =>
      new Gauge({
        name: 'scheduler_pending_pods',
        help: "Number of pending pods, by the queue type. 'active' means number of pods in activeQ; 'backoff' means number of pods in backoffQ; 'unschedulable' means number of pods in unschedulablePods that the scheduler attempted to schedule and failed; 'gated' is the number of unschedulable pods that the scheduler never attempted to schedule because they are gated.",
        labelNames: ['queue'],
        registers: [registry],
      }),
  );
  const incoming = reuse(
    'scheduler_queue_incoming_pods_total',
    () =>
      new Counter({
        name: 'scheduler_queue_incoming_pods_total',
        help: 'Number of pods added to scheduling queues by event and queue type.',
        labelNames: ['queue', 'event'],
        registers: [registry],
      }),
  );
  const unschedulable = reuse(
    'scheduler_unschedulable_pods',
    () =>
      new Gauge({
        name: 'scheduler_unschedulable_pods',
        help: 'The number of unschedulable pods broken down by plugin name. A pod will increment the gauge for all plugins that caused it to not schedule and so this metric have meaning only when broken down by plugin.',
        labelNames: ['plugin', 'profile'],
        registers: [registry],
      }),
  );
  const attempts = reuse(
    'scheduler_schedule_attempts_total',
    () =>
      new Counter({
        name: 'scheduler_schedule_attempts_total',
        help: "Number of attempts to schedule pods, by the result. 'unschedulable' means a pod could not be scheduled, while 'error' means an internal scheduler problem.",
        labelNames: ['result', 'profile'],
        registers: [registry],
      }),
  );
  const attemptDuration = reuse(
    'scheduler_scheduling_attempt_duration_seconds',
    () =>
      new Histogram({
        name: 'scheduler_scheduling_attempt_duration_seconds',
        help: 'Scheduling attempt latency in seconds (scheduling algorithm + binding)',
        labelNames: ['result', 'profile'],
        buckets: exponential(0.001, 2, 15),
        registers: [registry],
      }),
  );
  const sli = reuse(
    'scheduler_pod_scheduling_sli_duration_seconds',
    () =>
      new Histogram({
        name: 'scheduler_pod_scheduling_sli_duration_seconds',
        help: 'E2e latency for a pod being scheduled, from the time the pod enters the scheduling queue and might involve multiple scheduling attempts.',
        labelNames: ['attempts'],
        buckets: exponential(0.01, 2, 20),
        registers: [registry],
      }),
  );
  const points = reuse(
    'scheduler_framework_extension_point_duration_seconds',
    () =>
      new Histogram({
        name: 'scheduler_framework_extension_point_duration_seconds',
        help: 'Latency for running all plugins of a specific extension point.',
        labelNames: ['extension_point', 'status', 'profile'],
        buckets: exponential(0.0001, 2, 12),
        registers: [registry],
      }),
  );
  const preemptionAttempts = reuse(
    'scheduler_preemption_attempts_total',
    () =>
      new Counter({
        name: 'scheduler_preemption_attempts_total',
        help: 'Total preemption attempts in the cluster till now',
        registers: [registry],
      }),
  );
  const preemptionVictims = reuse(
    'scheduler_preemption_victims',
    () =>
      new Histogram({
        name: 'scheduler_preemption_victims',
        help: 'Number of selected preemption victims',
        buckets: exponential(1, 2, 7),
        registers: [registry],
      }),
  );
  return {
    queue: {
      pendingPods: (queue, count) => pending.set({ queue }, count),
      incomingPod: (queue, event) => incoming.inc({ queue, event }),
      unschedulableReason: (plugin, profile, delta) => unschedulable.inc({ plugin, profile }, delta),
    },
    attempt(result, profile, seconds) {
      attempts.inc({ result, profile });
      attemptDuration.observe({ result, profile }, seconds);
    },
    podScheduled(n, seconds) {
      sli.observe({ attempts: String(n) }, seconds);
    },
    extensionPoint(point, status, profile, seconds) {
      points.observe({ extension_point: point, status, profile }, seconds);
    },
    preemption(victims) {
      preemptionAttempts.inc();
      if (victims !== undefined) preemptionVictims.observe(victims);
    },
  };
}
