// NodeResourcesFitArgs: ignored resources and the scoring strategy (LeastAllocated, MostAllocated, RequestedToCapacityRatio), defaults and validation.
import { InvalidConfigError } from '../../../errors.ts';
import { labelKeyErrors } from '../../../label-selector.ts';

export type ScoringStrategyType = 'LeastAllocated' | 'MostAllocated' | 'RequestedToCapacityRatio';
export const SCORING_STRATEGY_TYPES: readonly ScoringStrategyType[] = [
  'LeastAllocated',
  'MostAllocated',
  'RequestedToCapacityRatio',
];

/** A resource a scorer looks at, with its weight (1..100; 0 is defaulted to 1). */
export interface ResourceSpec {
  name: string;
  weight?: number;
}

/** A point of the RequestedToCapacityRatio shape: utilization 0..100 → score 0..10. */
export interface UtilizationShapePoint {
  utilization: number;
  score: number;
}

export interface ScoringStrategy {
  type?: ScoringStrategyType | string;
  resources?: ResourceSpec[];
  requestedToCapacityRatio?: { shape?: UtilizationShapePoint[] };
}

/** NodeResourcesFitArgs (kubescheduler.config.k8s.io/v1). */
export interface NodeResourcesFitArgs {
  /** Extended resources the Filter ignores. */
  ignoredResources?: string[];
  /** Extended resource groups (the part before '/') the Filter ignores. */
  ignoredResourceGroups?: string[];
  scoringStrategy?: ScoringStrategy;
}

/** The highest score of a RequestedToCapacityRatio shape point (upstream's MaxCustomPriorityScore). */
export const MAX_CUSTOM_PRIORITY_SCORE = 10;

/** cpu and memory, weight 1 each: the default resources of the scorers. */
export function defaultResourceSpecs(): ResourceSpec[] {
  return [
    { name: 'cpu', weight: 1 },
    { name: 'memory', weight: 1 },
  ];
}

/** Upstream's v1 defaults: LeastAllocated over cpu and memory; empty resources → the default set; weight 0 → 1. */
export function defaultNodeResourcesFitArgs(args: unknown): NodeResourcesFitArgs {
  const a = { ...((args ?? {}) as NodeResourcesFitArgs) };
  const strategy: ScoringStrategy = a.scoringStrategy
    ? { ...a.scoringStrategy }
    : { type: 'LeastAllocated', resources: defaultResourceSpecs() };
  strategy.type ??= 'LeastAllocated';
  if (!strategy.resources || strategy.resources.length === 0) strategy.resources = defaultResourceSpecs();
  strategy.resources = strategy.resources.map((r) => ({ name: r.name, weight: r.weight ? r.weight : 1 }));
  a.scoringStrategy = strategy;
  return a;
}

function invalid(field: string, value: unknown, message: string): InvalidConfigError {
  return new InvalidConfigError(field, `Invalid value: ${JSON.stringify(value)}: ${message}`);
}

/** Every resource weight must be in (0, 100]. */
export function validateResources(resources: readonly ResourceSpec[] | undefined, path: string): void {
  (resources ?? []).forEach((r, i) => {
    const w = r.weight ?? 0;
    if (!(w > 0 && w <= 100)) {
      throw invalid(`${path}[${i}].weight`, w, `resource weight of ${r.name} not in valid range (0, 100]`);
    }
  });
}

/** A shape needs a point, utilizations strictly increasing in [0, 100], scores in [0, 10]. */
export function validateFunctionShape(
  shape: readonly UtilizationShapePoint[] | undefined,
  path: string,
): void {
  if (!shape || shape.length === 0)
    throw new InvalidConfigError(path, 'Required value: at least one point must be specified');
  for (let i = 1; i < shape.length; i++) {
    if (shape[i - 1]!.utilization >= shape[i]!.utilization) {
      throw invalid(
        `${path}[${i}].utilization`,
        shape[i]!.utilization,
        'utilization values must be sorted in increasing order',
      );
    }
  }
  shape.forEach((p, i) => {
    if (p.utilization < 0 || p.utilization > 100)
      throw invalid(`${path}[${i}].utilization`, p.utilization, 'not in valid range [0, 100]');
    if (p.score < 0 || p.score > MAX_CUSTOM_PRIORITY_SCORE) {
      throw invalid(`${path}[${i}].score`, p.score, `not in valid range [0, ${MAX_CUSTOM_PRIORITY_SCORE}]`);
    }
  });
}

/**
 * Validates NodeResourcesFitArgs as upstream's ValidateNodeResourcesFitArgs.
 * @param path the args' field path, e.g. `profiles[0].pluginConfig[1].args`
 * @throws InvalidConfigError naming the first bad field, e.g. `<path>.scoringStrategy.resources[0].weight`
 */
export function validateNodeResourcesFitArgs(args: NodeResourcesFitArgs, path: string): void {
  (args.ignoredResources ?? []).forEach((res, i) => {
    const errs = labelKeyErrors(res);
    if (errs.length > 0) throw invalid(`${path}.ignoredResources[${i}]`, res, errs.join('; '));
  });
  (args.ignoredResourceGroups ?? []).forEach((group, i) => {
    if (group.includes('/'))
      throw invalid(`${path}.ignoredResourceGroups[${i}]`, group, "resource group name can't contain '/'");
    const errs = labelKeyErrors(group);
    if (errs.length > 0) throw invalid(`${path}.ignoredResourceGroups[${i}]`, group, errs.join('; '));
  });
  const s = args.scoringStrategy;
  if (!s) return;
  const sp = `${path}.scoringStrategy`;
  if (!SCORING_STRATEGY_TYPES.includes(s.type as ScoringStrategyType)) {
    throw new InvalidConfigError(
      `${sp}.type`,
      `Unsupported value: ${JSON.stringify(s.type)}: supported values: ${SCORING_STRATEGY_TYPES.map((t) => `"${t}"`).join(', ')}`,
    );
  }
  validateResources(s.resources, `${sp}.resources`);
  if (s.requestedToCapacityRatio) validateFunctionShape(s.requestedToCapacityRatio.shape, `${sp}.shape`);
  else if (s.type === 'RequestedToCapacityRatio') {
    throw new InvalidConfigError(
      `${sp}.requestedToCapacityRatio`,
      'Required value: scoring strategy RequestedToCapacityRatio needs a shape',
    );
  }
}
