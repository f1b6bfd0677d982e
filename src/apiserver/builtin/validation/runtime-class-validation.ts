// validateRuntimeClass: a node.k8s.io/v1 RuntimeClass as upstream's ValidateRuntimeClass(Update) checks it (handler, overhead, scheduling).
import type { KubeObject } from '../../../../operators/types.ts';
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';
import { validateLabels } from './labels-validation.ts';
import { validateResourceRequirements } from './resource-requirements-validation.ts';
import { validateSchedulingConstraints } from './scheduling-constraints-validation.ts';

/**
 * A RuntimeClass: a handler that is a DNS label and never changes; an overhead whose podFixed
 * resources are checked as container limits (under `overhead.limits`, as upstream reports them); a
 * scheduling node selector of valid labels and valid tolerations.
 * @param rc the RuntimeClass about to be stored
 * @param old the stored one, on updates
 * @returns the causes, empty when valid
 */
export function validateRuntimeClass(rc: KubeObject, old?: KubeObject): StatusCause[] {
  const o = rc as Obj;
  const handler = shape.text(o.handler);
  const out = formatErrors.dns1123Label(handler).map((m) => fieldError.invalid('handler', handler, m));
  if (o.overhead !== undefined && o.overhead !== null)
    out.push(
      ...validateResourceRequirements({ limits: shape.obj(shape.obj(o.overhead).podFixed) }, 'overhead'),
    );
  if (o.scheduling !== undefined && o.scheduling !== null) {
    const scheduling = shape.obj(o.scheduling);
    out.push(
      ...validateLabels(scheduling.nodeSelector, 'scheduling.nodeSelector'),
      ...validateSchedulingConstraints({ tolerations: scheduling.tolerations }, 'scheduling'),
    );
  }
  if (old && shape.text((old as Obj).handler) !== handler)
    out.push(fieldError.invalid('handler', handler, 'field is immutable'));
  return out;
}
