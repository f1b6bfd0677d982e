// finalizeNamespace: the namespace as the namespace controller sends it to `finalize` — its own finalizer token removed.
import type { Namespace } from './namespace-types.ts';

/**
 * The body of PUT /api/v1/namespaces/NAME/finalize: the namespace with `token` taken out of
 * spec.finalizers (the rest kept once each, sorted, as upstream's set does). The API server removes the
 * namespace once spec.finalizers and metadata.finalizers are both empty.
 *
 * @example
 * finalizeNamespace({ metadata: { name: 'test' }, spec: { finalizers: ['kubernetes', 'other'] } }, 'kubernetes')
 *   .spec.finalizers; // ['other']
 * @param namespace the namespace read last
 * @param token the finalizer to remove (`kubernetes`)
 * @returns a new object; `namespace` is not changed
 */
export function finalizeNamespace(
  namespace: Namespace,
  token: string,
): Namespace & { spec: { finalizers: string[] } } {
  const finalizers = [...new Set((namespace.spec?.finalizers ?? []).filter((f) => f !== token))].sort();
  return { ...namespace, spec: { ...namespace.spec, finalizers } };
}

/** True when spec.finalizers is empty: nothing is left for any namespace controller to do. */
export function namespaceFinalized(namespace: Namespace): boolean {
  return (namespace.spec?.finalizers ?? []).length === 0;
}
