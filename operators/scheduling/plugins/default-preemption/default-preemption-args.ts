// DefaultPreemptionArgs: how many candidate nodes the dry run looks for; v1 defaults and validation naming the field path.
import { InvalidConfigError } from '../../../errors.ts';

/** As kubescheduler.config.k8s.io/v1 DefaultPreemptionArgs. */
export interface DefaultPreemptionArgs {
  /** Percentage of the potential nodes to find as candidates; 0..100, default 10. */
  minCandidateNodesPercentage?: number;
  /** At least this many candidates (capped by the number of potential nodes); >= 0, default 100. */
  minCandidateNodesAbsolute?: number;
}

export function defaultDefaultPreemptionArgs(
  args: DefaultPreemptionArgs = {},
): Required<DefaultPreemptionArgs> {
  return {
    minCandidateNodesPercentage: args.minCandidateNodesPercentage ?? 10,
    minCandidateNodesAbsolute: args.minCandidateNodesAbsolute ?? 100,
  };
}

/**
 * Validates the args as upstream's ValidateDefaultPreemptionArgs.
 * @throws InvalidConfigError naming `<path>.minCandidateNodesPercentage` or `<path>.minCandidateNodesAbsolute`
 */
export function validateDefaultPreemptionArgs(args: DefaultPreemptionArgs, path = 'args'): void {
  const { minCandidateNodesPercentage: pct, minCandidateNodesAbsolute: abs } =
    defaultDefaultPreemptionArgs(args);
  if (!Number.isInteger(pct) || pct < 0 || pct > 100) {
    throw new InvalidConfigError(
      `${path}.minCandidateNodesPercentage`,
      `Invalid value: ${pct}: not in valid range [0, 100]`,
    );
  }
  if (!Number.isInteger(abs) || abs < 0) {
    throw new InvalidConfigError(
      `${path}.minCandidateNodesAbsolute`,
      `Invalid value: ${abs}: not in valid range [0, inf)`,
    );
  }
  if (pct === 0 && abs === 0) {
    throw new InvalidConfigError(
      `${path}.minCandidateNodesPercentage`,
      'Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute',
    );
  }
}
