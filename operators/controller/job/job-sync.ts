// planJobSync: the job controller's sync decision (upstream's syncJob, manageJob and trackJobStatusAndRemoveFinalizers) as pure steps.
import type { Pod } from '../../api/core-v1.ts';
import { isPodActive, isPodReady, podsToDelete } from '../pod-deletion-order.ts';
import { formatIndexes, parseIndexes } from './completion-indexes.ts';
import {
  backoffRemaining,
  type JobBackoffRecord,
  nextBackoffRecord,
  podFinishedTime,
} from './job-backoff.ts';
import { newJobPod } from './job-pod.ts';
import {
  completionIndexOf,
  DEFAULT_JOB_FEATURES,
  hasJobCondition,
  hasTrackingFinalizer,
  isJobFinished,
  JOB_CONTROLLER_NAME,
  JOB_INDEX_FAILURE_COUNT_ANNOTATION,
  JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION,
  JOB_REASONS,
  type Job,
  type JobCondition,
  type JobFeatures,
  type JobStatus,
  MAX_POD_CREATE_DELETE_PER_SYNC,
  MAX_UNCOUNTED_PODS,
} from './job-types.ts';
import { matchPodFailurePolicy } from './pod-failure-policy.ts';
import { matchSuccessPolicy } from './success-policy.ts';

/** What one sync starts from. */
export interface JobSyncInput {
  /** The job as the informer has it. */
  job: Job;
  /** Its pods after claiming (adopted and kept ones; released ones left out). */
  pods: readonly Pod[];
  /** The controller's expectations for the job were satisfied before the pods were listed. */
  satisfiedExpectations: boolean;
  /** UIDs of pods whose finalizer removal the controller still waits to see. */
  expectedRemovedFinalizers?: ReadonlySet<string>;
  /** The clock, in ms. */
  now: number;
  /** The job's pod-recreation back-off record (none: no failure yet). */
  backoff?: JobBackoffRecord;
  features?: Partial<JobFeatures>;
}

/** An Event about the job. */
export interface JobEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** How the controller's writes of step 1 went. */
export interface JobActionOutcome {
  /** Pods actually deleted (404 counts as deleted), and how many of them were ready. */
  deleted: number;
  deletedReady: number;
  /** Pods actually created. */
  created: number;
}

/** Step 3's result: the status to write (undefined: nothing changed) and the events once it is written. */
export interface JobStatusWrite {
  status?: JobStatus;
  finished?: JobCondition;
  events: JobEvent[];
}

/** Step 2's result: the status to write before removing finalizers, the pods to strip, and step 3. */
export interface JobTracking {
  /** Written first when new terminated pods are recorded as uncounted (or an interim condition appears). */
  interimStatus?: JobStatus;
  /** Pods whose `batch.kubernetes.io/job-tracking` finalizer is to be removed. */
  removeFinalizers: Pod[];
  /** Given the UIDs whose finalizer was removed (or whose pod was gone), the final status write. */
  finish(removed: ReadonlySet<string>): JobStatusWrite;
}

/** Step 1's result: what to do to pods now, and step 2. */
export interface JobSyncPlan {
  /** Set when the job is not synced at all: `managed-elsewhere`, `finished`, `unknown-completion-mode`. */
  skip?: string;
  /** DELETE these (finalizers kept): the job has finished and its active pods go. */
  deleteActive: Pod[];
  /** Remove the finalizer, then DELETE: excess active pods (or all of a suspended job). */
  deletePods: Pod[];
  /** Create these (template-derived; the server names them). */
  createPods: Pod[];
  /** Look at the job again after this many ms (deadline, back-off). */
  requeueAfter?: number;
  /** The back-off record to keep. */
  backoff: JobBackoffRecord;
  events: JobEvent[];
  /** Step 2, given how the writes of step 1 went. */
  track(outcome: JobActionOutcome): JobTracking;
}

const rfc3339 = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

function newCondition(type: string, reason: string, message: string, now: number): JobCondition {
  return {
    type,
    status: 'True',
    reason,
    message,
    lastProbeTime: rfc3339(now),
    lastTransitionTime: rfc3339(now),
  };
}

/**
 * Sets a condition's status, reason and message (the transition time moves only when the status does);
 * a False condition is not added when missing. Returns whether anything changed.
 */
