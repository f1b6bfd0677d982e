// NamespaceLifecycle admission: no new objects in a missing or terminating namespace, system namespaces never deleted.
import { forbidden, notFound } from '../api-status.ts';
import type { AdmissionPlugin } from './admission-chain.ts';

/** Namespaces that may not be deleted, as upstream's immortal namespaces. */
export const IMMORTAL_NAMESPACES = ['default', 'kube-system', 'kube-public'] as const;

/** The NamespaceLifecycle plugin. */
export const namespaceLifecycle: AdmissionPlugin = {
  name: 'NamespaceLifecycle',
  validate(request, store) {
    const { def, namespace } = request;
    if (request.operation === 'DELETE' && def.resource === 'namespaces' && def.group === '') {
      if ((IMMORTAL_NAMESPACES as readonly string[]).includes(request.name))
        throw forbidden(`namespaces "${request.name}" is forbidden: this namespace may not be deleted`, {
          name: request.name,
        });
      return;
    }
    if (!def.namespaced || request.operation !== 'CREATE' || !namespace) return;
    const ns = store.get('namespaces', undefined, namespace);
    if (!ns) throw notFound({ name: namespace }, 'namespaces');
    if (
      ns.metadata?.deletionTimestamp ||
      (ns.status as { phase?: string } | undefined)?.phase === 'Terminating'
    )
      throw forbidden(
        `${def.resource} "${request.name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`,
        { group: def.group, name: request.name },
        def.resource,
      );
  },
};
