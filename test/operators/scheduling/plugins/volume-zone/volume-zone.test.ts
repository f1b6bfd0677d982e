// VolumeZone: upstream's TestSingleZone, TestMultiZone and TestWithBinding tables in our own words, and its queueing hints.
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../../../operators/api/core-v1.ts';
import { CycleState } from '../../../../../operators/scheduling/framework/interface.ts';
import { NodeInfo } from '../../../../../operators/scheduling/framework/node-info.ts';
import type { Status } from '../../../../../operators/scheduling/framework/status.ts';
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
  VolumeLookups,
} from '../../../../../operators/scheduling/plugins/volume-lookups.ts';
import {
  ERR_REASON_VOLUME_ZONE_CONFLICT,
  isSchedulableAfterClaimChange,
  isSchedulableAfterStorageClassAdded,
  isSchedulableAfterVolumeChange,
  labelZonesToSet,
  VolumeZone,
} from '../../../../../operators/scheduling/plugins/volume-zone/volume-zone.ts';

const BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone';
const BETA_REGION = 'failure-domain.beta.kubernetes.io/region';
const ZONE = 'topology.kubernetes.io/zone';
const REGION = 'topology.kubernetes.io/region';

const pv = (name: string, labels: Record<string, string>): PersistentVolume => ({
  metadata: { name, labels },
});
const pvc = (name: string, spec: PersistentVolumeClaim['spec'] = {}): PersistentVolumeClaim => ({
  metadata: { name, namespace: 'default' },
  spec,
});
const sc = (name: string, mode?: StorageClass['volumeBindingMode']): StorageClass => ({
  metadata: { name },
  ...(mode ? { volumeBindingMode: mode } : {}),
});
const podWith = (...claims: string[]): Pod => ({
  metadata: { name: 'pod_1', namespace: 'default' },
  spec: {
    containers: [{ name: 'c', image: 'pause' }],
    volumes: claims.map((c, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName: c } })),
  },
});
const node = (labels: Record<string, string> = {}): NodeInfo =>
  new NodeInfo({ metadata: { name: 'host1', labels } } as Node);

function lookups(
  pvs: PersistentVolume[],
  pvcs: PersistentVolumeClaim[],
  scs: StorageClass[] = [],
): VolumeLookups {
  return {
    persistentVolume: (n) => pvs.find((x) => x.metadata?.name === n),
    persistentVolumeClaim: (ns, n) =>
      pvcs.find((x) => x.metadata?.name === n && x.metadata?.namespace === ns),
    storageClass: (n) => scs.find((x) => x.metadata?.name === n),
  };
}

const conflict: Status = { code: 'UnschedulableAndUnresolvable', reasons: [ERR_REASON_VOLUME_ZONE_CONFLICT] };

function run(l: VolumeLookups, pod: Pod, n: NodeInfo) {
  const plugin = new VolumeZone(l);
  const state = new CycleState();
  const pre = plugin.preFilter(state, pod)?.status;
  return { pre, filter: plugin.filter(state, pod, n) };
}

describe('VolumeZone, one zone per volume (upstream TestSingleZone)', () => {
  const l = lookups(
    [
      pv('Vol_1', { [BETA_ZONE]: 'us-west1-a' }),
      pv('Vol_2', { [BETA_REGION]: 'us-west1', uselessLabel: 'none' }),
      pv('Vol_Stable_1', { [ZONE]: 'us-west1-a' }),
      pv('Vol_Stable_2', { [REGION]: 'us-west1', uselessLabel: 'none' }),
      pv('Vol_Stable_3', { [ZONE]: 'us-west1-a', [REGION]: 'us-west1-a' }),
    ],
    [
      pvc('PVC_1', { volumeName: 'Vol_1' }),
      pvc('PVC_2', { volumeName: 'Vol_2' }),
      pvc('PVC_4', { volumeName: 'Vol_not_exist' }),
      pvc('PVC_Stable_1', { volumeName: 'Vol_Stable_1' }),
      pvc('PVC_Stable_2', { volumeName: 'Vol_Stable_2' }),
      pvc('PVC_Stable_3', { volumeName: 'Vol_Stable_3' }),
    ],
  );
  it.each<[string, Pod, Record<string, string>, Status | undefined, Status | undefined]>([
    [
      'a pod without volumes is skipped',
      podWith(),
      { [BETA_ZONE]: 'us-west1-a' },
      { code: 'Skip', reasons: [] },
      undefined,
    ],
    ['a node without labels fits', podWith('PVC_1'), {}, undefined, undefined],
    [
      'beta zone label matched',
      podWith('PVC_1'),
      { [BETA_ZONE]: 'us-west1-a', uselessLabel: 'none' },
      undefined,
      undefined,
    ],
    [
      'beta region label matched',
      podWith('PVC_2'),
      { [BETA_REGION]: 'us-west1', uselessLabel: 'none' },
      undefined,
      undefined,
    ],
    [
      "beta region label doesn't match",
      podWith('PVC_2'),
      { [BETA_REGION]: 'no_us-west1' },
      undefined,
      conflict,
    ],
    [
      "beta zone label doesn't match",
      podWith('PVC_1'),
      { [BETA_ZONE]: 'no_us-west1-a' },
      undefined,
      conflict,
    ],
    ['zone label matched', podWith('PVC_Stable_1'), { [ZONE]: 'us-west1-a' }, undefined, undefined],
    ['region label matched', podWith('PVC_Stable_2'), { [REGION]: 'us-west1' }, undefined, undefined],
    ["region label doesn't match", podWith('PVC_Stable_2'), { [REGION]: 'no_us-west1' }, undefined, conflict],
    ["zone label doesn't match", podWith('PVC_Stable_1'), { [ZONE]: 'no_us-west1-a' }, undefined, conflict],
    [
      'a volume with zone and region on a node with only the zone',
      podWith('PVC_Stable_3'),
      { [ZONE]: 'us-west1-a' },
      undefined,
      conflict,
    ],
    [
      'a GA volume label does not match a beta node label',
      podWith('PVC_Stable_1'),
      { [BETA_ZONE]: 'us-west1-a' },
      undefined,
      conflict,
    ],
    [
      'a beta volume label matches the GA node label',
      podWith('PVC_1'),
      { [ZONE]: 'us-west1-a' },
      undefined,
      undefined,
    ],
    [
      'a beta volume label against another GA zone',
      podWith('PVC_1'),
      { [ZONE]: 'us-west1-b' },
      undefined,
      conflict,
    ],
  ])('%s', (_name, pod, labels, pre, filter) => {
    const out = run(l, pod, node(labels));
    expect(out.pre).toEqual(pre);
    expect(out.filter).toEqual(filter);
  });
});

