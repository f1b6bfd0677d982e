// The storage protection finalizers (kubernetes.io/pvc-protection, kubernetes.io/pv-protection) and when a protection controller adds or may remove one.
import type { KubeObject } from '../../types.ts';

/** Kept on a PersistentVolumeClaim while a pod uses it. */
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
/** Kept on a PersistentVolume while it is bound. */
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

/** Not being deleted and without the finalizer: the controller adds it. */
export function needToAddFinalizer(object: KubeObject, finalizer: string): boolean {
  return !object.metadata?.deletionTimestamp && !(object.metadata?.finalizers ?? []).includes(finalizer);
}

/** Being deleted and still holding the finalizer: the controller removes it once the object is unused. */
export function isDeletionCandidate(object: KubeObject, finalizer: string): boolean {
  return !!object.metadata?.deletionTimestamp && (object.metadata?.finalizers ?? []).includes(finalizer);
}

/** The object's finalizers with `finalizer` added (once) or removed. */
export function withFinalizer(object: KubeObject, finalizer: string, present: boolean): string[] {
  const rest = (object.metadata?.finalizers ?? []).filter((f) => f !== finalizer);
  return present ? [...rest, finalizer] : rest;
}
