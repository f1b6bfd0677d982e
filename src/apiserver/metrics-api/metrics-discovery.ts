// The discovery documents of metrics.k8s.io/v1beta1 (NodeMetrics as `nodes`, PodMetrics as `pods`, get and list only), as metrics-server registers them.

/** The group and version served. */
export const METRICS_GROUP = 'metrics.k8s.io';
export const METRICS_VERSION = 'v1beta1';
export const METRICS_GROUP_VERSION = `${METRICS_GROUP}/${METRICS_VERSION}`;

const VERBS = ['get', 'list'];
const RESOURCES = [
  { resource: 'nodes', singular: '', kind: 'NodeMetrics', namespaced: false },
  { resource: 'pods', singular: '', kind: 'PodMetrics', namespaced: true },
] as const;

/** `/apis/metrics.k8s.io`, and this group's entry in `/apis`. */
export function metricsApiGroup(): object {
  const version = { groupVersion: METRICS_GROUP_VERSION, version: METRICS_VERSION };
  return {
    kind: 'APIGroup',
    apiVersion: 'v1',
    name: METRICS_GROUP,
    versions: [version],
    preferredVersion: version,
  };
}

/** `/apis/metrics.k8s.io/v1beta1`. */
export function metricsApiResourceList(): object {
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: METRICS_GROUP_VERSION,
    resources: RESOURCES.map((r) => ({
      name: r.resource,
      singularName: r.singular,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: VERBS,
    })),
  };
}

/** This group's item in the aggregated discovery of `/apis` (apidiscovery.k8s.io/v2 APIGroupDiscovery). */
export function metricsAggregatedDiscovery(): object {
  return {
    metadata: { name: METRICS_GROUP, creationTimestamp: null },
    versions: [
      {
        version: METRICS_VERSION,
        resources: RESOURCES.map((r) => ({
          resource: r.resource,
          responseKind: { group: METRICS_GROUP, version: METRICS_VERSION, kind: r.kind },
          scope: r.namespaced ? 'Namespaced' : 'Cluster',
          singularResource: r.singular,
          verbs: VERBS,
        })),
        freshness: 'Current',
      },
    ],
  };
}
