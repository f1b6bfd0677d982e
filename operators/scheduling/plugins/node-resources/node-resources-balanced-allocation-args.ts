// NodeResourcesBalancedAllocationArgs: the resources whose balance is scored, defaults and validation.
import { InvalidConfigError } from '../../../errors.ts';
import { defaultResourceSpecs, type ResourceSpec } from './node-resources-fit-args.ts';

/** NodeResourcesBalancedAllocationArgs (kubescheduler.config.k8s.io/v1). */
export interface NodeResourcesBalancedAllocationArgs {
  resources?: ResourceSpec[];
}

/** Defaults: cpu and memory, weight 1; weight 0 → 1. */
export function defaultNodeResourcesBalancedAllocationArgs(
  args: unknown,
): NodeResourcesBalancedAllocationArgs {
  const a = (args ?? {}) as NodeResourcesBalancedAllocationArgs;
  const resources = a.resources?.length ? a.resources : defaultResourceSpecs();
  return { ...a, resources: resources.map((r) => ({ name: r.name, weight: r.weight ? r.weight : 1 })) };
}

/**
 * Validates as upstream: resource names unique, every weight exactly 1.
 * @throws InvalidConfigError naming `<path>.resources[i].name` or `.weight`
 */
export function validateNodeResourcesBalancedAllocationArgs(
  args: NodeResourcesBalancedAllocationArgs,
  path: string,
): void {
  const seen = new Set<string>();
  (args.resources ?? []).forEach((r, i) => {
    if (seen.has(r.name)) {
      throw new InvalidConfigError(
        `${path}.resources[${i}].name`,
        `Duplicate value: ${JSON.stringify(r.name)}`,
      );
    }
    seen.add(r.name);
    if (r.weight !== 1) {
      throw new InvalidConfigError(`${path}.resources[${i}].weight`, `Invalid value: ${r.weight}: must be 1`);
    }
  });
}
