// The plugin helpers' args validators (each plugin's own *-args.ts), as config validators returning field errors.
import { InvalidConfigError } from '../../../operators/errors.ts';
import { validateDefaultPreemptionArgs } from '../../../operators/scheduling/plugins/default-preemption/default-preemption-args.ts';
import { validateInterPodAffinityArgs } from '../../../operators/scheduling/plugins/inter-pod-affinity/inter-pod-affinity-args.ts';
import { validateNodeAffinityArgs } from '../../../operators/scheduling/plugins/node-affinity/node-affinity-args.ts';
import { validateNodeResourcesBalancedAllocationArgs } from '../../../operators/scheduling/plugins/node-resources/node-resources-balanced-allocation-args.ts';
import { validateNodeResourcesFitArgs } from '../../../operators/scheduling/plugins/node-resources/node-resources-fit-args.ts';
import { validatePodTopologySpreadArgs } from '../../../operators/scheduling/plugins/pod-topology-spread/pod-topology-spread-args.ts';
import type { FieldError } from './field-error.ts';
import type { PluginArgsValidator } from './validate-plugin-args.ts';

/** A validator that throws InvalidConfigError (the plugins' style) as one that returns the field error. */
function fromThrowing(validate: (args: never, path: string) => void): PluginArgsValidator {
  return (path, args) => {
    try {
      validate(args as never, path);
      return [];
    } catch (error) {
      if (!(error instanceof InvalidConfigError)) throw error;
      const detail = error.message.slice(error.field.length + 2);
      return [
        { field: error.field, type: 'Invalid value', formatted: error.message, detail } satisfies FieldError,
      ];
    }
  };
}

/** The validators the in-tree plugins export, by plugin name; they win over the config's own. */
export const PLUGIN_HELPER_ARGS_VALIDATORS: Readonly<Record<string, PluginArgsValidator>> = {
  DefaultPreemption: fromThrowing(validateDefaultPreemptionArgs),
  InterPodAffinity: fromThrowing(validateInterPodAffinityArgs),
  NodeAffinity: fromThrowing(validateNodeAffinityArgs),
  NodeResourcesBalancedAllocation: fromThrowing(validateNodeResourcesBalancedAllocationArgs),
  NodeResourcesFit: fromThrowing(validateNodeResourcesFitArgs),
  PodTopologySpread: fromThrowing(validatePodTopologySpreadArgs),
};
