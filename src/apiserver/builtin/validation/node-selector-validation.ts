// validateNodeSelector: a core NodeSelector (a PersistentVolume's node affinity) as upstream's ValidateNodeSelector checks it.
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';

function requirementCauses(req: Obj, path: string, byField: boolean): StatusCause[] {
  const out: StatusCause[] = [];
  const values = Array.isArray(req.values) ? req.values : [];
  const op = req.operator;
  if (op === 'In' || op === 'NotIn') {
    if (values.length === 0)
      out.push(fieldError.required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (op === 'Exists' || op === 'DoesNotExist') {
    if (values.length > 0)
      out.push(
        fieldError.forbidden(
          `${path}.values`,
          "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        ),
      );
  } else if (op === 'Gt' || op === 'Lt') {
    if (values.length !== 1)
      out.push(
        fieldError.required(
          `${path}.values`,
          "must be specified single value when `operator` is 'Lt' or 'Gt'",
        ),
      );
  } else out.push(fieldError.invalid(`${path}.operator`, op ?? '', 'not a valid selector operator'));
  const key = shape.str(req.key) ?? '';
  if (!byField)
    out.push(...formatErrors.qualifiedName(key).map((m) => fieldError.invalid(`${path}.key`, key, m)));
  return out;
}

/**
 * At least one term; each term's matchExpressions (qualified keys; In/NotIn with values, Exists and
 * DoesNotExist without, Gt/Lt with exactly one) and matchFields.
 * @param selector the NodeSelector
 * @param path its field path, e.g. `spec.nodeAffinity.required`
 * @returns the causes, empty when valid
 */
export function validateNodeSelector(selector: unknown, path: string): StatusCause[] {
  const terms = shape.list(shape.obj(selector).nodeSelectorTerms);
  if (terms.length === 0)
    return [fieldError.required(`${path}.nodeSelectorTerms`, 'must have at least one node selector term')];
  return terms.flatMap((term, i) => {
    const at = `${path}.nodeSelectorTerms[${i}]`;
    return [
      ...shape
        .list(term.matchExpressions)
        .flatMap((req, j) => requirementCauses(req, `${at}.matchExpressions[${j}]`, false)),
      ...shape
        .list(term.matchFields)
        .flatMap((req, j) => requirementCauses(req, `${at}.matchFields[${j}]`, true)),
    ];
  });
}