export function ensureJobCondition(
  conditions: JobCondition[],
  type: string,
  status: 'True' | 'False',
  reason: string,
  message: string,
  now: number,
): boolean {
  const c = conditions.find((x) => x.type === type);
  if (c) {
    if (c.status === status && c.reason === reason && c.message === message) return false;
    if (c.status !== status) c.lastTransitionTime = rfc3339(now);
    Object.assign(c, { status, reason, message, lastProbeTime: rfc3339(now) });
    return true;
  }
  if (status === 'False') return false;
  conditions.push({ ...newCondition(type, reason, message, now), status });
  return true;
}

const NOOP_PLAN = (skip: string, events: JobEvent[] = []): JobSyncPlan => ({
  skip,
  deleteActive: [],
  deletePods: [],
  createPods: [],
  backoff: { failuresAfterLastSuccess: 0 },
  events,
  track: () => ({ removeFinalizers: [], finish: () => ({ events: [] }) }),
});

/** The pod is being deleted and has not reached a terminal phase. */
const isTerminating = (p: Pod) =>
  Boolean(p.metadata.deletionTimestamp) && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed';

/**
 * Step 1 of a job sync, as upstream's syncJob: counts the pods (active, ready, terminating, newly
 * succeeded and failed — a pod being deleted counts as failed unless the job replaces only Failed pods
 * or has a podFailurePolicy), sets startTime, updates the back-off record, and decides whether the job
 * has finished (in this order: an existing FailureTarget; a podFailurePolicy FailJob rule; failures over
 * backoffLimit or restarts past it with restartPolicy OnFailure; activeDeadlineSeconds; for Indexed jobs
 * the successPolicy). A finished job's active pods are deleted; otherwise, with satisfied expectations,
 * manageJob deletes excess pods (all of them when suspended) or creates missing ones (lowest free
 * indexes first for Indexed jobs), respecting the pod-recreation back-off.
 *
 * The caller performs the writes in order and calls `track` with how they went (step 2), writes the
 * interim status, removes the finalizers, then calls `finish` with the pods it stripped (step 3).
 * Failure conditions are written in the two-step form (FailureTarget, then Failed once no pod is
 * terminating) when JobPodReplacementPolicy or JobManagedBy is on; success likewise
 * (SuccessCriteriaMet, then Complete).
 *
 * @param input the job, its pods, the expectations state, the back-off record and the clock
 * @returns the plan of step 1
 */
