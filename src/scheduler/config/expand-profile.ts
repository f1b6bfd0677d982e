// A defaulted profile expanded into per-extension-point plugin lists (MultiPoint rules), with score weights and args.
import { type FieldError, invalid } from './field-error.ts';
import { EXTENSION_POINTS, type ExtensionPoint, type KubeSchedulerProfile } from './types.ts';

/** One plugin at one extension point; `weight` is set at `score` only (never 0). */
export interface ExpandedPlugin {
  readonly name: string;
  readonly weight?: number;
}

/**
 * What a profile runs: for each extension point the plugins in order, and each plugin's args.
 * Invariants: a plugin appears at most once per point, only at points it implements; score weights ≥ 1.
 */
export interface ExpandedProfile {
  readonly schedulerName: string;
  readonly percentageOfNodesToScore?: number;
  readonly plugins: Readonly<Record<ExtensionPoint, readonly ExpandedPlugin[]>>;
  /** Args by plugin name (defaulted for in-tree plugins; `{}` when none are configured). */
  readonly pluginArgs: Readonly<Record<string, Record<string, unknown>>>;
}

/**
 * Expands a defaulted profile as the framework does when it is built:
 * - a point with `disabled: *` takes nothing from MultiPoint;
 * - a MultiPoint plugin goes to each point it implements, unless disabled there, or also named at that
 *   point (then the specific entry wins: "explicit override");
 * - order per point: explicit overrides (in their own order), then MultiPoint plugins, then the other
 *   plugins named at that point;
 * - a score weight comes from the Score entry, else the MultiPoint entry; 0 or unset means 1.
 *
 * @param path the profile's field path (`profiles[0]`), for errors
 * @param profile the defaulted profile (see `setDefaults`)
 * @param implementsOf the extension points a plugin implements (from an instance of it)
 * @returns the expanded profile, or the errors (a plugin registered twice at one point, or named at a
 *   point it does not implement)
 */
export function expandProfile(
  path: string,
  profile: KubeSchedulerProfile,
  implementsOf: (name: string) => ReadonlySet<ExtensionPoint>,
): { profile: ExpandedProfile; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const plugins = {} as Record<ExtensionPoint, ExpandedPlugin[]>;
  const multi = profile.plugins?.multiPoint?.enabled ?? [];
  const weights = new Map<string, number>();
  for (const p of [...(profile.plugins?.score?.enabled ?? []), ...multi]) {
    if (weights.has(p.name)) continue;
    if (implementsOf(p.name).has('score')) weights.set(p.name, p.weight ? p.weight : 1);
  }
  for (const point of EXTENSION_POINTS) {
    const set = profile.plugins?.[point];
    const specific: string[] = [];
    (set?.enabled ?? []).forEach((p, i) => {
      if (specific.includes(p.name)) {
        errors.push(
          invalid(
            `${path}.plugins.${point}.enabled[${i}]`,
            p.name,
            `plugin "${p.name}" already registered as "${point}"`,
          ),
        );
        return;
      }
      if (!implementsOf(p.name).has(point)) {
        errors.push(
          invalid(
            `${path}.plugins.${point}.enabled[${i}]`,
            p.name,
            `plugin "${p.name}" does not extend ${point} plugin`,
          ),
        );
        return;
      }
      specific.push(p.name);
    });
    const disabled = new Set((set?.disabled ?? []).map((p) => p.name));
    const overrides: string[] = [];
    const fromMulti: string[] = [];
    if (!disabled.has('*')) {
      multi.forEach((p, i) => {
        if (!implementsOf(p.name).has(point) || disabled.has(p.name)) return;
        if (specific.includes(p.name)) {
          overrides.push(p.name);
          return;
        }
        if (fromMulti.includes(p.name)) {
          errors.push(
            invalid(
              `${path}.plugins.multiPoint.enabled[${i}]`,
              p.name,
              `plugin "${p.name}" already registered as "${point}"`,
            ),
          );
          return;
        }
        fromMulti.push(p.name);
      });
    }
    const ordered = [
      ...specific.filter((n) => overrides.includes(n)),
      ...fromMulti,
      ...specific.filter((n) => !overrides.includes(n)),
    ];
    plugins[point] = ordered.map((name) =>
      point === 'score' ? { name, weight: weights.get(name) ?? 1 } : { name },
    );
  }
  const pluginArgs: Record<string, Record<string, unknown>> = {};
  for (const pc of profile.pluginConfig ?? []) pluginArgs[pc.name] = pc.args ?? {};
  return {
    profile: {
      schedulerName: profile.schedulerName ?? '',
      ...(profile.percentageOfNodesToScore !== undefined
        ? { percentageOfNodesToScore: profile.percentageOfNodesToScore }
        : {}),
      plugins,
      pluginArgs,
    },
    errors,
  };
}
