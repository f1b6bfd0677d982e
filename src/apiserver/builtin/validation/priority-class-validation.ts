// validatePriorityClass: a scheduling.k8s.io/v1 PriorityClass as upstream's ValidatePriorityClass(Update) checks it (system- names, value range, preemption policy).
import type { KubeObject } from '../../../../operators/types.ts';
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { type Obj, shape } from './json-shape.ts';

const HIGHEST_USER_DEFINABLE = 1000000000;
const SYSTEM_PREFIX = 'system-';
/** The system classes the server knows, with the value and globalDefault each must have. */
const SYSTEM_CLASSES: Readonly<Record<string, number>> = {
  'system-cluster-critical': 2000000000,
  'system-node-critical': 2000001000,
};
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];

/** IsKnownSystemPriorityClass: why a system- class is not one the server knows, or undefined. */
function systemClassError(name: string, value: unknown, globalDefault: boolean): string | undefined {
  const known = SYSTEM_CLASSES[name];
  if (known === undefined) return `${name} is not a known system priority class`;
  if (value !== known) return `value of ${name} PriorityClass must be ${known}`;
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}

/**
 * A PriorityClass: a `system-` name only for the known system classes with their value (and not the
 * global default); other classes at most 1000000000; a known preemptionPolicy. On update the value
 * and the preemption policy stay.
 * @param pc the PriorityClass about to be stored
 * @param old the stored one, on updates
 * @returns the causes, empty when valid
 */
export function validatePriorityClass(pc: KubeObject, old?: KubeObject): StatusCause[] {
  const o = pc as Obj;
  const out: StatusCause[] = [];
  const name = shape.text(shape.obj(o.metadata).name);
  if (name.startsWith(SYSTEM_PREFIX)) {
    const error = systemClassError(name, o.value ?? 0, o.globalDefault === true);
    if (error)
      out.push(
        fieldError.forbidden(
          'metadata.name',
          `priority class names with '${SYSTEM_PREFIX}' prefix are reserved for system use only. error: ${error}`,
        ),
      );
  } else if (typeof o.value === 'number' && o.value > HIGHEST_USER_DEFINABLE)
    out.push(
      fieldError.forbidden(
        'value',
        `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE}`,
      ),
    );
  const policy = o.preemptionPolicy;
  if (policy !== undefined && policy !== null && !PREEMPTION_POLICIES.includes(shape.text(policy)))
    out.push(fieldError.notSupported('preemptionPolicy', policy, PREEMPTION_POLICIES));
  if (old) {
    const before = old as Obj;
    if ((o.value ?? 0) !== (before.value ?? 0))
      out.push(fieldError.forbidden('value', 'may not be changed in an update.'));
    const next = shape.defaulted(o.preemptionPolicy, 'PreemptLowerPriority');
    if (next !== shape.defaulted(before.preemptionPolicy, 'PreemptLowerPriority'))
      out.push(fieldError.invalid('preemptionPolicy', next, 'field is immutable'));
  }
  return out;
}
