// Job types: the batch/v1 Job fields the job controller reads and writes, with upstream's constants (finalizer, annotations, reasons).
import type { Pod, PodSpec } from '../../api/core-v1.ts';
import type { LabelSelectorObject } from '../../label-selector.ts';
import type { KubeObject, ObjectMeta } from '../../types.ts';

/** The finalizer the job controller puts on every pod it creates or adopts, removed once the pod is counted. */
export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
/** Annotation (and label, PodIndexLabel gate) carrying an Indexed job pod's completion index. */
export const JOB_COMPLETION_INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
/** The env var an Indexed job's containers get, read from the index annotation. */
export const JOB_COMPLETION_INDEX_ENV = 'JOB_COMPLETION_INDEX';
/** Labels the API server puts on a job's template (kube-rx's controller stamps them when the server did not). */
export const JOB_CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
/** The spec.managedBy value that means "this controller". */
export const JOB_CONTROLLER_NAME = 'kubernetes.io/job-controller';
/** Pod-recreation back-off: 10 s doubling per consecutive failure, capped at 10 minutes (1.31). */
export const DEFAULT_JOB_POD_FAILURE_BACKOFF_MS = 10_000;
export const MAX_JOB_POD_FAILURE_BACKOFF_MS = 10 * 60_000;
/** Cap of entries added to status.uncountedTerminatedPods in one sync, and of creations/deletions per sync. */
export const MAX_UNCOUNTED_PODS = 500;
export const MAX_POD_CREATE_DELETE_PER_SYNC = 500;

/** backoffLimitPerIndex: failures (counted / ignored) of an index so far, carried from a failed pod to its replacement. */
export const JOB_INDEX_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-failure-count';
export const JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION =
  'batch.kubernetes.io/job-index-ignored-failure-count';

/** Upstream's condition reasons and messages. */
export const JOB_REASONS = {
  BackoffLimitExceeded: ['BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
  DeadlineExceeded: ['DeadlineExceeded', 'Job was active longer than specified deadline'],
  PodFailurePolicy: ['PodFailurePolicy', ''],
  SuccessPolicy: ['SuccessPolicy', ''],
  MaxFailedIndexesExceeded: [
    'MaxFailedIndexesExceeded',
    'Job has exceeded the specified maximal number of failed indexes',
  ],
  FailedIndexes: ['FailedIndexes', 'Job has failed indexes'],
} as const;

export type JobConditionType = 'Suspended' | 'FailureTarget' | 'SuccessCriteriaMet' | 'Failed' | 'Complete';

export interface JobCondition {
  type: JobConditionType | string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastProbeTime?: string;
  lastTransitionTime?: string;
}

export interface PodFailurePolicyRule {
  action: 'FailJob' | 'Ignore' | 'Count' | 'FailIndex';
  onExitCodes?: { containerName?: string; operator: 'In' | 'NotIn'; values: number[] } | null;
  onPodConditions?: { type: string; status?: string }[] | null;
}

export interface SuccessPolicyRule {
  succeededIndexes?: string;
  succeededCount?: number;
}

export interface JobSpec {
  parallelism?: number;
  completions?: number | null;
  completionMode?: 'NonIndexed' | 'Indexed' | string;
  backoffLimit?: number;
  backoffLimitPerIndex?: number | null;
  maxFailedIndexes?: number | null;
  activeDeadlineSeconds?: number | null;
  suspend?: boolean;
  selector?: LabelSelectorObject;
  manualSelector?: boolean;
  template: { metadata?: ObjectMeta; spec: PodSpec };
  podFailurePolicy?: { rules: PodFailurePolicyRule[] } | null;
  successPolicy?: { rules: SuccessPolicyRule[] } | null;
  podReplacementPolicy?: 'TerminatingOrFailed' | 'Failed';
  managedBy?: string;
  ttlSecondsAfterFinished?: number | null;
}

export interface JobStatus {
  active?: number;
  ready?: number;
  terminating?: number;
  succeeded?: number;
  failed?: number;
  startTime?: string;
  completionTime?: string;
  completedIndexes?: string;
  failedIndexes?: string;
  uncountedTerminatedPods?: { succeeded?: string[]; failed?: string[] };
  conditions?: JobCondition[];
}

/** A batch/v1 Job. */
export interface Job extends KubeObject {
  metadata: ObjectMeta;
  spec: JobSpec;
  status?: JobStatus;
}

/** Feature gates the job controller reads, with their 1.31 defaults in {@link DEFAULT_JOB_FEATURES}. */
export interface JobFeatures {
  JobBackoffLimitPerIndex: boolean;
  JobPodReplacementPolicy: boolean;
  JobManagedBy: boolean;
  JobSuccessPolicy: boolean;
  PodIndexLabel: boolean;
}

export const DEFAULT_JOB_FEATURES: JobFeatures = {
  JobBackoffLimitPerIndex: true,
  JobPodReplacementPolicy: true,
  JobManagedBy: false,
  JobSuccessPolicy: true,
  PodIndexLabel: true,
};

/** Whether the condition of `type` is True. */
export function hasJobCondition(job: Job, type: string): boolean {
  return job.status?.conditions?.some((c) => c.type === type && c.status === 'True') ?? false;
}

/** Complete or Failed is True: nothing more to do. */
export function isJobFinished(job: Job): boolean {
  return hasJobCondition(job, 'Complete') || hasJobCondition(job, 'Failed');
}

/** The pod carries the tracking finalizer. */
export function hasTrackingFinalizer(pod: Pod): boolean {
  return pod.metadata.finalizers?.includes(JOB_TRACKING_FINALIZER) ?? false;
}

/** The pod's completion index, or undefined when missing or not a valid non-negative integer. */
export function completionIndexOf(pod: Pod): number | undefined {
  const raw = pod.metadata.annotations?.[JOB_COMPLETION_INDEX_ANNOTATION];
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : undefined;
}
