// validateLabels: a map of labels (a node selector, a template's labels, a Service's selector) as upstream's ValidateLabels words it.
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { shape } from './json-shape.ts';

/**
 * Each key a qualified name and each value a label value; the causes name the map's path, not the key.
 * @param labels the map
 * @param path its field path, e.g. `spec.nodeSelector`
 * @returns the causes, empty when valid
 */
export function validateLabels(labels: unknown, path: string): StatusCause[] {
  const out: StatusCause[] = [];
  for (const [key, value] of Object.entries(shape.obj(labels))) {
    out.push(...formatErrors.qualifiedName(key).map((m) => fieldError.invalid(path, key, m)));
    const text = typeof value === 'string' ? value : shape.text(value);
    out.push(...formatErrors.labelValue(text).map((m) => fieldError.invalid(path, value, m)));
  }
  return out;
}
