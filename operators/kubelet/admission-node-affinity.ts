// The kubelet's required node affinity check: the pod's nodeSelector and required node affinity terms against one node.
import type { Node, NodeSelectorRequirement, NodeSelectorTerm, Pod } from '../api/core-v1.ts';

const INTEGER = /^[+-]?\d+$/;

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
      // One integer value on the requirement and an integer label; anything else does not match.
      if (value === undefined || values.length !== 1 || !INTEGER.test(value) || !INTEGER.test(values[0]!))
        return false;
      const have = BigInt(value);
      const want = BigInt(values[0]!);
      return req.operator === 'Gt' ? have > want : have < want;
    }
    default:
      return false;
  }
}

/**
 * Whether one node selector term matches: every label expression and every field expression holds.
 * A term with neither matches nothing; `matchFields` only knows `metadata.name` (In / NotIn).
 */
export function nodeSelectorTermMatches(term: NodeSelectorTerm, node: Node): boolean {
  const expressions = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (expressions.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  for (const req of expressions) {
    const value = Object.hasOwn(labels, req.key) ? labels[req.key] : undefined;
    if (!requirementMatches(req, value)) return false;
  }
  for (const req of fields) {
    if (req.key !== 'metadata.name') return false;
    if (req.operator !== 'In' && req.operator !== 'NotIn') return false;
    if ((req.values ?? []).length !== 1) return false;
    if (!requirementMatches(req, node.metadata.name)) return false;
  }
  return true;
}

/**
 * Whether the node satisfies the pod's required node affinity, as component-helpers'
 * `GetRequiredNodeAffinity(pod).Match(node)`: every `spec.nodeSelector` label equals the node's, and
 * (when the pod has required node affinity) at least one of its terms matches.
 *
 * @param pod the pod
 * @param node the node
 * @returns true when the pod may run on the node as far as node affinity goes
 */
export function requiredNodeAffinityMatches(pod: Pod, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [key, value] of Object.entries(pod.spec.nodeSelector ?? {})) {
    if (!Object.hasOwn(labels, key) || labels[key] !== value) return false;
  }
  const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return (required.nodeSelectorTerms ?? []).some((term) => nodeSelectorTermMatches(term, node));
}
