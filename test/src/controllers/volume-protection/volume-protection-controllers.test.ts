// pvcProtectionController and pvProtectionController over HTTP against the embedded API server: finalizers added; a deleted claim stays while a scheduled pod uses it and goes with the pod; a deleted volume stays while Bound.
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PV_PROTECTION_FINALIZER,
  PVC_PROTECTION_FINALIZER,
} from '../../../../operators/controller/volume-protection/protection-finalizer.ts';
import type { KubeObject } from '../../../../operators/types.ts';
import { pvProtectionController } from '../../../../src/controllers/volume-protection/pv-protection-controller.ts';
import { pvcProtectionController } from '../../../../src/controllers/volume-protection/pvc-protection-controller.ts';
import { informerFactory } from '../../../../src/informers/informer-factory.ts';
import { PERSISTENT_VOLUME_CLAIMS, PERSISTENT_VOLUMES, PODS } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { eventually } from '../../../helpers/eventually.ts';

const cluster = useEmbeddedCluster();

describe('volume protection controllers', () => {
  let stop = () => {};
  beforeAll(() => {
    const factory = informerFactory({ client: cluster.api });
    const subs = [
      pvcProtectionController({ client: cluster.api, informerFactory: factory }).subscribe(),
      pvProtectionController({ client: cluster.api, informerFactory: factory }).subscribe(),
    ];
    factory.start();
    stop = () => {
      for (const s of subs) s.unsubscribe();
      factory.shutdown();
    };
  });
  afterAll(() => stop());

  const exists = (resource: typeof PODS, name: string, namespace?: string) =>
    firstValueFrom(cluster.api.get(resource, name, namespace ? { namespace } : {})).then(
      (o) => o as KubeObject,
      () => undefined,
    );

  it('holds a deleted claim while a scheduled pod uses it, and lets it go with the pod', async () => {
    const api = cluster.api;
    await firstValueFrom(
      api.create(
        PERSISTENT_VOLUME_CLAIMS,
        {
          metadata: { name: 'data', namespace: 'default' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
        { namespace: 'default' },
      ),
    );
    await eventually(async () => {
      expect((await exists(PERSISTENT_VOLUME_CLAIMS, 'data', 'default'))?.metadata?.finalizers).toEqual([
        PVC_PROTECTION_FINALIZER,
      ]);
    }, 15_000);
    await firstValueFrom(
      api.create(
        PODS,
        {
          metadata: { name: 'user', namespace: 'default' },
          spec: {
            nodeName: 'somewhere',
            containers: [{ name: 'c', image: 'busybox' }],
            volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'data' } }],
          },
        },
        { namespace: 'default' },
      ),
    );
    await firstValueFrom(api.delete(PERSISTENT_VOLUME_CLAIMS, 'data', { namespace: 'default' }));
    // one worker, keys in order: once a claim created after the deletion has its finalizer, the deleted
    // claim has been looked at, and is still held
    await firstValueFrom(
      api.create(
        PERSISTENT_VOLUME_CLAIMS,
        {
          metadata: { name: 'marker', namespace: 'default' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
        { namespace: 'default' },
      ),
    );
    await eventually(async () => {
      expect((await exists(PERSISTENT_VOLUME_CLAIMS, 'marker', 'default'))?.metadata?.finalizers).toEqual([
        PVC_PROTECTION_FINALIZER,
      ]);
    }, 15_000);
    const held = await exists(PERSISTENT_VOLUME_CLAIMS, 'data', 'default');
    expect(held?.metadata?.deletionTimestamp).toBeTruthy();
    await firstValueFrom(api.delete(PODS, 'user', { namespace: 'default', gracePeriodSeconds: 0 }));
    await eventually(async () => {
      expect(await exists(PERSISTENT_VOLUME_CLAIMS, 'data', 'default')).toBeUndefined();
    }, 15_000);
  }, 30_000);

  it('holds a deleted volume while Bound and lets it go once released', async () => {
    const api = cluster.api;
    await firstValueFrom(
      api.create(PERSISTENT_VOLUMES, {
        metadata: { name: 'pv1' },
        spec: {
          capacity: { storage: '1Gi' },
          accessModes: ['ReadWriteOnce'],
          persistentVolumeReclaimPolicy: 'Retain',
          hostPath: { path: '/tmp/pv1' },
        },
      }),
    );
    let pv: KubeObject | undefined;
    await eventually(async () => {
      pv = await exists(PERSISTENT_VOLUMES as typeof PODS, 'pv1');
      expect(pv?.metadata?.finalizers).toEqual([PV_PROTECTION_FINALIZER]);
    }, 15_000);
    pv = await firstValueFrom(api.updateStatus(PERSISTENT_VOLUMES, { ...pv!, status: { phase: 'Bound' } }));
    await firstValueFrom(api.delete(PERSISTENT_VOLUMES, 'pv1'));
    await firstValueFrom(
      api.create(PERSISTENT_VOLUMES, {
        metadata: { name: 'pv-marker' },
        spec: {
          capacity: { storage: '1Gi' },
          accessModes: ['ReadWriteOnce'],
          persistentVolumeReclaimPolicy: 'Retain',
          hostPath: { path: '/tmp/pv-marker' },
        },
      }),
    );
    await eventually(async () => {
      expect((await exists(PERSISTENT_VOLUMES as typeof PODS, 'pv-marker'))?.metadata?.finalizers).toEqual([
        PV_PROTECTION_FINALIZER,
      ]);
    }, 15_000);
    expect(
      (await exists(PERSISTENT_VOLUMES as typeof PODS, 'pv1'))?.metadata?.deletionTimestamp,
    ).toBeTruthy();
    const bound = (await exists(PERSISTENT_VOLUMES as typeof PODS, 'pv1'))!;
    await firstValueFrom(api.updateStatus(PERSISTENT_VOLUMES, { ...bound, status: { phase: 'Released' } }));
    await eventually(async () => {
      expect(await exists(PERSISTENT_VOLUMES as typeof PODS, 'pv1')).toBeUndefined();
    }, 15_000);
  }, 30_000);
});
