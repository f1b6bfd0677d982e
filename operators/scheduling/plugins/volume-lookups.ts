// VolumeLookups: the storage objects the volume plugins read (claims, volumes, classes), as the minimal shapes they need and the lookups the assembly provides.
import type { KubeObject } from '../../types.ts';

/** A PersistentVolumeClaim as the scheduler reads it. */
export interface PersistentVolumeClaim extends KubeObject {
  spec?: {
    accessModes?: string[];
    volumeName?: string;
    storageClassName?: string | null;
  };
  status?: { phase?: string };
}

/** A PersistentVolume as the scheduler reads it (zone labels in metadata). */
export interface PersistentVolume extends KubeObject {
  spec?: {
    storageClassName?: string;
    claimRef?: { namespace?: string; name?: string; uid?: string };
    /** A CSI volume: its driver and the driver's handle for it. */
    csi?: { driver: string; volumeHandle: string };
  };
}

/** A storage.k8s.io/v1 CSINode: the CSI drivers on a node and how many volumes each may attach. */
export interface CSINode extends KubeObject {
  spec?: { drivers?: { name: string; nodeID?: string; allocatable?: { count?: number } }[] };
}

/** A storage.k8s.io/v1 StorageClass as the scheduler reads it. */
export interface StorageClass extends KubeObject {
  provisioner?: string;
  volumeBindingMode?: 'Immediate' | 'WaitForFirstConsumer';
}

/**
 * Reads of the cluster's storage objects (informer stores in the assembly, maps in tests); a lookup
 * returning undefined means the object does not exist. A lookup left out means the scheduler does not
 * watch that kind: the checks that need it are skipped (the in-tree registry's plugins, before the
 * assembly wires informers), so claims are then not looked at, as before the volume plugins existed.
 */
export interface VolumeLookups {
  persistentVolumeClaim?(namespace: string, name: string): PersistentVolumeClaim | undefined;
  persistentVolume?(name: string): PersistentVolume | undefined;
  storageClass?(name: string): StorageClass | undefined;
  csiNode?(name: string): CSINode | undefined;
}

/** The beta annotation that, when set, names a claim's class instead of spec.storageClassName. */
export const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/** A claim's storage class name, as upstream's GetPersistentVolumeClaimClass ('' for none). */
export function claimClass(pvc: PersistentVolumeClaim): string {
  const beta = pvc.metadata?.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
  if (beta !== undefined) return beta;
  return pvc.spec?.storageClassName ?? '';
}

/** The not-found message of a Go lister for `resource` (e.g. `persistentvolumeclaim "data" not found`). */
export function notFoundMessage(resource: string, name: string): string {
  return `${resource} "${name}" not found`;
}
