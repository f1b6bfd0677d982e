// Validation of the in-tree plugins' args (v1 kinds), naming the field under `profiles[i].pluginConfig[j].args`.
import { type FieldError, invalid, unsupported } from './field-error.ts';

type Args = Record<string, unknown>;

/** Validates one plugin's (defaulted) args; `path` is the args' field path. */
export type PluginArgsValidator = (path: string, args: Args) => FieldError[];

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

function validateResources(path: string, resources: unknown): FieldError[] {
  if (!Array.isArray(resources)) return [];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  resources.forEach((r: { name?: unknown; weight?: unknown }, i) => {
    const weight = r.weight;
    if (!isInt(weight) || weight <= 0 || weight > 100) {
      errors.push(
        invalid(
          `${path}[${i}].weight`,
          weight,
          `resource weight of ${String(r.name)} not in valid range [1, 100]`,
        ),
      );
    }
    if (typeof r.name === 'string' && seen.has(r.name)) {
      errors.push(invalid(`${path}[${i}].name`, r.name, 'resource name is duplicated'));
    }
    seen.add(String(r.name));
  });
  return errors;
}

/** The in-tree validators by plugin name (upstream's validation_pluginargs.go rules). */
export const PLUGIN_ARGS_VALIDATORS: Readonly<Record<string, PluginArgsValidator>> = {
  DefaultPreemption: (path, a) => {
    const errors: FieldError[] = [];
    const pct = a.minCandidateNodesPercentage;
    const abs = a.minCandidateNodesAbsolute;
    if (!isInt(pct) || pct < 0 || pct > 100)
      errors.push(invalid(`${path}.minCandidateNodesPercentage`, pct, 'not in valid range [0, 100]'));
    if (!isInt(abs) || abs < 0)
      errors.push(invalid(`${path}.minCandidateNodesAbsolute`, abs, 'not in valid range [0, inf)'));
    if (pct === 0 && abs === 0) {
      const detail = 'cannot be zero at the same time as minCandidateNodesAbsolute';
      errors.push(invalid(`${path}.minCandidateNodesPercentage`, pct, detail));
    }
    return errors;
  },
  InterPodAffinity: (path, a) => {
    const w = a.hardPodAffinityWeight;
    return !isInt(w) || w < 0 || w > 100
      ? [invalid(`${path}.hardPodAffinityWeight`, w, 'not in valid range [0, 100]')]
      : [];
  },
  NodeResourcesFit: (path, a) => {
    const strategy = (a.scoringStrategy ?? {}) as Args;
    const types = ['LeastAllocated', 'MostAllocated', 'RequestedToCapacityRatio'];
    const errors: FieldError[] = [];
    if (!types.includes(String(strategy.type)))
      errors.push(unsupported(`${path}.scoringStrategy.type`, strategy.type, types));
    errors.push(...validateResources(`${path}.scoringStrategy.resources`, strategy.resources));
    if (strategy.type === 'RequestedToCapacityRatio') {
      const shape = (strategy.requestedToCapacityRatio as Args | undefined)?.shape;
      if (!Array.isArray(shape) || shape.length === 0) {
        errors.push(
          invalid(
            `${path}.scoringStrategy.requestedToCapacityRatio.shape`,
            shape ?? [],
            'at least one point must be specified',
          ),
        );
      } else {
        let last = -1;
        shape.forEach((p: { utilization?: unknown; score?: unknown }, i) => {
          const base = `${path}.scoringStrategy.requestedToCapacityRatio.shape[${i}]`;
          if (!isInt(p.utilization) || p.utilization < 0 || p.utilization > 100)
            errors.push(invalid(`${base}.utilization`, p.utilization, 'not in valid range [0, 100]'));
          else if (p.utilization <= last)
            errors.push(
              invalid(`${base}.utilization`, p.utilization, 'values must be sorted in increasing order'),
            );
          else last = p.utilization;
          if (!isInt(p.score) || p.score < 0 || p.score > 10)
            errors.push(invalid(`${base}.score`, p.score, 'not in valid range [0, 10]'));
        });
      }
    }
    return errors;
  },
  NodeResourcesBalancedAllocation: (path, a) => validateResources(`${path}.resources`, a.resources),
  PodTopologySpread: (path, a) => {
    const errors: FieldError[] = [];
    const types = ['System', 'List'];
    if (!types.includes(String(a.defaultingType)))
      errors.push(unsupported(`${path}.defaultingType`, a.defaultingType, types));
    const constraints = Array.isArray(a.defaultConstraints) ? a.defaultConstraints : [];
    if (a.defaultingType === 'System' && constraints.length > 0) {
      errors.push(
        invalid(
          `${path}.defaultConstraints`,
          constraints,
          'when .defaultingType is "System", .defaultConstraints must be empty',
        ),
      );
    }
    constraints.forEach(
      (
        c: { maxSkew?: unknown; topologyKey?: unknown; whenUnsatisfiable?: unknown; labelSelector?: unknown },
        i,
      ) => {
        const base = `${path}.defaultConstraints[${i}]`;
        if (!isInt(c.maxSkew) || c.maxSkew <= 0)
          errors.push(invalid(`${base}.maxSkew`, c.maxSkew, 'must be greater than zero'));
        if (typeof c.topologyKey !== 'string' || !c.topologyKey)
          errors.push(invalid(`${base}.topologyKey`, c.topologyKey ?? '', 'can not be empty'));
        if (!['DoNotSchedule', 'ScheduleAnyway'].includes(String(c.whenUnsatisfiable)))
          errors.push(
            unsupported(`${base}.whenUnsatisfiable`, c.whenUnsatisfiable, [
              'DoNotSchedule',
              'ScheduleAnyway',
            ]),
          );
        if (c.labelSelector !== undefined)
          errors.push(
            invalid(
              `${base}.labelSelector`,
              c.labelSelector,
              'constraint must not define a selector, as they deduced for each pod',
            ),
          );
      },
    );
    return errors;
  },
  VolumeBinding: (path, a) => {
    const t = a.bindTimeoutSeconds;
    return !isInt(t) || t < 0
      ? [
          invalid(
            `${path}.bindTimeoutSeconds`,
            t,
            'invalid BindTimeoutSeconds, should not be a negative value',
          ),
        ]
      : [];
  },
};