describe('VolumeZone, volumes in several zones (upstream TestMultiZone)', () => {
  const l = lookups(
    [
      pv('Vol_1', { [BETA_ZONE]: 'us-west1-a' }),
      pv('Vol_3', { [BETA_ZONE]: 'us-west1-c__us-west1-a' }),
      pv('Vol_Stable_1', { [ZONE]: 'us-west1-a' }),
      pv('Vol_Stable_2', { [ZONE]: 'us-west1-c__us-west1-a' }),
    ],
    [
      pvc('PVC_1', { volumeName: 'Vol_1' }),
      pvc('PVC_3', { volumeName: 'Vol_3' }),
      pvc('PVC_Stable_1', { volumeName: 'Vol_Stable_1' }),
      pvc('PVC_Stable_2', { volumeName: 'Vol_Stable_2' }),
    ],
  );
  it.each<[string, string, Record<string, string>, Status | undefined]>([
    ['a node without labels fits', 'PVC_3', {}, undefined],
    [
      'beta zone label matched one of two zones',
      'PVC_3',
      { [BETA_ZONE]: 'us-west1-a', uselessLabel: 'none' },
      undefined,
    ],
    ["beta zone label doesn't match", 'PVC_1', { [BETA_ZONE]: 'us-west1-b' }, conflict],
    ['zone label matched one of two zones', 'PVC_Stable_2', { [ZONE]: 'us-west1-a' }, undefined],
    ["zone label doesn't match", 'PVC_Stable_1', { [ZONE]: 'us-west1-b' }, conflict],
  ])('%s', (_name, claim, labels, filter) => {
    const out = run(l, podWith(claim), node(labels));
    expect(out.pre).toBeUndefined();
    expect(out.filter).toEqual(filter);
  });
});

