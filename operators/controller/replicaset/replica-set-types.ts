// ReplicaSet types: the apps/v1 ReplicaSet fields the replicaset controller reads and writes, and its constants.
import type { PodSpec } from '../../api/core-v1.ts';
import type { LabelSelectorObject } from '../../label-selector.ts';
import type { KubeObject, ObjectMeta } from '../../types.ts';

/** At most this many pods are created or deleted by one sync (upstream's BurstReplicas). */
export const BURST_REPLICAS = 500;
/** The condition type written when creating or deleting pods fails. */
export const REPLICA_FAILURE = 'ReplicaFailure';
/** The owner-reference kinds of the two controllers that share this code. */
export const REPLICA_SET_GVK = { apiVersion: 'apps/v1', kind: 'ReplicaSet' } as const;
export const REPLICATION_CONTROLLER_GVK = { apiVersion: 'v1', kind: 'ReplicationController' } as const;

export interface ReplicaSetCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/** Invariant as the API server keeps it: replicas, fullyLabeledReplicas, readyReplicas, availableReplicas are ≥ 0 and ordered available ≤ ready ≤ replicas. */
export interface ReplicaSetStatus {
  replicas: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  conditions?: ReplicaSetCondition[];
  [field: string]: unknown;
}

/** A ReplicaSet (a ReplicationController is read through the same shape, its map selector as matchLabels). */
export interface ReplicaSet extends KubeObject {
  metadata: ObjectMeta;
  spec: {
    /** Defaults to 1 when absent. */
    replicas?: number;
    minReadySeconds?: number;
    selector?: LabelSelectorObject;
    template?: { metadata?: ObjectMeta; spec?: PodSpec };
    [field: string]: unknown;
  };
  status?: ReplicaSetStatus;
}
