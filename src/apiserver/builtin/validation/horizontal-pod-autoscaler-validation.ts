// validateHorizontalPodAutoscaler: an autoscaling/v2 HorizontalPodAutoscaler as upstream's validateHorizontalPodAutoscalerSpec checks it (replica bounds, target, metrics, behavior).
import type { KubeObject } from '../../../../operators/types.ts';
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';
import { quantityMilli } from './positive-quantity.ts';

const SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
/** Each metric source type and the field that carries it. */
const SOURCE_FIELDS: Readonly<Record<string, string>> = {
  Object: 'object',
  Pods: 'pods',
  Resource: 'resource',
  External: 'external',
  ContainerResource: 'containerResource',
};
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const SCALING_POLICY_TYPES = ['Percent', 'Pods'];
const MAX_STABILIZATION_WINDOW = 3600;
const MAX_PERIOD = 1800;

const present = (value: unknown) => value !== undefined && value !== null;

/** ValidateCrossVersionObjectReference: a kind and a name, each usable as a URL path segment. */
function referenceCauses(ref: Obj, path: string): StatusCause[] {
  return (['kind', 'name'] as const).flatMap((field) => {
    const value = shape.text(ref[field]);
    if (value === '') return [fieldError.required(`${path}.${field}`)];
    return formatErrors.pathSegmentName(value).map((m) => fieldError.invalid(`${path}.${field}`, value, m));
  });
}

function targetCauses(target: Obj, path: string): StatusCause[] {
  const out: StatusCause[] = [];
  const type = shape.text(target.type);
  if (type === '') out.push(fieldError.required(`${path}.type`, 'must specify a metric target type'));
  if (!['Utilization', 'Value', 'AverageValue'].includes(type))
    out.push(fieldError.invalid(`${path}.type`, type, 'must be either Utilization, Value, or AverageValue'));
  for (const field of ['value', 'averageValue'])
    if (present(target[field]) && !((quantityMilli(target[field]) ?? 0) > 0))
      out.push(fieldError.invalid(`${path}.${field}`, target[field], 'must be positive'));
  const utilization = shape.num(target.averageUtilization);
  if (utilization !== undefined && utilization < 1)
    out.push(fieldError.invalid(`${path}.averageUtilization`, utilization, 'must be greater than 0'));
  return out;
}

function metricNameCauses(metric: Obj, path: string): StatusCause[] {
  const name = shape.text(metric.name);
  if (name === '') return [fieldError.required(`${path}.name`, 'must specify a metric name')];
  return formatErrors.pathSegmentName(name).map((m) => fieldError.invalid(`${path}.name`, name, m));
}

function resourceCauses(source: Obj, path: string, container: boolean): StatusCause[] {
  const out: StatusCause[] = [];
  if (shape.empty(source.name)) out.push(fieldError.required(`${path}.name`, 'must specify a resource name'));
  if (container && shape.empty(source.container))
    out.push(fieldError.required(`${path}.container`, 'must specify a container'));
  const target = shape.obj(source.target);
  out.push(...targetCauses(target, `${path}.target`));
  if (!present(target.averageUtilization) && !present(target.averageValue))
    out.push(
      fieldError.required(
        `${path}.target.averageUtilization`,
        'must set either a target raw value or a target utilization',
      ),
    );
  if (present(target.averageUtilization) && present(target.averageValue))
    out.push(
      fieldError.forbidden(
        `${path}.target.averageValue`,
        'may not set both a target raw value and a target utilization',
      ),
    );
  return out;
}

/** The rules of each metric source, by its field. */
const SOURCE_RULES: Readonly<Record<string, (source: Obj, path: string) => StatusCause[]>> = {
  resource: (s, path) => resourceCauses(s, path, false),
  containerResource: (s, path) => resourceCauses(s, path, true),
  pods: (s, path) => {
    const target = shape.obj(s.target);
    const out = [
      ...metricNameCauses(shape.obj(s.metric), `${path}.metric`),
      ...targetCauses(target, `${path}.target`),
    ];
    if (!present(target.averageValue))
      out.push(
        fieldError.required(`${path}.target.averageValue`, 'must specify a positive target averageValue'),
      );
    return out;
  },
  object: (s, path) => {
    const target = shape.obj(s.target);
    const out = [
      ...referenceCauses(shape.obj(s.describedObject), `${path}.describedObject`),
      ...metricNameCauses(shape.obj(s.metric), `${path}.metric`),
      ...targetCauses(target, `${path}.target`),
    ];
    if (!present(target.value) && !present(target.averageValue))
      out.push(
        fieldError.required(`${path}.target.averageValue`, 'must set either a target value or averageValue'),
      );
    return out;
  },
  external: (s, path) => {
    const target = shape.obj(s.target);
    const out = [
      ...metricNameCauses(shape.obj(s.metric), `${path}.metric`),
      ...targetCauses(target, `${path}.target`),
    ];
    if (present(target.value) && present(target.averageValue))
      out.push(
        fieldError.forbidden(
          `${path}.target.value`,
          'may not set both a target value for metric and a per-pod target',
        ),
      );
    if (!present(target.value) && !present(target.averageValue))
      out.push(
        fieldError.required(
          `${path}.target.averageValue`,
          'must set either a target value for metric or a per-pod target',
        ),
      );
    return out;
  },
};

