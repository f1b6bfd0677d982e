// validateSchedulingConstraints: a pod's tolerations, topology spread constraints and affinity terms as upstream validates them.
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';

const NOT_POSITIVE = 'must be greater than zero';

function tolerationsCauses(tolerations: Obj[], path: string): StatusCause[] {
  const out: StatusCause[] = [];
  tolerations.forEach((t, i) => {
    const at = `${path}[${i}]`;
    const key = shape.str(t.key) ?? '';
    if (key !== '')
      out.push(...formatErrors.qualifiedName(key).map((m) => fieldError.invalid(`${at}.key`, key, m)));
    const operator = shape.str(t.operator) ?? '';
    const value = shape.str(t.value) ?? '';
    if (key === '' && operator !== 'Exists')
      out.push(
        fieldError.invalid(
          `${at}.operator`,
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && t.effect !== 'NoExecute')
      out.push(
        fieldError.invalid(
          `${at}.effect`,
          t.effect ?? '',
          "effect must be 'NoExecute' when `tolerationSeconds` is set",
        ),
      );
    if (operator === '' || operator === 'Equal')
      out.push(...formatErrors.labelValue(value).map((m) => fieldError.invalid(`${at}.value`, value, m)));
    else if (operator === 'Exists' && value !== '')
      out.push(
        fieldError.invalid(`${at}.operator`, value, "value must be empty when `operator` is 'Exists'"),
      );
  });
  return out;
}

function spreadCauses(constraints: Obj[], path: string): StatusCause[] {
  const out: StatusCause[] = [];
  constraints.forEach((c, i) => {
    const at = `${path}[${i}]`;
    const skew = shape.num(c.maxSkew) ?? 0;
    if (skew <= 0) out.push(fieldError.invalid(`${at}.maxSkew`, skew, NOT_POSITIVE));
    const key = shape.str(c.topologyKey) ?? '';
    if (key === '') out.push(fieldError.required(`${at}.topologyKey`, 'can not be empty'));
    else
      out.push(
        ...formatErrors.qualifiedName(key).map((m) => fieldError.invalid(`${at}.topologyKey`, key, m)),
      );
    const when = c.whenUnsatisfiable;
    if (when !== 'DoNotSchedule' && when !== 'ScheduleAnyway')
      out.push(
        fieldError.notSupported(`${at}.whenUnsatisfiable`, when ?? '', ['DoNotSchedule', 'ScheduleAnyway']),
      );
    if (constraints.slice(i + 1).some((o) => o.topologyKey === c.topologyKey && o.whenUnsatisfiable === when))
      out.push(
        fieldError.duplicate(`${at}.{topologyKey, whenUnsatisfiable}`, `{${key}, ${shape.text(when ?? '')}}`),
      );
    const minDomains = shape.num(c.minDomains);
    if (minDomains !== undefined) {
      if (minDomains <= 0) out.push(fieldError.invalid(`${at}.minDomains`, minDomains, NOT_POSITIVE));
      if (when !== 'DoNotSchedule')
        out.push(
          fieldError.invalid(
            `${at}.minDomains`,
            minDomains,
            `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${shape.text(when ?? '')}`,
          ),
        );
    }
  });
  return out;
}

function weightCauses(terms: Obj[], path: string): StatusCause[] {
  return terms.flatMap((t, i) => {
    const w = shape.num(t.weight) ?? 0;
    return w < 1 || w > 100
      ? [fieldError.invalid(`${path}[${i}].weight`, w, 'must be in the range 1-100')]
      : [];
  });
}

function affinityCauses(affinity: Obj, path: string): StatusCause[] {
  const out: StatusCause[] = [];
  const node = shape.obj(affinity.nodeAffinity);
  const required = node.requiredDuringSchedulingIgnoredDuringExecution;
  if (required !== undefined && required !== null && shape.empty(shape.obj(required).nodeSelectorTerms))
    out.push(
      fieldError.required(
        `${path}.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`,
        'must have at least one node selector term',
      ),
    );
  out.push(
    ...weightCauses(
      shape.list(node.preferredDuringSchedulingIgnoredDuringExecution),
      `${path}.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution`,
    ),
  );
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const a = shape.obj(affinity[kind]);
    const base = `${path}.${kind}`;
    shape.list(a.requiredDuringSchedulingIgnoredDuringExecution).forEach((term, i) => {
      if (shape.empty(term.topologyKey))
        out.push(
          fieldError.required(
            `${base}.requiredDuringSchedulingIgnoredDuringExecution[${i}].topologyKey`,
            'can not be empty',
          ),
        );
    });
    const preferred = shape.list(a.preferredDuringSchedulingIgnoredDuringExecution);
    out.push(...weightCauses(preferred, `${base}.preferredDuringSchedulingIgnoredDuringExecution`));
    preferred.forEach((p, i) => {
      if (shape.empty(shape.obj(p.podAffinityTerm).topologyKey))
        out.push(
          fieldError.required(
            `${base}.preferredDuringSchedulingIgnoredDuringExecution[${i}].podAffinityTerm.topologyKey`,
            'can not be empty',
          ),
        );
    });
  }
  return out;
}

/**
 * Tolerations (qualified keys; Exists without a value; an empty key only with Exists; tolerationSeconds
 * only with NoExecute), topology spread constraints (positive maxSkew, a key, a known
 * whenUnsatisfiable, no repeated pair, minDomains only with DoNotSchedule) and affinity (a required
 * node affinity has terms, pod affinity terms have a topology key, weights in 1..100).
 * @param spec the pod spec
 * @param path its field path
 * @returns the causes, empty when valid
 */
export function validateSchedulingConstraints(spec: Obj, path: string): StatusCause[] {
  return [
    ...tolerationsCauses(shape.list(spec.tolerations), `${path}.tolerations`),
    ...spreadCauses(shape.list(spec.topologySpreadConstraints), `${path}.topologySpreadConstraints`),
    ...affinityCauses(shape.obj(spec.affinity), `${path}.affinity`),
  ];
}
