// buildExtenders: the configuration's `extenders` as HttpExtenders (ignorable ones last), and the resources they tell NodeResourcesFit to ignore.
import { InvalidConfigError } from '../../../operators/errors.ts';
import type { KubeSchedulerConfiguration } from '../config/types.ts';
import { HttpExtender } from './http-extender.ts';

/** The scheduler's extenders, built once from the configuration. */
export interface BuiltExtenders {
  /** In configuration order, except that ignorable extenders come after the others, as upstream. */
  readonly extenders: readonly HttpExtender[];
  /** The configuration with every profile's NodeResourcesFit `ignoredResources` set, when any extender asks. */
  readonly config: KubeSchedulerConfiguration;
  /** Aborts the extenders' requests in flight. */
  close(): void;
}

const NODE_RESOURCES_FIT = 'NodeResourcesFit';

/**
 * Upstream's buildExtenders: one HttpExtender per configured extender, the ignorable ones moved to the
 * tail; the managed resources marked `ignoredByScheduler` become NodeResourcesFit's `ignoredResources` in
 * every profile (they take precedence over the profile's own list), so the scheduler does not count what
 * only the extender understands. Call it on a defaulted configuration (each profile then has its
 * NodeResourcesFit args).
 *
 * @param config the defaulted configuration
 * @returns the extenders and the configuration to build the profiles from
 * @throws InvalidConfigError when ignored resources are set and a profile has no NodeResourcesFit args
 *   ("can't find NodeResourcesFitArgs in plugin config"), or for an extender's bad TLS files or timeout
 */
export function buildExtenders(config: KubeSchedulerConfiguration): BuiltExtenders {
  const configured = config.extenders ?? [];
  const built = configured.map((e, i) => new HttpExtender(e, `extenders[${i}]`));
  const extenders = [...built.filter((e) => !e.isIgnorable()), ...built.filter((e) => e.isIgnorable())];
  const close = () => {
    for (const e of extenders) e.close();
  };
  const ignored = configured.flatMap((e) =>
    (e.managedResources ?? []).filter((r) => r.ignoredByScheduler).map((r) => r.name),
  );
  if (ignored.length === 0) return { extenders, config, close };
  const profiles = (config.profiles ?? []).map((profile, i) => {
    const list = profile.pluginConfig ?? [];
    const at = list.findIndex((pc) => pc.name === NODE_RESOURCES_FIT);
    if (at < 0) {
      close();
      throw new InvalidConfigError(
        `profiles[${i}].pluginConfig`,
        "can't find NodeResourcesFitArgs in plugin config",
      );
    }
    const pluginConfig = list.map((pc, j) =>
      j === at ? { ...pc, args: { ...pc.args, ignoredResources: [...ignored] } } : pc,
    );
    return { ...profile, pluginConfig };
  });
  return { extenders, config: { ...config, profiles }, close };
}
