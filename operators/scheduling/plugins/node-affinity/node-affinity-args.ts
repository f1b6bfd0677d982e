// NodeAffinityArgs: the NodeAffinity plugin's args (addedAffinity), with upstream's defaults and validation.
import type { NodeAffinity } from '../../../api/core-v1.ts';
import { InvalidConfigError } from '../../../errors.ts';
import { CompiledNodeSelector, PreferredSchedulingTerms } from '../helpers/node-selector.ts';

/** NodeAffinityArgs (kubescheduler.config.k8s.io/v1): node affinity every pod of the profile must also satisfy. */
export interface NodeAffinityArgs {
  addedAffinity?: NodeAffinity;
}

/** Defaults: none (addedAffinity stays unset). Returns a copy. */
export function defaultNodeAffinityArgs(args: unknown): NodeAffinityArgs {
  const a = (args ?? {}) as NodeAffinityArgs;
  return a.addedAffinity ? { addedAffinity: a.addedAffinity } : {};
}

/**
 * Validates NodeAffinityArgs as upstream's ValidateNodeAffinityArgs: the added required selector and
 * preferred terms must parse.
 * @param path the args' field path, e.g. `profiles[0].pluginConfig[1].args`
 * @throws InvalidConfigError naming the first bad field
 */
export function validateNodeAffinityArgs(args: NodeAffinityArgs, path: string): void {
  const added = args.addedAffinity;
  if (!added) return;
  const req = added.requiredDuringSchedulingIgnoredDuringExecution;
  if (req) {
    const base = `${path}.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
    const problem = new CompiledNodeSelector(req, base).problems[0];
    if (problem) throw new InvalidConfigError(problem.field, problem.message);
  }
  const pref = added.preferredDuringSchedulingIgnoredDuringExecution;
  if (pref?.length) {
    const base = `${path}.addedAffinity.preferredDuringSchedulingIgnoredDuringExecution`;
    const problem = new PreferredSchedulingTerms(pref, base).problems[0];
    if (problem) throw new InvalidConfigError(problem.field, problem.message);
  }
}
