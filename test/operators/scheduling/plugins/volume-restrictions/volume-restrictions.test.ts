// VolumeRestrictions: upstream's disk-conflict tables (GCE PD, AWS EBS, RBD, iSCSI) and TestAccessModeConflicts in our own words, the what-if extensions and hints.
import { describe, expect, it } from 'vitest';
import type { Node, Pod, Volume } from '../../../../../operators/api/core-v1.ts';
import { CycleState, type FrameworkHandle } from '../../../../../operators/scheduling/framework/interface.ts';
import { NodeInfo, newPodInfo } from '../../../../../operators/scheduling/framework/node-info.ts';
import { newStatus, type Status } from '../../../../../operators/scheduling/framework/status.ts';
import type { PersistentVolumeClaim } from '../../../../../operators/scheduling/plugins/volume-lookups.ts';
import {
  ERR_REASON_DISK_CONFLICT,
  ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT,
  isSchedulableAfterClaimAdded,
  isSchedulableAfterPodDeleted,
  VolumeRestrictions,
} from '../../../../../operators/scheduling/plugins/volume-restrictions/volume-restrictions.ts';
import { FakeLister } from '../../framework/fixtures.ts';

const podWith = (name: string, volumes: Volume[], o: { node?: string; ns?: string } = {}): Pod => ({
  metadata: { name, namespace: o.ns ?? 'default', uid: name },
  spec: { containers: [{ name: 'c', image: 'pause' }], volumes, ...(o.node ? { nodeName: o.node } : {}) },
});
const claimVolume = (...claims: string[]): Volume[] =>
  claims.map((c, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName: c } }));
const nodeWith = (...pods: Pod[]) => new NodeInfo({ metadata: { name: 'node-1' } } as Node, pods);
const skip: Status = { code: 'Skip', reasons: [] };
const diskConflict = newStatus('Unschedulable', ERR_REASON_DISK_CONFLICT);

function plugin(nodes: NodeInfo[] = [], pvcs: PersistentVolumeClaim[] = []) {
  const lister = new FakeLister(nodes);
  const handle = { snapshot: () => lister } as unknown as FrameworkHandle;
  return new VolumeRestrictions(handle, {
    persistentVolumeClaim: (ns, n) =>
      pvcs.find((p) => p.metadata?.namespace === ns && p.metadata?.name === n),
  });
}

function run(p: VolumeRestrictions, pod: Pod, nodeInfo: NodeInfo) {
  const state = new CycleState();
  const pre = p.preFilter(state, pod)?.status;
  return { pre, filter: pre ? undefined : p.filter(state, pod, nodeInfo), state };
}

const disk = (name: string, source: Record<string, unknown>): Volume => ({ name, ...source });

describe.each<[string, Volume, Volume]>([
  [
    'GCE persistent disks',
    disk('a', { gcePersistentDisk: { pdName: 'foo' } }),
    disk('b', { gcePersistentDisk: { pdName: 'bar' } }),
  ],
  [
    'AWS EBS volumes',
    disk('a', { awsElasticBlockStore: { volumeID: 'foo' } }),
    disk('b', { awsElasticBlockStore: { volumeID: 'bar' } }),
  ],
  [
    'Ceph RBD images',
    disk('a', { rbd: { monitors: ['a', 'b'], pool: 'foo', image: 'bar' } }),
    disk('b', { rbd: { monitors: ['c', 'd'], pool: 'foo', image: 'bar' } }),
  ],
  [
    'iSCSI targets',
    disk('a', { iscsi: { targetPortal: '127.0.0.1:3260', iqn: 'iqn.2016-12.server:storage.target01' } }),
    disk('b', { iscsi: { targetPortal: '127.0.0.1:3260', iqn: 'iqn.2017-12.server:storage.target01' } }),
  ],
])('VolumeRestrictions with %s (upstream disk conflict tables)', (_kind, volState, volState2) => {
  it.each<[string, Pod, NodeInfo, Status | undefined, Status | undefined]>([
    ['nothing', podWith('p', []), nodeWith(), skip, undefined],
    [
      'one state on the node, none in the pod',
      podWith('p', []),
      nodeWith(podWith('e', [volState])),
      skip,
      undefined,
    ],
    ['the same disk', podWith('p', [volState]), nodeWith(podWith('e', [volState])), undefined, diskConflict],
    ['another disk', podWith('p', [volState2]), nodeWith(podWith('e', [volState])), undefined, undefined],
  ])('%s', (_name, pod, nodeInfo, pre, filter) => {
    const out = run(plugin(), pod, nodeInfo);
    expect(out.pre).toEqual(pre);
    expect(out.filter).toEqual(filter);
  });
});

