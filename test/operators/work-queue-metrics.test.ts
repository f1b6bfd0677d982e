// Tests what a named work queue reports through the metrics port (client-go's metrics_test.go), in virtual time.
import { describe, expect, it } from 'vitest';
import { workQueue } from '../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../operators/work-queue-metrics.ts';
import { VirtualClock } from '../../src/testing/virtual-clock.ts';

class Recorded {
  inc = 0;
  dec = 0;
  value: number | undefined;
  observations: number[] = [];
  sets = 0;
  get gauge() {
    return this.value ?? this.inc - this.dec;
  }
}

function recordingProvider() {
  const m = {
    depth: new Recorded(),
    adds: new Recorded(),
    latency: new Recorded(),
    duration: new Recorded(),
    unfinished: new Recorded(),
    longest: new Recorded(),
    retries: new Recorded(),
  };
  const names: string[] = [];
  const counter = (r: Recorded) => ({ inc: () => void r.inc++, dec: () => void r.dec++ });
  const settable = (r: Recorded) => ({
    set: (v: number) => {
      r.value = v;
      r.sets++;
    },
  });
  const histogram = (r: Recorded) => ({ observe: (v: number) => void r.observations.push(v) });
  const provider: WorkQueueMetricsProvider = {
    newDepthMetric: (name) => {
      names.push(name);
      return counter(m.depth);
    },
    newAddsMetric: () => counter(m.adds),
    newLatencyMetric: () => histogram(m.latency),
    newWorkDurationMetric: () => histogram(m.duration),
    newUnfinishedWorkSecondsMetric: () => settable(m.unfinished),
    newLongestRunningProcessorSecondsMetric: () => settable(m.longest),
    newRetriesMetric: () => counter(m.retries),
  };
  return { m, names, provider };
}

describe('work queue metrics (metrics_test.go)', () => {
  it('adds, depth, queue latency, work duration and unfinished work follow the items', () => {
    const clock = new VirtualClock();
    const { m, names, provider } = recordingProvider();
    const q = workQueue({
      name: 'test',
      metrics: provider,
      scheduler: clock.scheduler,
      unfinishedWorkUpdatePeriodMs: 1,
    });
    expect(names).toEqual(['test']);
    q.add('foo');
    expect(m.adds.gauge).toBe(1);
    expect(m.depth.gauge).toBe(1);
    clock.advance(0.05); // 50 µs
    expect(q.poll()).toEqual({ item: 'foo' });
    expect(m.latency.observations).toHaveLength(1);
    expect(m.latency.observations[0]).toBeCloseTo(5e-5, 12);

    // Re-added while processing: counted once, and it shows in the depth though not yet queued.
    for (let i = 0; i < 5; i++) q.add('foo');
    expect(m.adds.gauge).toBe(2);
    expect(m.depth.gauge).toBe(1);

    clock.advance(0.025);
    q.done('foo');
    expect(m.duration.observations).toHaveLength(1);
    expect(m.duration.observations[0]).toBeCloseTo(2.5e-5, 12);
    expect(m.depth.gauge).toBe(1);

    expect(q.poll()).toEqual({ item: 'foo' });
    expect(m.latency.observations).toHaveLength(2);
    expect(m.latency.observations[1]).toBeCloseTo(2.5e-5, 12);

    clock.advance(1);
    // A refresh tick (every 1 ms here) saw foo running for at most the 1 ms since it was handed out.
    expect(m.unfinished.gauge).toBeGreaterThan(0);
    expect(m.unfinished.gauge).toBeLessThanOrEqual(0.001);
    expect(m.longest.gauge).toBe(m.unfinished.gauge);

    q.done('foo');
    expect(m.duration.observations).toHaveLength(2);
    expect(m.duration.observations[1]).toBeCloseTo(0.001, 12);
    // Nothing processing: the gauges drop to zero at once, and the refresh timer lapses at its next tick.
    expect(m.unfinished.gauge).toBe(0);
    expect(m.longest.gauge).toBe(0);
    clock.advance(1);
    expect(clock.scheduler.actions).toHaveLength(0);
    expect(m.unfinished.gauge).toBe(0);
    q.shutDown();
  });

  it('unfinished work sums the ages of all items in processing; longest is the oldest', () => {
    const clock = new VirtualClock();
    const { m, provider } = recordingProvider();
    const q = workQueue({ name: 'q', metrics: provider, scheduler: clock.scheduler });
    q.add('a');
    q.add('b');
    q.poll();
    clock.advance(1000);
    q.poll();
    clock.advance(1000); // ticks at 500, 1000, 1500, 2000 ms after the first get
    expect(m.unfinished.gauge).toBeCloseTo(3, 9); // 2 s + 1 s
    expect(m.longest.gauge).toBeCloseTo(2, 9);
    q.shutDown();
  });

  it('retries count every delayed or rate-limited add made before shutdown', () => {
    const clock = new VirtualClock();
    const { m, provider } = recordingProvider();
    const q = workQueue({ name: 'q', metrics: provider, scheduler: clock.scheduler });
    q.addAfter('a', 0);
    q.addAfter('b', 10);
    q.addRateLimited('c');
    expect(m.retries.inc).toBe(3);
    q.shutDown();
    q.addAfter('d', 10);
    expect(m.retries.inc).toBe(3);
  });

  it('no unfinished-work update after shutdown (TestMetricShutdown)', () => {
    const clock = new VirtualClock();
    const { m, provider } = recordingProvider();
    const q = workQueue({
      name: 'q',
      metrics: provider,
      scheduler: clock.scheduler,
      unfinishedWorkUpdatePeriodMs: 1,
    });
    q.add('a');
    q.poll();
    clock.advance(1);
    const sets = m.unfinished.sets;
    expect(sets).toBeGreaterThan(0);
    q.shutDown();
    clock.advance(3_600_000);
    expect(m.unfinished.sets).toBe(sets);
    expect(clock.scheduler.actions).toHaveLength(0);
  });

  it('an unnamed queue asks the provider for nothing', () => {
    const { names, m, provider } = recordingProvider();
    const q = workQueue({ metrics: provider });
    q.add('a');
    expect(names).toEqual([]);
    expect(m.adds.inc).toBe(0);
  });
});
