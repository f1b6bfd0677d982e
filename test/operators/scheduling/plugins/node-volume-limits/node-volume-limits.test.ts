// NodeVolumeLimits: cases in the spirit of upstream's TestCSILimits (per-driver limits from CSINode and Node, bound and unbound claims, ephemeral volumes, shared volumes counted once) and its hints.
import { describe, expect, it } from 'vitest';
import type { Node, Pod, Volume } from '../../../../../operators/api/core-v1.ts';
import { CycleState } from '../../../../../operators/scheduling/framework/interface.ts';
import { NodeInfo } from '../../../../../operators/scheduling/framework/node-info.ts';
import { newStatus, type Status } from '../../../../../operators/scheduling/framework/status.ts';
import {
  csiAttachLimitKey,
  ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED,
  isSchedulableAfterClaimAdded,
  isSchedulableAfterPodDeleted,
  NodeVolumeLimits,
} from '../../../../../operators/scheduling/plugins/node-volume-limits/node-volume-limits.ts';
import type {
  CSINode,
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
  VolumeLookups,
} from '../../../../../operators/scheduling/plugins/volume-lookups.ts';

const EBS = 'ebs.csi.aws.com';
const GCE = 'pd.csi.storage.gke.io';

const pvc = (name: string, spec: PersistentVolumeClaim['spec'], owner?: string): PersistentVolumeClaim => ({
  metadata: {
    name,
    namespace: 'default',
    ...(owner
      ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'x', uid: owner, controller: true }] }
      : {}),
  },
  spec,
});
const pv = (name: string, driver: string, handle: string): PersistentVolume => ({
  metadata: { name },
  spec: { csi: { driver, volumeHandle: handle } },
});
const claims = [
  pvc('csi-ebs-1', { volumeName: 'pv-ebs-1' }),
  pvc('csi-ebs-2', { volumeName: 'pv-ebs-2' }),
  pvc('csi-ebs-3', { volumeName: 'pv-ebs-3' }),
  pvc('csi-gce-1', { volumeName: 'pv-gce-1' }),
  pvc('unbound-ebs-1', { storageClassName: 'ebs-class' }),
  pvc('unbound-ebs-2', { storageClassName: 'ebs-class' }),
  pvc('unbound-no-class', {}),
  pvc('in-tree', { volumeName: 'pv-in-tree' }),
  pvc('eph-ephemeral', { storageClassName: 'ebs-class' }, 'uid-eph'),
  pvc('stranger-ephemeral', { storageClassName: 'ebs-class' }, 'someone-else'),
];
const volumes = [
  pv('pv-ebs-1', EBS, 'vol-1'),
  pv('pv-ebs-2', EBS, 'vol-2'),
  pv('pv-ebs-3', EBS, 'vol-3'),
  pv('pv-gce-1', GCE, 'disk-1'),
  { metadata: { name: 'pv-in-tree' }, spec: {} } as PersistentVolume,
];
const classes: StorageClass[] = [{ metadata: { name: 'ebs-class' }, provisioner: EBS }];

const csiNode = (limits: Record<string, number>): CSINode => ({
  metadata: { name: 'node-1' },
  spec: {
    drivers: Object.entries(limits).map(([name, count]) => ({ name, nodeID: 'n', allocatable: { count } })),
  },
});

function lookups(csi?: CSINode): VolumeLookups {
  return {
    persistentVolumeClaim: (ns, n) =>
      claims.find((c) => c.metadata?.namespace === ns && c.metadata?.name === n),
    persistentVolume: (n) => volumes.find((v) => v.metadata?.name === n),
    storageClass: (n) => classes.find((c) => c.metadata?.name === n),
    csiNode: () => csi,
  };
}

const claimVolumes = (...names: string[]): Volume[] =>
  names.map((c, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName: c } }));
const podWith = (name: string, vols: Volume[], uid = `uid-${name}`): Pod => ({
  metadata: { name, namespace: 'default', uid },
  spec: { containers: [{ name: 'c', image: 'pause' }], volumes: vols, nodeName: 'node-1' },
});
const nodeWith = (pods: Pod[], allocatable: Record<string, string> = {}) =>
  new NodeInfo(
    {
      metadata: { name: 'node-1' },
      status: { allocatable: { cpu: '4', pods: '110', ...allocatable } },
    } as Node,
    pods,
  );
