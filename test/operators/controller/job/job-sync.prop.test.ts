// Property (issue 15): under any interleaving of pod phase changes, deletions, failed writes and controller restarts, the job
// never has more than parallelism active pods, never counts a pod twice, and ends with exactly one terminal condition.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { JobBackoffRecord } from '../../../../operators/controller/job/job-backoff.ts';
import { planJobSync } from '../../../../operators/controller/job/job-sync.ts';
import {
  completionIndexOf,
  JOB_TRACKING_FINALIZER,
  type Job,
} from '../../../../operators/controller/job/job-types.ts';
import { isPodActive } from '../../../../operators/controller/pod-deletion-order.ts';
import { NOW, newJob } from './job-fixtures.ts';

type Op =
  | { type: 'sync'; failCreate: boolean; failFinalizer: boolean; failStatus: boolean }
  | { type: 'phase'; pod: number; phase: 'Running' | 'Succeeded' | 'Failed' }
  | { type: 'userDelete'; pod: number }
  | { type: 'kubeletKill' }
  | { type: 'restart' }
  | { type: 'advance'; ms: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    type: fc.constant('sync' as const),
    failCreate: fc.boolean(),
    failFinalizer: fc.boolean(),
    failStatus: fc.boolean(),
  }),
  fc.record({
    type: fc.constant('phase' as const),
    pod: fc.nat(30),
    phase: fc.constantFrom('Running' as const, 'Succeeded' as const, 'Failed' as const),
  }),
  fc.record({ type: fc.constant('userDelete' as const), pod: fc.nat(30) }),
  fc.constant({ type: 'kubeletKill' as const }),
  fc.constant({ type: 'restart' as const }),
  fc.record({ type: fc.constant('advance' as const), ms: fc.integer({ min: 100, max: 120_000 }) }),
);

/** A naive cluster: the API's pods and job, written as the controller writes them. */
class Cluster {
  job: Job;
  pods = new Map<string, Pod>();
  now = NOW;
  backoff: JobBackoffRecord | undefined;
  serial = 0;
  /** Every pod that ever reached Succeeded, by uid (the truth to count against). */
  succeededEver = new Set<string>();

  constructor(job: Job) {
    this.job = job;
  }

  list(): Pod[] {
    return [...this.pods.values()];
  }

  private gc(): void {
    for (const [uid, p] of this.pods)
      if (p.metadata.deletionTimestamp && !(p.metadata.finalizers ?? []).length) this.pods.delete(uid);
  }

