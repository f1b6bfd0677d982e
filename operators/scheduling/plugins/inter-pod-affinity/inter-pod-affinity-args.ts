// InterPodAffinityArgs: the plugin's configuration, its v1 defaults and validation naming the field path.
import { InvalidConfigError } from '../../../errors.ts';

/** As kubescheduler.config.k8s.io/v1 InterPodAffinityArgs. */
export interface InterPodAffinityArgs {
  /** Score weight of an existing pod's required affinity term that the incoming pod matches; 0..100, default 1. */
  hardPodAffinityWeight?: number;
  /** Skip existing pods' preferred terms when the incoming pod has no pod (anti-)affinity; default false. */
  ignorePreferredTermsOfExistingPods?: boolean;
}

export function defaultInterPodAffinityArgs(args: InterPodAffinityArgs = {}): Required<InterPodAffinityArgs> {
  return {
    hardPodAffinityWeight: args.hardPodAffinityWeight ?? 1,
    ignorePreferredTermsOfExistingPods: args.ignorePreferredTermsOfExistingPods ?? false,
  };
}

/**
 * Validates the args as upstream's ValidateInterPodAffinityArgs.
 * @throws InvalidConfigError naming `<path>.hardPodAffinityWeight`
 */
export function validateInterPodAffinityArgs(args: InterPodAffinityArgs, path = 'args'): void {
  const w = args.hardPodAffinityWeight ?? 1;
  if (!Number.isInteger(w) || w < 0 || w > 100) {
    throw new InvalidConfigError(
      `${path}.hardPodAffinityWeight`,
      `Invalid value: ${w}: not in valid range [0-100]`,
    );
  }
}