describe('VolumeRestrictions read-only sharing', () => {
  it.each<[string, Volume, Volume, Status | undefined]>([
    [
      'a GCE disk both mount read-only',
      disk('a', { gcePersistentDisk: { pdName: 'foo', readOnly: true } }),
      disk('a', { gcePersistentDisk: { pdName: 'foo', readOnly: true } }),
      undefined,
    ],
    [
      'a GCE disk one mounts read-write',
      disk('a', { gcePersistentDisk: { pdName: 'foo', readOnly: true } }),
      disk('a', { gcePersistentDisk: { pdName: 'foo' } }),
      diskConflict,
    ],
    [
      'an EBS volume, even read-only',
      disk('a', { awsElasticBlockStore: { volumeID: 'foo', readOnly: true } }),
      disk('a', { awsElasticBlockStore: { volumeID: 'foo', readOnly: true } }),
      diskConflict,
    ],
    [
      'an RBD image both mount read-only',
      disk('a', { rbd: { monitors: ['a'], image: 'x', readOnly: true } }),
      disk('a', { rbd: { monitors: ['a', 'b'], pool: 'rbd', image: 'x', readOnly: true } }),
      undefined,
    ],
    [
      'an RBD image in the default pool, one read-write',
      disk('a', { rbd: { monitors: ['a'], image: 'x' } }),
      disk('a', { rbd: { monitors: ['a', 'b'], pool: 'rbd', image: 'x', readOnly: true } }),
      diskConflict,
    ],
    [
      'an iSCSI target both mount read-only',
      disk('a', { iscsi: { iqn: 'q', readOnly: true } }),
      disk('a', { iscsi: { iqn: 'q', readOnly: true } }),
      undefined,
    ],
  ])('%s', (_name, mine, theirs, want) => {
    expect(run(plugin(), podWith('p', [mine]), nodeWith(podWith('e', [theirs]))).filter).toEqual(want);
  });
});

