// PodTopologySpreadArgs: the plugin's configuration, its v1 defaults and validation naming the field path.
import type { TopologySpreadConstraint } from '../../../api/core-v1.ts';
import { InvalidConfigError } from '../../../errors.ts';
import { labelKeyErrors } from '../../../label-selector.ts';

/** `System` uses the built-in hostname/zone constraints; `List` uses `defaultConstraints`. */
export type PodTopologySpreadDefaultingType = 'System' | 'List';

/**
 * The plugin's args, as kubescheduler.config.k8s.io/v1 PodTopologySpreadArgs.
 * Invariants after defaulting: `defaultingType` is set; with `System`, `defaultConstraints` is empty.
 */
export interface PodTopologySpreadArgs {
  /** Constraints applied to pods that declare none; they must not carry a labelSelector. */
  defaultConstraints?: TopologySpreadConstraint[];
  /** Default `System`. */
  defaultingType?: PodTopologySpreadDefaultingType;
}

/** The constraints `System` defaulting applies: hostname maxSkew 3 and zone maxSkew 5, both ScheduleAnyway. */
export const SYSTEM_DEFAULT_CONSTRAINTS: readonly TopologySpreadConstraint[] = Object.freeze([
  { topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 3 },
  { topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 5 },
]);

/** The args with v1 defaults filled in (a new object). */
export function defaultPodTopologySpreadArgs(
  args: PodTopologySpreadArgs = {},
): Required<PodTopologySpreadArgs> {
  return {
    defaultConstraints: args.defaultConstraints ?? [],
    defaultingType: args.defaultingType ?? 'System',
  };
}

const WHEN_UNSATISFIABLE = ['DoNotSchedule', 'ScheduleAnyway'];

/**
 * Validates the args as upstream's ValidatePodTopologySpreadArgs.
 * @param path the args' field path, e.g. `profiles[0].pluginConfig[1].args`
 * @throws InvalidConfigError naming the first invalid field
 */
export function validatePodTopologySpreadArgs(args: PodTopologySpreadArgs, path = 'args'): void {
  const type = args.defaultingType ?? 'System';
  if (type !== 'System' && type !== 'List') {
    throw new InvalidConfigError(
      `${path}.defaultingType`,
      `Unsupported value: "${type}": supported values: "System", "List"`,
    );
  }
  const constraints = args.defaultConstraints ?? [];
  if (type === 'System' && constraints.length > 0) {
    throw new InvalidConfigError(
      `${path}.defaultConstraints`,
      'Invalid value: when .defaultingType is "System", .defaultConstraints must be empty',
    );
  }
  const seen = new Set<string>();
  constraints.forEach((c, i) => {
    const at = `${path}.defaultConstraints[${i}]`;
    if (!Number.isInteger(c.maxSkew) || c.maxSkew <= 0) {
      throw new InvalidConfigError(`${at}.maxSkew`, `Invalid value: ${c.maxSkew}: must be greater than zero`);
    }
    if (!c.topologyKey) throw new InvalidConfigError(`${at}.topologyKey`, 'Required value: can not be empty');
    const keyErrors = labelKeyErrors(c.topologyKey);
    if (keyErrors.length > 0) {
      throw new InvalidConfigError(`${at}.topologyKey`, `Invalid value: "${c.topologyKey}": ${keyErrors[0]}`);
    }
    if (!WHEN_UNSATISFIABLE.includes(c.whenUnsatisfiable)) {
      throw new InvalidConfigError(
        `${at}.whenUnsatisfiable`,
        `Unsupported value: "${c.whenUnsatisfiable}": supported values: "DoNotSchedule", "ScheduleAnyway"`,
      );
    }
    const pair = `${c.topologyKey}\u0000${c.whenUnsatisfiable}`;
    if (seen.has(pair)) {
      throw new InvalidConfigError(
        `${at}.{topologyKey, whenUnsatisfiable}`,
        `Duplicate value: "${c.topologyKey}, ${c.whenUnsatisfiable}"`,
      );
    }
    seen.add(pair);
    if (c.labelSelector !== undefined) {
      throw new InvalidConfigError(
        `${at}.labelSelector`,
        'Forbidden: constraint must not define a selector, as they deduced for each pod',
      );
    }
    if (c.minDomains !== undefined && (!Number.isInteger(c.minDomains) || c.minDomains <= 0)) {
      throw new InvalidConfigError(
        `${at}.minDomains`,
        `Invalid value: ${c.minDomains}: must be greater than 0`,
      );
    }
  });
}
