// Test fixture: the discovery lists upstream's namespace deleter tests use (pods and services in v1, deployments in apps/v1).
import type { DiscoveredResourceList } from '../../../../operators/controller/namespace/deletable-resources.ts';

/** Every verb a plain resource serves. */
export const ALL_VERBS = ['get', 'list', 'delete', 'deletecollection', 'create', 'update'];

/** upstream's testResources(). */
export const TEST_RESOURCES: DiscoveredResourceList[] = [
  {
    groupVersion: 'v1',
    resources: [
      { name: 'pods', namespaced: true, kind: 'Pod', verbs: ALL_VERBS },
      { name: 'services', namespaced: true, kind: 'Service', verbs: ALL_VERBS },
    ],
  },
  {
    groupVersion: 'apps/v1',
    resources: [{ name: 'deployments', namespaced: true, kind: 'Deployment', verbs: ALL_VERBS }],
  },
];
