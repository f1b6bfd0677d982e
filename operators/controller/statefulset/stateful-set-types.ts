// StatefulSet types: the apps/v1 StatefulSet and ControllerRevision fields the statefulset controller reads and writes, and its labels.
import type { PodSpec } from '../../api/core-v1.ts';
import type { LabelSelectorObject } from '../../label-selector.ts';
import type { KubeObject, ObjectMeta } from '../../types.ts';

/** The owner-reference kind the controller puts on its pods and revisions. */
export const STATEFUL_SET_GVK = { apiVersion: 'apps/v1', kind: 'StatefulSet' } as const;
/** The kind of the revisions it keeps. */
export const CONTROLLER_REVISION_GVK = { apiVersion: 'apps/v1', kind: 'ControllerRevision' } as const;
/** The label naming a stateful pod (its stable identity; a per-pod Service can select it). */
export const STATEFUL_SET_POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
/** The label carrying a stateful pod's ordinal (upstream's PodIndexLabel, on by default). */
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
/** The label naming the ControllerRevision a pod was made from. */
export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash';
/** revisionHistoryLimit when absent. */
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;

/** A PersistentVolumeClaim as a template or as created (only what the controller touches is typed). */
export interface PersistentVolumeClaimObject extends KubeObject {
  metadata: ObjectMeta;
  spec?: { [field: string]: unknown };
  [field: string]: unknown;
}

/** What the controller writes. */
export interface StatefulSetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas?: number;
  currentReplicas?: number;
  updatedReplicas?: number;
  availableReplicas?: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number;
  [field: string]: unknown;
}

/** An apps/v1 StatefulSet (absent fields read with the API server's defaults). */
export interface StatefulSet extends KubeObject {
  metadata: ObjectMeta;
  spec: {
    /** Defaults to 1. */
    replicas?: number;
    selector?: LabelSelectorObject;
    template?: { metadata?: ObjectMeta; spec?: PodSpec };
    serviceName?: string;
    volumeClaimTemplates?: PersistentVolumeClaimObject[];
    /** Defaults to OrderedReady. */
    podManagementPolicy?: 'OrderedReady' | 'Parallel' | string;
    /** Defaults to RollingUpdate with partition 0. */
    updateStrategy?: {
      type?: 'RollingUpdate' | 'OnDelete' | string;
      /** maxUnavailable (an int or a percentage of replicas, MaxUnavailableStatefulSet) is honoured when set. */
      rollingUpdate?: { partition?: number; maxUnavailable?: number | string };
    };
    revisionHistoryLimit?: number;
    minReadySeconds?: number;
    ordinals?: { start?: number };
    persistentVolumeClaimRetentionPolicy?: {
      whenDeleted?: 'Retain' | 'Delete' | string;
      whenScaled?: 'Retain' | 'Delete' | string;
    };
    [field: string]: unknown;
  };
  status?: StatefulSetStatus;
}

/** An apps/v1 ControllerRevision: a snapshot of the set's template as a patch, and its sequence number. */
export interface ControllerRevision extends KubeObject {
  metadata: ObjectMeta;
  data?: unknown;
  revision: number;
}

/** spec.replicas, 1 when absent. */
export const setReplicas = (set: StatefulSet): number => set.spec.replicas ?? 1;
/** spec.ordinals.start, 0 when absent. */
export const startOrdinal = (set: StatefulSet): number => set.spec.ordinals?.start ?? 0;
/** Whether pods are created and deleted without waiting for each other (Parallel). */
export const allowsBurst = (set: StatefulSet): boolean => set.spec.podManagementPolicy === 'Parallel';
