// The garbage collector's discovery: which resources of a discovery answer it watches, CRDs' other versions, and teardown aborting its requests.
import { firstValueFrom, NEVER, Observable, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../operators/logger.ts';
import type { KubeObject } from '../../../../operators/types.ts';
import {
  deletableResources,
  gcResourcesFromDiscovery,
} from '../../../../src/controllers/garbage-collector/deletable-resources.ts';
import type { ApiClient, ApiResourceList } from '../../../../streams/api-client.ts';

const all = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const LISTS: ApiResourceList[] = [
  {
    groupVersion: 'v1',
    resources: [
      { name: 'pods', namespaced: true, kind: 'Pod', verbs: all },
      { name: 'pods/status', namespaced: true, kind: 'Pod', verbs: ['get', 'patch', 'update'] },
      { name: 'events', namespaced: true, kind: 'Event', verbs: all },
      { name: 'bindings', namespaced: true, kind: 'Binding', verbs: ['create'] },
      { name: 'nodes', namespaced: false, kind: 'Node', verbs: all },
    ],
  },
  {
    groupVersion: 'events.k8s.io/v1',
    resources: [{ name: 'events', namespaced: true, kind: 'Event', verbs: all }],
  },
  {
    groupVersion: 'autoscaling/v2',
    resources: [
      { name: 'horizontalpodautoscalers', namespaced: true, kind: 'HorizontalPodAutoscaler', verbs: all },
    ],
  },
  {
    groupVersion: 'apiextensions.k8s.io/v1',
    resources: [
      { name: 'customresourcedefinitions', namespaced: false, kind: 'CustomResourceDefinition', verbs: all },
    ],
  },
  {
    groupVersion: 'stable.example.com/v2',
    resources: [{ name: 'crontabs', namespaced: true, kind: 'CronTab', verbs: all }],
  },
];

const crontabs: KubeObject = {
  metadata: { name: 'crontabs.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { plural: 'crontabs', kind: 'CronTab' },
    versions: [
      { name: 'v1', served: true },
      { name: 'v2', served: true },
    ],
  },
  status: { conditions: [{ type: 'Established', status: 'True' }] },
} as KubeObject;

describe('gcResourcesFromDiscovery', () => {
  it('keeps top-level resources that can be listed, watched and deleted, and leaves Events out', () => {
    expect(gcResourcesFromDiscovery(LISTS).map((d) => `${d.plural}.${d.group}/${d.version}`)).toEqual([
      'pods./v1',
      'nodes./v1',
      'horizontalpodautoscalers.autoscaling/v2',
      'customresourcedefinitions.apiextensions.k8s.io/v1',
      'crontabs.stable.example.com/v2',
    ]);
    expect(gcResourcesFromDiscovery(LISTS).find((d) => d.plural === 'nodes')?.namespaced).toBe(false);
  });
});

describe('deletableResources over a client with discovery', () => {
  it("uses discovery's preferred versions, with the other versions a built-in table or a CRD serves", async () => {
    const client = {
      serverPreferredResources: () =>
        of({ lists: LISTS, failed: [{ groupVersion: 'metrics.k8s.io/v1beta1', message: 'down' }] }),
      list: () => of({ items: [crontabs], metadata: {} }),
    } as unknown as ApiClient;
    const found = await firstValueFrom(deletableResources(client, silentLogger)());
    expect(found.find((d) => d.plural === 'horizontalpodautoscalers')?.otherVersions).toEqual(['v1']);
    expect(found.find((d) => d.plural === 'crontabs')).toMatchObject({
      version: 'v2',
      otherVersions: ['v1'],
    });
    expect(found.filter((d) => d.plural === 'crontabs')).toHaveLength(1);
  });

  it.each([
    ['with discovery', true],
    ['probing the built-in table', false],
  ])('aborts every request in flight when unsubscribed (%s)', (_name, withDiscovery) => {
    let open = 0;
    const pending = () =>
      new Observable<never>(() => {
        open++;
        return () => open--;
      });
    const client = {
      ...(withDiscovery ? { serverPreferredResources: pending } : {}),
      list: pending,
    } as unknown as ApiClient;
    const sub = deletableResources(client, silentLogger)().subscribe();
    expect(open).toBeGreaterThan(0);
    sub.unsubscribe();
    expect(open).toBe(0);
  });

  it('gives nothing, without failing, when discovery fails', async () => {
    const client = {
      serverPreferredResources: () => new Observable((s) => s.error(new Error('connection refused'))),
      list: () => NEVER,
    } as unknown as ApiClient;
    expect(await firstValueFrom(deletableResources(client, silentLogger)())).toEqual([]);
  });
});
