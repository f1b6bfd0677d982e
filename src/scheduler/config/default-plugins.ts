// The v1 default plugins (one MultiPoint list, in upstream's order) and the merge of a profile's plugins into them.
import { EXTENSION_POINTS, type PluginRef, type PluginSet, type Plugins } from './types.ts';

/**
 * The default MultiPoint list of kubescheduler.config.k8s.io/v1, in order, with the v1 score weights.
 * The removed cloud-volume limits plugins are left out, and so is VolumeBinding (not built yet).
 * With `available`, defaults it refuses are left out too (a registry that lacks them).
 */
export function defaultPlugins(available?: (name: string) => boolean): Plugins {
  const enabled: PluginRef[] = [
    { name: 'SchedulingGates' },
    { name: 'PrioritySort' },
    { name: 'NodeUnschedulable' },
    { name: 'NodeName' },
    { name: 'TaintToleration', weight: 3 },
    { name: 'NodeAffinity', weight: 2 },
    { name: 'NodePorts' },
    { name: 'NodeResourcesFit', weight: 1 },
    { name: 'VolumeRestrictions' },
    { name: 'NodeVolumeLimits' },
    // Upstream's VolumeBinding comes here; it is not built yet.
    { name: 'VolumeZone' },
    { name: 'PodTopologySpread', weight: 2 },
    { name: 'InterPodAffinity', weight: 2 },
    { name: 'DefaultPreemption' },
    { name: 'NodeResourcesBalancedAllocation', weight: 1 },
    { name: 'ImageLocality', weight: 1 },
    { name: 'DefaultBinder' },
  ];
  return { multiPoint: { enabled: available ? enabled.filter((p) => available(p.name)) : enabled } };
}

/**
 * Merges a custom plugin set into a default one, as v1 defaulting does:
 * - disabled names (and `*`, every default) are carried over, the default set's own too;
 * - a default plugin that is disabled is dropped, one re-enabled in the custom set is replaced in place
 *   (its weight and position kept from the custom entry, its order from the default list);
 * - custom plugins that replaced nothing are appended in their own order (duplicates too: building the
 *   framework refuses them).
 */
export function mergePluginSet(defaults: PluginSet | undefined, custom: PluginSet | undefined): PluginSet {
  const disabled: PluginRef[] = [];
  const disabledNames = new Set<string>();
  for (const p of [...(custom?.disabled ?? []), ...(defaults?.disabled ?? [])]) {
    disabled.push({ name: p.name });
    disabledNames.add(p.name);
  }
  const customIndex = new Map<string, number>();
  (custom?.enabled ?? []).forEach((p, i) => {
    customIndex.set(p.name, i);
  });
  const replaced = new Set<number>();
  const enabled: PluginRef[] = [];
  if (!disabledNames.has('*')) {
    for (const p of defaults?.enabled ?? []) {
      if (disabledNames.has(p.name)) continue;
      const i = customIndex.get(p.name);
      if (i !== undefined) {
        replaced.add(i);
        enabled.push({ ...custom!.enabled![i]! });
      } else {
        enabled.push({ ...p });
      }
    }
  }
  (custom?.enabled ?? []).forEach((p, i) => {
    if (!replaced.has(i)) enabled.push({ ...p });
  });
  const out: PluginSet = {};
  if (enabled.length) out.enabled = enabled;
  if (disabled.length) out.disabled = disabled;
  return out;
}

/** A profile's plugins merged into the defaults, point by point (MultiPoint included). */
export function mergePlugins(defaults: Plugins, custom: Plugins | undefined): Plugins {
  if (!custom) return defaults;
  const out: Plugins = {};
  for (const point of ['multiPoint', ...EXTENSION_POINTS] as const) {
    const merged = mergePluginSet(defaults[point], custom[point]);
    if (merged.enabled || merged.disabled) out[point] = merged;
  }
  return out;
}
