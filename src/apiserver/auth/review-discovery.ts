// Discovery of the create-only review APIs: authorization.k8s.io/v1 access and rules reviews, authentication.k8s.io/v1 SelfSubjectReview.
import { REVIEW_RESOURCES } from './access-review.ts';

interface ReviewResource {
  resource: string;
  kind: string;
  namespaced: boolean;
}

/** The review groups, as kube-apiserver lists them (no storage: every resource is create-only). */
const GROUPS: Readonly<Record<string, readonly ReviewResource[]>> = {
  'authentication.k8s.io': [{ resource: 'selfsubjectreviews', kind: 'SelfSubjectReview', namespaced: false }],
  'authorization.k8s.io': [...REVIEW_RESOURCES].sort((a, b) => a.resource.localeCompare(b.resource)),
};

/** The review group names. */
export const REVIEW_GROUPS: readonly string[] = Object.keys(GROUPS);

/** `/apis/GROUP` of a review group. */
export function reviewApiGroup(group: string): object {
  const gv = { groupVersion: `${group}/v1`, version: 'v1' };
  return { kind: 'APIGroup', apiVersion: 'v1', name: group, versions: [gv], preferredVersion: gv };
}

/** `/apis/GROUP/v1` of a review group. */
export function reviewApiResourceList(group: string): object {
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: `${group}/v1`,
    resources: (GROUPS[group] ?? []).map((r) => ({
      name: r.resource,
      singularName: r.kind.toLowerCase(),
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: ['create'],
    })),
  };
}

/** The review groups in aggregated discovery (apidiscovery.k8s.io/v2). */
export function reviewAggregatedDiscovery(): object[] {
  return Object.entries(GROUPS).map(([group, resources]) => ({
    metadata: { name: group, creationTimestamp: null },
    versions: [
      {
        version: 'v1',
        resources: resources.map((r) => ({
          resource: r.resource,
          responseKind: { group, version: 'v1', kind: r.kind },
          scope: r.namespaced ? 'Namespaced' : 'Cluster',
          singularResource: r.kind.toLowerCase(),
          verbs: ['create'],
        })),
        freshness: 'Current',
      },
    ],
  }));
}