describe('VolumeRestrictions and ReadWriteOncePod claims (upstream TestAccessModeConflicts)', () => {
  const claim = (name: string, mode: string): PersistentVolumeClaim => ({
    metadata: { name, namespace: 'default' },
    spec: { accessModes: [mode] },
  });
  const rwop1 = claim('claim-with-rwop-1', 'ReadWriteOncePod');
  const rwop2 = claim('claim-with-rwop-2', 'ReadWriteOncePod');
  const rwx = claim('claim-with-rwx', 'ReadWriteMany');
  const withOne = podWith('pod-with-one-pvc', claimVolume('claim-with-rwop-1'), { node: 'node-1' });
  const withTwo = podWith('pod-with-two-pvcs', claimVolume('claim-with-rwop-1', 'claim-with-rwop-2'), {
    node: 'node-1',
  });
  const oneConflict = podWith('pod-with-one-conflict', claimVolume('claim-with-rwop-1'));
  const twoConflicts = podWith(
    'pod-with-two-conflicts',
    claimVolume('claim-with-rwop-1', 'claim-with-rwop-2'),
  );
  const withRwx = podWith('pod-with-rwx', claimVolume('claim-with-rwx'), { node: 'node-1' });
  const conflict = newStatus('Unschedulable', ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT);

  it.each<[string, Pod, Pod[], PersistentVolumeClaim[], Status | undefined, Status | undefined]>([
    ['nothing', podWith('p', []), [], [], skip, undefined],
    [
      'a claim that does not exist',
      withOne,
      [],
      [],
      newStatus('UnschedulableAndUnresolvable', 'persistentvolumeclaim "claim-with-rwop-1" not found'),
      undefined,
    ],
    ['no access mode conflict', withOne, [withRwx], [rwop1, rwx], skip, undefined],
    ['another pod uses the RWOP claim', oneConflict, [withOne, withRwx], [rwop1, rwx], undefined, conflict],
    ['two conflicting claims', twoConflicts, [withTwo, withRwx], [rwop1, rwop2, rwx], undefined, conflict],
    [
      'a same-named claim used in another namespace is no conflict',
      oneConflict,
      [podWith('elsewhere', claimVolume('claim-with-rwop-1'), { node: 'node-1', ns: 'other' })],
      [rwop1],
      skip,
      undefined,
    ],
  ])('%s', (_name, pod, existing, pvcs, pre, filter) => {
    const n = nodeWith(...existing);
    const out = run(plugin([n], pvcs), pod, n);
    expect(out.pre).toEqual(pre);
    expect(out.filter).toEqual(filter);
  });

  it("removing the other user in a what-if clears the conflict; adding it back restores it (preemption's view)", () => {
    const n = nodeWith(withOne);
    const p = plugin([n], [rwop1]);
    const { state, filter } = run(p, oneConflict, n);
    expect(filter).toEqual(conflict);
    const ext = p.preFilterExtensions();
    const what = state.clone();
    expect(ext.removePod(what, oneConflict, newPodInfo(withOne), n)).toBeUndefined();
    expect(p.filter(what, oneConflict, nodeWith())).toBeUndefined();
    expect(p.filter(state, oneConflict, nodeWith())).toEqual(conflict);
    ext.addPod(what, oneConflict, newPodInfo(withOne), n);
    expect(p.filter(what, oneConflict, nodeWith())).toEqual(conflict);
  });
});

describe('VolumeRestrictions queueing hints', () => {
  const pod = podWith('p', [disk('d', { gcePersistentDisk: { pdName: 'foo' } }), ...claimVolume('data')]);
  it.each<[string, Pod, 'Queue' | 'QueueSkip']>([
    [
      'a pod holding the same disk',
      podWith('e', [disk('d', { gcePersistentDisk: { pdName: 'foo' } })]),
      'Queue',
    ],
    ['a pod mounting the same claim', podWith('e', claimVolume('data')), 'Queue'],
    ['an unrelated pod', podWith('e', claimVolume('other')), 'QueueSkip'],
    ['a pod in another namespace', podWith('e', claimVolume('data'), { ns: 'x' }), 'QueueSkip'],
  ])('pod deleted: %s', (_name, deleted, want) => {
    expect(isSchedulableAfterPodDeleted(pod, deleted, undefined)).toBe(want);
  });
  it.each<[string, PersistentVolumeClaim, 'Queue' | 'QueueSkip']>([
    ['the claim it mounts', { metadata: { name: 'data', namespace: 'default' } }, 'Queue'],
    ['another claim', { metadata: { name: 'logs', namespace: 'default' } }, 'QueueSkip'],
    ['its claim name in another namespace', { metadata: { name: 'data', namespace: 'x' } }, 'QueueSkip'],
  ])('claim added: %s', (_name, added, want) => {
    expect(isSchedulableAfterClaimAdded(pod, undefined, added)).toBe(want);
  });
});

describe('VolumeRestrictions without the claim lookup (the in-tree registry entry)', () => {
  const handle = { snapshot: () => new FakeLister([]) } as unknown as FrameworkHandle;
  const p = new VolumeRestrictions(handle, {});
  it('skips a pod with claims only', () => {
    expect(run(p, podWith('p', claimVolume('anything')), nodeWith()).pre).toEqual(skip);
  });
  it('still checks disk conflicts', () => {
    const d = disk('d', { awsElasticBlockStore: { volumeID: 'vol-1' } });
    expect(run(p, podWith('p', [d]), nodeWith(podWith('e', [d]))).filter).toEqual(diskConflict);
  });
});