const exceeded = newStatus('Unschedulable', ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED);

function filter(l: VolumeLookups, pod: Pod, nodeInfo: NodeInfo): { pre?: Status; filter?: Status } {
  const plugin = new NodeVolumeLimits(l, { randomVolumeIdPrefix: 'rand' });
  const state = new CycleState();
  const pre = plugin.preFilter(state, pod)?.status;
  return pre ? { pre } : { filter: plugin.filter(state, pod, nodeInfo) };
}

describe('NodeVolumeLimits (upstream TestCSILimits, in our words)', () => {
  it.each<
    [string, Pod, Pod[], Record<string, number> | undefined, Record<string, string>, Status | undefined]
  >([
    [
      'fits when the driver limit allows the new volume',
      podWith('new', claimVolumes('csi-ebs-3')),
      [podWith('e', claimVolumes('csi-ebs-1'))],
      { [EBS]: 2 },
      {},
      undefined,
    ],
    [
      "doesn't fit when the driver limit is reached",
      podWith('new', claimVolumes('csi-ebs-3')),
      [podWith('e', claimVolumes('csi-ebs-1', 'csi-ebs-2'))],
      { [EBS]: 2 },
      {},
      exceeded,
    ],
    [
      'a volume already attached for another pod is not counted twice',
      podWith('new', claimVolumes('csi-ebs-1')),
      [podWith('e', claimVolumes('csi-ebs-1', 'csi-ebs-2'))],
      { [EBS]: 2 },
      {},
      undefined,
    ],
    [
      'limits are per driver',
      podWith('new', claimVolumes('csi-gce-1')),
      [podWith('e', claimVolumes('csi-ebs-1', 'csi-ebs-2'))],
      { [EBS]: 2, [GCE]: 1 },
      {},
      undefined,
    ],
    [
      'a driver without a limit is not limited',
      podWith('new', claimVolumes('csi-gce-1')),
      [podWith('e', claimVolumes('csi-ebs-1'))],
      { [EBS]: 1 },
      {},
      undefined,
    ],
    [
      'two new volumes over the limit',
      podWith('new', claimVolumes('csi-ebs-2', 'csi-ebs-3')),
      [podWith('e', claimVolumes('csi-ebs-1'))],
      { [EBS]: 2 },
      {},
      exceeded,
    ],
    [
      'an unbound claim counts through its class provisioner',
      podWith('new', claimVolumes('unbound-ebs-1')),
      [podWith('e', claimVolumes('csi-ebs-1'))],
      { [EBS]: 1 },
      {},
      exceeded,
    ],
    [
      'two unbound claims are two volumes',
      podWith('new', claimVolumes('unbound-ebs-2')),
      [podWith('e', claimVolumes('unbound-ebs-1'))],
      { [EBS]: 1 },
      {},
      exceeded,
    ],
    [
      'an unbound claim without a class is not counted',
      podWith('new', claimVolumes('unbound-no-class')),
      [podWith('e', claimVolumes('csi-ebs-1'))],
      { [EBS]: 1 },
      {},
      undefined,
    ],
    [
      'an in-tree volume is not counted',
      podWith('new', claimVolumes('in-tree')),
      [podWith('e', claimVolumes('csi-ebs-1'))],
      { [EBS]: 1 },
      {},
      undefined,
    ],
    [
      "the Node's attachable-volumes-csi-* limit without a CSINode",
      podWith('new', claimVolumes('csi-ebs-2')),
      [podWith('e', claimVolumes('csi-ebs-1'))],
      undefined,
      { [csiAttachLimitKey(EBS)]: '1' },
      exceeded,
    ],
    [
      'the CSINode count overrides the Node',
      podWith('new', claimVolumes('csi-ebs-2')),
      [podWith('e', claimVolumes('csi-ebs-1'))],
      { [EBS]: 3 },
      { [csiAttachLimitKey(EBS)]: '1' },
      undefined,
    ],
    [
      'no limits at all: fits',
      podWith('new', claimVolumes('csi-ebs-2', 'csi-ebs-3')),
      [podWith('e', claimVolumes('csi-ebs-1'))],
      undefined,
      {},
      undefined,
    ],
    [
      "an existing pod's missing claim is not counted",
      podWith('new', claimVolumes('csi-ebs-2')),
      [podWith('e', claimVolumes('gone'))],
      { [EBS]: 1 },
      {},
      undefined,
    ],
    [
      'a missing claim of the new pod',
      podWith('new', claimVolumes('gone')),
      [],
      { [EBS]: 1 },
      {},
      newStatus(
        'UnschedulableAndUnresolvable',
        'looking up PVC default/gone: persistentvolumeclaim "gone" not found',
      ),
    ],
    [
      'a generic ephemeral volume counts through its claim',
      podWith('eph', [{ name: 'ephemeral', ephemeral: { volumeClaimTemplate: {} } }], 'uid-eph'),
      [podWith('e', claimVolumes('csi-ebs-1'))],
      { [EBS]: 1 },
      {},
      exceeded,
    ],
  ])('%s', (_name, pod, existing, csiLimits, allocatable, want) => {
    const out = filter(
      lookups(csiLimits ? csiNode(csiLimits) : undefined),
      pod,
      nodeWith(existing, allocatable),
    );
    expect(out.pre).toBeUndefined();
    expect(out.filter).toEqual(want);
  });

  it('an ephemeral claim the pod does not own is an error', () => {
    const pod = podWith(
      'stranger',
      [{ name: 'ephemeral', ephemeral: { volumeClaimTemplate: {} } }],
      'uid-stranger',
    );
    const out = filter(lookups(csiNode({ [EBS]: 5 })), pod, nodeWith([]));
    expect(out.filter?.code).toBe('Error');
    expect(out.filter?.reasons[0]).toBe(
      'PVC default/stranger-ephemeral was not created for pod default/stranger (pod is not owner)',
    );
  });

  it.each<[string, Pod, VolumeLookups]>([
    ['a pod without claims', podWith('p', [{ name: 'e', emptyDir: {} }]), lookups()],
    ['any pod without the claim lookup', podWith('p', claimVolumes('csi-ebs-1')), {}],
  ])('skips %s', (_name, pod, l) => {
    expect(filter(l, pod, nodeWith([])).pre).toEqual({ code: 'Skip', reasons: [] });
  });
});

