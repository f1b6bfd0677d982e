// planJobSync: upstream's syncJob table (TestControllerSyncJob) in our own words, each case with the feature gates it assumes.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { JobBackoffRecord } from '../../../../operators/controller/job/job-backoff.ts';
import { planJobSync } from '../../../../operators/controller/job/job-sync.ts';
import {
  completionIndexOf,
  JOB_COMPLETION_INDEX_ANNOTATION,
  type Job,
  type JobFeatures,
} from '../../../../operators/controller/job/job-types.ts';
import { jobPod, NOW, newJob, type PodState, pods, syncOnce } from './job-fixtures.ts';

interface Case {
  name: string;
  job: Job;
  pods?: [PodState, number][];
  indexed?: [PodState, number][];
  suspend?: boolean;
  wasSuspended?: boolean;
  deleting?: boolean;
  backoff?: JobBackoffRecord;
  features?: Partial<JobFeatures>;
  creations: number;
  deletions: number;
  active: number;
  ready?: number;
  succeeded?: number;
  failed?: number;
  completedIndexes?: string;
  createdIndexes?: number[];
  conditions?: [string, string, string?][];
  patches?: number;
  terminating?: number;
}

const TWO_STEP = { JobPodReplacementPolicy: true } as const;
const LEGACY = { JobPodReplacementPolicy: false, JobManagedBy: false } as const;

