// validateLabelSelector: a metav1.LabelSelector as apimachinery's ValidateLabelSelector checks it, at any field path.
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { shape } from './json-shape.ts';
import { validateLabels } from './labels-validation.ts';

/**
 * matchLabels as labels; each matchExpressions requirement with a qualified key, In/NotIn with values,
 * Exists/DoesNotExist without, and no other operator.
 * @param selector the selector (absent gives no causes)
 * @param path its field path, e.g. `spec.podSelector`
 * @returns the causes, empty when valid
 */
export function validateLabelSelector(selector: unknown, path: string): StatusCause[] {
  if (selector === undefined || selector === null) return [];
  const s = shape.obj(selector);
  const out = validateLabels(s.matchLabels, `${path}.matchLabels`);
  shape.list(s.matchExpressions).forEach((req, i) => {
    const at = `${path}.matchExpressions[${i}]`;
    const values = Array.isArray(req.values) ? req.values : [];
    const op = req.operator;
    if (op === 'In' || op === 'NotIn') {
      if (values.length === 0)
        out.push(fieldError.required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (op === 'Exists' || op === 'DoesNotExist') {
      if (values.length > 0)
        out.push(
          fieldError.forbidden(
            `${at}.values`,
            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
          ),
        );
    } else out.push(fieldError.invalid(`${at}.operator`, op ?? '', 'not a valid selector operator'));
    const key = shape.str(req.key) ?? '';
    out.push(...formatErrors.qualifiedName(key).map((m) => fieldError.invalid(`${at}.key`, key, m)));
  });
  return out;
}