export function planJobSync(input: JobSyncInput): JobSyncPlan {
  const features = { ...DEFAULT_JOB_FEATURES, ...input.features };
  const { now } = input;
  const source = input.job;
  if (
    features.JobManagedBy &&
    source.spec.managedBy !== undefined &&
    source.spec.managedBy !== JOB_CONTROLLER_NAME
  )
    return NOOP_PLAN('managed-elsewhere');
  if (isJobFinished(source)) return NOOP_PLAN('finished');
  const mode = source.spec.completionMode ?? 'NonIndexed';
  if (mode !== 'NonIndexed' && mode !== 'Indexed')
    return NOOP_PLAN('unknown-completion-mode', [
      {
        type: 'Warning',
        reason: 'UnknownCompletionMode',
        message: `${mode} is not a supported completion mode`,
      },
    ]);

  const job: Job = structuredClone(source);
  job.status ??= {};
  const status: JobStatus = job.status;
  const spec = job.spec;
  const indexed = mode === 'Indexed';
  const completions = spec.completions ?? undefined;
  const perIndex =
    features.JobBackoffLimitPerIndex && indexed && spec.backoffLimitPerIndex != null
      ? spec.backoffLimitPerIndex
      : undefined;
  // the API defaults backoffLimit to MaxInt32 when backoffLimitPerIndex is set
  const backoffLimit = spec.backoffLimit ?? (perIndex !== undefined ? 2 ** 31 - 1 : 6);
  const parallelism = spec.parallelism ?? 1;
  const suspended = spec.suspend === true;
  const policy = spec.podFailurePolicy?.rules;
  const delayTerminal = features.JobPodReplacementPolicy || features.JobManagedBy;
  const onlyReplaceFailed =
    (features.JobPodReplacementPolicy && spec.podReplacementPolicy === 'Failed') || policy !== undefined;
  const trackTerminating = features.JobPodReplacementPolicy || features.JobManagedBy;
  const expectedRm = input.expectedRemovedFinalizers ?? new Set<string>();
  const uncounted = {
    succeeded: new Set(status.uncountedTerminatedPods?.succeeded ?? []),
    failed: new Set(status.uncountedTerminatedPods?.failed ?? []),
  };
  const isPodFailed = (p: Pod) =>
    p.status?.phase === 'Failed' ||
    (!onlyReplaceFailed && Boolean(p.metadata.deletionTimestamp) && p.status?.phase !== 'Succeeded');
  const validIndex = (p: Pod) => {
    const ix = completionIndexOf(p);
    return ix !== undefined && completions !== undefined && ix < completions ? ix : undefined;
  };

  const pods = input.pods;
  const activePods = pods.filter(isPodActive);
  let ready = activePods.filter(isPodReady).length;
  let terminating = trackTerminating ? pods.filter(isTerminating).length : undefined;
  let active = activePods.length;

  const newlyFinished = (set: Set<string>, test: (p: Pod) => boolean) =>
    pods.filter(
      (p) =>
        hasTrackingFinalizer(p) &&
        !set.has(p.metadata.uid ?? '') &&
        !expectedRm.has(p.metadata.uid ?? '') &&
        (!indexed || validIndex(p) !== undefined) &&
        test(p),
    );
  const newSucceeded = newlyFinished(uncounted.succeeded, (p) => p.status?.phase === 'Succeeded');
  const newFailed = newlyFinished(uncounted.failed, isPodFailed);
  const counted = (p: Pod) => (policy ? matchPodFailurePolicy(policy, p).countFailed : true);
  let succeeded = (status.succeeded ?? 0) + newSucceeded.length + uncounted.succeeded.size;
  const failed = (status.failed ?? 0) + newFailed.filter(counted).length + uncounted.failed.size;

  if (status.startTime === undefined && !suspended) status.startTime = rfc3339(now);
  const backoff = nextBackoffRecord(
    input.backoff ?? { failuresAfterLastSuccess: 0 },
    newSucceeded,
    newFailed,
  );
  const events: JobEvent[] = [];
  let requeueAfter: number | undefined;
  const requeue = (ms: number) => {
    requeueAfter = requeueAfter === undefined ? ms : Math.min(requeueAfter, ms);
  };
  const failure = (reason: string, message: string) =>
    newCondition(delayTerminal ? 'FailureTarget' : 'Failed', reason, message, now);

  let finished: JobCondition | undefined = status.conditions?.find(
    (c) => c.type === 'SuccessCriteriaMet' && c.status === 'True',
  );
  if (!finished) {
    const target = status.conditions?.find((c) => c.type === 'FailureTarget' && c.status === 'True');
    if (target) finished = newCondition('Failed', target.reason ?? '', target.message ?? '', now);
    else if (policy) {
      for (const p of pods) {
        if (!isPodFailed(p)) continue;
        const m = matchPodFailurePolicy(policy, p).failJobMessage;
        if (m !== undefined) {
          finished = newCondition('FailureTarget', JOB_REASONS.PodFailurePolicy[0], m, now);
          break;
        }
      }
    }
  }
  if (!finished) {
    const [bl, blMessage] = JOB_REASONS.BackoffLimitExceeded;
    const [dl, dlMessage] = JOB_REASONS.DeadlineExceeded;
    const deadline = spec.activeDeadlineSeconds;
    if (failed > backoffLimit || pastBackoffLimitOnFailure(job, pods, backoffLimit))
      finished = failure(bl, blMessage);
    else if (deadline != null && status.startTime && !suspended) {
      const left = deadline * 1000 - (now - Date.parse(status.startTime));
      if (left <= 0) finished = failure(dl, dlMessage);
      else requeue(left);
    }
  }

  /** backoffLimitPerIndex: the index has failed when a counted failure reached the limit, or a FailIndex rule matched. */
  const isIndexFailed = (p: Pod, limit: number) => {
    if (!isPodFailed(p)) return false;
    let countedFailure = true;
    if (policy) {
      const m = matchPodFailurePolicy(policy, p);
      if (m.action === 'FailIndex') return true;
      countedFailure = m.countFailed;
    }
    return countedFailure && failureCount(p, JOB_INDEX_FAILURE_COUNT_ANNOTATION) >= limit;
  };
  /**
   * Per index neither succeeded, failed nor active, the failed pod (highest failure count, newest) whose
   * finalizer stays until its replacement is created, so the count annotation carries over.
   */
  const podsWithDelayedDeletion = (done: ReadonlySet<number>, lost: ReadonlySet<number>) => {
    const activeIx = new Set(activePods.map(completionIndexOf));
    const out = new Map<number, Pod>();
    for (const p of pods) {
      const ix = validIndex(p);
      if (
        ix === undefined ||
        !hasTrackingFinalizer(p) ||
        expectedRm.has(p.metadata.uid ?? '') ||
        !isPodFailed(p)
      )
        continue;
      if (done.has(ix) || lost.has(ix) || activeIx.has(ix)) continue;
      const last = out.get(ix);
      if (
        !last ||
        (absoluteFailures(last) <= absoluteFailures(p) && podFinishedTime(p) >= podFinishedTime(last))
      )
        out.set(ix, p);
    }
    return out;
  };
  /** The failure counts a replacement of `replaced` carries: one more counted (or ignored) failure. */
  const nextFailureCounts = (replaced: Pod | undefined): Record<string, string> => {
    if (!replaced) return { [JOB_INDEX_FAILURE_COUNT_ANNOTATION]: '0' };
    let countedN = failureCount(replaced, JOB_INDEX_FAILURE_COUNT_ANNOTATION);
    let ignoredN = failureCount(replaced, JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION);
    if (!policy || matchPodFailurePolicy(policy, replaced).countFailed) countedN++;
    else ignoredN++;
    return {
      [JOB_INDEX_FAILURE_COUNT_ANNOTATION]: String(countedN),
      ...(ignoredN > 0 ? { [JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION]: String(ignoredN) } : {}),
    };
  };
  let failedIndexes: Set<number> | undefined;
  let delayedDeletion = new Map<number, Pod>();
  let prevSucceededIndexes = new Set<number>();
  let succeededIndexes = new Set<number>();
  if (indexed && completions !== undefined) {
    prevSucceededIndexes = parseIndexes(status.completedIndexes, completions);
    succeededIndexes = new Set(prevSucceededIndexes);
    for (const p of pods) {
      const ix = validIndex(p);
      if (p.status?.phase === 'Succeeded' && ix !== undefined && hasTrackingFinalizer(p))
        succeededIndexes.add(ix);
    }
    succeeded = succeededIndexes.size;
    if (perIndex !== undefined) {
      failedIndexes = parseIndexes(status.failedIndexes, completions);
      for (const p of pods) {
        const ix = validIndex(p);
        if (ix !== undefined && hasTrackingFinalizer(p) && isIndexFailed(p, perIndex)) failedIndexes.add(ix);
      }
      if (!finished) {
        const maxFailed = spec.maxFailedIndexes;
        if (maxFailed != null && failedIndexes.size > maxFailed)
          finished = failure(...JOB_REASONS.MaxFailedIndexesExceeded);
        else if (failedIndexes.size > 0 && failedIndexes.size + succeededIndexes.size >= completions)
          finished = failure(...JOB_REASONS.FailedIndexes);
      }
      delayedDeletion = podsWithDelayedDeletion(succeededIndexes, failedIndexes);
    }
    if (!finished && features.JobSuccessPolicy && spec.successPolicy) {
      const message = matchSuccessPolicy(spec.successPolicy.rules, completions, succeededIndexes);
      if (message !== undefined)
        finished = newCondition('SuccessCriteriaMet', JOB_REASONS.SuccessPolicy[0], message, now);
    }
  }

  let deleteActive: Pod[] = [];
  let deletePods: Pod[] = [];
  let createPods: Pod[] = [];
  let manageJobCalled = false;
  if (finished) {
    deleteActive = activePods;
  } else if (input.satisfiedExpectations && !job.metadata.deletionTimestamp) {
    manageJobCalled = true;
    if (suspended) deletePods = activePods;
    else {
      const wantActive =
        completions === undefined
          ? succeeded > 0
            ? active
            : parallelism
          : Math.max(0, Math.min(completions - succeeded, parallelism));
      deletePods = excessPods(
        activePods,
        Math.max(0, active - wantActive),
        indexed,
        // active pods of a failed index go too
        new Set([...succeededIndexes, ...(failedIndexes ?? [])]),
        completions,
        now,
      );
      if (deletePods.length === 0 && active < wantActive) {
        const wait = perIndex === undefined ? backoffRemaining(backoff, now) : 0;
        if (wait > 0) requeue(wait);
        else {
          let diff =
            wantActive -
            active -
            (onlyReplaceFailed ? (terminating ?? pods.filter(isTerminating).length) : 0);
          diff = Math.min(diff, MAX_POD_CREATE_DELETE_PER_SYNC);
          if (diff > 0) {
            if (indexed && completions !== undefined) {
              const taken = new Set(succeededIndexes);
              for (const p of activePods) taken.add(completionIndexOf(p) ?? -1);
              if (onlyReplaceFailed)
                for (const p of pods.filter(isTerminating)) taken.add(completionIndexOf(p) ?? -1);
              for (const ix of failedIndexes ?? []) taken.add(ix);
              for (let ix = 0; ix < completions && createPods.length < diff; ix++) {
                if (taken.has(ix)) continue;
                const replaced = delayedDeletion.get(ix);
                if (perIndex !== undefined && replaced) {
                  // the index's own back-off, from its failures so far
                  const left = backoffRemaining(
                    {
                      failuresAfterLastSuccess: absoluteFailures(replaced) + 1,
                      lastFailureTime: podFinishedTime(replaced),
                    },
                    now,
                  );
                  if (left > 0) {
                    requeue(left);
                    continue;
                  }
                }
                createPods.push(
                  newJobPod(
                    job,
                    ix,
                    features.PodIndexLabel,
                    perIndex === undefined ? {} : nextFailureCounts(replaced),
                  ),
                );
              }
            } else
              createPods = Array.from({ length: diff }, () =>
                newJobPod(job, undefined, features.PodIndexLabel),
              );
          }
        }
      }
    }
  }

  const track = (outcome: JobActionOutcome): JobTracking => {
    let done = finished;
    let suspendChanged = false;
    if (done) {
      if (outcome.deleted !== deleteActive.length || !input.satisfiedExpectations) done = undefined;
      active -= outcome.deleted;
      if (terminating !== undefined) terminating += outcome.deleted;
      ready -= outcome.deletedReady;
    } else {
      if (manageJobCalled) {
        active += outcome.created - outcome.deleted;
        if (terminating !== undefined) terminating += outcome.deleted;
      }
      const complete =
        completions === undefined ? succeeded > 0 && active === 0 : succeeded >= completions && active === 0;
      if (complete) done = newCondition(delayTerminal ? 'SuccessCriteriaMet' : 'Complete', '', '', now);
      else if (manageJobCalled) {
        status.conditions ??= [];
        const conditions = status.conditions;
        if (suspended) {
          if (ensureJobCondition(conditions, 'Suspended', 'True', 'JobSuspended', 'Job suspended', now)) {
            suspendChanged = true;
            events.push({ type: 'Normal', reason: 'Suspended', message: 'Job suspended' });
          }
        } else if (ensureJobCondition(conditions, 'Suspended', 'False', 'JobResumed', 'Job resumed', now)) {
          suspendChanged = true;
          events.push({ type: 'Normal', reason: 'Resumed', message: 'Job resumed' });
          status.startTime = rfc3339(now);
        }
        if (status.conditions.length === 0) delete status.conditions;
      }
    }
    const before = source.status ?? {};
    let needsFlush =
      suspendChanged ||
      active !== (before.active ?? 0) ||
      ready !== before.ready ||
      terminating !== before.terminating ||
      status.startTime !== before.startTime;
    status.active = active;
    status.ready = ready;
    if (terminating === undefined) delete status.terminating;
    else status.terminating = terminating;
    return trackJobStatus(done);

    function trackJobStatus(initial: JobCondition | undefined): JobTracking {
      let finishedCond = initial;
      const unc = { succeeded: [...uncounted.succeeded], failed: [...uncounted.failed] };
      status.uncountedTerminatedPods = unc;
      const withFinalizer = new Set(
        pods
          .filter((p) => hasTrackingFinalizer(p) && !expectedRm.has(p.metadata.uid ?? ''))
          .map((p) => p.metadata.uid ?? ''),
      );
      if (cleanUncounted(status, withFinalizer)) needsFlush = true;
      const removeFinalizers: Pod[] = [];
      const newIndexes: number[] = [];
      let reachedMax = false;
      const successFinish = finishedCond?.type === 'SuccessCriteriaMet' || finishedCond?.type === 'Complete';
      const ordered = indexed
        ? [...pods].sort((a, b) => (completionIndexOf(a) ?? -1) - (completionIndexOf(b) ?? -1))
        : pods;
      for (const pod of ordered) {
        const uid = pod.metadata.uid ?? '';
        if (!hasTrackingFinalizer(pod) || expectedRm.has(uid)) continue;
        const considerFailed = isPodFailed(pod);
        const delayed = delayedDeletion.get(completionIndexOf(pod) ?? -1)?.metadata.uid === uid;
        const canRemove =
          Boolean(job.metadata.deletionTimestamp) ||
          finishedCond !== undefined ||
          pod.status?.phase === 'Succeeded' ||
          (considerFailed && !delayed);
        if (!canRemove) continue;
        removeFinalizers.push(pod);
        const list = status.uncountedTerminatedPods as { succeeded: string[]; failed: string[] };
        if (pod.status?.phase === 'Succeeded' && !uncounted.failed.has(uid)) {
          if (indexed) {
            const ix = validIndex(pod);
            if (ix !== undefined && !prevSucceededIndexes.has(ix)) {
              newIndexes.push(ix);
              needsFlush = true;
            }
          } else if (!uncounted.succeeded.has(uid)) {
            list.succeeded.push(uid);
            needsFlush = true;
          }
        } else if (considerFailed || (finishedCond !== undefined && !successFinish)) {
          if (!uncounted.failed.has(uid) && (!indexed || validIndex(pod) !== undefined) && counted(pod)) {
            list.failed.push(uid);
            needsFlush = true;
          }
        }
        if (newIndexes.length + list.succeeded.length + list.failed.length >= MAX_UNCOUNTED_PODS) {
          reachedMax = true;
          break;
        }
      }
      if (indexed) {
        const all = new Set([...prevSucceededIndexes, ...newIndexes]);
        const text = formatIndexes(all);
        if (text !== (source.status?.completedIndexes ?? '')) needsFlush = true;
        status.succeeded = all.size;
        status.completedIndexes = text;
        if (failedIndexes !== undefined) {
          const failedText = formatIndexes(failedIndexes);
          if (failedText !== source.status?.failedIndexes) needsFlush = true;
          status.failedIndexes = failedText;
        }
      }
      status.conditions ??= [];
      const conditions = status.conditions;
      if (finishedCond?.type === 'FailureTarget') {
        conditions.push(finishedCond);
        needsFlush = true;
        finishedCond = newCondition('Failed', finishedCond.reason ?? '', finishedCond.message ?? '', now);
      }
      if (finishedCond?.type === 'SuccessCriteriaMet') {
        if (!hasJobCondition(job, 'SuccessCriteriaMet')) {
          conditions.push(finishedCond);
          needsFlush = true;
        }
        finishedCond = newCondition('Complete', finishedCond.reason ?? '', finishedCond.message ?? '', now);
      }
      if (conditions.length === 0) delete status.conditions;
      const interimStatus = needsFlush ? compactUncounted(structuredClone(status)) : undefined;
      if (interimStatus) needsFlush = false;
      const afterCond = finishedCond;
      return {
        interimStatus,
        removeFinalizers,
        finish(removed) {
          const final = structuredClone(status);
          const still = new Set([...withFinalizer].filter((uid) => !removed.has(uid)));
          let flush = needsFlush || cleanUncounted(final, still);
          let jobFinished = false;
          const u = final.uncountedTerminatedPods;
          const pending = (u?.succeeded?.length ?? 0) + (u?.failed?.length ?? 0);
          if (afterCond && !reachedMax && pending === 0 && !(delayTerminal && (terminating ?? 0) > 0)) {
            final.conditions ??= [];
            ensureJobCondition(
              final.conditions,
              afterCond.type,
              'True',
              afterCond.reason ?? '',
              afterCond.message ?? '',
              now,
            );
            if (afterCond.type === 'Complete') final.completionTime = rfc3339(now);
            jobFinished = true;
            flush = true;
          }
          const out: JobEvent[] = [];
          if (jobFinished && afterCond) {
            if (afterCond.type === 'Complete') {
              if (completions !== undefined && (final.succeeded ?? 0) > completions)
                out.push({
                  type: 'Warning',
                  reason: 'TooManySucceededPods',
                  message: 'Too many succeeded pods running after completion count reached',
                });
              out.push({ type: 'Normal', reason: 'Completed', message: 'Job completed' });
            } else
              out.push({ type: 'Warning', reason: afterCond.reason ?? '', message: afterCond.message ?? '' });
          }
          return {
            ...(flush ? { status: compactUncounted(final) } : {}),
            ...(jobFinished ? { finished: afterCond } : {}),
            events: out,
          };
        },
      };
    }
  };

  return {
    deleteActive,
    deletePods,
    createPods,
    ...(requeueAfter !== undefined ? { requeueAfter } : {}),
    backoff,
    events,
    track,
  };
}

