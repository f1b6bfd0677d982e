// Pod priority from PriorityClasses, as the Priority admission plugin computes it, for pods the API server did not resolve.
import type { Pod } from '../../operators/api/core-v1.ts';
import type { KubeObject } from '../../operators/types.ts';

/** A scheduling.k8s.io/v1 PriorityClass. */
export interface PriorityClass extends KubeObject {
  value: number;
  globalDefault?: boolean;
  preemptionPolicy?: 'PreemptLowerPriority' | 'Never';
  description?: string;
}

/** The two classes every cluster has (created by the API server at start upstream). */
export const SYSTEM_PRIORITY_CLASSES: readonly PriorityClass[] = [
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-node-critical' },
    value: 2000001000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-cluster-critical' },
    value: 2000000000,
    description:
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

/**
 * Returns the pod with `spec.priority` (and `spec.preemptionPolicy`) taken from its PriorityClass: the
 * named class, or without a name the class with `globalDefault: true`; a pod whose class is unknown (or
 * with no default class) keeps its own values. The same pod object is returned when nothing changes, and
 * results are remembered per object (informer objects are immutable).
 *
 * @param classes the current PriorityClasses (e.g. an informer's lister)
 * @returns the resolver
 */
export function priorityResolver(classes: () => readonly PriorityClass[]): (pod: Pod) => Pod {
  const memo = new WeakMap<Pod, Pod>();
  return (pod) => {
    if (!pod.spec) return pod;
    const known = memo.get(pod);
    if (known) return known;
    const all = classes();
    const name = pod.spec.priorityClassName;
    const pc = name ? all.find((c) => c.metadata?.name === name) : all.find((c) => c.globalDefault);
    let out = pod;
    if (
      pc &&
      (pod.spec.priority !== pc.value ||
        (pc.preemptionPolicy && pod.spec.preemptionPolicy !== pc.preemptionPolicy))
    ) {
      out = {
        ...pod,
        spec: {
          ...pod.spec,
          priority: pc.value,
          ...(pc.preemptionPolicy ? { preemptionPolicy: pc.preemptionPolicy } : {}),
        },
      };
    }
    memo.set(pod, out);
    return out;
  };
}
