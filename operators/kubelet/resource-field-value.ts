// resourceFieldValue: the value of a resourceFieldRef (limits.cpu, requests.memory, ...) scaled by its divisor.
import type { Container, EnvVarSource, ResourceList } from '../api/core-v1.ts';
import { quantityMilliValue, quantityValue } from '../api/quantity.ts';

/**
 * A container resource as the downward API reports it: limits default to the node's allocatable when
 * unset; CPU is rounded up in units of the divisor (default 1 core), other resources likewise in
 * bytes (default 1).
 *
 * @returns the value as text, or an error message naming the resource
 */
export function resourceFieldValue(
  ref: NonNullable<EnvVarSource['resourceFieldRef']>,
  container: Container | undefined,
  allocatable: ResourceList = {},
): { value: string } | { error: string } {
  if (!container) return { error: `container not found: ${ref.containerName ?? ''}` };
  const [kind, resource] = ref.resource.split('.', 2) as [string, string | undefined];
  if ((kind !== 'limits' && kind !== 'requests') || !resource)
    return { error: `unsupported container resource : ${ref.resource}` };
  const limits = container.resources?.limits ?? {};
  const requests = container.resources?.requests ?? {};
  const quantity =
    (kind === 'limits'
      ? (limits[resource] ?? allocatable[resource])
      : (requests[resource] ?? limits[resource])) ?? 0;
  const divisor = ref.divisor ?? '1';
  if (resource === 'cpu') {
    const milli = quantityMilliValue(quantity, ref.resource);
    const per = Math.max(1, quantityMilliValue(divisor, 'divisor'));
    return { value: String(Math.ceil(milli / per)) };
  }
  const value = quantityValue(quantity, ref.resource);
  const per = quantityValue(divisor, 'divisor') || 1;
  return { value: String(Math.ceil(value / per)) };
}
