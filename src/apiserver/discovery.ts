// Discovery documents: /version, /api, /apis, per group-version resource lists and aggregated discovery.
import { apiVersionOf, type ResourceDef } from './resource-table.ts';

/** The Kubernetes version the server reports; kubectl 1.32 is within its skew. */
export const SERVER_VERSION = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0+kube-rx',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2025-01-01T00:00:00Z',
  goVersion: 'go1.23.0',
  compiler: 'gc',
  platform: 'linux/amd64',
};

/** The media type of aggregated discovery (apidiscovery.k8s.io/v2). */
export const AGGREGATED_DISCOVERY_TYPE =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

interface Sub {
  name: string;
  kind: string;
  group?: string;
  version?: string;
  verbs: string[];
}

function subresourcesOf(def: ResourceDef): Sub[] {
  return def.subresources.map((s) =>
    s === 'binding'
      ? { name: s, kind: 'Binding', verbs: ['create'] }
      : s === 'scale'
        ? { name: s, kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] }
        : s === 'token'
          ? {
              name: s,
              kind: 'TokenRequest',
              group: 'authentication.k8s.io',
              version: 'v1',
              verbs: ['create'],
            }
          : s === 'eviction'
            ? { name: s, kind: 'Eviction', group: 'policy', version: 'v1', verbs: ['create'] }
            : { name: s, kind: def.kind, verbs: ['get', 'patch', 'update'] },
  );
}

/** The group-versions served, core (`''`) first. */
export function groupVersions(table: readonly ResourceDef[]): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>();
  for (const d of table) seen.set(apiVersionOf(d), { group: d.group, version: d.version });
  return [...seen.values()];
}

/** `/api`: the core group's versions. */
export function apiVersions(serverAddress: string): object {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

/** `/apis`: every named group. */
export function apiGroupList(table: readonly ResourceDef[]): object {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    // one entry per group, however many versions it serves (coordination.k8s.io has v1 and v1beta1)
    groups: [...new Set(groupVersions(table).map((gv) => gv.group))]
      .filter((group) => group !== '')
      .map((group) => apiGroup(table, group)),
  };
}

/** `/apis/GROUP`. */
export function apiGroup(table: readonly ResourceDef[], group: string): object {
  const versions = groupVersions(table)
    .filter((gv) => gv.group === group)
    .map((gv) => ({ groupVersion: `${group}/${gv.version}`, version: gv.version }));
  return { kind: 'APIGroup', apiVersion: 'v1', name: group, versions, preferredVersion: versions[0] };
}

/** `/api/v1` and `/apis/GROUP/VERSION`: the resources and subresources of one group-version. */
export function apiResourceList(table: readonly ResourceDef[], group: string, version: string): object {
  const resources: object[] = [];
  for (const d of table.filter((x) => x.group === group && x.version === version)) {
    resources.push({
      name: d.resource,
      singularName: d.singular,
      namespaced: d.namespaced,
      kind: d.kind,
      verbs: VERBS,
      ...(d.shortNames.length ? { shortNames: d.shortNames } : {}),
      ...(d.categories.length ? { categories: d.categories } : {}),
    });
    for (const s of subresourcesOf(d)) {
      resources.push({
        name: `${d.resource}/${s.name}`,
        singularName: '',
        namespaced: d.namespaced,
        ...(s.group !== undefined ? { group: s.group, version: s.version } : {}),
        kind: s.kind,
        verbs: s.verbs,
      });
    }
  }
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group ? `${group}/${version}` : version,
    resources,
  };
}

/**
 * Aggregated discovery (`apidiscovery.k8s.io/v2` APIGroupDiscoveryList): for `/api` the core group,
 * for `/apis` every named group, each with its resources in one document.
 */
export function aggregatedDiscovery(table: readonly ResourceDef[], core: boolean): object {
  const groups = new Map<string, ResourceDef[]>();
  for (const d of table) {
    if ((d.group === '') !== core) continue;
    const list = groups.get(d.group) ?? [];
    list.push(d);
    groups.set(d.group, list);
  }
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: [...groups].map(([group, defs]) => ({
      metadata: { name: group, creationTimestamp: null },
      versions: [...new Set(defs.map((d) => d.version))].map((version) => ({
        version,
        resources: defs
          .filter((d) => d.version === version)
          .map((d) => ({
            resource: d.resource,
            responseKind: { group: d.group, version: d.version, kind: d.kind },
            scope: d.namespaced ? 'Namespaced' : 'Cluster',
            singularResource: d.singular,
            verbs: VERBS,
            ...(d.shortNames.length ? { shortNames: d.shortNames } : {}),
            ...(d.categories.length ? { categories: d.categories } : {}),
            ...(d.subresources.length
              ? {
                  subresources: subresourcesOf(d).map((s) => ({
                    subresource: s.name,
                    responseKind: {
                      group: s.group ?? d.group,
                      version: s.version ?? d.version,
                      kind: s.kind,
                    },
                    verbs: s.verbs,
                  })),
                }
              : {}),
          })),
        freshness: 'Current',
      })),
    })),
  };
}
