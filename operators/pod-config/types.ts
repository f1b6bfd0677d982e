// The kubelet pod-config vocabulary: a minimal Pod, the update operations, source names and annotations.
import type { KubeObject, ObjectMeta } from '../types.ts';

/** One container of a pod spec; only the fields kube-rx reads are typed. */
export interface Container {
  name?: string;
  image?: string;
  imagePullPolicy?: string;
  [field: string]: unknown;
}

/** A pod spec; only the fields kube-rx reads are typed, the rest is carried as is. */
export interface PodSpec {
  nodeName?: string;
  containers?: Container[];
  initContainers?: Container[];
  volumes?: { name?: string; [field: string]: unknown }[];
  tolerations?: { key?: string; operator?: string; value?: string; effect?: string }[];
  [field: string]: unknown;
}

/** A pod status; only the phase is typed. */
export interface PodStatus {
  phase?: string;
  [field: string]: unknown;
}

/** A Pod as the pod sources produce it. Invariant once merged: metadata.uid and metadata.name are set. */
export interface Pod extends KubeObject {
  metadata?: ObjectMeta;
  spec?: PodSpec;
  status?: PodStatus;
}

/**
 * What the mux tells the sync loop, with the kubelet's names: SET = the full state (snapshot
 * modes), ADD = new to its source, UPDATE = a meaningful change, DELETE = graceful deletion
 * requested (deletionTimestamp set), REMOVE = gone from its source, RECONCILE = only the status
 * differs.
 */
export type PodOperation = 'SET' | 'ADD' | 'UPDATE' | 'DELETE' | 'REMOVE' | 'RECONCILE';

/**
 * One notification of the pod config. `pods` is never null (an empty ADD is the "source ready"
 * signal); its pods are copies the receiver may keep.
 */
export interface PodUpdate {
  op: PodOperation;
  source: string;
  pods: Pod[];
}

/** What a source hands the mux: by default a full set (SET) of its pods. */
export interface SourceUpdate {
  source: string;
  /** Default `SET`; `ADD`/`UPDATE`/`DELETE`/`REMOVE` are accepted as the kubelet's storage accepts them. */
  op?: PodOperation;
  pods: readonly Pod[];
}

/** How the pod config reports changes (the kubelet's PodConfigNotificationMode). */
export type PodConfigMode = 'Incremental' | 'Snapshot' | 'SnapshotAndUpdates';

/** Source names, as the kubelet spells them. */
export const FILE_SOURCE = 'file';
export const HTTP_SOURCE = 'http';
export const API_SOURCE = 'api';
/** The source of a SET of every source's pods (PodConfig's Sync). */
export const ALL_SOURCE = '*';

/** Annotation keys the kubelet uses on pods. */
export const CONFIG_SOURCE_ANNOTATION = 'kubernetes.io/config.source';
export const CONFIG_MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';
export const CONFIG_SEEN_ANNOTATION = 'kubernetes.io/config.seen';
export const CONFIG_HASH_ANNOTATION = 'kubernetes.io/config.hash';

/** The kubelet's pod full name: `name_namespace`. */
export function podFullName(pod: Pod): string {
  return `${pod.metadata?.name ?? ''}_${pod.metadata?.namespace ?? ''}`;
}
