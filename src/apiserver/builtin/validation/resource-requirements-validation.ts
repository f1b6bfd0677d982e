// validateResourceRequirements: a container's requests and limits as upstream validates them (names, quantities, requests ≤ limits).
import { isQuantity, quantityMilliValue } from '../../../../operators/api/quantity.ts';
import type { StatusCause } from '../../api-status.ts';
import { canonicalQuantity } from './canonical-quantity.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { shape } from './json-shape.ts';
import { QUANTITY_SYNTAX } from './positive-quantity.ts';

const STANDARD = new Set(['cpu', 'memory', 'ephemeral-storage']);

const isHugePages = (name: string) => name.startsWith('hugepages-');
/** native: no domain, or a kubernetes.io domain */
const isNative = (name: string) => !name.includes('/') || name.includes('kubernetes.io/');
const overcommitAllowed = (name: string) => isNative(name) && !isHugePages(name);
const isExtended = (name: string) =>
  !isNative(name) &&
  !name.startsWith('requests.') &&
  formatErrors.qualifiedName(`requests.${name}`).length === 0;

function resourceNameCauses(name: string, field: string): StatusCause[] {
  const out = formatErrors.qualifiedName(name).map((m) => fieldError.invalid(field, name, m));
  if (!name.includes('/')) {
    if (!STANDARD.has(name) && !isHugePages(name))
      out.push(fieldError.invalid(field, name, 'must be a standard resource for containers'));
  } else if (!isNative(name) && !isExtended(name)) {
    out.push(fieldError.invalid(field, name, "doesn't follow extended resource name standard"));
  }
  return out;
}

/** The quantity in milli units, or the causes that make it unusable. */
function quantityCauses(
  name: string,
  value: unknown,
  field: string,
): { milli?: number; causes: StatusCause[] } {
  if ((typeof value !== 'string' && typeof value !== 'number') || !isQuantity(value))
    return { causes: [fieldError.invalid(field, value, QUANTITY_SYNTAX)] };
  const milli = quantityMilliValue(value);
  const causes: StatusCause[] = [];
  if (milli < 0)
    causes.push(fieldError.invalid(field, canonicalQuantity(value), 'must be greater than or equal to 0'));
  if (isExtended(name) && milli % 1000 !== 0)
    causes.push(fieldError.invalid(field, canonicalQuantity(value), 'must be an integer'));
  return { milli, causes };
}

/**
 * A container's (or pod's) `resources`: each resource name is a standard container resource or an
 * extended one; each quantity parses and is not negative; a request is at most its limit, and equal to
 * it for resources that cannot be overcommitted (extended resources, hugepages), which need a limit.
 * @param resources the `resources` object
 * @param path its field path, e.g. `spec.containers[0].resources`
 * @returns the causes, empty when valid
 */
export function validateResourceRequirements(resources: unknown, path: string): StatusCause[] {
  const out: StatusCause[] = [];
  const limits = shape.obj(shape.obj(resources).limits);
  const requests = shape.obj(shape.obj(resources).requests);
  const limitPath = `${path}.limits`;
  const requestPath = `${path}.requests`;
  const limitMilli = new Map<string, number>();
  let hugePages = false;
  let cpuOrMemory = false;
  for (const [name, value] of Object.entries(limits)) {
    const at = `${limitPath}[${name}]`;
    out.push(...resourceNameCauses(name, at));
    const { milli, causes } = quantityCauses(name, value, at);
    out.push(...causes);
    if (milli !== undefined) limitMilli.set(name, milli);
    if (isHugePages(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  for (const [name, value] of Object.entries(requests)) {
    const at = `${requestPath}[${name}]`;
    out.push(...resourceNameCauses(name, at));
    const { milli, causes } = quantityCauses(name, value, at);
    out.push(...causes);
    if (isHugePages(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
    if (milli === undefined) continue;
    const limit = limitMilli.get(name);
    const shown = canonicalQuantity(value as string | number);
    if (limit !== undefined) {
      const limitText = canonicalQuantity(limits[name] as string | number);
      if (milli !== limit && !overcommitAllowed(name))
        out.push(fieldError.invalid(requestPath, shown, `must be equal to ${name} limit of ${limitText}`));
      else if (milli > limit)
        out.push(
          fieldError.invalid(
            requestPath,
            shown,
            `must be less than or equal to ${name} limit of ${limitText}`,
          ),
        );
    } else if (!overcommitAllowed(name) && !(name in limits)) {
      out.push(fieldError.required(limitPath, 'Limit must be set for non overcommitable resources'));
    }
  }
  if (hugePages && !cpuOrMemory) out.push(fieldError.forbidden(path, 'HugePages require cpu or memory'));
  return out;
}
