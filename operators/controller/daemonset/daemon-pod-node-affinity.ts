// Daemon pods' node affinity: the required term pinning a pod to its node by metadata.name (upstream's ReplaceDaemonSetPodNodeNameNodeAffinity) and reading it back (GetTargetNodeName).
import type { Affinity, Pod } from '../../api/core-v1.ts';

const NODE_NAME_FIELD = 'metadata.name';

/**
 * The affinity with its required node selector replaced by a single term matching `metadata.name In
 * [nodeName]` (the node already passed the daemon set's own terms); preferred terms and pod (anti-)affinity
 * are kept.
 *
 * @param affinity the template's affinity (not modified)
 * @param nodeName the node the pod is for
 */
export function replaceDaemonPodNodeNameAffinity(affinity: Affinity | undefined, nodeName: string): Affinity {
  const out: Affinity = structuredClone(affinity ?? {});
  out.nodeAffinity = {
    ...(out.nodeAffinity ?? {}),
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [{ matchFields: [{ key: NODE_NAME_FIELD, operator: 'In', values: [nodeName] }] }],
    },
  };
  return out;
}

/**
 * The node a daemon pod is for: spec.nodeName once bound, else the value of the first `metadata.name In`
 * field requirement of its required terms when that has exactly one value; undefined otherwise.
 */
export function daemonPodTargetNode(pod: Pod): string | undefined {
  if (pod.spec.nodeName) return pod.spec.nodeName;
  const terms =
    pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  for (const term of terms ?? []) {
    for (const f of term.matchFields ?? []) {
      if (f.key === NODE_NAME_FIELD && f.operator === 'In')
        return f.values?.length === 1 ? f.values[0] : undefined;
    }
  }
  return undefined;
}
