// Node inclusion for topology spreading: does a node pass the pod's required node affinity, and its untolerated NoSchedule/NoExecute taints.
import type {
  Node,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  Pod,
  Taint,
  Toleration,
} from '../../../api/core-v1.ts';

function requirementMatches(req: NodeSelectorRequirement, value: string | undefined): boolean {
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || values.length !== 1) return false;
      const have = Number.parseInt(value, 10);
      const want = Number.parseInt(values[0]!, 10);
      if (!Number.isInteger(have) || !Number.isInteger(want)) return false;
      return req.operator === 'Gt' ? have > want : have < want;
    }
    default:
      return false;
  }
}

function termMatches(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  // A term with no requirements matches no node (as upstream's node selector).
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  for (const r of exprs) if (!requirementMatches(r, labels[r.key])) return false;
  for (const r of fields) {
    const value = r.key === 'metadata.name' ? node.metadata.name : undefined;
    if (!requirementMatches(r, value)) return false;
  }
  return true;
}

/**
 * True when the node satisfies the pod's nodeSelector and its required node affinity (the terms are
 * ORed, the requirements within a term ANDed), as component-helpers' GetRequiredNodeAffinity(pod).Match.
 */
export function podRequiredNodeAffinityMatches(pod: Pod, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(pod.spec.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return required.nodeSelectorTerms.some((t) => termMatches(t, node));
}

/** True when the toleration tolerates the taint (empty key with Exists tolerates everything). */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  const operator = toleration.operator || 'Equal';
  if (operator === 'Exists') return true;
  if (operator === 'Equal') return (toleration.value ?? '') === (taint.value ?? '');
  return false;
}

/** The first NoSchedule or NoExecute taint of the node that no toleration tolerates, if any. */
export function untoleratedDoNotScheduleTaint(
  node: Node,
  tolerations: readonly Toleration[] | undefined,
): Taint | undefined {
  for (const taint of node.spec?.taints ?? []) {
    if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
    if (!(tolerations ?? []).some((t) => toleratesTaint(t, taint))) return taint;
  }
  return undefined;
}
