// validateTypedObjectReference: an Ingress resource backend's or IngressClass parameters' apiGroup, kind and name, as upstream's validateIngressTypedLocalObjectReference checks them.
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';

/**
 * An optional DNS-subdomain apiGroup; a kind and a name, each usable as a URL path segment.
 * @param ref the reference
 * @param path its field path
 * @returns the causes, empty when valid
 */
export function validateTypedObjectReference(ref: Obj, path: string): StatusCause[] {
  const out: StatusCause[] = [];
  const group = shape.str(ref.apiGroup);
  if (group !== undefined)
    out.push(
      ...formatErrors.dns1123Subdomain(group).map((m) => fieldError.invalid(`${path}.apiGroup`, group, m)),
    );
  for (const field of ['kind', 'name'] as const) {
    const value = shape.str(ref[field]) ?? '';
    if (value === '') out.push(fieldError.required(`${path}.${field}`, `${field} is required`));
    else
      out.push(
        ...formatErrors.pathSegmentName(value).map((m) => fieldError.invalid(`${path}.${field}`, value, m)),
      );
  }
  return out;
}