/** Drops empty uncounted lists, as the API's JSON leaves them out (`uncountedTerminatedPods: {}`). */
function compactUncounted(status: JobStatus): JobStatus {
  const u = status.uncountedTerminatedPods;
  if (u?.succeeded?.length === 0) delete u.succeeded;
  if (u?.failed?.length === 0) delete u.failed;
  return status;
}

/** Moves uncounted UIDs whose pod no longer has the finalizer into the counters; true when anything moved. */
function cleanUncounted(status: JobStatus, withFinalizer: ReadonlySet<string>): boolean {
  status.uncountedTerminatedPods ??= {};
  const u = status.uncountedTerminatedPods;
  let changed = false;
  for (const kind of ['succeeded', 'failed'] as const) {
    const list = u[kind] ?? [];
    const keep = list.filter((uid) => withFinalizer.has(uid));
    if (keep.length !== list.length) {
      status[kind] = (status[kind] ?? 0) + list.length - keep.length;
      changed = true;
    }
    u[kind] = keep;
  }
  return changed;
}

/** A failure-count annotation's value; missing, malformed or out of int32 range counts as 0, as upstream. */
function failureCount(pod: Pod, annotation: string): number {
  const raw = pod.metadata.annotations?.[annotation];
  if (raw === undefined || !/^\d+$/.test(raw)) return 0;
  const n = Number(raw);
  return n <= 2 ** 31 - 1 ? n : 0;
}

