// validateLimitRange: a core/v1 LimitRange as upstream's ValidateLimitRange checks it (types, resource names, min ≤ default request ≤ default ≤ max, ratios).
import type { KubeObject } from '../../../../operators/types.ts';
import type { StatusCause } from '../../api-status.ts';
import { canonicalQuantity } from './canonical-quantity.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';
import { QUANTITY_SYNTAX, quantityMilli } from './positive-quantity.ts';
import { resourceNameErrors } from './resource-name-rules.ts';

const TYPES = ['Pod', 'Container', 'PersistentVolumeClaim'];
const BOUNDS = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const;
type Bound = (typeof BOUNDS)[number];

/** ValidateLimitRangeTypeName: a standard limit type or a qualified name with a domain. */
function typeErrors(type: string): string[] {
  const errors = formatErrors.qualifiedName(type);
  if (errors.length > 0) return errors;
  return !type.includes('/') && !TYPES.includes(type)
    ? ['must be a standard limit type or fully qualified']
    : [];
}

/** A quantity as upstream prints it in these messages. */
const text = (value: unknown) => canonicalQuantity(value as string | number);

interface Found {
  readonly milli: number;
  readonly value: unknown;
}

function boundsCauses(
  at: string,
  found: Record<Bound, Map<string, Found>>,
  keys: Set<string>,
): StatusCause[] {
  const out: StatusCause[] = [];
  for (const k of keys) {
    const min = found.min.get(k);
    const max = found.max.get(k);
    const def = found.default.get(k);
    const req = found.defaultRequest.get(k);
    const ratio = found.maxLimitRequestRatio.get(k);
    const bad = (bound: Bound, shown: Found, message: string) =>
      out.push(fieldError.invalid(`${at}.${bound}[${k}]`, text(shown.value), message));
    if (min && max && min.milli > max.milli)
      bad('min', min, `min value ${text(min.value)} is greater than max value ${text(max.value)}`);
    if (req && min && min.milli > req.milli)
      bad(
        'defaultRequest',
        req,
        `min value ${text(min.value)} is greater than default request value ${text(req.value)}`,
      );
    if (req && max && req.milli > max.milli)
      bad(
        'defaultRequest',
        req,
        `default request value ${text(req.value)} is greater than max value ${text(max.value)}`,
      );
    if (req && def && req.milli > def.milli)
      bad(
        'defaultRequest',
        req,
        `default request value ${text(req.value)} is greater than default limit value ${text(def.value)}`,
      );
    if (def && min && min.milli > def.milli)
      bad('default', min, `min value ${text(min.value)} is greater than default value ${text(def.value)}`);
    if (def && max && def.milli > max.milli)
      bad('default', max, `default value ${text(def.value)} is greater than max value ${text(max.value)}`);
    if (ratio && ratio.milli < 1000)
      bad('maxLimitRequestRatio', ratio, `ratio ${text(ratio.value)} is less than 1`);
    if (ratio && min && max) {
      const limit = max.milli / min.milli;
      if (ratio.milli / 1000 > limit)
        bad(
          'maxLimitRequestRatio',
          ratio,
          `ratio ${text(ratio.value)} is greater than max/min = ${limit.toFixed(6)}`,
        );
    }
    if (!resourceNameErrors.overcommitAllowed(k) && def && req && def.milli !== req.milli)
      bad(
        'defaultRequest',
        req,
        `default value ${text(def.value)} must equal to defaultRequest value ${text(req.value)} in ${k}`,
      );
  }
  return out;
}

function limitCauses(limit: Obj, at: string): StatusCause[] {
  const out: StatusCause[] = [];
  const type = shape.text(limit.type);
  out.push(...typeErrors(type).map((m) => fieldError.invalid(`${at}.type`, type, m)));
  const found = Object.fromEntries(BOUNDS.map((b) => [b, new Map<string, Found>()])) as Record<
    Bound,
    Map<string, Found>
  >;
  const keys = new Set<string>();
  for (const bound of BOUNDS) {
    const entries = Object.entries(shape.obj(limit[bound]));
    if (type === 'Pod' && (bound === 'default' || bound === 'defaultRequest')) {
      if (entries.length > 0)
        out.push(fieldError.forbidden(`${at}.${bound}`, "may not be specified when `type` is 'Pod'"));
      continue;
    }
    for (const [name, value] of entries) {
      const field = `${at}.${bound}[${name}]`;
      const nameErrors =
        type === 'Pod' || type === 'Container'
          ? resourceNameErrors.container(name)
          : resourceNameErrors.standard(name);
      out.push(...nameErrors.map((m) => fieldError.invalid(field, name, m)));
      keys.add(name);
      const milli = quantityMilli(value);
      if (milli === undefined) out.push(fieldError.invalid(field, value, QUANTITY_SYNTAX));
      else found[bound].set(name, { milli, value });
    }
  }
  if (type === 'PersistentVolumeClaim' && !found.min.has('storage') && !found.max.has('storage'))
    out.push(
      fieldError.required(
        `${at}.limits`,
        'either minimum or maximum storage value is required, but neither was provided',
      ),
    );
  return [...out, ...boundsCauses(at, found, keys)];
}

/**
 * A LimitRange: each limit of a standard type (Pod, Container, PersistentVolumeClaim) or a qualified
 * one, each type once; resource names a container may use (Pod, Container) or standard ones; no
 * default or defaultRequest for Pod; a storage min or max for PersistentVolumeClaim; min ≤
 * defaultRequest ≤ default ≤ max; maxLimitRequestRatio ≥ 1 and ≤ max/min; default = defaultRequest for
 * resources that cannot be overcommitted.
 * @param limitRange the LimitRange about to be stored
 * @returns the causes, empty when valid
 */
export function validateLimitRange(limitRange: KubeObject): StatusCause[] {
  const out: StatusCause[] = [];
  const types = new Set<string>();
  shape.list(shape.obj((limitRange as Obj).spec).limits).forEach((limit, i) => {
    const at = `spec.limits[${i}]`;
    const l = shape.obj(limit);
    const type = shape.text(l.type);
    const causes = limitCauses(l, at);
    if (types.has(type)) causes.splice(typeErrors(type).length, 0, fieldError.duplicate(`${at}.type`, type));
    types.add(type);
    out.push(...causes);
  });
  return out;
}
