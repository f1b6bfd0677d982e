// NodeVolumeLimits: the Filter plugin that keeps a node's CSI volumes per driver within what its CSINode (or Node) says it can attach.
import { createHash } from 'node:crypto';
import type { Pod, Volume } from '../../../api/core-v1.ts';
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
import { asStatus, newStatus, type Status } from '../../framework/status.ts';
import {
  type CSINode,
  claimClass,
  notFoundMessage,
  type PersistentVolumeClaim,
  type VolumeLookups,
} from '../volume-lookups.ts';

export const NODE_VOLUME_LIMITS = 'NodeVolumeLimits';
export const ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED = 'node(s) exceed max volume count';
/** The prefix of a node's allocatable resources that limit attachable volumes. */
export const ATTACHABLE_VOLUMES_PREFIX = 'attachable-volumes-';
const CSI_PREFIX = 'csi-';
const RESOURCE_NAME_LENGTH_LIMIT = 63;

/**
 * The resource name of a CSI driver's attach limit, as upstream's GetCSIAttachLimitKey: names too long
 * for a resource name keep 23 characters of the driver and 16 hex digits of its SHA-256.
 */
export function csiAttachLimitKey(driver: string): string {
  if (ATTACHABLE_VOLUMES_PREFIX.length + CSI_PREFIX.length + driver.length >= RESOURCE_NAME_LENGTH_LIMIT) {
    const hashed = createHash('sha256').update(driver).digest('hex').slice(0, 16);
    return `${ATTACHABLE_VOLUMES_PREFIX}${CSI_PREFIX}${driver.slice(0, 23)}${hashed}`;
  }
  return `${ATTACHABLE_VOLUMES_PREFIX}${CSI_PREFIX}${driver}`;
}

/** The name of the claim a generic ephemeral volume gets: `<pod>-<volume>`. */
export function ephemeralClaimName(pod: Pod, volume: Volume): string {
  return `${pod.metadata.name ?? ''}-${volume.name}`;
}

const isEphemeral = (v: Volume) => v.ephemeral !== undefined && v.ephemeral !== null;

/** Upstream's ephemeral.VolumeIsForPod: the claim must be controlled by the pod. */
function claimIsForPod(pod: Pod, pvc: PersistentVolumeClaim): string | undefined {
  const owner = pvc.metadata?.ownerReferences?.find((r) => r.controller);
  if (owner?.uid === pod.metadata.uid) return undefined;
  return `PVC ${pvc.metadata?.namespace}/${pvc.metadata?.name} was not created for pod ${pod.metadata.namespace}/${pod.metadata.name} (pod is not owner)`;
}

/**
 * The limits of a node by resource name: its allocatable `attachable-volumes-*`, overridden by the
 * CSINode's per-driver allocatable counts.
 */
export function volumeLimits(nodeInfo: NodeInfo, csiNode: CSINode | undefined): Map<string, number> {
  const limits = new Map<string, number>();
  for (const [name, value] of Object.entries(nodeInfo.allocatable.scalar)) {
    if (name.startsWith(ATTACHABLE_VOLUMES_PREFIX)) limits.set(name, value);
  }
  for (const d of csiNode?.spec?.drivers ?? []) {
    if (d.allocatable?.count !== undefined && d.allocatable.count !== null)
      limits.set(csiAttachLimitKey(d.name), d.allocatable.count);
  }
  return limits;
}

/** Options of {@link NodeVolumeLimits} besides the lookups. */
export interface NodeVolumeLimitsDeps {
  /** Prefix of the placeholder handles of unbound claims; default random (upstream: 32 random characters). */
  randomVolumeIdPrefix?: string;
}

/**
 * NodeVolumeLimits (upstream's CSILimits). PreFilter skips pods without claims or generic ephemeral
 * volumes. Filter counts, per CSI driver, the distinct volumes of the pods on the node plus the new
 * pod's volumes not already there, and rejects "node(s) exceed max volume count" when a driver's
 * count would pass the node's limit (CSINode `allocatable.count`, else the Node's `attachable-volumes-csi-*`).
 * A bound claim counts by its PersistentVolume's CSI driver and handle; an unbound one by its class's
 * provisioner (a placeholder handle per claim). A claim of the new pod that does not exist is
 * UnschedulableAndUnresolvable. In-tree volumes (not CSI) are not counted: kube-rx has no CSI migration.
 * Without the claim lookup the plugin is always skipped.
 */
