// validateResourceQuota: a core/v1 ResourceQuota as upstream's ValidateResourceQuotaSpec checks it (hard quantities, scopes, scope selector).
import type { KubeObject } from '../../../../operators/types.ts';
import type { StatusCause } from '../../api-status.ts';
import { canonicalQuantity } from './canonical-quantity.ts';
import { fieldError } from './field-error.ts';
import { type Obj, shape } from './json-shape.ts';
import { QUANTITY_SYNTAX, quantityMilli } from './positive-quantity.ts';
import { resourceNameErrors } from './resource-name-rules.ts';

const SCOPES = [
  'Terminating',
  'NotTerminating',
  'BestEffort',
  'NotBestEffort',
  'PriorityClass',
  'CrossNamespacePodAffinity',
];
const POD_RESOURCES = new Set([
  'pods',
  'cpu',
  'memory',
  'limits.cpu',
  'limits.memory',
  'requests.cpu',
  'requests.memory',
]);
const EXISTS_ONLY = [
  'BestEffort',
  'NotBestEffort',
  'Terminating',
  'NotTerminating',
  'CrossNamespacePodAffinity',
];
const CONFLICTS = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
];

/** IsResourceQuotaScopeValidForResource */
function scopeFits(scope: string, resource: string): boolean {
  if (scope === 'BestEffort') return resource === 'pods';
  return SCOPES.includes(scope) ? POD_RESOURCES.has(resource) : true;
}

/** A list of scopes as Go's %#v prints it, which upstream's messages show. */
const printScopes = (scopes: string[]) =>
  `[]core.ResourceQuotaScope{${scopes.map((s) => JSON.stringify(s)).join(', ')}}`;

function hardCauses(hard: Obj): StatusCause[] {
  return Object.entries(hard).flatMap(([name, value]) => {
    const field = `spec.hard[${name}]`;
    const out = resourceNameErrors.quota(name).map((m) => fieldError.invalid(field, name, m));
    const milli = quantityMilli(value);
    if (milli === undefined) return [...out, fieldError.invalid(field, value, QUANTITY_SYNTAX)];
    if (milli < 0)
      out.push(
        fieldError.invalid(field, canonicalQuantity(value as string), 'must be greater than or equal to 0'),
      );
    if (resourceNameErrors.isInteger(name) && milli % 1000 !== 0)
      out.push(fieldError.invalid(field, canonicalQuantity(value as string), 'must be an integer'));
    return out;
  });
}

function scopesCauses(scopes: string[], resources: string[]): StatusCause[] {
  const out: StatusCause[] = [];
  const printed = printScopes(scopes);
  for (const scope of scopes) {
    if (!SCOPES.includes(scope))
      out.push(fieldError.invalidPrinted('spec.scopes', printed, 'unsupported scope'));
    for (const resource of resources)
      if (resourceNameErrors.quota(resource).length === 0 && !scopeFits(scope, resource))
        out.push(fieldError.invalidPrinted('spec.scopes', printed, 'unsupported scope applied to resource'));
  }
  for (const pair of CONFLICTS)
    if (pair.every((s) => scopes.includes(s)))
      out.push(fieldError.invalidPrinted('spec.scopes', printed, 'conflicting scopes'));
  return out;
}

function selectorCauses(selector: Obj, resources: string[]): StatusCause[] {
  const out: StatusCause[] = [];
  const path = 'spec.scopeSelector.matchExpressions';
  const names: string[] = [];
  for (const requirement of shape.list(selector.matchExpressions)) {
    const r = shape.obj(requirement);
    const scope = shape.text(r.scopeName);
    const op = shape.text(r.operator);
    const values = Array.isArray(r.values) ? r.values : [];
    if (!SCOPES.includes(scope))
      out.push(fieldError.invalid(`${path}.scopeName`, scope, 'unsupported scope'));
    for (const resource of resources)
      if (resourceNameErrors.quota(resource).length === 0 && !scopeFits(scope, resource))
        out.push(fieldError.invalid(path, selector, 'unsupported scope applied to resource'));
    if (EXISTS_ONLY.includes(scope) && op !== 'Exists')
      out.push(
        fieldError.invalid(
          `${path}.operator`,
          op,
          "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    if (op === 'In' || op === 'NotIn') {
      if (values.length === 0)
        out.push(
          fieldError.required(
            `${path}.values`,
            "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
          ),
        );
    } else if (op === 'Exists' || op === 'DoesNotExist') {
      if (values.length > 0)
        out.push(
          fieldError.invalid(
            `${path}.values`,
            values,
            "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
          ),
        );
    } else out.push(fieldError.invalid(`${path}.operator`, op, 'not a valid selector operator'));
    names.push(scope);
  }
  for (const pair of CONFLICTS)
    if (pair.every((s) => names.includes(s)))
      out.push(fieldError.invalid(path, selector, 'conflicting scopes'));
  return out;
}

/**
 * A ResourceQuota: each hard resource a quota resource (standard, hugepages, or domain-qualified such
 * as `count/deployments.apps`) with a quantity that parses, is not negative, and is whole for counted
 * resources; known scopes that fit every standard resource limited (BestEffort only pods; the others
 * pods and compute), no conflicting pair; scope selector requirements likewise, with operators fitting
 * their scope.
 * @param quota the ResourceQuota about to be stored
 * @returns the causes, empty when valid
 */
export function validateResourceQuota(quota: KubeObject): StatusCause[] {
  const spec = shape.obj((quota as Obj).spec);
  const hard = shape.obj(spec.hard);
  const resources = Object.keys(hard).sort();
  const scopes = (Array.isArray(spec.scopes) ? spec.scopes : []).map((s) => shape.text(s));
  return [
    ...hardCauses(hard),
    ...scopesCauses(scopes, resources),
    ...(spec.scopeSelector === undefined || spec.scopeSelector === null
      ? []
      : selectorCauses(shape.obj(spec.scopeSelector), resources)),
  ];
}