describe('VolumeZone with unbound claims (upstream TestWithBinding)', () => {
  const l = lookups(
    [pv('Vol_1', { [BETA_ZONE]: 'us-west1-a' })],
    [
      pvc('PVC_1', { volumeName: 'Vol_1' }),
      pvc('PVC_NoSC', { storageClassName: 'Class_0' }),
      pvc('PVC_EmptySC'),
      pvc('PVC_WaitSC', { storageClassName: 'Class_Wait' }),
      pvc('PVC_ImmediateSC', { storageClassName: 'Class_Immediate' }),
      pvc('PVC_NoMode', { storageClassName: 'Class_NoMode' }),
      pvc('PVC_4', { volumeName: 'Vol_not_exist' }),
    ],
    [sc('Class_Immediate', 'Immediate'), sc('Class_Wait', 'WaitForFirstConsumer'), sc('Class_NoMode')],
  );
  const unresolvable = (msg: string): Status => ({ code: 'UnschedulableAndUnresolvable', reasons: [msg] });
  it.each<[string, string, Status | undefined, Status | undefined]>([
    ['a bound claim in the zone', 'PVC_1', undefined, undefined],
    [
      'an unbound claim without a class',
      'PVC_EmptySC',
      unresolvable('PersistentVolumeClaim had no pv name and storageClass name'),
      unresolvable('PersistentVolumeClaim had no pv name and storageClass name'),
    ],
    [
      'an unbound claim of a class that does not exist',
      'PVC_NoSC',
      unresolvable('storageclass.storage.k8s.io "Class_0" not found'),
      unresolvable('storageclass.storage.k8s.io "Class_0" not found'),
    ],
    [
      'an unbound claim of a WaitForFirstConsumer class is left to VolumeBinding',
      'PVC_WaitSC',
      { code: 'Skip', reasons: [] },
      undefined,
    ],
    [
      'an unbound claim of an Immediate class',
      'PVC_ImmediateSC',
      unresolvable('PersistentVolume had no name'),
      unresolvable('PersistentVolume had no name'),
    ],
    [
      'an unbound claim of a class without a binding mode',
      'PVC_NoMode',
      unresolvable('VolumeBindingMode not set for StorageClass "Class_NoMode"'),
      unresolvable('VolumeBindingMode not set for StorageClass "Class_NoMode"'),
    ],
    [
      'a claim that does not exist',
      'PVC_missing',
      unresolvable('persistentvolumeclaim "PVC_missing" not found'),
      unresolvable('persistentvolumeclaim "PVC_missing" not found'),
    ],
    [
      'a claim bound to a volume that does not exist',
      'PVC_4',
      unresolvable('persistentvolume "Vol_not_exist" not found'),
      unresolvable('persistentvolume "Vol_not_exist" not found'),
    ],
  ])('%s', (_name, claim, pre, filter) => {
    const out = run(l, podWith(claim), node({ [BETA_ZONE]: 'us-west1-a', uselessLabel: 'none' }));
    expect(out.pre).toEqual(pre);
    expect(out.filter).toEqual(filter);
  });

  it('a claim with no name is unresolvable', () => {
    expect(run(l, podWith(''), node()).pre).toEqual(unresolvable('PersistentVolumeClaim had no name'));
  });

  it('the beta storage-class annotation names the class', () => {
    const annotated: PersistentVolumeClaim = {
      metadata: {
        name: 'PVC_Annotated',
        namespace: 'default',
        annotations: { 'volume.beta.kubernetes.io/storage-class': 'Class_Wait' },
      },
      spec: { storageClassName: 'Class_0' },
    };
    const l2 = lookups([], [annotated], [sc('Class_Wait', 'WaitForFirstConsumer')]);
    expect(run(l2, podWith('PVC_Annotated'), node()).pre).toEqual({ code: 'Skip', reasons: [] });
  });
});

describe('labelZonesToSet', () => {
  it.each<[string, string[] | undefined]>([
    ['us-west1-a', ['us-west1-a']],
    ['us-west1-c__us-west1-a', ['us-west1-c', 'us-west1-a']],
    [' a __ b ', ['a', 'b']],
    ['a____b', undefined],
    ['', undefined],
  ])('%j', (value, want) => {
    const got = labelZonesToSet(value);
    expect(got ? [...got] : undefined).toEqual(want);
  });
});

describe('VolumeZone queueing hints', () => {
  const pod = podWith('data');
  it.each<[string, StorageClass, 'Queue' | 'QueueSkip']>([
    ['a WaitForFirstConsumer class may help', sc('w', 'WaitForFirstConsumer'), 'Queue'],
    ['an Immediate class does not', sc('i', 'Immediate'), 'QueueSkip'],
  ])('storage class added: %s', (_name, added, want) => {
    expect(isSchedulableAfterStorageClassAdded(pod, undefined, added)).toBe(want);
  });
  it.each<[string, PersistentVolumeClaim, 'Queue' | 'QueueSkip']>([
    ['a claim the pod uses', pvc('data'), 'Queue'],
    ['another claim', pvc('other'), 'QueueSkip'],
    [
      'a same-named claim in another namespace',
      { ...pvc('data'), metadata: { name: 'data', namespace: 'x' } },
      'QueueSkip',
    ],
  ])('claim change: %s', (_name, claim, want) => {
    expect(isSchedulableAfterClaimChange(pod, undefined, claim)).toBe(want);
  });
  it.each<[string, PersistentVolume | undefined, PersistentVolume, 'Queue' | 'QueueSkip']>([
    ['a new volume', undefined, pv('v', {}), 'Queue'],
    ['a zone label changed', pv('v', { [ZONE]: 'a' }), pv('v', { [ZONE]: 'b' }), 'Queue'],
    ['another label changed', pv('v', { [ZONE]: 'a' }), pv('v', { [ZONE]: 'a', team: 'x' }), 'QueueSkip'],
  ])('volume change: %s', (_name, old, changed, want) => {
    expect(isSchedulableAfterVolumeChange(pod, old, changed)).toBe(want);
  });
});

describe('VolumeZone without storage lookups (the in-tree registry entry)', () => {
  it('skips every pod, claims or not', () => {
    const plugin = new VolumeZone({});
    const state = new CycleState();
    expect(plugin.preFilter(state, podWith('PVC_missing'))).toEqual({
      status: { code: 'Skip', reasons: [] },
    });
    expect(plugin.filter(state, podWith('PVC_missing'), node({ [ZONE]: 'a' }))).toBeUndefined();
    expect(plugin.watchesStorage).toBe(false);
  });
});
