// garbageCollectorController and its discovery against the embedded API server: the deletable resources (built-in and CRDs), rediscovery of a CRD made later, owners in another namespace, orphaning by a cluster-scoped owner.
import { firstValueFrom, type Subscription, tap } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../../operators/errors.ts';
import { silentLogger } from '../../../../operators/logger.ts';
import type { KubeObject, OwnerReference } from '../../../../operators/types.ts';
import {
  crdResources,
  deletableResources,
  preferredVersion,
} from '../../../../src/controllers/garbage-collector/deletable-resources.ts';
import { garbageCollectorController } from '../../../../src/controllers/garbage-collector/garbage-collector-controller.ts';
import type { ResourceDescriptor } from '../../../../streams/api-client.ts';
import { CONFIG_MAPS, EVENTS, NAMESPACES, PRIORITY_CLASSES } from '../../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

const cluster = useEmbeddedCluster();
const CRDS: ResourceDescriptor = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  kind: 'CustomResourceDefinition',
  namespaced: false,
};
/** A namespaced CRD of group acme.io, served at v1alpha1 and v1. */
const crdOf = (plural: string, kind: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.acme.io` },
  spec: {
    group: 'acme.io',
    scope: 'Namespaced',
    names: { plural, singular: kind.toLowerCase(), kind },
    versions: ['v1alpha1', 'v1'].map((name) => ({
      name,
      served: true,
      storage: name === 'v1',
      schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    })),
  },
});
const GADGETS: ResourceDescriptor = {
  group: 'acme.io',
  version: 'v1',
  plural: 'gadgets',
  kind: 'Gadget',
  namespaced: true,
};

const status = (e: unknown) => (e instanceof ApiError ? e.statusCode : 0);
const get = (resource: ResourceDescriptor, name: string, namespace?: string) =>
  firstValueFrom(cluster.api.get(resource, name, namespace ? { namespace } : {})).then(
    (o) => o as KubeObject,
    (e) => (status(e) === 404 ? undefined : Promise.reject(e)),
  );
const refTo = (o: KubeObject): OwnerReference => ({
  apiVersion: o.apiVersion ?? 'v1',
  kind: o.kind ?? 'ConfigMap',
  name: o.metadata?.name ?? '',
  uid: o.metadata?.uid ?? '',
});
const configMap = (name: string, namespace: string, ownerReferences?: OwnerReference[]) =>
  firstValueFrom(
    cluster.api.create<KubeObject>(
      CONFIG_MAPS,
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, ...(ownerReferences ? { ownerReferences } : {}) },
      },
      { namespace },
    ),
  );

describe('preferredVersion and crdResources', () => {
  it.each([
    [['v1alpha1', 'v1'], 'v1'],
    [['v1beta1', 'v2alpha1'], 'v1beta1'],
    [['v1beta1', 'v1beta2'], 'v1beta2'],
    [['v2', 'v10'], 'v10'],
    [['foo', 'v1alpha1'], 'v1alpha1'],
    [['foo', 'bar'], 'bar'],
  ])('prefers among %j: %s', (versions, expected) => {
    expect(preferredVersion(versions)).toBe(expected);
  });

  it('takes only established CRDs, at their preferred served version, with their scope', () => {
    const established = { conditions: [{ type: 'Established', status: 'True' }] };
    const crd = (
      name: string,
      scope: string,
      versions: { name: string; served: boolean }[],
      status?: object,
    ) => ({
      metadata: { name },
      spec: { group: 'acme.io', scope, names: { plural: name, kind: name.toUpperCase() }, versions },
      ...(status ? { status } : {}),
    });
    expect(
      crdResources([
        crd(
          'a',
          'Namespaced',
          [
            { name: 'v1', served: false },
            { name: 'v1beta1', served: true },
          ],
          established,
        ),
        crd(
          'b',
          'Cluster',
          [
            { name: 'v1alpha1', served: true },
            { name: 'v1', served: true },
          ],
          established,
        ),
        crd('c', 'Namespaced', [{ name: 'v1', served: true }]),
        crd('d', 'Namespaced', [{ name: 'v1', served: false }], established),
      ]),
    ).toEqual([
      { group: 'acme.io', version: 'v1beta1', plural: 'a', kind: 'A', namespaced: true },
      {
        group: 'acme.io',
        version: 'v1',
        plural: 'b',
        kind: 'B',
        namespaced: false,
        otherVersions: ['v1alpha1'],
      },
    ]);
  });
});

describe('deletableResources against the embedded API server', () => {
  it('finds the served built-in resources and, once established, a CRD', async () => {
    const discover = deletableResources(cluster.api, silentLogger);
    const names = async () =>
      (await firstValueFrom(discover())).map((d) => `${d.plural}.${d.group}/${d.version}`);
    const first = await names();
    expect(first).toEqual(
      expect.arrayContaining(['pods./v1', 'configmaps./v1', 'replicasets.apps/v1', 'jobs.batch/v1']),
    );
    expect(first).not.toContain('widgets.acme.io/v1');
    await firstValueFrom(cluster.api.create(CRDS, crdOf('widgets', 'Widget') as KubeObject));
    await waitFor(async () => expect(await names()).toContain('widgets.acme.io/v1'), 10_000);
  });
});

describe('garbageCollectorController against the embedded API server', { timeout: 60_000 }, () => {
  let gc: Subscription;
  const rounds: string[][] = [];
  beforeAll(async () => {
    await firstValueFrom(
      cluster.api.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } }),
    ).catch(() => undefined);
    // the discovery the collector uses, with what each round found
    const discover = deletableResources(cluster.api, silentLogger);
    const discovery = () => discover().pipe(tap((found) => rounds.push(found.map((d) => d.plural))));
    gc = garbageCollectorController({
      client: cluster.api,
      discovery,
      resyncPeriodMs: 300,
      workers: 4,
    }).subscribe();
    await waitFor(async () => expect(rounds.length).toBeGreaterThan(0));
  });
  afterAll(() => gc?.unsubscribe());

  it('picks up a CRD made after it started and collects the dependents of a deleted custom resource', async () => {
    // made after the collector's first discovery: found at a later one
    expect(rounds[0]).not.toContain('gadgets');
    await firstValueFrom(cluster.api.create(CRDS, crdOf('gadgets', 'Gadget') as KubeObject));
    const gadget = await waitFor(
      () =>
        firstValueFrom(
          cluster.api.create<KubeObject>(
            GADGETS,
            { apiVersion: 'acme.io/v1', kind: 'Gadget', metadata: { name: 'g1' } },
            { namespace: 'default' },
          ),
        ),
      10_000,
    );
    await configMap('made-by-gadget', 'default', [refTo(gadget)]);
    // a reference by the other served version resolves too
    await configMap('made-by-gadget-v1alpha1', 'default', [
      { ...refTo(gadget), apiVersion: 'acme.io/v1alpha1' },
    ]);
    await firstValueFrom(cluster.api.delete(GADGETS, 'g1', { namespace: 'default' }));
    await waitFor(async () => {
      expect(await get(CONFIG_MAPS, 'made-by-gadget', 'default')).toBeUndefined();
      expect(await get(CONFIG_MAPS, 'made-by-gadget-v1alpha1', 'default')).toBeUndefined();
    }, 20_000);
  });

  it('reports a dependent naming an owner in another namespace (OwnerRefInvalidNamespace) and collects it', async () => {
    const owner = await configMap('home-owner', 'default');
    await waitFor(async () => expect(await get(CONFIG_MAPS, 'home-owner', 'default')).toBeDefined());
    await configMap('far-child', 'other', [refTo(owner)]);
    await waitFor(async () => expect(await get(CONFIG_MAPS, 'far-child', 'other')).toBeUndefined(), 20_000);
    const events = await firstValueFrom(cluster.api.list(EVENTS, { namespace: 'other' }));
    const reasons = events.items.map((e) => (e as { reason?: string }).reason);
    expect(reasons).toContain('OwnerRefInvalidNamespace');
    expect(await get(CONFIG_MAPS, 'home-owner', 'default')).toBeDefined();
  });

  it('orphans the dependents of a cluster-scoped owner deleted with Orphan, then lets the owner go', async () => {
    const pc = await firstValueFrom(
      cluster.api.create<KubeObject>(PRIORITY_CLASSES, {
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: { name: 'owner-pc' },
        value: 10,
      } as KubeObject),
    );
    await configMap('kept', 'default', [refTo(pc)]);
    await waitFor(async () => expect(await get(CONFIG_MAPS, 'kept', 'default')).toBeDefined());
    await firstValueFrom(cluster.api.delete(PRIORITY_CLASSES, 'owner-pc', { propagationPolicy: 'Orphan' }));
    await waitFor(async () => expect(await get(PRIORITY_CLASSES, 'owner-pc')).toBeUndefined(), 20_000);
    const kept = await get(CONFIG_MAPS, 'kept', 'default');
    expect(kept).toBeDefined();
    expect(kept?.metadata?.ownerReferences ?? []).toEqual([]);
  });
});