describe('csiAttachLimitKey (upstream GetCSIAttachLimitKey)', () => {
  it.each<[string, string, string]>([
    ['a short driver name is kept whole', EBS, 'attachable-volumes-csi-ebs.csi.aws.com'],
    [
      'a name too long for a resource name keeps 23 characters and 16 hex digits of its SHA-256',
      'a-very-long-csi-driver-name.storage.example.com',
      'attachable-volumes-csi-a-very-long-csi-driver-6c3decb7473a2f52',
    ],
  ])('%s', (_name, driver, want) => {
    expect(csiAttachLimitKey(driver)).toBe(want);
  });
});

describe('NodeVolumeLimits queueing hints', () => {
  const pod = podWith('p', claimVolumes('data'));
  it.each<[string, Pod, 'Queue' | 'QueueSkip']>([
    ['a scheduled pod with a claim', podWith('e', claimVolumes('x')), 'Queue'],
    ['a pod without volumes', podWith('e', []), 'QueueSkip'],
    [
      'an unscheduled pod',
      { ...podWith('e', claimVolumes('x')), spec: { containers: [], volumes: claimVolumes('x') } },
      'QueueSkip',
    ],
    ['a pod with only an emptyDir', podWith('e', [{ name: 'e', emptyDir: {} }]), 'QueueSkip'],
  ])('pod deleted: %s', (_name, deleted, want) => {
    expect(isSchedulableAfterPodDeleted(pod, deleted, undefined)).toBe(want);
  });
  it.each<[string, PersistentVolumeClaim, 'Queue' | 'QueueSkip']>([
    ['its claim', pvc('data', {}), 'Queue'],
    ['another claim', pvc('other', {}), 'QueueSkip'],
  ])('claim added: %s', (_name, added, want) => {
    expect(isSchedulableAfterClaimAdded(pod, undefined, added)).toBe(want);
  });
});