const cases: Case[] = [
  { name: 'job start', job: newJob(2, 5), creations: 2, deletions: 0, active: 2, ready: 0 },
  { name: 'work-queue job start', job: newJob(2, -1), creations: 2, deletions: 0, active: 2 },
  {
    name: 'pending pods',
    job: newJob(2, 5),
    pods: [['Pending', 2]],
    creations: 0,
    deletions: 0,
    active: 2,
    ready: 0,
  },
  {
    name: 'correct number of pods',
    job: newJob(3, 5),
    pods: [
      ['Running', 1],
      ['Ready', 2],
    ],
    creations: 0,
    deletions: 0,
    active: 3,
    ready: 2,
  },
  {
    name: 'work-queue job: correct number of pods',
    job: newJob(2, -1),
    pods: [['Running', 2]],
    creations: 0,
    deletions: 0,
    active: 2,
  },
  {
    name: 'too few active pods',
    job: newJob(2, 5),
    pods: [
      ['Running', 1],
      ['Succeeded', 1],
    ],
    creations: 1,
    deletions: 0,
    active: 2,
    succeeded: 1,
    patches: 1,
  },
  {
    name: 'too few active pods and active back-off',
    job: newJob(1, 1),
    backoff: { failuresAfterLastSuccess: 1, lastFailureTime: NOW },
    creations: 0,
    deletions: 0,
    active: 0,
  },
  {
    name: 'too few active pods and no back-off',
    job: newJob(1, 1),
    backoff: { failuresAfterLastSuccess: 0, lastFailureTime: NOW },
    creations: 1,
    deletions: 0,
    active: 1,
  },
  {
    name: 'too few active pods with a dynamic job',
    job: newJob(2, -1),
    pods: [['Running', 1]],
    creations: 1,
    deletions: 0,
    active: 2,
  },
  {
    name: 'too many active pods',
    job: newJob(2, 5),
    pods: [['Running', 3]],
    creations: 0,
    deletions: 1,
    active: 2,
    patches: 1,
  },
  {
    name: 'failed and succeeded pods: the success resets the back-off',
    job: newJob(2, 5),
    pods: [
      ['Running', 1],
      ['Succeeded', 1],
      ['Failed', 1],
    ],
    creations: 1,
    deletions: 0,
    active: 2,
    succeeded: 1,
    failed: 1,
    patches: 2,
  },
  {
    name: 'new failed pod',
    job: newJob(2, 5),
    pods: [
      ['Running', 1],
      ['Failed', 1],
    ],
    backoff: { failuresAfterLastSuccess: 0 },
    creations: 0,
    deletions: 0,
    active: 1,
    failed: 1,
    patches: 1,
  },
  {
    name: 'job finish',
    job: newJob(2, 5),
    pods: [['Succeeded', 5]],
    creations: 0,
    deletions: 0,
    active: 0,
    succeeded: 5,
    conditions: [
      ['SuccessCriteriaMet', 'True'],
      ['Complete', 'True'],
    ],
    patches: 5,
  },
  {
    name: 'job finish (gates off: Complete directly)',
    job: newJob(2, 5),
    features: LEGACY,
    pods: [['Succeeded', 5]],
    creations: 0,
    deletions: 0,
    active: 0,
    succeeded: 5,
    conditions: [['Complete', 'True']],
    patches: 5,
  },
  {
    name: 'work-queue job finishing',
    job: newJob(2, -1),
    pods: [
      ['Running', 1],
      ['Succeeded', 1],
    ],
    creations: 0,
    deletions: 0,
    active: 1,
    succeeded: 1,
    patches: 1,
  },
  {
    name: 'work-queue job all finished',
    job: newJob(2, -1),
    pods: [['Succeeded', 2]],
    creations: 0,
    deletions: 0,
    active: 0,
    succeeded: 2,
    conditions: [
      ['SuccessCriteriaMet', 'True'],
      ['Complete', 'True'],
    ],
    patches: 2,
  },
  {
    name: 'work-queue job all finished despite one failure',
    job: newJob(2, -1),
    pods: [
      ['Succeeded', 1],
      ['Failed', 1],
    ],
    creations: 0,
    deletions: 0,
    active: 0,
    succeeded: 1,
    failed: 1,
    conditions: [
      ['SuccessCriteriaMet', 'True'],
      ['Complete', 'True'],
    ],
    patches: 2,
  },
  {
    name: 'more active pods than parallelism',
    job: newJob(2, 5),
    pods: [['Running', 10]],
    creations: 0,
    deletions: 8,
    active: 2,
    patches: 8,
  },
  {
    name: 'more active pods than remaining completions',
    job: newJob(3, 4),
    pods: [
      ['Running', 3],
      ['Succeeded', 2],
    ],
    creations: 0,
    deletions: 1,
    active: 2,
    succeeded: 2,
    patches: 3,
  },
  {
    name: 'status change',
    job: newJob(2, 5),
    pods: [
      ['Running', 2],
      ['Succeeded', 2],
    ],
    creations: 0,
    deletions: 0,
    active: 2,
    succeeded: 2,
    patches: 2,
  },
  {
    name: 'deleting job: no pods created, every finalizer removed',
    job: newJob(2, 5),
    deleting: true,
    pods: [
      ['Pending', 1],
      ['Ready', 2],
      ['Succeeded', 1],
    ],
    creations: 0,
    deletions: 0,
    active: 3,
    ready: 2,
    succeeded: 1,
    patches: 4,
  },
  {
    name: 'too many job failures (two-step)',
    job: newJob(2, 5, 0),
    features: TWO_STEP,
    pods: [['Failed', 1]],
    creations: 0,
    deletions: 0,
    active: 0,
    failed: 1,
    conditions: [
      ['FailureTarget', 'True', 'BackoffLimitExceeded'],
      ['Failed', 'True', 'BackoffLimitExceeded'],
    ],
    patches: 1,
  },
  {
    name: 'too many job failures with an active pod: FailureTarget, pod deleted, Failed waits',
    job: newJob(2, 5, 0),
    pods: [
      ['Failed', 1],
      ['Running', 1],
    ],
    creations: 0,
    deletions: 1,
    active: 0,
    failed: 2,
    terminating: 1,
    conditions: [['FailureTarget', 'True', 'BackoffLimitExceeded']],
    patches: 2,
  },
  {
    name: 'too many job failures (gates off: Failed directly)',
    job: newJob(2, 5, 0),
    features: LEGACY,
    pods: [['Failed', 1]],
    creations: 0,
    deletions: 0,
    active: 0,
    failed: 1,
    conditions: [['Failed', 'True', 'BackoffLimitExceeded']],
    patches: 1,
  },
  {
    name: 'indexed job start',
    job: newJob(2, 5, 6, 'Indexed'),
    creations: 2,
    deletions: 0,
    active: 2,
    createdIndexes: [0, 1],
    completedIndexes: '',
  },
  {
    name: 'indexed job completed',
    job: newJob(2, 3, 6, 'Indexed'),
    indexed: [
      ['Succeeded', 0],
      ['Failed', 1],
      ['Succeeded', 1],
      ['Succeeded', 2],
    ],
    creations: 0,
    deletions: 0,
    active: 0,
    succeeded: 3,
    failed: 1,
    completedIndexes: '0-2',
    conditions: [
      ['SuccessCriteriaMet', 'True'],
      ['Complete', 'True'],
    ],
    patches: 4,
  },
  {
    name: 'indexed job repeated completed index',
    job: newJob(2, 3, 6, 'Indexed'),
    indexed: [
      ['Succeeded', 0],
      ['Succeeded', 1],
      ['Succeeded', 1],
    ],
    creations: 1,
    deletions: 0,
    active: 1,
    succeeded: 2,
    completedIndexes: '0,1',
    createdIndexes: [2],
    patches: 3,
  },
  {
    name: 'indexed job some failed pods',
    job: newJob(3, 4, 6, 'Indexed'),
    indexed: [
      ['Failed', 0],
      ['Succeeded', 1],
      ['Failed', 2],
    ],
    creations: 3,
    deletions: 0,
    active: 3,
    succeeded: 1,
    failed: 2,
    completedIndexes: '1',
    createdIndexes: [0, 2, 3],
    patches: 3,
  },
  {
    name: 'indexed job some running and completed pods',
    job: newJob(8, 6, 6, 'Indexed'),
    indexed: [
      ['Running', 0],
      ['Succeeded', 1],
      ['Running', 3],
      ['Succeeded', 4],
    ],
    creations: 2,
    deletions: 0,
    active: 4,
    succeeded: 2,
    completedIndexes: '1,4',
    createdIndexes: [2, 5],
    patches: 2,
  },
  {
    name: 'indexed job with duplicate and out-of-range indexes',
    job: newJob(3, 3, 6, 'Indexed'),
    indexed: [
      ['Running', 0],
      ['Running', 0],
      ['Running', 7],
    ],
    creations: 0,
    deletions: 2,
    active: 1,
    patches: 2,
  },
  {
    name: 'suspending a job with satisfied expectations',
    job: newJob(2, 4),
    suspend: true,
    pods: [
      ['Running', 2],
      ['Succeeded', 2],
    ],
    creations: 0,
    deletions: 2,
    active: 0,
    succeeded: 2,
    terminating: 2,
    conditions: [['Suspended', 'True', 'JobSuspended']],
    patches: 4,
  },
  {
    name: 'resuming a suspended job',
    job: newJob(2, 4),
    wasSuspended: true,
    creations: 2,
    deletions: 0,
    active: 2,
    conditions: [['Suspended', 'False', 'JobResumed']],
  },
  {
    name: 'suspending a deleted job: nothing happens to its pods',
    job: newJob(2, 4),
    suspend: true,
    deleting: true,
    pods: [['Running', 2]],
    creations: 0,
    deletions: 0,
    active: 2,
    patches: 2,
  },
];

