// validatePodDisruptionBudget: a policy/v1 PodDisruptionBudget as upstream's ValidatePodDisruptionBudgetSpec checks it.
import type { KubeObject } from '../../../../operators/types.ts';
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { intOrPercent } from './int-or-percent.ts';
import { type Obj, shape } from './json-shape.ts';
import { validateLabels } from './labels-validation.ts';

const EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];
const present = (value: unknown) => value !== undefined && value !== null;

/**
 * A PodDisruptionBudget: minAvailable or maxUnavailable, not both, each a non-negative count or a
 * percent of at most 100%; the selector's matchLabels (its expressions are checked with every
 * selector); a known unhealthyPodEvictionPolicy. The spec may change on update.
 * @param pdb the budget about to be stored
 * @returns the causes, empty when valid
 */
export function validatePodDisruptionBudget(pdb: KubeObject): StatusCause[] {
  const spec = shape.obj((pdb as Obj).spec);
  const out: StatusCause[] = [];
  if (present(spec.minAvailable) && present(spec.maxUnavailable))
    out.push(fieldError.invalid('spec', spec, 'minAvailable and maxUnavailable cannot be both set'));
  for (const field of ['minAvailable', 'maxUnavailable'])
    if (present(spec[field]))
      out.push(
        ...intOrPercent.positive(spec[field], `spec.${field}`),
        ...intOrPercent.notOver100(spec[field], `spec.${field}`),
      );
  out.push(...validateLabels(shape.obj(spec.selector).matchLabels, 'spec.selector.matchLabels'));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (present(policy) && !EVICTION_POLICIES.includes(shape.text(policy)))
    out.push(fieldError.notSupported('spec.unhealthyPodEvictionPolicy', policy, EVICTION_POLICIES));
  return out;
}