const absoluteFailures = (pod: Pod) =>
  failureCount(pod, JOB_INDEX_FAILURE_COUNT_ANNOTATION) +
  failureCount(pod, JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION);

/** restartPolicy OnFailure: the restarts of running and pending pods have reached backoffLimit (any, when it is 0). */
function pastBackoffLimitOnFailure(job: Job, pods: readonly Pod[], backoffLimit: number): boolean {
  if (job.spec.template.spec.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const p of pods) {
    if (p.status?.phase !== 'Running' && p.status?.phase !== 'Pending') continue;
    for (const s of [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])])
      restarts += s.restartCount;
  }
  return backoffLimit === 0 ? restarts > 0 : restarts >= backoffLimit;
}

/**
 * The active pods manageJob removes: for Indexed jobs first those with a missing, out-of-range or
 * already-succeeded index and duplicates of one index (the best pod of an index stays), then, if still
 * more than wanted, by upstream's deletion order; at most 500.
 */
function excessPods(
  active: readonly Pod[],
  atLeast: number,
  indexed: boolean,
  succeededIndexes: ReadonlySet<number>,
  completions: number | undefined,
  now: number,
): Pod[] {
  const out: Pod[] = [];
  let rest = [...active];
  if (indexed) {
    const byIndex = new Map<number, Pod[]>();
    rest = [];
    for (const p of active) {
      const ix = completionIndexOf(p);
      if (ix === undefined || completions === undefined || ix >= completions || succeededIndexes.has(ix))
        out.push(p);
      else byIndex.set(ix, [...(byIndex.get(ix) ?? []), p]);
    }
    for (const group of byIndex.values()) {
      // keep the pod least preferred for deletion; the others of the index go
      const sorted = podsToDelete(group, group, group.length, now);
      rest.push(sorted.pop() as Pod);
      out.push(...sorted);
    }
  }
  const more = atLeast - out.length;
  if (more > 0) out.push(...podsToDelete(rest, rest, more, now));
  return out.slice(0, MAX_POD_CREATE_DELETE_PER_SYNC);
}
