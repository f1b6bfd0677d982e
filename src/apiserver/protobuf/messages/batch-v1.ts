// The protobuf messages of batch/v1 (k8s.io/api), as our own rows: JSON name, field number, type, flags.
import type { MessagePackage } from '../message-table.ts';

/** batch/v1: each message's fields (flags: r repeated, p pointer, i inline, e always in JSON, z omitted when zero, w wrapper). */
export const BATCH_V1: MessagePackage = {
  name: 'batch/v1',
  messages: {
    CronJob: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'CronJobSpec'],
      ['status', 3, 'CronJobStatus'],
    ],
    CronJobList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'CronJob', 're'],
    ],
    CronJobSpec: [
      ['schedule', 1, 'string', 'e'],
      ['timeZone', 8, 'string', 'p'],
      ['startingDeadlineSeconds', 2, 'int64', 'p'],
      ['concurrencyPolicy', 3, 'string'],
      ['suspend', 4, 'bool', 'p'],
      ['jobTemplate', 5, 'JobTemplateSpec', 'e'],
      ['successfulJobsHistoryLimit', 6, 'int32', 'p'],
      ['failedJobsHistoryLimit', 7, 'int32', 'p'],
    ],
    CronJobStatus: [
      ['active', 1, 'core/v1.ObjectReference', 'r'],
      ['lastScheduleTime', 4, '@Time', 'p'],
      ['lastSuccessfulTime', 5, '@Time', 'p'],
    ],
    Job: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'JobSpec'],
      ['status', 3, 'JobStatus'],
    ],
    JobCondition: [
      ['type', 1, 'string', 'e'],
      ['status', 2, 'string', 'e'],
      ['lastProbeTime', 3, '@Time'],
      ['lastTransitionTime', 4, '@Time'],
      ['reason', 5, 'string'],
      ['message', 6, 'string'],
    ],
    JobList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'Job', 're'],
    ],
    JobSchedulingConfiguration: [
      ['schedulingPolicy', 1, 'scheduling/v1alpha3.WorkloadPodGroupSchedulingPolicy', 'p'],
      ['schedulingConstraints', 2, 'scheduling/v1alpha3.WorkloadPodGroupSchedulingConstraints', 'p'],
      ['disruptionMode', 3, 'scheduling/v1alpha3.WorkloadPodGroupDisruptionMode', 'p'],
      ['resourceClaims', 4, 'scheduling/v1alpha3.WorkloadPodGroupResourceClaim', 'r'],
    ],
    JobSpec: [
      ['parallelism', 1, 'int32', 'p'],
      ['completions', 2, 'int32', 'p'],
      ['activeDeadlineSeconds', 3, 'int64', 'p'],
      ['podFailurePolicy', 11, 'PodFailurePolicy', 'p'],
      ['successPolicy', 16, 'SuccessPolicy', 'p'],
      ['backoffLimit', 7, 'int32', 'p'],
      ['backoffLimitPerIndex', 12, 'int32', 'p'],
      ['maxFailedIndexes', 13, 'int32', 'p'],
      ['selector', 4, 'meta/v1.LabelSelector', 'p'],
      ['manualSelector', 5, 'bool', 'p'],
      ['template', 6, 'core/v1.PodTemplateSpec', 'e'],
      ['ttlSecondsAfterFinished', 8, 'int32', 'p'],
      ['completionMode', 9, 'string', 'p'],
      ['suspend', 10, 'bool', 'p'],
      ['podReplacementPolicy', 14, 'string', 'p'],
      ['managedBy', 15, 'string', 'p'],
      ['scheduling', 17, 'JobSchedulingConfiguration', 'p'],
    ],
    JobStatus: [
      ['conditions', 1, 'JobCondition', 'r'],
      ['startTime', 2, '@Time', 'p'],
      ['completionTime', 3, '@Time', 'p'],
      ['active', 4, 'int32'],
      ['succeeded', 5, 'int32'],
      ['failed', 6, 'int32'],
      ['terminating', 11, 'int32', 'p'],
      ['completedIndexes', 7, 'string'],
      ['failedIndexes', 10, 'string', 'p'],
      ['uncountedTerminatedPods', 8, 'UncountedTerminatedPods', 'p'],
      ['ready', 9, 'int32', 'p'],
    ],
    JobTemplateSpec: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'JobSpec'],
    ],
    PodFailurePolicy: [['rules', 1, 'PodFailurePolicyRule', 're']],
    PodFailurePolicyOnExitCodesRequirement: [
      ['containerName', 1, 'string', 'p'],
      ['operator', 2, 'string', 'e'],
      ['values', 3, 'int32', 're'],
    ],
    PodFailurePolicyOnPodConditionsPattern: [
      ['type', 1, 'string', 'e'],
      ['status', 2, 'string', 'e'],
    ],
    PodFailurePolicyRule: [
      ['action', 1, 'string', 'e'],
      ['onExitCodes', 2, 'PodFailurePolicyOnExitCodesRequirement', 'p'],
      ['onPodConditions', 3, 'PodFailurePolicyOnPodConditionsPattern', 'r'],
    ],
    SuccessPolicy: [['rules', 1, 'SuccessPolicyRule', 're']],
    SuccessPolicyRule: [
      ['succeededIndexes', 1, 'string', 'p'],
      ['succeededCount', 2, 'int32', 'p'],
    ],
    UncountedTerminatedPods: [
      ['succeeded', 1, 'string', 'r'],
      ['failed', 2, 'string', 'r'],
    ],
  },
};
