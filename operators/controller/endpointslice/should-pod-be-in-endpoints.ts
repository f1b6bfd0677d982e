// shouldPodBeInEndpoints: whether a pod gets an endpoint at all (upstream's endpointsliceutil.ShouldPodBeInEndpoints).
import type { Pod } from '../../api/core-v1.ts';

/** A pod in a terminal phase: Succeeded, or Failed (upstream's podutil.IsPodTerminal). */
function isPodTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/**
 * True when a pod belongs in a Service's endpoints: it has an IP, has not finished, and (unless
 * `includeTerminating`) is not being deleted. Readiness is not asked here: a not-ready pod is an endpoint
 * whose conditions say so (slices) or a not-ready address (Endpoints).
 */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  if (isPodTerminal(pod)) return false;
  if (!pod.status?.podIP && (pod.status?.podIPs ?? []).length === 0) return false;
  if (!includeTerminating && pod.metadata.deletionTimestamp) return false;
  return true;
}
