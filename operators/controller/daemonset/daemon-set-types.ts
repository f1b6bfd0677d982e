// DaemonSet types: the apps/v1 DaemonSet and ControllerRevision fields the daemonset controller reads and writes, and its constants.
import type { PodSpec } from '../../api/core-v1.ts';
import type { LabelSelectorObject } from '../../label-selector.ts';
import type { KubeObject, ObjectMeta } from '../../types.ts';

/** The owner-reference kind of daemon pods and revisions. */
export const DAEMON_SET_GVK = { apiVersion: 'apps/v1', kind: 'DaemonSet' } as const;
/** The label naming the revision a pod (or a ControllerRevision) belongs to. */
export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash';
/** The deprecated label carrying the DaemonSet's generation at the pod's creation. */
export const POD_TEMPLATE_GENERATION_LABEL = 'pod-template-generation';
/** At most this many pods are created or deleted by one sync (upstream's BurstReplicas for daemon sets). */
export const DAEMON_SET_BURST_REPLICAS = 250;

/** A count or a percentage ("25%"). */
export type IntOrPercent = number | string;

/** Invariant as the controller writes it: every count ≥ 0; numberAvailable ≤ numberReady ≤ currentNumberScheduled ≤ desired + misscheduled. */
export interface DaemonSetStatus {
  currentNumberScheduled: number;
  numberMisscheduled: number;
  desiredNumberScheduled: number;
  numberReady: number;
  observedGeneration?: number;
  updatedNumberScheduled?: number;
  numberAvailable?: number;
  numberUnavailable?: number;
  collisionCount?: number;
  [field: string]: unknown;
}

export interface DaemonSet extends KubeObject {
  metadata: ObjectMeta;
  spec: {
    selector?: LabelSelectorObject;
    template?: { metadata?: ObjectMeta; spec?: PodSpec };
    updateStrategy?: {
      type?: 'RollingUpdate' | 'OnDelete' | string;
      rollingUpdate?: { maxUnavailable?: IntOrPercent; maxSurge?: IntOrPercent };
    };
    minReadySeconds?: number;
    /** Old revisions kept; default 10. */
    revisionHistoryLimit?: number;
    [field: string]: unknown;
  };
  status?: DaemonSetStatus;
}

/** An apps/v1 ControllerRevision: an immutable snapshot of a DaemonSet's template (as a patch) and its number. */
export interface ControllerRevision extends KubeObject {
  metadata: ObjectMeta;
  data?: unknown;
  revision: number;
}
