// volumeRegistry: the volume plugins' registry entries (VolumeRestrictions, NodeVolumeLimits, VolumeZone) over one set of storage lookups.
import type { Registry } from '../framework/interface.ts';
import { NODE_VOLUME_LIMITS, nodeVolumeLimitsFactory } from './node-volume-limits/node-volume-limits.ts';
import type { VolumeLookups } from './volume-lookups.ts';
import { VOLUME_RESTRICTIONS, volumeRestrictionsFactory } from './volume-restrictions/volume-restrictions.ts';
import { VOLUME_ZONE, volumeZoneFactory } from './volume-zone/volume-zone.ts';

/**
 * The volume plugins reading `lookups`. Without lookups (the in-tree registry) they skip what needs the
 * storage kinds; an assembly that watches claims, volumes, classes and CSINodes merges
 * `volumeRegistry(lookups)` over the in-tree registry to turn them on.
 *
 * @example
 * const registry = { ...inTreeRegistry, ...volumeRegistry({ persistentVolumeClaim: (ns, n) => pvcs.get(`${ns}/${n}`) }) };
 */
export function volumeRegistry(lookups: VolumeLookups = {}): Registry {
  return {
    [VOLUME_RESTRICTIONS]: volumeRestrictionsFactory(lookups),
    [NODE_VOLUME_LIMITS]: nodeVolumeLimitsFactory(lookups),
    [VOLUME_ZONE]: volumeZoneFactory(lookups),
  };
}
