// The RBAC authorizer's view of the stored Roles, ClusterRoles and their bindings.
import type { ObjectStore } from '../object-store.ts';
import type { Binding, RbacSource, Role } from './rbac-authorizer.ts';

const GROUP = 'rbac.authorization.k8s.io';

/**
 * Reads roles and bindings straight from the store, so a change is in effect for the next
 * request. Until the RBAC kinds are served the store holds none and only system:masters passes.
 */
export function storeRbacSource(store: ObjectStore): RbacSource {
  const objects = (resource: string) => store.current(`${GROUP}/${resource}`);
  return {
    role: (namespace, name) => objects('roles').get(`${namespace}/${name}`)?.object as Role | undefined,
    clusterRole: (name) => objects('clusterroles').get(name)?.object as Role | undefined,
    *roleBindings(namespace) {
      const prefix = `${namespace}/`;
      for (const [key, stored] of objects('rolebindings')) {
        if (key.startsWith(prefix)) yield stored.object as unknown as Binding;
      }
    },
    *clusterRoleBindings() {
      for (const stored of objects('clusterrolebindings').values()) yield stored.object as unknown as Binding;
    },
  };
}
