// @kubernetes/client-node's CustomObjectsApi over a CRD, and kube-rx's shared informer watching the custom resources.
import {
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../operators/types.ts';
import { type RunningApiServer, startApiServer } from '../../../../src/apiserver/index.ts';
import { sharedInformer } from '../../../../src/informers/shared-informer.ts';
import { waitForCacheSync } from '../../../../src/informers/wait-for-cache-sync.ts';
import { listerWatcher } from '../../../../streams/api-client.ts';
import { kubeApiClient } from '../../../../streams/client-node/kube-api-client.ts';
import { eventually } from '../../../helpers/eventually.ts';
import { WIDGET_CRD } from './widgets.ts';

const WIDGETS = {
  group: 'example.com',
  version: 'v1',
  plural: 'widgets',
  kind: 'Widget',
  namespaced: true,
} as const;
const widget = (name: string, size: string, labels: Record<string, string> = {}) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name, labels },
  spec: { size },
});
type Widget = KubeObject & { spec: { size: string; replicas?: number; colour?: string } };

describe('CRDs through @kubernetes/client-node and a kube-rx informer', () => {
  let server: RunningApiServer;
  let custom: CustomObjectsApi;

  beforeAll(async () => {
    server = await startApiServer();
    const kc = new KubeConfig();
    kc.loadFromString(server.kubeconfig);
    custom = kc.makeApiClient(CustomObjectsApi);
    const ext = kc.makeApiClient(ApiextensionsV1Api);
    // the CRD as plain JSON (the typed ApiextensionsV1Api would need x-kubernetes-* as camelCase fields)
    await custom.createClusterCustomObject({
      group: 'apiextensions.k8s.io',
      version: 'v1',
      plural: 'customresourcedefinitions',
      body: WIDGET_CRD,
    });
    const crd = await ext.readCustomResourceDefinition({ name: 'widgets.example.com' });
    // the controller runs right after the commit, before the next request is served
    expect(crd.status?.conditions?.find((c) => c.type === 'Established')?.status).toBe('True');
  });

  afterAll(async () => {
    await server?.close();
  });

  it('creates, gets, lists (selectors, pages), patches and deletes custom objects', async () => {
    const base = { group: 'example.com', version: 'v1', namespace: 'default', plural: 'widgets' };
    const created = (await custom.createNamespacedCustomObject({
      ...base,
      body: widget('a', 'small', { tier: 'x' }),
    })) as Widget;
    expect(created.spec).toEqual({ size: 'small', replicas: 1, colour: 'blue' });
    await custom.createNamespacedCustomObject({ ...base, body: widget('b', 'large') });
    await custom.createNamespacedCustomObject({ ...base, body: widget('c', 'large') });
    const got = (await custom.getNamespacedCustomObject({ ...base, name: 'a' })) as Widget;
    expect(got.metadata?.uid).toBe(created.metadata?.uid);
    const byLabel = (await custom.listNamespacedCustomObject({ ...base, labelSelector: 'tier=x' })) as {
      items: Widget[];
    };
    expect(byLabel.items.map((w) => w.metadata?.name)).toEqual(['a']);
    const byField = (await custom.listNamespacedCustomObject({
      ...base,
      fieldSelector: 'spec.size=large',
    })) as { items: Widget[] };
    expect(byField.items.map((w) => w.metadata?.name)).toEqual(['b', 'c']);
    const byName = (await custom.listNamespacedCustomObject({
      ...base,
      fieldSelector: 'metadata.name=c',
    })) as { items: Widget[] };
    expect(byName.items.map((w) => w.metadata?.name)).toEqual(['c']);
    const page1 = (await custom.listNamespacedCustomObject({ ...base, limit: 2 })) as {
      items: Widget[];
      metadata: { continue?: string; remainingItemCount?: number };
    };
    expect(page1.items.map((w) => w.metadata?.name)).toEqual(['a', 'b']);
    expect(page1.metadata.remainingItemCount).toBe(1);
    const page2 = (await custom.listNamespacedCustomObject({
      ...base,
      limit: 2,
      _continue: page1.metadata.continue,
    })) as { items: Widget[] };
    expect(page2.items.map((w) => w.metadata?.name)).toEqual(['c']);
    const all = (await custom.listClusterCustomObject({
      group: 'example.com',
      version: 'v1beta1',
      plural: 'widgets',
    })) as { apiVersion: string; items: Widget[] };
    expect(all.items.map((w) => w.apiVersion)).toEqual([
      'example.com/v1beta1',
      'example.com/v1beta1',
      'example.com/v1beta1',
    ]);
    const merged = (await custom.patchNamespacedCustomObject(
      { ...base, name: 'b', body: { spec: { replicas: 5 } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    )) as Widget;
    expect(merged.spec.replicas).toBe(5);
    expect(merged.metadata?.generation).toBe(2);
    const jsonPatched = (await custom.patchNamespacedCustomObject(
      { ...base, name: 'b', body: [{ op: 'replace', path: '/spec/colour', value: 'red' }] },
      setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
    )) as Widget;
    expect(jsonPatched.spec.colour).toBe('red');
    const invalid = await custom
      .patchNamespacedCustomObject(
        { ...base, name: 'b', body: { spec: { replicas: 11 } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      )
      .then(
        () => undefined,
        (e: { code?: number; body?: string }) => e,
      );
    expect(invalid?.code).toBe(422);
    expect(String(invalid?.body)).toContain('spec.replicas in body should be less than or equal to 10');
    await custom.deleteNamespacedCustomObject({ ...base, name: 'c' });
    const left = (await custom.listNamespacedCustomObject(base)) as { items: Widget[] };
    expect(left.items.map((w) => w.metadata?.name)).toEqual(['a', 'b']);
  });

  it('feeds a shared informer: adds, updates and deletes of custom resources arrive', async () => {
    const api = kubeApiClient({
      kubeConfig: { from: 'string', yaml: server.kubeconfig },
      qps: Number.POSITIVE_INFINITY,
    });
    const informer = sharedInformer<Widget>({
      source: listerWatcher<Widget>(api, WIDGETS, { namespace: 'informed' }),
      name: 'widgets',
    });
    const seen: string[] = [];
    const reg = informer.addEventHandler({
      onAdd: (w) => void seen.push(`add ${w.metadata?.name} ${w.spec.size}`),
      onUpdate: (_o, w) => void seen.push(`update ${w.metadata?.name} ${w.spec.colour}`),
      onDelete: (w) => void seen.push(`delete ${(w as Widget).metadata?.name}`),
    });
    try {
      const ns = { group: 'example.com', version: 'v1', namespace: 'informed', plural: 'widgets' };
      const kc = new KubeConfig();
      kc.loadFromString(server.kubeconfig);
      await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: 'informed' } } });
      await custom.createNamespacedCustomObject({ ...ns, body: widget('before', 'small') });
      await waitForCacheSync(AbortSignal.timeout(10_000), reg);
      await custom.createNamespacedCustomObject({ ...ns, body: widget('after', 'large') });
      await custom.patchNamespacedCustomObject(
        { ...ns, name: 'after', body: { spec: { colour: 'green' } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      await custom.deleteNamespacedCustomObject({ ...ns, name: 'before' });
      await eventually(() =>
        expect(seen).toEqual(['add before small', 'add after large', 'update after green', 'delete before']),
      );
      expect(
        informer
          .getStore()
          .list()
          .map((w) => w.metadata?.name),
      ).toEqual(['after']);
    } finally {
      reg.remove();
      api.close();
    }
  });
});