export class NodeVolumeLimits implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  readonly name = NODE_VOLUME_LIMITS;
  readonly #lookups: VolumeLookups;
  readonly #prefix: string;

  constructor(lookups: VolumeLookups = {}, deps: NodeVolumeLimitsDeps = {}) {
    this.#lookups = lookups;
    this.#prefix =
      deps.randomVolumeIdPrefix ??
      Array.from({ length: 32 }, () => Math.floor(Math.random() * 36).toString(36)).join('');
  }

  preFilter(_state: CycleState, pod: Pod) {
    if (!this.#lookups.persistentVolumeClaim) return { status: newStatus('Skip') };
    const uses = (pod.spec.volumes ?? []).some((v) => v.persistentVolumeClaim || isEphemeral(v));
    return uses ? undefined : { status: newStatus('Skip') };
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    if ((pod.spec.volumes ?? []).length === 0 || !this.#lookups.persistentVolumeClaim) return undefined;
    const csiNode = this.#lookups.csiNode?.(nodeInfo.name);
    const newVolumes = new Map<string, string>();
    const failure = this.#attachableVolumes(pod, true, newVolumes);
    if (failure) return failure;
    if (newVolumes.size === 0) return undefined;
    const limits = volumeLimits(nodeInfo, csiNode);
    if (limits.size === 0) return undefined;
    const attached = new Map<string, string>();
    for (const existing of nodeInfo.pods) {
      const err = this.#attachableVolumes(existing.pod, false, attached);
      if (err) return err;
    }
    const attachedCount = new Map<string, number>();
    for (const [unique, key] of attached) {
      newVolumes.delete(unique);
      attachedCount.set(key, (attachedCount.get(key) ?? 0) + 1);
    }
    const newCount = new Map<string, number>();
    for (const key of newVolumes.values()) newCount.set(key, (newCount.get(key) ?? 0) + 1);
    for (const [key, count] of newCount) {
      const max = limits.get(key);
      if (max !== undefined && (attachedCount.get(key) ?? 0) + count > max)
        return newStatus('Unschedulable', ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED);
    }
    return undefined;
  }

  /** Adds `<driver>/<handle>` → limit key of each CSI volume of `pod` to `out`; a status on failure. */
  #attachableVolumes(pod: Pod, newPod: boolean, out: Map<string, string>): Status | undefined {
    const ns = pod.metadata.namespace ?? '';
    for (const v of pod.spec.volumes ?? []) {
      let claimName: string;
      const ephemeral = isEphemeral(v);
      if (v.persistentVolumeClaim) claimName = v.persistentVolumeClaim.claimName;
      else if (ephemeral) claimName = ephemeralClaimName(pod, v);
      else continue;
      if (claimName === '') return asStatus(new Error('PersistentVolumeClaim had no name'));
      const pvc = this.#lookups.persistentVolumeClaim?.(ns, claimName);
      if (!pvc) {
        if (!newPod) continue;
        return newStatus(
          'UnschedulableAndUnresolvable',
          `looking up PVC ${ns}/${claimName}: ${notFoundMessage('persistentvolumeclaim', claimName)}`,
        );
      }
      if (ephemeral) {
        const notOwner = claimIsForPod(pod, pvc);
        if (notOwner) return asStatus(new Error(notOwner));
      }
      const [driver, handle] = this.#driverInfo(pvc);
      if (!driver || !handle) continue;
      out.set(`${driver}/${handle}`, csiAttachLimitKey(driver));
    }
    return undefined;
  }

  /** The CSI driver and volume handle of a claim: from its bound volume, else its class's provisioner. */
  #driverInfo(pvc: PersistentVolumeClaim): [string, string] | [] {
    const pvName = pvc.spec?.volumeName ?? '';
    const pv = pvName ? this.#lookups.persistentVolume?.(pvName) : undefined;
    if (pvName && pv) {
      const csi = pv.spec?.csi;
      return csi ? [csi.driver, csi.volumeHandle] : [];
    }
    const scName = claimClass(pvc);
    if (!scName) return [];
    const sc = this.#lookups.storageClass?.(scName);
    if (!sc?.provisioner) return [];
    return [sc.provisioner, `${this.#prefix}-${pvc.metadata?.namespace}/${pvc.metadata?.name}`];
  }

  eventsToRegister(): readonly ClusterEventWithHint[] {
    return [
      { event: { resource: 'CSINode', action: ActionType.Add } },
      { event: { resource: 'Pod', action: ActionType.Delete }, hint: isSchedulableAfterPodDeleted },
      {
        event: { resource: 'PersistentVolumeClaim', action: ActionType.Add },
        hint: isSchedulableAfterClaimAdded,
      },
    ];
  }
}

/** A deleted scheduled pod with claims or ephemeral volumes may free attach slots. */
export function isSchedulableAfterPodDeleted(
  _pod: Pod,
  old: KubeObject | undefined,
  _new: KubeObject | undefined,
): QueueingHint {
  const deleted = old as Pod | undefined;
  if (!deleted?.spec) return 'Queue';
  if ((deleted.spec.volumes ?? []).length === 0 || !deleted.spec.nodeName) return 'QueueSkip';
  return (deleted.spec.volumes ?? []).some((v) => v.persistentVolumeClaim || isEphemeral(v))
    ? 'Queue'
    : 'QueueSkip';
}

/** A claim the pod uses (by name, or as its ephemeral volume's claim), created in its namespace, may help. */
export function isSchedulableAfterClaimAdded(
  pod: Pod,
  _old: KubeObject | undefined,
  added: KubeObject | undefined,
): QueueingHint {
  if (!added || added.metadata?.namespace !== pod.metadata.namespace) return 'QueueSkip';
  for (const v of pod.spec.volumes ?? []) {
    const name = v.persistentVolumeClaim
      ? v.persistentVolumeClaim.claimName
      : isEphemeral(v)
        ? ephemeralClaimName(pod, v)
        : undefined;
    if (name !== undefined && name === added.metadata?.name) return 'Queue';
  }
  return 'QueueSkip';
}

/** The registry entry, reading storage objects through `lookups` (without the claim lookup: always skipped). */
export function nodeVolumeLimitsFactory(
  lookups: VolumeLookups = {},
  deps: NodeVolumeLimitsDeps = {},
): PluginFactory {
  return () => new NodeVolumeLimits(lookups, deps);
}