function metricCauses(metric: Obj, path: string): StatusCause[] {
  const out: StatusCause[] = [];
  const type = shape.text(metric.type);
  if (type === '') out.push(fieldError.required(`${path}.type`, 'must specify a metric source type'));
  if (!SOURCE_TYPES.includes(type)) out.push(fieldError.notSupported(`${path}.type`, type, SOURCE_TYPES));
  const populated = Object.values(SOURCE_FIELDS).filter((f) => present(metric[f]));
  const first = populated[0];
  if (first) out.push(...(SOURCE_RULES[first]?.(shape.obj(metric[first]), `${path}.${first}`) ?? []));
  const expected = SOURCE_FIELDS[type];
  if (expected === undefined) out.push(fieldError.notSupported(`${path}.type`, type, SOURCE_TYPES));
  else if (!present(metric[expected]))
    out.push(
      fieldError.required(`${path}.${expected}`, 'must populate information for the given metric source'),
    );
  if (populated.length !== 1)
    for (const f of populated)
      if (f !== expected)
        out.push(fieldError.forbidden(`${path}.${f}`, 'must populate the given metric source only'));
  return out;
}

function rulesCauses(rules: unknown, path: string): StatusCause[] {
  if (!present(rules)) return [];
  const r = shape.obj(rules);
  const out: StatusCause[] = [];
  const window = shape.num(r.stabilizationWindowSeconds);
  if (window !== undefined && window < 0)
    out.push(
      fieldError.invalid(
        `${path}.stabilizationWindowSeconds`,
        window,
        'must be greater than or equal to zero',
      ),
    );
  if (window !== undefined && window > MAX_STABILIZATION_WINDOW)
    out.push(
      fieldError.invalid(
        `${path}.stabilizationWindowSeconds`,
        window,
        `must be less than or equal to ${MAX_STABILIZATION_WINDOW}`,
      ),
    );
  if (present(r.selectPolicy) && !SELECT_POLICIES.includes(shape.text(r.selectPolicy)))
    out.push(fieldError.notSupported(`${path}.selectPolicy`, r.selectPolicy, SELECT_POLICIES));
  // absent policies are defaulted; an empty list is not
  if (Array.isArray(r.policies) && r.policies.length === 0)
    out.push(fieldError.required(`${path}.policies`, 'must specify at least one Policy'));
  shape.list(r.policies).forEach((policy, i) => {
    const p = shape.obj(policy);
    const at = `${path}.policies[${i}]`;
    if (!SCALING_POLICY_TYPES.includes(shape.text(p.type)))
      out.push(fieldError.notSupported(`${at}.type`, shape.text(p.type), SCALING_POLICY_TYPES));
    const value = shape.num(p.value) ?? 0;
    if (value <= 0) out.push(fieldError.invalid(`${at}.value`, value, 'must be greater than zero'));
    const period = shape.num(p.periodSeconds) ?? 0;
    if (period <= 0) out.push(fieldError.invalid(`${at}.periodSeconds`, period, 'must be greater than zero'));
    if (period > MAX_PERIOD)
      out.push(
        fieldError.invalid(`${at}.periodSeconds`, period, `must be less than or equal to ${MAX_PERIOD}`),
      );
  });
  return out;
}

/**
 * A HorizontalPodAutoscaler: minReplicas ≥ 1 (HPAScaleToZero is off), maxReplicas > 0 and ≥
 * minReplicas, a scaleTargetRef with a kind and a name, metrics of a known type with exactly their own
 * source populated and a well-formed target, and behavior's scaling rules (stabilization window
 * 0..3600, a known select policy, Pods or Percent policies with a positive value and a period of
 * 1..1800 seconds).
 * @param hpa the autoscaler about to be stored
 * @returns the causes, empty when valid
 */
export function validateHorizontalPodAutoscaler(hpa: KubeObject): StatusCause[] {
  const spec = shape.obj((hpa as Obj).spec);
  const out: StatusCause[] = [];
  const min = shape.num(spec.minReplicas);
  if (min !== undefined && min < 1)
    out.push(fieldError.invalid('spec.minReplicas', min, 'must be greater than or equal to 1'));
  const max = shape.num(spec.maxReplicas) ?? 0;
  if (max < 1) out.push(fieldError.invalid('spec.maxReplicas', max, 'must be greater than 0'));
  if (min !== undefined && max < min)
    out.push(fieldError.invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  out.push(...referenceCauses(shape.obj(spec.scaleTargetRef), 'spec.scaleTargetRef'));
  shape.list(spec.metrics).forEach((metric, i) => {
    out.push(...metricCauses(shape.obj(metric), `spec.metrics[${i}]`));
  });
  if (present(spec.behavior)) {
    const behavior = shape.obj(spec.behavior);
    out.push(
      ...rulesCauses(behavior.scaleUp, 'spec.behavior.scaleUp'),
      ...rulesCauses(behavior.scaleDown, 'spec.behavior.scaleDown'),
    );
  }
  return out;
}
