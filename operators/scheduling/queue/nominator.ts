// Nominator: which pods preemption nominated to which node, in nomination order.
import type { Pod } from '../../api/core-v1.ts';
import type { NominatingInfo } from '../framework/interface.ts';

/** What the nominator keeps of a pod: enough to find it again. */
export interface PodRef {
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
}

/**
 * Node name → nominated pods (insertion order, no duplicates), and uid → node name.
 * Invariants: a uid is nominated to at most one node; the two maps always agree.
 */
export class Nominator {
  private readonly byNode = new Map<string, PodRef[]>();
  private readonly nodeOf = new Map<string, string>();

  /**
   * @param podLister the informer's current pod (undefined when gone); a pod that is gone or
   *   already bound is not nominated. Without it every pod counts as present.
   */
  private readonly podLister: ((namespace: string, name: string) => Pod | undefined) | undefined;

  constructor(podLister?: (namespace: string, name: string) => Pod | undefined) {
    this.podLister = podLister;
  }

  /**
   * Nominates `pod`: the old entry is always removed first; the node is `nominatingInfo`'s when its
   * mode is Override, else the pod's `status.nominatedNodeName`; an empty node means no nomination.
   */
  add(pod: Pod, nominatingInfo?: NominatingInfo): void {
    this.delete(pod);
    const nodeName =
      nominatingInfo?.mode === 'Override'
        ? nominatingInfo.nominatedNodeName
        : (pod.status?.nominatedNodeName ?? '');
    if (!nodeName) return;
    const ns = pod.metadata.namespace ?? '';
    const name = pod.metadata.name ?? '';
    if (this.podLister) {
      const current = this.podLister(ns, name);
      if (!current || current.spec.nodeName) return;
    }
    const uid = pod.metadata.uid ?? '';
    const list = this.byNode.get(nodeName) ?? [];
    if (list.some((r) => r.uid === uid)) return;
    list.push({ name, namespace: ns, uid });
    this.byNode.set(nodeName, list);
    this.nodeOf.set(uid, nodeName);
  }

  /** Removes the pod's nomination, if any. */
  delete(pod: Pod): void {
    const uid = pod.metadata.uid ?? '';
    const nodeName = this.nodeOf.get(uid);
    if (nodeName === undefined) return;
    this.nodeOf.delete(uid);
    const list = (this.byNode.get(nodeName) ?? []).filter((r) => r.uid !== uid);
    if (list.length === 0) this.byNode.delete(nodeName);
    else this.byNode.set(nodeName, list);
  }

  /**
   * After an update: when neither version carries a nominatedNodeName but one is held, it is kept
   * (it came from a scheduling cycle, not from the API); otherwise the new version decides.
   */
  update(oldPod: Pod | undefined, newPod: Pod): void {
    const held = this.nodeOf.get(oldPod?.metadata.uid ?? newPod.metadata.uid ?? '');
    if (!oldPod?.status?.nominatedNodeName && !newPod.status?.nominatedNodeName && held) {
      this.add(newPod, { nominatedNodeName: held, mode: 'Override' });
      return;
    }
    if (oldPod) this.delete(oldPod);
    this.add(newPod);
  }

  /** The node the pod is nominated to, if any. */
  nominatedNodeFor(uid: string): string | undefined {
    return this.nodeOf.get(uid);
  }

  /** The pods nominated to `nodeName`, in nomination order. */
  podsForNode(nodeName: string): readonly PodRef[] {
    return this.byNode.get(nodeName) ?? [];
  }

  /** Number of nominated pods. */
  get size(): number {
    return this.nodeOf.size;
  }
}
