// The Namespace object as the namespace controller reads it: spec.finalizers, status.phase and the deletion conditions.
import type { KubeObject } from '../../types.ts';

/** The finalizer the API server puts on every namespace and the namespace controller removes (`kubernetes`). */
export const FINALIZER_KUBERNETES = 'kubernetes';

/** One namespace status condition (core/v1 NamespaceCondition). */
export interface NamespaceCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** A Namespace: `spec.finalizers` must all be gone, and `metadata.finalizers` too, before the API server removes it. */
export interface Namespace extends KubeObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: 'Active' | 'Terminating' | string; conditions?: NamespaceCondition[] };
}
