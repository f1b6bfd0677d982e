// Tests the prom-client work queue metrics by reading the registry's text exposition.
import { register as globalRegistry, Registry } from 'prom-client';
import { of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { reconcileWith } from '../../../operators/reconcile.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import {
  prometheusWorkQueueMetrics,
  WORK_QUEUE_DURATION_BUCKETS,
} from '../../../src/metrics/prometheus-work-queue-metrics.ts';
import { VirtualClock } from '../../../src/testing/virtual-clock.ts';

/** The value of one sample line, e.g. `workqueue_depth{name="pods"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const NAMES = [
  'workqueue_depth',
  'workqueue_adds_total',
  'workqueue_queue_duration_seconds',
  'workqueue_work_duration_seconds',
  'workqueue_unfinished_work_seconds',
  'workqueue_longest_running_processor_seconds',
  'workqueue_retries_total',
];

describe('prometheusWorkQueueMetrics', () => {
  it('registers upstream names with the `name` label in the given registry only, each series at 0', async () => {
    const registry = new Registry();
    const globalBefore = (await globalRegistry.metrics()).length;
    workQueue({ name: 'pods', metrics: prometheusWorkQueueMetrics(registry) });
    const text = await registry.metrics();
    for (const name of NAMES) expect(text).toContain(`# TYPE ${name} `);
    expect(sample(text, 'workqueue_depth{name="pods"}')).toBe(0);
    expect(sample(text, 'workqueue_adds_total{name="pods"}')).toBe(0);
    expect(sample(text, 'workqueue_retries_total{name="pods"}')).toBe(0);
    expect(sample(text, 'workqueue_queue_duration_seconds_count{name="pods"}')).toBe(0);
    expect((await globalRegistry.metrics()).length).toBe(globalBefore);
  });

  it('uses the buckets 1e-6 … 1e3 of component-base', async () => {
    expect(WORK_QUEUE_DURATION_BUCKETS).toEqual([1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1000]);
    const registry = new Registry();
    workQueue({ name: 'b', metrics: prometheusWorkQueueMetrics(registry) });
    const json = await registry.getSingleMetric('workqueue_work_duration_seconds')!.get();
    const les = json.values
      .filter((v) => (v as { metricName?: string }).metricName === 'workqueue_work_duration_seconds_bucket')
      .map((v) => v.labels.le);
    expect(les).toEqual([...WORK_QUEUE_DURATION_BUCKETS, '+Inf']);
  });

  it('follows a queue: adds, depth, latency and work duration, retries, unfinished work', async () => {
    const clock = new VirtualClock();
    const registry = new Registry();
    const q = workQueue({
      name: 'pods',
      metrics: prometheusWorkQueueMetrics(registry),
      scheduler: clock.scheduler,
    });
    q.add('a');
    q.add('b');
    q.add('a');
    clock.advance(2000);
    q.poll(); // a waited 2 s
    clock.advance(3000); // a runs 3 s (ticks every 500 ms refresh the gauges)
    let text = await registry.metrics();
    expect(sample(text, 'workqueue_adds_total{name="pods"}')).toBe(2);
    expect(sample(text, 'workqueue_depth{name="pods"}')).toBe(1);
    expect(sample(text, 'workqueue_queue_duration_seconds_count{name="pods"}')).toBe(1);
    expect(sample(text, 'workqueue_queue_duration_seconds_sum{name="pods"}')).toBe(2);
    expect(sample(text, 'workqueue_queue_duration_seconds_bucket{le="1",name="pods"}')).toBe(0);
    expect(sample(text, 'workqueue_queue_duration_seconds_bucket{le="10",name="pods"}')).toBe(1);
    expect(sample(text, 'workqueue_unfinished_work_seconds{name="pods"}')).toBe(3);
    expect(sample(text, 'workqueue_longest_running_processor_seconds{name="pods"}')).toBe(3);
    q.done('a');
    q.addAfter('c', 10);
    text = await registry.metrics();
    expect(sample(text, 'workqueue_work_duration_seconds_sum{name="pods"}')).toBe(3);
    expect(sample(text, 'workqueue_work_duration_seconds_count{name="pods"}')).toBe(1);
    expect(sample(text, 'workqueue_unfinished_work_seconds{name="pods"}')).toBe(0);
    expect(sample(text, 'workqueue_retries_total{name="pods"}')).toBe(1);
    q.shutDown();
  });

  it('two queues share the families in one registry, told apart by `name`', async () => {
    const registry = new Registry();
    const a = workQueue({ name: 'a', metrics: prometheusWorkQueueMetrics(registry) });
    const b = workQueue({ name: 'b', metrics: prometheusWorkQueueMetrics(registry) });
    a.add('x');
    b.add('x');
    b.add('y');
    const text = await registry.metrics();
    expect(sample(text, 'workqueue_adds_total{name="a"}')).toBe(1);
    expect(sample(text, 'workqueue_adds_total{name="b"}')).toBe(2);
    expect(text.match(/# TYPE workqueue_adds_total /g)).toHaveLength(1);
  });

  it('a reconcile runner reports through the same provider', async () => {
    const registry = new Registry();
    of('a', 'b', 'c')
      .pipe(reconcileWith(() => ({}), { name: 'ctl', metrics: prometheusWorkQueueMetrics(registry) }))
      .subscribe();
    const text = await registry.metrics();
    expect(sample(text, 'workqueue_adds_total{name="ctl"}')).toBe(3);
    expect(sample(text, 'workqueue_work_duration_seconds_count{name="ctl"}')).toBe(3);
    expect(sample(text, 'workqueue_depth{name="ctl"}')).toBe(0);
  });
});
