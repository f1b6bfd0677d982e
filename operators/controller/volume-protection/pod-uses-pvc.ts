// podUsesPvc: whether a pod keeps a claim in use for pvc-protection — a scheduled pod naming it, or a live pod whose generic ephemeral volume it is.
import type { Pod } from '../../api/core-v1.ts';
import type { KubeObject } from '../../types.ts';

interface VolumeRef {
  name: string;
  persistentVolumeClaim?: { claimName: string };
  ephemeral?: unknown;
}

/**
 * A pod shut down for good: deleted with a zero grace period (the kubelet is done with it, or it was
 * force-deleted). Its ephemeral claims no longer count, so a pod finalizer cannot deadlock with the claim's.
 */
export function podIsShutDown(pod: Pod): boolean {
  return !!pod.metadata?.deletionTimestamp && pod.metadata?.deletionGracePeriodSeconds === 0;
}

/** The claim name of a pod's generic ephemeral volume: `<pod>-<volume>`. */
export function ephemeralClaimName(pod: Pod, volumeName: string): string {
  return `${pod.metadata?.name ?? ''}-${volumeName}`;
}

/**
 * Upstream's podUsesPVC: only scheduled pods count (the kubelet starts no pod whose claim is being deleted);
 * one uses the claim when a volume names it, or, not shut down, when its ephemeral volume's claim is this
 * one and the claim is controlled by the pod.
 * @param pod the pod
 * @param pvc the claim (namespace already matched by the caller)
 */
export function podUsesPvc(pod: Pod, pvc: KubeObject): boolean {
  if (!pod.spec?.nodeName) return false;
  const name = pvc.metadata?.name;
  const ownedByPod = (pvc.metadata?.ownerReferences ?? []).some(
    (r) => r.controller === true && r.uid === pod.metadata?.uid,
  );
  return ((pod.spec.volumes ?? []) as VolumeRef[]).some(
    (v) =>
      v.persistentVolumeClaim?.claimName === name ||
      (!podIsShutDown(pod) &&
        v.ephemeral !== undefined &&
        ephemeralClaimName(pod, v.name) === name &&
        ownedByPod),
  );
}

/** The claims a pod references (by name): its volumes' claims and its ephemeral volumes' claims. */
export function podClaimNames(pod: Pod): string[] {
  return ((pod.spec?.volumes ?? []) as VolumeRef[]).flatMap((v) =>
    v.persistentVolumeClaim
      ? [v.persistentVolumeClaim.claimName]
      : v.ephemeral !== undefined
        ? [ephemeralClaimName(pod, v.name)]
        : [],
  );
}
