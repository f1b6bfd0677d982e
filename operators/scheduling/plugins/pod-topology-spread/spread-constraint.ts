// SpreadConstraint: a pod's topology spread constraint with its selector parsed and its policies defaulted.
import type { Node, Pod, TopologySpreadConstraint } from '../../../api/core-v1.ts';
import {
  type LabelRequirement,
  type LabelSelector,
  type LabelSelectorObject,
  labelRequirement,
  labelSelectorFromObject,
  labelSelectorFromRequirements,
} from '../../../label-selector.ts';
import { type RequiredNodeAffinity, requiredNodeAffinity } from '../helpers/node-selector.ts';
import { findMatchingUntoleratedTaint } from '../helpers/toleration.ts';

/**
 * One constraint as the plugin evaluates it. Invariants: `minDomains` >= 1; the policies are set
 * (nodeAffinityPolicy defaults to Honor, nodeTaintsPolicy to Ignore); `selector` already includes the
 * pod's values for `matchLabelKeys`.
 */
export interface SpreadConstraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly selector: LabelSelector;
  readonly minDomains: number;
  readonly nodeAffinityPolicy: 'Honor' | 'Ignore';
  readonly nodeTaintsPolicy: 'Honor' | 'Ignore';
}

export type WhenUnsatisfiable = 'DoNotSchedule' | 'ScheduleAnyway';

function withMatchLabelKeys(
  selector: LabelSelector,
  keys: readonly string[] | undefined,
  labels: Record<string, string>,
): LabelSelector {
  if (!keys || keys.length === 0 || selector.matchesNothing) return selector;
  const added: LabelRequirement[] = [];
  for (const key of keys) {
    const value = labels[key];
    if (value !== undefined) added.push(labelRequirement(key, '=', [value], 'matchLabelKeys'));
  }
  if (added.length === 0) return selector;
  const all = [...added, ...selector.requirements].sort((a, b) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
  );
  return labelSelectorFromRequirements(all);
}

/**
 * The constraints of `action` from a list (the pod's or the defaults), parsed.
 * @throws InvalidInputError when a constraint's labelSelector is malformed
 */
export function spreadConstraintsOf(
  constraints: readonly TopologySpreadConstraint[],
  podLabels: Record<string, string> | undefined,
  action: WhenUnsatisfiable,
): SpreadConstraint[] {
  const out: SpreadConstraint[] = [];
  for (const c of constraints) {
    if (c.whenUnsatisfiable !== action) continue;
    const selector = withMatchLabelKeys(
      labelSelectorFromObject(c.labelSelector as LabelSelectorObject | undefined),
      c.matchLabelKeys,
      podLabels ?? {},
    );
    out.push({
      maxSkew: c.maxSkew,
      topologyKey: c.topologyKey,
      selector,
      minDomains: c.minDomains ?? 1,
      nodeAffinityPolicy: c.nodeAffinityPolicy ?? 'Honor',
      nodeTaintsPolicy: c.nodeTaintsPolicy ?? 'Ignore',
    });
  }
  return out;
}

/**
 * One selector that requires everything the pod's owners' selectors require (upstream's DefaultSelector):
 * empty when the pod has no such owner.
 */
export function mergedOwnerSelector(selectors: readonly LabelSelectorObject[]): LabelSelector {
  const requirements: LabelRequirement[] = [];
  for (const s of selectors) requirements.push(...labelSelectorFromObject(s).requirements);
  requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return labelSelectorFromRequirements(requirements);
}

/** True when the node has every constraint's topology key. */
export function nodeHasAllTopologyKeys(node: Node, constraints: readonly SpreadConstraint[]): boolean {
  const labels = node.metadata.labels;
  if (!labels) return constraints.length === 0;
  for (const c of constraints) if (labels[c.topologyKey] === undefined) return false;
  return true;
}

const requiredAffinityCache = new WeakMap<Pod, RequiredNodeAffinity>();

/** The pod's nodeSelector and required node affinity, compiled once per Pod object. */
export function requiredAffinityOf(pod: Pod): RequiredNodeAffinity {
  let compiled = requiredAffinityCache.get(pod);
  if (!compiled) {
    compiled = requiredNodeAffinity(pod);
    requiredAffinityCache.set(pod, compiled);
  }
  return compiled;
}

/**
 * Whether the node counts for the constraint: with nodeAffinityPolicy Honor it must pass the pod's
 * nodeSelector and required node affinity; with nodeTaintsPolicy Honor the pod must tolerate its
 * NoSchedule/NoExecute taints.
 */
export function matchesNodeInclusionPolicies(
  c: SpreadConstraint,
  pod: Pod,
  node: Node,
  required: RequiredNodeAffinity = requiredAffinityOf(pod),
): boolean {
  if (c.nodeAffinityPolicy === 'Honor' && !required.match(node)) return false;
  if (
    c.nodeTaintsPolicy === 'Honor' &&
    findMatchingUntoleratedTaint(node.spec?.taints, pod.spec.tolerations)
  ) {
    return false;
  }
  return true;
}

/** Pods in `namespace`, not terminating, whose labels match the selector. */
export function countPodsMatchingSelector(
  pods: readonly { readonly pod: Pod }[],
  selector: LabelSelector,
  namespace: string | undefined,
): number {
  let n = 0;
  for (const { pod } of pods) {
    if (pod.metadata.deletionTimestamp || pod.metadata.namespace !== namespace) continue;
    if (selector.matches(pod.metadata.labels)) n++;
  }
  return n;
}
