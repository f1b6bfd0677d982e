// The work queue's metrics port (client-go's MetricsProvider) and the recorder a named queue feeds.
import type { SchedulerLike, Subscription } from 'rxjs';

/** A value that goes up and down by one. */
export interface GaugeMetric {
  inc(): void;
  dec(): void;
}

/** A value that is set outright. */
export interface SettableGaugeMetric {
  set(value: number): void;
}

/** A value that only goes up. */
export interface CounterMetric {
  inc(): void;
}

/** A distribution of observations (seconds, for the work queue). */
export interface HistogramMetric {
  observe(value: number): void;
}

/**
 * Makes the metrics of one named queue. kube-rx's queues only talk to this port; `src/metrics`
 * implements it with prom-client under upstream's names (`workqueue_depth`, ...), labelled `name`.
 */
export interface WorkQueueMetricsProvider {
  /** Items added and not yet handed out (`workqueue_depth`). */
  newDepthMetric(name: string): GaugeMetric;
  /** Adds that were not coalesced with a pending add (`workqueue_adds_total`). */
  newAddsMetric(name: string): CounterMetric;
  /** Seconds from add to hand-out (`workqueue_queue_duration_seconds`). */
  newLatencyMetric(name: string): HistogramMetric;
  /** Seconds from hand-out to `done` (`workqueue_work_duration_seconds`). */
  newWorkDurationMetric(name: string): HistogramMetric;
  /** Sum of the ages of all items being processed (`workqueue_unfinished_work_seconds`). */
  newUnfinishedWorkSecondsMetric(name: string): SettableGaugeMetric;
  /** Age of the oldest item being processed (`workqueue_longest_running_processor_seconds`). */
  newLongestRunningProcessorSecondsMetric(name: string): SettableGaugeMetric;
  /** Delayed and rate-limited adds (`workqueue_retries_total`). */
  newRetriesMetric(name: string): CounterMetric;
}

const noop = { inc() {}, dec() {}, set() {}, observe() {} };

/** A provider whose metrics record nothing; the default. */
export const noopWorkQueueMetrics: WorkQueueMetricsProvider = {
  newDepthMetric: () => noop,
  newAddsMetric: () => noop,
  newLatencyMetric: () => noop,
  newWorkDurationMetric: () => noop,
  newUnfinishedWorkSecondsMetric: () => noop,
  newLongestRunningProcessorSecondsMetric: () => noop,
  newRetriesMetric: () => noop,
};

/**
 * What one queue reports, in client-go's terms. Invariants: depth = adds − hand-outs (so an item
 * re-added while it is processed counts in the depth although it is not yet in the queue proper);
 * the queue latency of an item is measured from its first add since its last hand-out; the
 * unfinished-work gauges are refreshed every `updatePeriodMs` while something is being processed
 * and set to 0 as soon as nothing is; the refresh timer lapses one period after the queue went idle.
 *
 * Teardown: `stop()` cancels the refresh timer; after it the gauges are no longer refreshed.
 */
export class WorkQueueMetrics<T> {
  private readonly depth: GaugeMetric;
  private readonly adds: CounterMetric;
  private readonly latency: HistogramMetric;
  private readonly workDuration: HistogramMetric;
  private readonly unfinished: SettableGaugeMetric;
  private readonly longest: SettableGaugeMetric;
  private readonly retries: CounterMetric;
  private readonly addTimes = new Map<T, number>();
  private readonly startTimes = new Map<T, number>();
  private readonly scheduler: SchedulerLike;
  private readonly updatePeriodMs: number;
  private ticker: Subscription | undefined;
  private stopped = false;
  /** True while the unfinished-work gauges already read 0. */
  private zeroed = true;

  constructor(
    provider: WorkQueueMetricsProvider,
    name: string,
    scheduler: SchedulerLike,
    updatePeriodMs = 500,
  ) {
    this.depth = provider.newDepthMetric(name);
    this.adds = provider.newAddsMetric(name);
    this.latency = provider.newLatencyMetric(name);
    this.workDuration = provider.newWorkDurationMetric(name);
    this.unfinished = provider.newUnfinishedWorkSecondsMetric(name);
    this.longest = provider.newLongestRunningProcessorSecondsMetric(name);
    this.retries = provider.newRetriesMetric(name);
    this.scheduler = scheduler;
    this.updatePeriodMs = updatePeriodMs;
  }

  add(item: T): void {
    this.adds.inc();
    this.depth.inc();
    if (!this.addTimes.has(item)) this.addTimes.set(item, this.scheduler.now());
  }

  get(item: T): void {
    this.depth.dec();
    const now = this.scheduler.now();
    this.startTimes.set(item, now);
    const added = this.addTimes.get(item);
    if (added !== undefined) {
      this.latency.observe((now - added) / 1000);
      this.addTimes.delete(item);
    }
    if (!this.ticker && !this.stopped) {
      // Re-arms itself while work is in progress; the first tick that finds nothing in progress
      // lets it lapse (stopping it on every idle moment would cost a timer per item).
      const metrics = this;
      this.ticker = this.scheduler.schedule(function tick() {
        if (metrics.startTimes.size === 0) {
          metrics.ticker = undefined;
          return;
        }
        metrics.updateUnfinishedWork();
        this.schedule(undefined, metrics.updatePeriodMs);
      }, this.updatePeriodMs);
    }
  }

  done(item: T): void {
    const started = this.startTimes.get(item);
    if (started !== undefined) {
      this.workDuration.observe((this.scheduler.now() - started) / 1000);
      this.startTimes.delete(item);
    }
    if (this.startTimes.size === 0) this.idle();
  }

  retry(): void {
    this.retries.inc();
  }

  /** Sets the unfinished-work gauges from the items being processed now. */
  updateUnfinishedWork(): void {
    if (this.stopped) return;
    const now = this.scheduler.now();
    let total = 0;
    let oldest = 0;
    for (const started of this.startTimes.values()) {
      const age = (now - started) / 1000;
      total += age;
      if (age > oldest) oldest = age;
    }
    this.unfinished.set(total);
    this.longest.set(oldest);
    this.zeroed = total === 0;
  }

  /** Stops refreshing the unfinished-work gauges (the queue is shutting down). */
  stop(): void {
    this.stopped = true;
    this.ticker?.unsubscribe();
    this.ticker = undefined;
  }

  private idle(): void {
    if (!this.stopped && !this.zeroed) {
      this.unfinished.set(0);
      this.longest.set(0);
      this.zeroed = true;
    }
  }
}
