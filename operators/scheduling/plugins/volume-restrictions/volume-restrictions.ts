// VolumeRestrictions: the Filter plugin against disk conflicts on a node (GCE PD, AWS EBS, iSCSI, Ceph RBD) and a second user of a ReadWriteOncePod claim.
import type { Pod, Volume } from '../../../api/core-v1.ts';
import type { KubeObject } from '../../../types.ts';
import {
  ActionType,
  type ClusterEventWithHint,
  type CycleState,
  type EnqueueExtensions,
  type FilterPlugin,
  type FrameworkHandle,
  type PluginFactory,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type QueueingHint,
} from '../../framework/interface.ts';
import type { NodeInfo, PodInfo } from '../../framework/node-info.ts';
import { asStatus, newStatus, type Status } from '../../framework/status.ts';
import { notFoundMessage, type VolumeLookups } from '../volume-lookups.ts';

export const VOLUME_RESTRICTIONS = 'VolumeRestrictions';
export const ERR_REASON_DISK_CONFLICT = 'node(s) had no available disk';
export const ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT =
  'node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode';
const PRE_FILTER_KEY = `PreFilter${VOLUME_RESTRICTIONS}`;

interface GcePd {
  pdName?: string;
  readOnly?: boolean;
}
interface AwsEbs {
  volumeID?: string;
}
interface Iscsi {
  iqn?: string;
  readOnly?: boolean;
}
interface Rbd {
  monitors?: string[];
  pool?: string;
  image?: string;
  readOnly?: boolean;
}

const gce = (v: Volume) => v.gcePersistentDisk as GcePd | undefined;
const ebs = (v: Volume) => v.awsElasticBlockStore as AwsEbs | undefined;
const iscsi = (v: Volume) => v.iscsi as Iscsi | undefined;
const rbd = (v: Volume) => v.rbd as Rbd | undefined;

/** True for the volume kinds whose sharing between pods on one node is checked. */
export function needsRestrictionsCheck(v: Volume): boolean {
  return Boolean(gce(v) || ebs(v) || rbd(v) || iscsi(v));
}

/**
 * Whether `volume` conflicts with one of `pod`'s volumes: the same GCE disk unless both are read-only;
 * the same EBS volume; the same iSCSI IQN unless both are read-only; an RBD image with a common monitor,
 * the same pool (default `rbd`) and image, unless both are read-only.
 */
export function isVolumeConflict(volume: Volume, pod: Pod): boolean {
  for (const existing of pod.spec.volumes ?? []) {
    const [d, ed] = [gce(volume), gce(existing)];
    if (d && ed && d.pdName === ed.pdName && !(d.readOnly && ed.readOnly)) return true;
    const [a, ea] = [ebs(volume), ebs(existing)];
    if (a && ea && a.volumeID === ea.volumeID) return true;
    const [i, ei] = [iscsi(volume), iscsi(existing)];
    if (i && ei && i.iqn === ei.iqn && !(i.readOnly && ei.readOnly)) return true;
    const [r, er] = [rbd(volume), rbd(existing)];
    if (
      r &&
      er &&
      (r.monitors ?? []).some((m) => (er.monitors ?? []).includes(m)) &&
      (r.pool ?? 'rbd') === (er.pool ?? 'rbd') &&
      r.image === er.image &&
      !(r.readOnly && er.readOnly)
    )
      return true;
  }
  return false;
}

/** True when no checked volume of `pod` conflicts with a pod already on the node. */
export function satisfyVolumeConflicts(pod: Pod, nodeInfo: NodeInfo): boolean {
  for (const v of pod.spec.volumes ?? []) {
    if (!needsRestrictionsCheck(v)) continue;
    for (const existing of nodeInfo.pods) if (isVolumeConflict(v, existing.pod)) return false;
  }
  return true;
}

/** PreFilter's state: the pod's ReadWriteOncePod claims and how many scheduled pods use them. */
class PreFilterState {
  readonly readWriteOncePodClaims: ReadonlySet<string>;
  conflictingRefCount: number;
  constructor(claims: ReadonlySet<string>, count: number) {
    this.readWriteOncePodClaims = claims;
    this.conflictingRefCount = count;
  }
  /** The number of the pod's RWOP claims `other` also mounts. */
  refsOf(other: Pod): number {
    let n = 0;
    for (const v of other.spec.volumes ?? []) {
      if (v.persistentVolumeClaim && this.readWriteOncePodClaims.has(v.persistentVolumeClaim.claimName)) n++;
    }
    return n;
  }
  clone(): PreFilterState {
    return new PreFilterState(this.readWriteOncePodClaims, this.conflictingRefCount);
  }
}

/**
 * VolumeRestrictions, as upstream's plugin. PreFilter finds the pod's claims with the ReadWriteOncePod
 * access mode (a claim that does not exist is UnschedulableAndUnresolvable) and counts those already
 * used by a scheduled pod; without checked volumes and without such uses it is skipped. Filter:
 * "node(s) had no available disk" for a disk conflict on the node; "node has pod using
 * PersistentVolumeClaim with the same name and ReadWriteOncePod access mode" (Unschedulable, so
 * preemption can evict the other user) while any other pod uses one of its RWOP claims. AddPod/RemovePod
 * keep the count right in preemption's what-ifs. Without the claim lookup only disk conflicts are checked.
 */