  private setPhase(p: Pod, phase: 'Running' | 'Succeeded' | 'Failed'): void {
    if (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') return; // terminal is final
    const at = new Date(this.now).toISOString();
    p.status = {
      phase,
      ...(phase === 'Running'
        ? {}
        : {
            containerStatuses: [
              {
                name: 'c',
                ready: false,
                restartCount: 0,
                image: '',
                imageID: '',
                state: { terminated: { exitCode: phase === 'Failed' ? 1 : 0, finishedAt: at } },
              },
            ],
          }),
    };
    if (phase === 'Succeeded') this.succeededEver.add(p.metadata.uid ?? '');
  }

  apply(op: Op): void {
    const pods = this.list();
    switch (op.type) {
      case 'phase': {
        const p = pods[op.pod % Math.max(1, pods.length)];
        if (p && !p.metadata.deletionTimestamp) this.setPhase(p, op.phase);
        break;
      }
      case 'userDelete': {
        const p = pods[op.pod % Math.max(1, pods.length)];
        if (p && !p.metadata.deletionTimestamp)
          p.metadata.deletionTimestamp = new Date(this.now).toISOString();
        break;
      }
      case 'kubeletKill':
        for (const p of pods) if (p.metadata.deletionTimestamp) this.setPhase(p, 'Failed');
        break;
      case 'restart':
        this.backoff = undefined; // a new controller process remembers nothing
        break;
      case 'advance':
        this.now += op.ms;
        break;
      case 'sync':
        this.sync(op);
        break;
    }
    this.gc();
  }

  sync(
    faults: { failCreate: boolean; failFinalizer: boolean; failStatus: boolean } = {
      failCreate: false,
      failFinalizer: false,
      failStatus: false,
    },
  ): void {
    const plan = planJobSync({
      job: this.job,
      pods: this.list(),
      satisfiedExpectations: true,
      now: this.now,
      ...(this.backoff ? { backoff: this.backoff } : {}),
    });
    if (plan.skip) return;
    let deleted = 0;
    for (const p of plan.deleteActive) {
      p.metadata.deletionTimestamp = new Date(this.now).toISOString();
      deleted++;
    }
    for (const p of plan.deletePods) {
      p.metadata.finalizers = (p.metadata.finalizers ?? []).filter((f) => f !== JOB_TRACKING_FINALIZER);
      p.metadata.deletionTimestamp = new Date(this.now).toISOString();
      deleted++;
    }
    let created = 0;
    for (const template of plan.createPods) {
      if (faults.failCreate && created > 0) break; // a batch failed: the rest are skipped
      const uid = `pod-${this.serial++}`;
      this.pods.set(uid, {
        ...structuredClone(template),
        metadata: {
          ...structuredClone(template.metadata),
          name: uid,
          uid,
          creationTimestamp: new Date(this.now).toISOString(),
        },
        status: { phase: 'Pending' },
      });
      created++;
    }
    this.backoff = plan.backoff;
    const tracking = plan.track({ deleted, deletedReady: 0, created });
    if (tracking.interimStatus) {
      if (faults.failStatus) return; // the write failed: nothing after it happens
      this.job = { ...this.job, status: tracking.interimStatus };
    }
    const removed = new Set<string>();
    for (const [i, p] of tracking.removeFinalizers.entries()) {
      if (faults.failFinalizer && i % 2 === 1) continue;
      const live = this.pods.get(p.metadata.uid ?? '');
      if (live)
        live.metadata.finalizers = (live.metadata.finalizers ?? []).filter(
          (f) => f !== JOB_TRACKING_FINALIZER,
        );
      removed.add(p.metadata.uid ?? '');
    }
    const write = tracking.finish(removed);
    if (write.status) this.job = { ...this.job, status: write.status };
  }

  active(): number {
    return this.list().filter(isPodActive).length;
  }

  terminal(): string[] {
    return (this.job.status?.conditions ?? [])
      .filter((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')
      .map((c) => c.type);
  }
}

const jobArb = fc.record({
  parallelism: fc.integer({ min: 1, max: 4 }),
  completions: fc.integer({ min: -1, max: 6 }),
  backoffLimit: fc.integer({ min: 0, max: 4 }),
  indexed: fc.boolean(),
  backoffLimitPerIndex: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
});

describe('planJobSync under any interleaving (model-based)', () => {
  it('never exceeds parallelism, never counts a pod twice, ends with exactly one terminal condition', () => {
    fc.assert(
      fc.property(jobArb, fc.array(opArb, { maxLength: 40 }), (spec, ops) => {
        const indexed = spec.indexed && spec.completions > 0;
        const job = newJob(
          spec.parallelism,
          spec.completions,
          spec.backoffLimit,
          indexed ? 'Indexed' : 'NonIndexed',
        );
        if (indexed && spec.backoffLimitPerIndex !== undefined)
          job.spec.backoffLimitPerIndex = spec.backoffLimitPerIndex;
        const cluster = new Cluster(job);
        const check = () => {
          expect(cluster.active()).toBeLessThanOrEqual(spec.parallelism);
          const s = cluster.job.status ?? {};
          const uncounted = s.uncountedTerminatedPods ?? {};
          expect(new Set(uncounted.succeeded ?? []).size).toBe((uncounted.succeeded ?? []).length);
          expect(new Set(uncounted.failed ?? []).size).toBe((uncounted.failed ?? []).length);
          const succeeded = (s.succeeded ?? 0) + (uncounted.succeeded?.length ?? 0);
          const failed = (s.failed ?? 0) + (uncounted.failed?.length ?? 0);
          if (indexed)
            expect(succeeded).toBeLessThanOrEqual(Math.min(cluster.succeededEver.size, spec.completions));
          else expect(succeeded).toBeLessThanOrEqual(cluster.succeededEver.size);
          // each pod is counted at most once: the counters never exceed the pods there ever were
          expect(succeeded + failed).toBeLessThanOrEqual(cluster.serial);
          expect(cluster.terminal().length).toBeLessThanOrEqual(1);
        };
        for (const op of ops) {
          cluster.apply(op);
          check();
        }
        // then the world behaves: pods run to success, the kubelet kills deleted ones, time passes
        for (let round = 0; round < 200 && cluster.terminal().length === 0; round++) {
          cluster.apply({ type: 'kubeletKill' });
          for (const p of cluster.list())
            if (!p.metadata.deletionTimestamp)
              cluster.apply({ type: 'phase', pod: cluster.list().indexOf(p), phase: 'Succeeded' });
          cluster.apply({ type: 'advance', ms: 700_000 });
          cluster.sync();
          check();
        }
        expect(cluster.terminal()).toHaveLength(1);
        // every terminated pod was counted exactly once, and no finalizer is left behind
        const s = cluster.job.status ?? {};
        expect(s.uncountedTerminatedPods?.succeeded ?? []).toEqual([]);
        expect(s.uncountedTerminatedPods?.failed ?? []).toEqual([]);
        expect(cluster.list().filter((p) => p.metadata.finalizers?.includes(JOB_TRACKING_FINALIZER))).toEqual(
          [],
        );
        if (indexed && cluster.terminal()[0] === 'Complete') {
          expect(s.completedIndexes).toBe(
            spec.completions === 1 ? '0' : spec.completions === 2 ? '0,1' : `0-${spec.completions - 1}`,
          );
        }
        if (!indexed) expect(s.succeeded ?? 0).toBeLessThanOrEqual(cluster.succeededEver.size);
        const indexes = cluster.list().filter(isPodActive).map(completionIndexOf);
        expect(new Set(indexes).size).toBe(indexes.length);
      }),
      { numRuns: 500 },
    );
  });
});
