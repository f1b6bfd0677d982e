// validateLease: a coordination.k8s.io/v1 Lease as upstream's ValidateLeaseSpec checks it.
import type { KubeObject } from '../../../../operators/types.ts';
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { type Obj, shape } from './json-shape.ts';

/**
 * A Lease: leaseDurationSeconds above 0, leaseTransitions not negative, and a preferredHolder only
 * with a strategy.
 * @param lease the Lease about to be stored
 * @returns the causes, empty when valid
 */
export function validateLease(lease: KubeObject): StatusCause[] {
  const spec = shape.obj((lease as Obj).spec);
  const out: StatusCause[] = [];
  const duration = shape.num(spec.leaseDurationSeconds);
  if (duration !== undefined && duration <= 0)
    out.push(fieldError.invalid('spec.leaseDurationSeconds', duration, 'must be greater than 0'));
  const transitions = shape.num(spec.leaseTransitions);
  if (transitions !== undefined && transitions < 0)
    out.push(fieldError.invalid('spec.leaseTransitions', transitions, 'must be greater than or equal to 0'));
  if (!shape.empty(spec.preferredHolder) && shape.empty(spec.strategy))
    out.push(fieldError.forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'));
  return out;
}
