// assemblyRegistry's volume plugins over informer stores: the lookups read claims by namespace/name and the cluster kinds by name, and VolumeZone decides from them.
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../operators/api/core-v1.ts';
import {
  ActionType,
  type ClusterEventWithHint,
  CycleState,
  type FilterPlugin,
  type FrameworkHandle,
  implementsPoint,
  type PreFilterPlugin,
} from '../../../operators/scheduling/framework/interface.ts';
import { NodeInfo } from '../../../operators/scheduling/framework/node-info.ts';
import type { KubeObject } from '../../../operators/types.ts';
import type { SharedInformer } from '../../../src/informers/shared-informer.ts';
import {
  type AssemblyInformers,
  assemblyRegistry,
  volumeLookups,
} from '../../../src/scheduler/assembly-registry.ts';
import { registeredActions } from '../../../src/scheduler/event-handlers.ts';

/** An informer whose store is a map keyed as the informer keys objects (namespace/name or name). */
function storeInformer(objects: KubeObject[]): SharedInformer<KubeObject> {
  const byKey = new Map(
    objects.map((o) => [
      o.metadata?.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata!.name!,
      o,
    ]),
  );
  const store = { getByKey: (k: string) => byKey.get(k), list: () => [...byKey.values()] };
  return { getStore: () => store } as unknown as SharedInformer<KubeObject>;
}

const ZONE = 'topology.kubernetes.io/zone';
const claim: KubeObject = {
  metadata: { name: 'data', namespace: 'team-a' },
  spec: { volumeName: 'pv-a', accessModes: ['ReadWriteOnce'] },
} as KubeObject;
const volume: KubeObject = { metadata: { name: 'pv-a', labels: { [ZONE]: 'zone-a' } } };
const klass: KubeObject = {
  metadata: { name: 'fast' },
  volumeBindingMode: 'WaitForFirstConsumer',
} as KubeObject;
const csiNode: KubeObject = { metadata: { name: 'n1' }, spec: { drivers: [] } } as KubeObject;

const base = {
  namespaces: storeInformer([]),
  services: storeInformer([]),
  replicaSets: storeInformer([]),
  statefulSets: storeInformer([]),
};
const withStorage: AssemblyInformers = {
  ...base,
  persistentVolumeClaims: storeInformer([claim]),
  persistentVolumes: storeInformer([volume]),
  storageClasses: storeInformer([klass]),
  csiNodes: storeInformer([csiNode]),
};

describe('volumeLookups', () => {
  const lookups = volumeLookups(withStorage);
  it.each([
    ['a claim by its namespace and name', () => lookups.persistentVolumeClaim!('team-a', 'data'), claim],
    [
      'no claim of that name in another namespace',
      () => lookups.persistentVolumeClaim!('team-b', 'data'),
      undefined,
    ],
    ['a volume by name', () => lookups.persistentVolume!('pv-a'), volume],
    ['a missing volume', () => lookups.persistentVolume!('pv-b'), undefined],
    ['a class by name', () => lookups.storageClass!('fast'), klass],
    ['a CSINode by its node name', () => lookups.csiNode!('n1'), csiNode],
  ])('finds %s', (_name, get, expected) => {
    expect(get()).toBe(expected);
  });

  it('leaves out the lookup of a kind without an informer (the plugins then skip it)', () => {
    expect(Object.keys(volumeLookups(base))).toEqual([]);
    expect(Object.keys(volumeLookups({ ...base, persistentVolumes: storeInformer([]) }))).toEqual([
      'persistentVolume',
    ]);
  });
});

describe('assemblyRegistry', () => {
  const handle = {} as FrameworkHandle;
  const build = (informers: AssemblyInformers, name: string) =>
    assemblyRegistry(informers)[name]!(undefined, handle) as PreFilterPlugin & FilterPlugin;
  const pod: Pod = {
    metadata: { name: 'web', namespace: 'team-a' },
    spec: {
      containers: [{ name: 'c', image: 'nginx' }],
      volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'data' } }],
    },
  };
  const nodeIn = (zone: string) =>
    new NodeInfo({ metadata: { name: zone, labels: { [ZONE]: zone } } } as Node);
  const filter = (informers: AssemblyInformers, zone: string) => {
    const plugin = build(informers, 'VolumeZone');
    const state = new CycleState();
    plugin.preFilter(state, pod, []);
    return plugin.filter(state, pod, nodeIn(zone));
  };

  it('holds the volume plugins beside the other assembly plugins', () => {
    expect(Object.keys(assemblyRegistry(base)).sort()).toEqual([
      'DefaultPreemption',
      'InterPodAffinity',
      'NodeVolumeLimits',
      'PodTopologySpread',
      'VolumeRestrictions',
      'VolumeZone',
    ]);
  });

  it.each([
    ['the claim volume zone', 'zone-a', true],
    ['another zone', 'zone-b', false],
  ])('VolumeZone backed by the stores: a node in %s fits: %s', (_name, zone, fits) => {
    const status = filter(withStorage, zone);
    expect(status === undefined || status.code === 'Success').toBe(fits);
    if (!fits) expect(status?.reasons).toEqual(['node(s) had no available volume zone']);
  });

  it('VolumeZone without the storage informers skips the claim (every node fits)', () => {
    const status = filter(base, 'zone-b');
    expect(status === undefined || status.code === 'Success').toBe(true);
  });

  it('the volume plugins register the storage events the scheduler handles (upstream gvkMap)', () => {
    const registry = assemblyRegistry(withStorage);
    const events: Record<string, readonly ClusterEventWithHint[]> = {};
    for (const name of ['VolumeRestrictions', 'NodeVolumeLimits', 'VolumeZone']) {
      const plugin = registry[name]!(undefined, handle);
      if (!implementsPoint.enqueueExtensions(plugin)) throw new Error(`${name} registers no events`);
      events[name] = plugin.eventsToRegister();
    }
    const actions = registeredActions({ 'default-scheduler': events });
    expect({
      PersistentVolumeClaim: actions.get('PersistentVolumeClaim'),
      PersistentVolume: actions.get('PersistentVolume'),
      StorageClass: actions.get('StorageClass'),
      CSINode: actions.get('CSINode'),
    }).toEqual({
      PersistentVolumeClaim: ActionType.Add | ActionType.Update,
      PersistentVolume: ActionType.Add | ActionType.Update,
      StorageClass: ActionType.Add,
      CSINode: ActionType.Add,
    });
  });
});
