// newScheduler's storage informers against the embedded API server: they count in the cache sync, and claim and volume updates retry the pods they may help.
import type { Subscription } from 'rxjs';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../operators/api/core-v1.ts';
import type { KubeObject } from '../../../operators/types.ts';
import { newScheduler, type Scheduler } from '../../../src/scheduler/scheduler.ts';
import {
  NODES,
  PERSISTENT_VOLUME_CLAIMS,
  PERSISTENT_VOLUMES,
  PODS,
  STORAGE_CLASSES,
} from '../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../helpers/embedded-cluster.ts';
import { waitFor } from './wait-for.ts';

const ZONE = 'topology.kubernetes.io/zone';

const node = (name: string, zone: string): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name, [ZONE]: zone } },
  spec: {},
  status: {
    allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
    conditions: [{ type: 'Ready', status: 'True' }],
  },
});

const volume = (name: string, zone: string): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, labels: { [ZONE]: zone } },
    spec: {
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      hostPath: { path: `/tmp/${name}` },
    },
  }) as KubeObject;

const claim = (name: string, spec: Record<string, unknown>): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'default' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
  }) as KubeObject;

const pod = (name: string, claimName: string): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  spec: {
    containers: [{ name: 'c', image: 'nginx' }],
    volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }],
  },
});

describe('newScheduler: storage informers', () => {
  const cluster = useEmbeddedCluster();
  let scheduler: Scheduler;
  let loop: Subscription;

  beforeAll(async () => {
    await firstValueFrom(cluster.api.create(NODES, node('n1', 'zone-a')));
    await firstValueFrom(cluster.api.create(PERSISTENT_VOLUMES, volume('pv-early', 'zone-a')));
    await firstValueFrom(
      cluster.api.create(PERSISTENT_VOLUME_CLAIMS, claim('early', { volumeName: 'pv-early' })),
    );
    await firstValueFrom(
      cluster.api.create(STORAGE_CLASSES, {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: 'slow' },
        provisioner: 'example.com/slow',
        volumeBindingMode: 'Immediate',
      } as KubeObject),
    );
    scheduler = newScheduler({ client: cluster.api });
    expect(await scheduler.start(AbortSignal.timeout(20_000))).toBe(true);
    loop = scheduler.run$.subscribe();
  });

  afterAll(async () => {
    loop?.unsubscribe();
    await scheduler?.stop();
  });

  const whereIs = (name: string) => scheduler.queue.whereIs('default', name);
  const nodeOf = async (name: string) =>
    (await firstValueFrom(cluster.api.get<Pod>(PODS, name, { namespace: 'default' }))).spec.nodeName;

  it('has listed claims, volumes and classes once start resolves (they count in the cache sync)', () => {
    const { persistentVolumeClaims, persistentVolumes, storageClasses, csiNodes } = scheduler.informers;
    for (const informer of [persistentVolumeClaims, persistentVolumes, storageClasses, csiNodes])
      expect(informer.hasSynced()).toBe(true);
    expect(persistentVolumeClaims.getStore().getByKey('default/early')).toBeDefined();
    expect(persistentVolumes.getStore().getByKey('pv-early')).toBeDefined();
    expect(storageClasses.getStore().getByKey('slow')).toBeDefined();
  });

  it('binds a pod whose claim is bound to a volume of its node zone', async () => {
    await firstValueFrom(cluster.api.create(PODS, pod('early-user', 'early')));
    await waitFor(async () => expect(await nodeOf('early-user')).toBe('n1'));
  });

  it('retries a pod when its claim gets a volume (PersistentVolumeClaimUpdate)', async () => {
    await firstValueFrom(cluster.api.create(PERSISTENT_VOLUMES, volume('pv-later', 'zone-a')));
    await firstValueFrom(
      cluster.api.create(PERSISTENT_VOLUME_CLAIMS, claim('later', { storageClassName: 'slow' })),
    );
    await firstValueFrom(cluster.api.create(PODS, pod('later-user', 'later')));
    // An unbound claim of an Immediate class: VolumeZone finds no volume and the pod waits.
    await waitFor(async () => expect(whereIs('later-user')).toBe('unschedulable'));
    await firstValueFrom(
      cluster.api.patch(PERSISTENT_VOLUME_CLAIMS, 'later', { spec: { volumeName: 'pv-later' } }, 'merge', {
        namespace: 'default',
      }),
    );
    await waitFor(async () => expect(await nodeOf('later-user')).toBe('n1'));
  });

  it('retries a pod when its volume moves to its node zone (PersistentVolumeUpdate)', async () => {
    await firstValueFrom(cluster.api.create(PERSISTENT_VOLUMES, volume('pv-elsewhere', 'zone-b')));
    await firstValueFrom(
      cluster.api.create(PERSISTENT_VOLUME_CLAIMS, claim('elsewhere', { volumeName: 'pv-elsewhere' })),
    );
    await firstValueFrom(cluster.api.create(PODS, pod('elsewhere-user', 'elsewhere')));
    await waitFor(async () => expect(whereIs('elsewhere-user')).toBe('unschedulable'));
    await firstValueFrom(
      cluster.api.patch(
        PERSISTENT_VOLUMES,
        'pv-elsewhere',
        { metadata: { labels: { [ZONE]: 'zone-a' } } },
        'merge',
      ),
    );
    await waitFor(async () => expect(await nodeOf('elsewhere-user')).toBe('n1'));
  });
});
