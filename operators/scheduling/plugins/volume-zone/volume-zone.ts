// VolumeZone: the Filter plugin that keeps a pod on nodes in the zones (and regions) of the bound PersistentVolumes it claims.
import type { Pod } from '../../../api/core-v1.ts';
import type { KubeObject } from '../../../types.ts';
import {
  ActionType,
  type ClusterEventWithHint,
  type CycleState,
  type EnqueueExtensions,
  type FilterPlugin,
  type PluginFactory,
  type PreFilterPlugin,
  type QueueingHint,
} from '../../framework/interface.ts';
import type { NodeInfo } from '../../framework/node-info.ts';
import { newStatus, type Status } from '../../framework/status.ts';
import {
  claimClass,
  notFoundMessage,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type StorageClass,
  type VolumeLookups,
} from '../volume-lookups.ts';

export const VOLUME_ZONE = 'VolumeZone';
export const ERR_REASON_VOLUME_ZONE_CONFLICT = 'node(s) had no available volume zone';
const PRE_FILTER_KEY = `PreFilter${VOLUME_ZONE}`;

const BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone';
const BETA_REGION = 'failure-domain.beta.kubernetes.io/region';
const ZONE = 'topology.kubernetes.io/zone';
const REGION = 'topology.kubernetes.io/region';
/** The labels compared between volumes and nodes, in upstream's order. */
export const VOLUME_TOPOLOGY_LABELS = [BETA_ZONE, BETA_REGION, ZONE, REGION] as const;

/** One topology label of a volume: the values (`a__b` lists several zones) a node's label must take. */
export interface PvTopology {
  readonly pvName: string;
  readonly key: string;
  readonly values: ReadonlySet<string>;
}

/** The GA name of a beta topology label (other labels unchanged). */
function toGaLabel(label: string): string {
  if (label === BETA_REGION) return REGION;
  if (label === BETA_ZONE) return ZONE;
  return label;
}

/**
 * The zones of a multi-zone label value (`us-east-1a__us-east-1b`), as upstream's LabelZonesToSet;
 * undefined when an element is empty (the label is then ignored).
 */
export function labelZonesToSet(value: string): Set<string> | undefined {
  const zones = new Set<string>();
  for (const part of value.split('__')) {
    const zone = part.trim();
    if (zone === '') return undefined;
    zones.add(zone);
  }
  return zones;
}

/** A volume's topology labels (unparsable values skipped). */
export function pvTopologies(pv: PersistentVolume): PvTopology[] {
  const out: PvTopology[] = [];
  const labels = pv.metadata?.labels ?? {};
  for (const key of VOLUME_TOPOLOGY_LABELS) {
    const value = labels[key];
    if (value === undefined) continue;
    const values = labelZonesToSet(value);
    if (values) out.push({ pvName: pv.metadata?.name ?? '', key, values });
  }
  return out;
}

/** The claim names of the pod's PersistentVolumeClaim volumes, in order. */
function claimNames(pod: Pod): string[] {
  const out: string[] = [];
  for (const v of pod.spec.volumes ?? [])
    if (v.persistentVolumeClaim) out.push(v.persistentVolumeClaim.claimName);
  return out;
}

const sameTopologies = (a: readonly PvTopology[], b: readonly PvTopology[]) =>
  a.length === b.length &&
  a.every(
    (t, i) =>
      t.key === b[i]!.key &&
      t.values.size === b[i]!.values.size &&
      [...t.values].every((v) => b[i]!.values.has(v)),
  );

/**
 * VolumeZone, as upstream's plugin. PreFilter resolves each claimed volume: a claim bound to a volume
 * gives that volume's zone/region labels; an unbound claim whose class binds WaitForFirstConsumer is
 * skipped (VolumeBinding decides); anything else missing is UnschedulableAndUnresolvable (a claim not
 * found, no volume and no class, a class without a binding mode, a volume not found). Without
 * topologies the plugin is skipped. Filter: a node without any topology label fits (single-zone
 * clusters); otherwise each volume label must be on the node (a beta volume label may match the GA node
 * label) with one of the volume's values, else "node(s) had no available volume zone". Without the
 * claim, volume and class lookups the plugin is always skipped.
 */
