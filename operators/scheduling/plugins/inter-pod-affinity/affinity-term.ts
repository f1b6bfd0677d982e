// AffinityTerm: a pod (anti-)affinity term with its namespaces and selectors parsed, and the pod's terms cached per Pod object.
import type { Pod, PodAffinityTerm, WeightedPodAffinityTerm } from '../../../api/core-v1.ts';
import {
  type LabelSelector,
  type LabelSelectorObject,
  labelSelectorFromObject,
} from '../../../label-selector.ts';

/**
 * A parsed PodAffinityTerm. Invariants: `namespaces` is the term's list, or the owning pod's namespace
 * when the term names neither namespaces nor a namespaceSelector; a missing selector matches nothing.
 */
export interface AffinityTerm {
  readonly namespaces: ReadonlySet<string>;
  readonly namespaceSelector: LabelSelector;
  readonly selector: LabelSelector;
  readonly topologyKey: string;
}

export interface WeightedAffinityTerm extends AffinityTerm {
  readonly weight: number;
}

/** A pod's parsed terms (required and preferred, affinity and anti-affinity). */
export interface PodAffinityTerms {
  readonly requiredAffinity: readonly AffinityTerm[];
  readonly requiredAntiAffinity: readonly AffinityTerm[];
  readonly preferredAffinity: readonly WeightedAffinityTerm[];
  readonly preferredAntiAffinity: readonly WeightedAffinityTerm[];
}

/** Namespace name → its labels (undefined when unknown). */
export type NamespaceLabelsLookup = (namespace: string) => Readonly<Record<string, string>> | undefined;

/**
 * Parses one term of `pod`.
 * @throws InvalidInputError when a selector is malformed
 */
export function affinityTermOf(pod: Pod, term: PodAffinityTerm): AffinityTerm {
  const listed = term.namespaces ?? [];
  const namespaces =
    listed.length === 0 && term.namespaceSelector === undefined
      ? new Set([pod.metadata.namespace ?? ''])
      : new Set(listed);
  return {
    namespaces,
    namespaceSelector: labelSelectorFromObject(term.namespaceSelector as LabelSelectorObject | undefined),
    selector: labelSelectorFromObject(term.labelSelector as LabelSelectorObject | undefined),
    topologyKey: term.topologyKey,
  };
}

/** True when the term selects `pod`: its namespace is listed or its namespace's labels match, and its labels match. */
export function termMatches(
  term: AffinityTerm,
  pod: Pod,
  namespaceLabels: Readonly<Record<string, string>> | undefined,
): boolean {
  const ns = pod.metadata.namespace ?? '';
  const inNamespace = term.namespaces.has(ns) || term.namespaceSelector.matches(namespaceLabels ?? {});
  return inNamespace && term.selector.matches(pod.metadata.labels);
}

/** True when `pod` matches every term (false for no terms). */
export function podMatchesAllTerms(
  terms: readonly AffinityTerm[],
  pod: Pod,
  namespaceLabels: Readonly<Record<string, string>> | undefined,
): boolean {
  if (terms.length === 0) return false;
  return terms.every((t) => termMatches(t, pod, namespaceLabels));
}

const cache = new WeakMap<Pod, PodAffinityTerms>();
const NONE: PodAffinityTerms = Object.freeze({
  requiredAffinity: [],
  requiredAntiAffinity: [],
  preferredAffinity: [],
  preferredAntiAffinity: [],
});

function weighted(pod: Pod, terms: readonly WeightedPodAffinityTerm[] | undefined): WeightedAffinityTerm[] {
  return (terms ?? []).map((w) => ({ ...affinityTermOf(pod, w.podAffinityTerm), weight: w.weight }));
}

/**
 * The pod's parsed terms, computed once per Pod object (pods are immutable snapshots).
 * @throws InvalidInputError when a selector is malformed
 */
export function podAffinityTerms(pod: Pod): PodAffinityTerms {
  const hit = cache.get(pod);
  if (hit) return hit;
  const affinity = pod.spec.affinity;
  if (!affinity?.podAffinity && !affinity?.podAntiAffinity) return NONE;
  const a = affinity.podAffinity;
  const anti = affinity.podAntiAffinity;
  const terms: PodAffinityTerms = {
    requiredAffinity: (a?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((t) =>
      affinityTermOf(pod, t),
    ),
    requiredAntiAffinity: (anti?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((t) =>
      affinityTermOf(pod, t),
    ),
    preferredAffinity: weighted(pod, a?.preferredDuringSchedulingIgnoredDuringExecution),
    preferredAntiAffinity: weighted(pod, anti?.preferredDuringSchedulingIgnoredDuringExecution),
  };
  cache.set(pod, terms);
  return terms;
}
