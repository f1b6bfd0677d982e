// validateNode: a Node's spec as upstream's ValidateNode checks it (taints, pod CIDRs).
import type { KubeObject } from '../../../../operators/types.ts';
import type { StatusCause } from '../../api-status.ts';
import { cidrFamily } from './cidr-family.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';

function taintCauses(taints: Obj[]): StatusCause[] {
  const out: StatusCause[] = [];
  const seen = new Set<string>();
  taints.forEach((taint, i) => {
    const at = `spec.taints[${i}]`;
    const key = shape.str(taint.key) ?? '';
    out.push(...formatErrors.qualifiedName(key).map((m) => fieldError.invalid(`${at}.key`, key, m)));
    const value = shape.str(taint.value) ?? '';
    const valueProblems = formatErrors.labelValue(value);
    if (valueProblems.length) out.push(fieldError.invalid(`${at}.value`, value, valueProblems.join(';')));
    if (shape.empty(taint.effect)) out.push(fieldError.required(`${at}.effect`));
    const pair = `${key}\u0000${shape.text(taint.effect ?? '')}`;
    if (seen.has(pair))
      out.push(fieldError.duplicate(at, taint, 'taints must be unique by key and effect pair'));
    seen.add(pair);
  });
  return out;
}

/**
 * A Node: taints with a qualified key, a label-value value, an effect, unique by key and effect; pod
 * CIDRs that parse, at most one per IP family.
 * @param node the Node about to be stored
 * @returns the causes, empty when valid
 */
export function validateNode(node: KubeObject): StatusCause[] {
  const spec = shape.obj((node as Obj).spec);
  const out = taintCauses(shape.list(spec.taints));
  const cidrs = (Array.isArray(spec.podCIDRs) ? spec.podCIDRs : []).map(String);
  const families = cidrs.map((cidr, i) => {
    const family = cidrFamily(cidr);
    if (!family)
      out.push(
        fieldError.invalid(
          `spec.podCIDRs[${i}]`,
          cidr,
          'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
        ),
      );
    return family;
  });
  if (cidrs.length > 2 || (cidrs.length === 2 && families[0] && families[0] === families[1]))
    out.push(
      fieldError.invalid('spec.podCIDRs', cidrs, 'may specify no more than one CIDR for each IP family'),
    );
  return out;
}