export class VolumeZone implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  readonly name = VOLUME_ZONE;
  readonly #lookups: VolumeLookups;

  constructor(lookups: VolumeLookups = {}) {
    this.#lookups = lookups;
  }

  /** True when the claims, volumes and classes can be read (else the plugin always skips). */
  get watchesStorage(): boolean {
    const l = this.#lookups;
    return Boolean(l.persistentVolumeClaim && l.persistentVolume && l.storageClass);
  }

  preFilter(state: CycleState, pod: Pod) {
    if (!this.watchesStorage) return { status: newStatus('Skip') };
    const found = this.podTopologies(pod);
    if ('status' in found) return { status: found.status };
    if (found.topologies.length === 0) return { status: newStatus('Skip') };
    state.write(PRE_FILTER_KEY, found.topologies);
    return undefined;
  }

  /** The topologies of the pod's bound volumes, or the status that makes the pod unschedulable. */
  podTopologies(pod: Pod): { topologies: PvTopology[] } | { status: Status } {
    const topologies: PvTopology[] = [];
    const unresolvable = (msg: string) => ({ status: newStatus('UnschedulableAndUnresolvable', msg) });
    const ns = pod.metadata.namespace ?? '';
    for (const claimName of claimNames(pod)) {
      if (claimName === '') return unresolvable('PersistentVolumeClaim had no name');
      const pvc: PersistentVolumeClaim | undefined = this.#lookups.persistentVolumeClaim?.(ns, claimName);
      if (!pvc) return unresolvable(notFoundMessage('persistentvolumeclaim', claimName));
      const pvName = pvc.spec?.volumeName ?? '';
      if (pvName === '') {
        const scName = claimClass(pvc);
        if (scName === '') return unresolvable('PersistentVolumeClaim had no pv name and storageClass name');
        const sc: StorageClass | undefined = this.#lookups.storageClass?.(scName);
        if (!sc) return unresolvable(notFoundMessage('storageclass.storage.k8s.io', scName));
        if (!sc.volumeBindingMode)
          return unresolvable(`VolumeBindingMode not set for StorageClass "${scName}"`);
        if (sc.volumeBindingMode === 'WaitForFirstConsumer') continue;
        return unresolvable('PersistentVolume had no name');
      }
      const pv = this.#lookups.persistentVolume?.(pvName);
      if (!pv) return unresolvable(notFoundMessage('persistentvolume', pvName));
      topologies.push(...pvTopologies(pv));
    }
    return { topologies };
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    if ((pod.spec.volumes ?? []).length === 0 || !this.watchesStorage) return undefined;
    let topologies = state.read<PvTopology[]>(PRE_FILTER_KEY);
    if (!topologies) {
      const found = this.podTopologies(pod);
      if ('status' in found) return found.status;
      topologies = found.topologies;
    }
    const labels = nodeInfo.node?.metadata.labels ?? {};
    if (!VOLUME_TOPOLOGY_LABELS.some((l) => l in labels)) return undefined;
    for (const t of topologies) {
      const value = labels[t.key] ?? labels[toGaLabel(t.key)];
      if (value === undefined || !t.values.has(value))
        return newStatus('UnschedulableAndUnresolvable', ERR_REASON_VOLUME_ZONE_CONFLICT);
    }
    return undefined;
  }

  eventsToRegister(): readonly ClusterEventWithHint[] {
    return [
      {
        event: { resource: 'StorageClass', action: ActionType.Add },
        hint: isSchedulableAfterStorageClassAdded,
      },
      { event: { resource: 'Node', action: ActionType.Add | ActionType.UpdateNodeLabel } },
      {
        event: { resource: 'PersistentVolumeClaim', action: ActionType.Add | ActionType.Update },
        hint: isSchedulableAfterClaimChange,
      },
      {
        event: { resource: 'PersistentVolume', action: ActionType.Add | ActionType.Update },
        hint: isSchedulableAfterVolumeChange,
      },
    ];
  }
}

/** Only a new WaitForFirstConsumer class can help (the binding mode is immutable). */
export function isSchedulableAfterStorageClassAdded(
  _pod: Pod,
  _old: KubeObject | undefined,
  added: KubeObject | undefined,
): QueueingHint {
  return (added as StorageClass | undefined)?.volumeBindingMode === 'WaitForFirstConsumer'
    ? 'Queue'
    : 'QueueSkip';
}

/** A claim the pod uses, added or changed (e.g. bound), may help. */
export function isSchedulableAfterClaimChange(
  pod: Pod,
  _old: KubeObject | undefined,
  changed: KubeObject | undefined,
): QueueingHint {
  const pvc = changed as PersistentVolumeClaim | undefined;
  if (!pvc || pvc.metadata?.namespace !== pod.metadata.namespace) return 'QueueSkip';
  return claimNames(pod).includes(pvc.metadata?.name ?? '') ? 'Queue' : 'QueueSkip';
}

/** A new volume may help; a changed one only when its topology labels changed. */
export function isSchedulableAfterVolumeChange(
  _pod: Pod,
  old: KubeObject | undefined,
  changed: KubeObject | undefined,
): QueueingHint {
  if (!old || !changed) return 'Queue';
  return sameTopologies(pvTopologies(old as PersistentVolume), pvTopologies(changed as PersistentVolume))
    ? 'QueueSkip'
    : 'Queue';
}

/** The registry entry, reading storage objects through `lookups` (without all three: always skipped). */
export function volumeZoneFactory(lookups: VolumeLookups = {}): PluginFactory {
  return () => new VolumeZone(lookups);
}