export class VolumeRestrictions implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  readonly name = VOLUME_RESTRICTIONS;
  readonly #handle: FrameworkHandle;
  readonly #lookups: VolumeLookups;

  constructor(handle: FrameworkHandle, lookups: VolumeLookups = {}) {
    this.#handle = handle;
    this.#lookups = lookups;
  }

  preFilter(state: CycleState, pod: Pod) {
    const needsCheck = (pod.spec.volumes ?? []).some(needsRestrictionsCheck);
    const claims = this.#readWriteOncePodClaims(pod);
    if ('status' in claims) return { status: claims.status };
    const ns = pod.metadata.namespace ?? '';
    let count = 0;
    if (claims.names.size > 0) {
      const used = claimsUsedByScheduledPods(this.#handle.snapshot().list());
      for (const c of claims.names) if (used.has(`${ns}/${c}`)) count++;
    }
    if (!needsCheck && count === 0) return { status: newStatus('Skip') };
    state.write(PRE_FILTER_KEY, new PreFilterState(claims.names, count));
    return undefined;
  }

  #readWriteOncePodClaims(pod: Pod): { names: Set<string> } | { status: Status } {
    const names = new Set<string>();
    const ns = pod.metadata.namespace ?? '';
    if (!this.#lookups.persistentVolumeClaim) return { names };
    for (const v of pod.spec.volumes ?? []) {
      if (!v.persistentVolumeClaim) continue;
      const claimName = v.persistentVolumeClaim.claimName;
      const pvc = this.#lookups.persistentVolumeClaim?.(ns, claimName);
      if (!pvc)
        return {
          status: newStatus(
            'UnschedulableAndUnresolvable',
            notFoundMessage('persistentvolumeclaim', claimName),
          ),
        };
      if (pvc.spec?.accessModes?.includes('ReadWriteOncePod')) names.add(claimName);
    }
    return { names };
  }

  preFilterExtensions(): PreFilterExtensions {
    const update = (state: CycleState, podInfo: PodInfo, sign: 1 | -1): Status | undefined => {
      const s = state.read<PreFilterState>(PRE_FILTER_KEY);
      if (!s) return asStatus(new Error(`cannot read "${PRE_FILTER_KEY}" from cycleState`));
      s.conflictingRefCount += sign * s.refsOf(podInfo.pod);
      return undefined;
    };
    return {
      addPod: (state, _pod, podInfo) => update(state, podInfo, 1),
      removePod: (state, _pod, podInfo) => update(state, podInfo, -1),
    };
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    if (!satisfyVolumeConflicts(pod, nodeInfo)) return newStatus('Unschedulable', ERR_REASON_DISK_CONFLICT);
    const s = state.read<PreFilterState>(PRE_FILTER_KEY);
    if (!s) return asStatus(new Error(`cannot read "${PRE_FILTER_KEY}" from cycleState`));
    return s.conflictingRefCount > 0
      ? newStatus('Unschedulable', ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT)
      : undefined;
  }

  eventsToRegister(): readonly ClusterEventWithHint[] {
    return [
      { event: { resource: 'Pod', action: ActionType.Delete }, hint: isSchedulableAfterPodDeleted },
      { event: { resource: 'Node', action: ActionType.Add } },
      {
        event: { resource: 'PersistentVolumeClaim', action: ActionType.Add },
        hint: isSchedulableAfterClaimAdded,
      },
    ];
  }
}

/** `namespace/claim` of every claim mounted by a pod on a node (upstream's StorageInfos.IsPVCUsedByPods). */
export function claimsUsedByScheduledPods(nodes: readonly NodeInfo[]): Set<string> {
  const used = new Set<string>();
  for (const n of nodes) {
    for (const p of n.pods) {
      for (const v of p.pod.spec.volumes ?? []) {
        if (v.persistentVolumeClaim)
          used.add(`${p.pod.metadata.namespace ?? ''}/${v.persistentVolumeClaim.claimName}`);
      }
    }
  }
  return used;
}

/** A claim the pod mounts, created in its namespace, may help (it was missing). */
export function isSchedulableAfterClaimAdded(
  pod: Pod,
  _old: KubeObject | undefined,
  added: KubeObject | undefined,
): QueueingHint {
  if (!added || added.metadata?.namespace !== pod.metadata.namespace) return 'QueueSkip';
  return (pod.spec.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName === added.metadata?.name)
    ? 'Queue'
    : 'QueueSkip';
}

/** A deleted pod in the namespace helps when it held a conflicting disk or mounted one of the pod's claims. */
export function isSchedulableAfterPodDeleted(
  pod: Pod,
  old: KubeObject | undefined,
  _new: KubeObject | undefined,
): QueueingHint {
  const deleted = old as Pod | undefined;
  if (!deleted?.spec) return 'Queue';
  if (deleted.metadata.namespace !== pod.metadata.namespace) return 'QueueSkip';
  for (const v of pod.spec.volumes ?? [])
    if (needsRestrictionsCheck(v) && isVolumeConflict(v, deleted)) return 'Queue';
  const claims = new Set(
    (pod.spec.volumes ?? []).flatMap((v) =>
      v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : [],
    ),
  );
  return (deleted.spec.volumes ?? []).some(
    (v) => v.persistentVolumeClaim && claims.has(v.persistentVolumeClaim.claimName),
  )
    ? 'Queue'
    : 'QueueSkip';
}

/** The registry entry, reading claims through `lookups` (without the claim lookup: disk conflicts only). */
export function volumeRestrictionsFactory(lookups: VolumeLookups = {}): PluginFactory {
  return (_args, handle) => new VolumeRestrictions(handle, lookups);
}
