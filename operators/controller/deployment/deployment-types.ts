// Deployment types: the apps/v1 Deployment fields the deployment controller reads and writes, its annotations, condition types and reasons.
import type { PodSpec } from '../../api/core-v1.ts';
import type { LabelSelectorObject } from '../../label-selector.ts';
import type { KubeObject, ObjectMeta } from '../../types.ts';
import type { ReplicaSet } from '../replicaset/replica-set-types.ts';

/** The owner-reference kind the controller puts on its ReplicaSets. */
export const DEPLOYMENT_GVK = { apiVersion: 'apps/v1', kind: 'Deployment' } as const;
/** The label (and selector term) that ties a ReplicaSet and its pods to one pod template. */
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

/** The rollout sequence number of a ReplicaSet (and, copied, of its Deployment). */
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
/** Earlier revisions a ReplicaSet served (comma-separated), kept when a rollback makes it new again. */
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
/** The Deployment's replicas when the ReplicaSet was last sized: tells scaling events from rollouts. */
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
/** replicas + maxSurge when the ReplicaSet was last sized: its share in proportional scaling. */
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
/** Upstream's cap on the revision-history annotation's length, in characters. */
export const MAX_REVISION_HISTORY_CHARS = 2000;
/** What `kubectl rollout history` shows as CHANGE-CAUSE. */
export const CHANGE_CAUSE_ANNOTATION = 'kubernetes.io/change-cause';
/** The annotation kubectl apply keeps; never copied to ReplicaSets. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
/** The legacy rollback request annotation (extensions/v1beta1); never copied. */
export const DEPRECATED_ROLLBACK_TO_ANNOTATION = 'deprecated.deployment.rollback.to';

/** Condition types of a Deployment. */
export const DEPLOYMENT_AVAILABLE = 'Available';
export const DEPLOYMENT_PROGRESSING = 'Progressing';
export const DEPLOYMENT_REPLICA_FAILURE = 'ReplicaFailure';

/** Condition reasons, as upstream words them. */
export const DEPLOYMENT_REASONS = {
  replicaSetUpdated: 'ReplicaSetUpdated',
  failedRSCreate: 'ReplicaSetCreateError',
  newReplicaSet: 'NewReplicaSetCreated',
  foundNewRS: 'FoundNewReplicaSet',
  newRSAvailable: 'NewReplicaSetAvailable',
  timedOut: 'ProgressDeadlineExceeded',
  paused: 'DeploymentPaused',
  resumed: 'DeploymentResumed',
  minimumReplicasAvailable: 'MinimumReplicasAvailable',
  minimumReplicasUnavailable: 'MinimumReplicasUnavailable',
} as const;

/** progressDeadlineSeconds that means "no deadline" (math.MaxInt32), as revisionHistoryLimit means "keep all". */
export const MAX_INT32 = 2_147_483_647;

/** An int or a percentage string (`"25%"`), as maxSurge and maxUnavailable are written. */
export type IntOrString = number | string;

export interface DeploymentCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

/**
 * What the controller writes. Invariants as upstream keeps them: every count ≥ 0; updatedReplicas ≤ replicas;
 * unavailableReplicas = max(0, Σ spec.replicas of the ReplicaSets − availableReplicas); at most one condition per type.
 */
export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  collisionCount?: number;
  conditions?: DeploymentCondition[];
  [field: string]: unknown;
}

export interface DeploymentStrategy {
  type?: 'RollingUpdate' | 'Recreate' | string;
  rollingUpdate?: { maxSurge?: IntOrString; maxUnavailable?: IntOrString };
}

/** An apps/v1 Deployment (absent spec fields read with the API server's defaults). */
export interface Deployment extends KubeObject {
  metadata: ObjectMeta;
  spec: {
    /** Defaults to 1. */
    replicas?: number;
    selector?: LabelSelectorObject;
    template?: { metadata?: ObjectMeta; spec?: PodSpec };
    /** Defaults to RollingUpdate with maxSurge and maxUnavailable 25%. */
    strategy?: DeploymentStrategy;
    minReadySeconds?: number;
    /** Defaults to 10. */
    revisionHistoryLimit?: number;
    paused?: boolean;
    /** Defaults to 600. */
    progressDeadlineSeconds?: number;
    [field: string]: unknown;
  };
  status?: DeploymentStatus;
}

/** A ReplicaSet's spec.replicas (absent: 0 for what the deployment controller reads, as a created RS always has it). */
export const specReplicas = (rs: ReplicaSet | undefined): number => rs?.spec.replicas ?? 0;
/** A Deployment's spec.replicas, 1 when absent. */
export const deploymentReplicas = (d: Deployment): number => d.spec.replicas ?? 1;
/** Whether the strategy is RollingUpdate (the default). */
export const isRollingUpdate = (d: Deployment): boolean =>
  (d.spec.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