describe('planJobSync (upstream syncJob table)', () => {
  it.each(cases)('$name', (c) => {
    const job = structuredClone(c.job);
    if (c.suspend) job.spec.suspend = true;
    if (c.deleting) job.metadata.deletionTimestamp = new Date(NOW).toISOString();
    if (c.wasSuspended)
      job.status = {
        conditions: [{ type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended' }],
      };
    const all: Pod[] = [];
    for (const [state, n] of c.pods ?? []) all.push(...pods(job, state, n));
    for (const [state, ix] of c.indexed ?? []) all.push(jobPod(job, state, ix));
    const r = syncOnce(job, all, {
      ...(c.backoff ? { backoff: c.backoff } : {}),
      ...(c.features ? { features: c.features } : {}),
    });
    expect(r.plan.createPods).toHaveLength(c.creations);
    expect(r.deleted).toBe(c.deletions);
    expect(r.status.active).toBe(c.active);
    if (c.ready !== undefined) expect(r.status.ready).toBe(c.ready);
    expect(r.status.succeeded ?? 0).toBe(c.succeeded ?? 0);
    expect(r.status.failed ?? 0).toBe(c.failed ?? 0);
    if (c.completedIndexes !== undefined) expect(r.status.completedIndexes).toBe(c.completedIndexes);
    if (c.createdIndexes) expect(r.plan.createPods.map(completionIndexOf)).toEqual(c.createdIndexes);
    if (c.terminating !== undefined) expect(r.status.terminating).toBe(c.terminating);
    expect(
      (r.status.conditions ?? []).map((x) => [
        x.type,
        x.status,
        ...(x.reason && c.conditions?.some((e) => e[2]) ? [x.reason] : []),
      ]),
    ).toEqual((c.conditions ?? []).map((e) => (e[2] ? e : [e[0], e[1]])));
    expect(r.patches).toBe(c.patches ?? 0);
    // counted pods leave uncountedTerminatedPods in the same sync when every finalizer came off
    expect(r.status.uncountedTerminatedPods?.succeeded ?? []).toEqual([]);
    expect(r.status.uncountedTerminatedPods?.failed ?? []).toEqual([]);
  });
});

describe('planJobSync: time, deadlines and back-off', () => {
  it('sets startTime on the first sync, not while suspended', () => {
    expect(syncOnce(newJob(1, 1), []).status.startTime).toBe('2026-01-01T00:00:00Z');
    const suspended = newJob(1, 1);
    suspended.spec.suspend = true;
    expect(syncOnce(suspended, []).status.startTime).toBeUndefined();
  });

  it('requeues at the deadline and fails the job with DeadlineExceeded once it passes', () => {
    const job = newJob(1, 1);
    job.spec.activeDeadlineSeconds = 10;
    job.status = { startTime: new Date(NOW - 4000).toISOString() };
    expect(syncOnce(job, [jobPod(job, 'Running')]).plan.requeueAfter).toBe(6000);
    const late = syncOnce(job, [jobPod(job, 'Running')], { now: NOW + 6000 });
    expect(late.deleted).toBe(1);
    expect(late.status.conditions).toEqual([
      expect.objectContaining({
        type: 'FailureTarget',
        reason: 'DeadlineExceeded',
        message: 'Job was active longer than specified deadline',
      }),
    ]);
  });

  it('turns an existing FailureTarget into Failed (same reason) once no pod is terminating, with a Warning event', () => {
    const job = newJob(1, 1, 0);
    job.status = {
      failed: 1,
      conditions: [
        {
          type: 'FailureTarget',
          status: 'True',
          reason: 'BackoffLimitExceeded',
          message: 'Job has reached the specified backoff limit',
        },
      ],
    };
    const r = syncOnce(job, []);
    expect(r.write.finished).toMatchObject({ type: 'Failed', reason: 'BackoffLimitExceeded' });
    expect(r.write.events).toEqual([
      {
        type: 'Warning',
        reason: 'BackoffLimitExceeded',
        message: 'Job has reached the specified backoff limit',
      },
    ]);
    const waiting = syncOnce(job, [jobPod(job, 'Terminating')]);
    expect(waiting.write.finished).toBeUndefined();
  });

  it('fails a restartPolicy OnFailure job once container restarts reach backoffLimit', () => {
    const job = newJob(1, 1, 2);
    job.spec.template.spec.restartPolicy = 'OnFailure';
    const p = jobPod(job, 'Running');
    p.status = {
      phase: 'Running',
      containerStatuses: [{ name: 'c', ready: false, restartCount: 2, image: '', imageID: '' }],
    };
    expect(syncOnce(job, [p]).status.conditions?.[0]).toMatchObject({
      type: 'FailureTarget',
      reason: 'BackoffLimitExceeded',
    });
  });

  it('records the back-off after failures and requeues instead of creating', () => {
    const job = newJob(1, 1);
    const failedPod = jobPod(job, 'Failed', undefined, { finishedAt: NOW - 3000 });
    const r = syncOnce(job, [failedPod]);
    expect(r.plan.backoff).toEqual({ failuresAfterLastSuccess: 1, lastFailureTime: NOW - 3000 });
    expect(r.plan.createPods).toHaveLength(0);
    expect(r.plan.requeueAfter).toBe(7000);
  });

  it('emits Completed once, and Completed with TooManySucceededPods when more succeeded than completions', () => {
    const job = newJob(2, 2);
    expect(syncOnce(job, pods(job, 'Succeeded', 3)).write.events.map((e) => e.reason)).toEqual([
      'TooManySucceededPods',
      'Completed',
    ]);
    const done = structuredClone(job);
    done.status = { conditions: [{ type: 'Complete', status: 'True' }] };
    expect(planJobSync({ job: done, pods: [], satisfiedExpectations: true, now: NOW }).skip).toBe('finished');
  });

  it('keeps uncounted pods in status when a finalizer removal fails, counting them only afterwards', () => {
    const job = newJob(1, 2);
    const p = jobPod(job, 'Succeeded');
    const plan = planJobSync({ job, pods: [p], satisfiedExpectations: true, now: NOW });
    const tracking = plan.track({ deleted: 0, deletedReady: 0, created: plan.createPods.length });
    expect(tracking.interimStatus?.uncountedTerminatedPods?.succeeded).toEqual([p.metadata.uid]);
    const failedRemoval = tracking.finish(new Set());
    expect(failedRemoval.status?.succeeded ?? 0).toBe(0);
    const next = structuredClone(job);
    next.status = tracking.interimStatus;
    const stripped = { ...p, metadata: { ...p.metadata, finalizers: [] } };
    const later = syncOnce(next, [stripped]);
    expect(later.status.succeeded).toBe(1);
    expect(later.status.uncountedTerminatedPods).toEqual({});
  });

  it('does not declare the job finished while expectations are unsatisfied', () => {
    const job = newJob(1, 1, 0);
    const r = syncOnce(job, [jobPod(job, 'Failed')], { satisfied: false });
    expect(r.status.conditions ?? []).toEqual([]);
  });

  it('ignores a job managed by another controller (JobManagedBy on)', () => {
    const job = newJob(1, 1);
    job.spec.managedBy = 'example.com/other';
    expect(
      planJobSync({ job, pods: [], satisfiedExpectations: true, now: NOW, features: { JobManagedBy: true } })
        .skip,
    ).toBe('managed-elsewhere');
    expect(planJobSync({ job, pods: [], satisfiedExpectations: true, now: NOW }).createPods).toHaveLength(1);
  });

  it('does not replace a terminating pod while podReplacementPolicy is Failed', () => {
    const job = newJob(1, 1);
    job.spec.podReplacementPolicy = 'Failed';
    const r = syncOnce(job, [jobPod(job, 'Terminating')]);
    expect(r.plan.createPods).toHaveLength(0);
    expect(r.status.terminating).toBe(1);
    expect(r.status.failed ?? 0).toBe(0);
    // the default policy counts it failed at once and replaces it after the 10 s back-off
    const replaced = syncOnce(newJob(1, 1), [jobPod(job, 'Terminating')], { now: NOW + 10_000 });
    expect(replaced.plan.createPods).toHaveLength(1);
    expect(replaced.status.failed).toBe(1);
  });

  it('creates Indexed pods with the index annotation, label, env and hostname', () => {
    const [pod] = syncOnce(newJob(1, 3, 6, 'Indexed'), []).plan.createPods;
    expect(pod?.metadata.annotations?.[JOB_COMPLETION_INDEX_ANNOTATION]).toBe('0');
    expect(pod?.metadata.labels?.[JOB_COMPLETION_INDEX_ANNOTATION]).toBe('0');
    expect(pod?.metadata.generateName).toBe('foobar-0-');
    expect(pod?.spec.hostname).toBe('foobar-0');
    expect(pod?.spec.containers[0]?.env).toContainEqual(
      expect.objectContaining({ name: 'JOB_COMPLETION_INDEX' }),
    );
    expect(pod?.metadata.finalizers).toEqual(['batch.kubernetes.io/job-tracking']);
    expect(pod?.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'Job',
      controller: true,
      blockOwnerDeletion: true,
    });
    const [unlabelled] = syncOnce(newJob(1, 3, 6, 'Indexed'), [], { features: { PodIndexLabel: false } }).plan
      .createPods;
    expect(unlabelled?.metadata.labels?.[JOB_COMPLETION_INDEX_ANNOTATION]).toBeUndefined();
  });
});

describe('planJobSync: replacement policy, suspension and names', () => {
  it('does not recreate the index of a terminating pod with podReplacementPolicy Failed', () => {
    const job = newJob(2, 2, 6, 'Indexed');
    job.spec.podReplacementPolicy = 'Failed';
    const r = syncOnce(job, [jobPod(job, 'Terminating', 0), jobPod(job, 'Running', 1)]);
    expect(r.plan.createPods).toHaveLength(0);
    expect(r.status).toMatchObject({ active: 1, terminating: 1 });
    expect(r.status.failed ?? 0).toBe(0);
  });

  it('does not track terminating pods with both gates off', () => {
    const job = newJob(1, 1);
    const r = syncOnce(job, [jobPod(job, 'Terminating')], { features: { JobPodReplacementPolicy: false } });
    expect(r.status.terminating).toBeUndefined();
    expect(r.status.failed).toBe(1);
  });

  it('does not run the deadline while suspended and resets startTime on resume (within the deadline)', () => {
    const job = newJob(1, 1);
    job.spec.activeDeadlineSeconds = 5;
    job.spec.suspend = true;
    job.status = { startTime: new Date(NOW - 2000).toISOString() };
    const held = syncOnce(job, []);
    expect(held.status.conditions?.map((c) => c.type)).toEqual(['Suspended']);
    expect(held.plan.requeueAfter).toBeUndefined();
    const resumed = structuredClone(job);
    resumed.spec.suspend = false;
    resumed.status = held.status;
    const r = syncOnce(resumed, [], { now: NOW + 1000 });
    expect(r.status.startTime).toBe('2026-01-01T00:00:01Z');
    expect(r.plan.events).toEqual([{ type: 'Normal', reason: 'Resumed', message: 'Job resumed' }]);
    expect(r.plan.createPods).toHaveLength(1);
  });

  it('emits Suspended once, not on every sync of a suspended job', () => {
    const job = newJob(1, 1);
    job.spec.suspend = true;
    const first = syncOnce(job, []);
    expect(first.plan.events.map((e) => e.reason)).toEqual(['Suspended']);
    const again = structuredClone(job);
    again.status = first.status;
    expect(syncOnce(again, []).plan.events).toEqual([]);
    expect(syncOnce(again, []).write.status).toBeUndefined();
  });

  it('names pods of a long job so the generated name fits', () => {
    const job = newJob(1, 2, 6, 'Indexed');
    job.metadata.name = 'x'.repeat(70);
    const [pod] = syncOnce(job, []).plan.createPods;
    expect(pod?.metadata.generateName).toBe(`${'x'.repeat(55)}-0-`);
    const plain = newJob(1, 1);
    plain.metadata.name = 'y'.repeat(70);
    expect(syncOnce(plain, []).plan.createPods[0]?.metadata.generateName).toBe(`${'y'.repeat(57)}-`);
  });

  it('reads JOB_COMPLETION_INDEX from the label with PodIndexLabel, else from the annotation', () => {
    const env = (features: { PodIndexLabel: boolean }) =>
      syncOnce(newJob(1, 1, 6, 'Indexed'), [], { features }).plan.createPods[0]?.spec.containers[0]?.env?.[0];
    expect(env({ PodIndexLabel: true })?.valueFrom?.fieldRef?.fieldPath).toBe(
      "metadata.labels['batch.kubernetes.io/job-completion-index']",
    );
    expect(env({ PodIndexLabel: false })?.valueFrom?.fieldRef?.fieldPath).toBe(
      "metadata.annotations['batch.kubernetes.io/job-completion-index']",
    );
  });

  it('matches a FailJob rule on an init container exit code', () => {
    const job = newJob(1, 1);
    job.spec.podFailurePolicy = {
      rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [3] } }],
    };
    const p = jobPod(job, 'Failed');
    p.status = {
      phase: 'Failed',
      initContainerStatuses: [
        {
          name: 'init',
          ready: false,
          restartCount: 0,
          image: '',
          imageID: '',
          state: { terminated: { exitCode: 3 } },
        },
      ],
    };
    const r = syncOnce(job, [p]);
    expect(r.status.conditions?.map((c) => [c.type, c.reason, c.message])).toEqual([
      [
        'FailureTarget',
        'PodFailurePolicy',
        `Container init for pod default/${p.metadata.name} failed with exit code 3 matching FailJob rule at index 0`,
      ],
      [
        'Failed',
        'PodFailurePolicy',
        `Container init for pod default/${p.metadata.name} failed with exit code 3 matching FailJob rule at index 0`,
      ],
    ]);
  });

  it('ignores a disrupted pod (DisruptionTarget → Ignore) even with backoffLimit 0', () => {
    const job = newJob(1, 1, 0);
    job.spec.podFailurePolicy = {
      rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }],
    };
    const p = jobPod(job, 'Failed');
    p.status = { ...p.status, conditions: [{ type: 'DisruptionTarget', status: 'True' }] };
    const r = syncOnce(job, [p], { now: NOW + 60_000 });
    expect(r.status.conditions ?? []).toEqual([]);
    expect(r.status.failed ?? 0).toBe(0);
    expect(r.plan.createPods).toHaveLength(1);
  });
});
