// PodManager: the kubelet's desired pods by UID, with static pods and their mirror pods paired by full name.
import type { Pod } from '../api/core-v1.ts';

const CONFIG_SOURCE = 'kubernetes.io/config.source';
const CONFIG_MIRROR = 'kubernetes.io/config.mirror';
const CONFIG_HASH = 'kubernetes.io/config.hash';

/** The kubelet's full name of a pod: `name_namespace`. */
export function fullNameOf(pod: Pod): string {
  return `${pod.metadata.name ?? ''}_${pod.metadata.namespace ?? ''}`;
}

/** A mirror pod: the API server's copy of a static pod (has the config.mirror annotation). */
export function isMirrorPod(pod: Pod): boolean {
  return pod.metadata.annotations?.[CONFIG_MIRROR] !== undefined;
}

/** A static pod: from a file or HTTP source. */
export function isStaticPod(pod: Pod): boolean {
  const source = pod.metadata.annotations?.[CONFIG_SOURCE];
  return source !== undefined && source !== 'api';
}

/** The mirror pod belongs to this static pod: same full name and its mirror annotation is the static pod's hash. */
export function isMirrorPodOf(mirror: Pod | undefined, pod: Pod): boolean {
  if (!mirror) return false;
  const hash = pod.metadata.annotations?.[CONFIG_HASH] ?? pod.metadata.uid;
  return fullNameOf(mirror) === fullNameOf(pod) && mirror.metadata.annotations?.[CONFIG_MIRROR] === hash;
}

/**
 * The pod manager (pkg/kubelet/pod): the pods the kubelet should run, by UID and by full name, and
 * mirror pods by full name. Invariant: a mirror pod is never among `getPods()`.
 */
export class PodManager {
  private readonly byUid = new Map<string, Pod>();
  private readonly byFullName = new Map<string, Pod>();
  private readonly mirrorsByFullName = new Map<string, Pod>();
  private readonly mirrorUids = new Map<string, string>();

  /** Adds or replaces a pod (or mirror pod). */
  updatePod(pod: Pod): void {
    const uid = pod.metadata.uid ?? '';
    const fullName = fullNameOf(pod);
    if (isMirrorPod(pod)) {
      this.mirrorsByFullName.set(fullName, pod);
      this.mirrorUids.set(uid, fullName);
      return;
    }
    this.byUid.set(uid, pod);
    this.byFullName.set(fullName, pod);
  }

  /** Forgets a pod (or mirror pod). */
  removePod(pod: Pod): void {
    const uid = pod.metadata.uid ?? '';
    const fullName = fullNameOf(pod);
    if (isMirrorPod(pod)) {
      if (this.mirrorsByFullName.get(fullName)?.metadata.uid === uid) this.mirrorsByFullName.delete(fullName);
      this.mirrorUids.delete(uid);
      return;
    }
    this.byUid.delete(uid);
    if (this.byFullName.get(fullName)?.metadata.uid === uid) this.byFullName.delete(fullName);
  }

  /** Every desired pod (no mirror pods). */
  getPods(): Pod[] {
    return [...this.byUid.values()];
  }

  getPodByUid(uid: string): Pod | undefined {
    return this.byUid.get(uid);
  }

  getPodByFullName(fullName: string): Pod | undefined {
    return this.byFullName.get(fullName);
  }

  getMirrorPodByPod(pod: Pod): Pod | undefined {
    return this.mirrorsByFullName.get(fullNameOf(pod));
  }

  /** Given a pod or a mirror pod: the pod, its mirror pod and whether the argument was the mirror. */
  getPodAndMirrorPod(pod: Pod): { pod: Pod | undefined; mirror: Pod | undefined; wasMirror: boolean } {
    if (isMirrorPod(pod)) return { pod: this.byFullName.get(fullNameOf(pod)), mirror: pod, wasMirror: true };
    return { pod, mirror: this.mirrorsByFullName.get(fullNameOf(pod)), wasMirror: false };
  }

  /** Mirror pods whose static pod is gone. */
  getOrphanedMirrorPods(): Pod[] {
    return [...this.mirrorsByFullName.entries()]
      .filter(([fullName]) => {
        const pod = this.byFullName.get(fullName);
        return !pod || !isStaticPod(pod);
      })
      .map(([, mirror]) => mirror);
  }
}
