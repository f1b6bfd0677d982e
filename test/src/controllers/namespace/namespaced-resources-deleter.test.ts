// Tests: one namespace deletion pass against a recording fake client (upstream's TestSyncNamespaceThatIsTerminating, TestSyncNamespaceThatIsActive, TestDeleteEncounters404, TestRetryOnConflictError).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../operators/types.ts';
import {
  NamespaceDeletionError,
  namespacedResourcesDeleter,
} from '../../../../src/controllers/namespace/namespaced-resources-deleter.ts';
import { ALL_VERBS, TEST_RESOURCES } from '../../../operators/controller/namespace/test-resources.ts';
import { apiError, type Fake, fakeClient, terminating } from './fake-namespace-client.ts';

const ALL = ALL_VERBS;
const NOW = Date.parse('2026-01-01T00:00:10Z');

const deleter = (fake: Fake) => namespacedResourcesDeleter({ client: fake.client, now: () => NOW });
const perResource = ['pods', 'services', 'deployments'].flatMap((r) => [
  `deletecollection-${r}-`,
  `list-${r}-`,
]);

describe('namespacedResourcesDeleter', () => {
  it('pending finalize: empties every resource, writes the conditions, then finalizes', async () => {
    const fake = fakeClient([terminating('test')]);
    expect(await deleter(fake)('test')).toEqual({ type: 'finalized' });
    expect(new Set(fake.actions)).toEqual(
      new Set([
        'get-namespaces-',
        'discovery',
        'list-pods-',
        ...perResource,
        'update-namespaces-status',
        'update-namespaces-finalize',
      ]),
    );
    const ns = fake.namespaces.get('test');
    expect(ns?.spec?.finalizers).toEqual([]);
    expect(ns?.status?.conditions?.every((c) => c.status === 'False')).toBe(true);
  });

  it.each([
    ['complete finalize: nothing left to do', terminating('test', {}), { lists: TEST_RESOURCES, failed: [] }],
    [
      'complete finalize with a discovery error: nothing is attempted',
      terminating('test', {}),
      { lists: TEST_RESOURCES, failed: [{ groupVersion: 'x/v1', message: 'test error' }] },
    ],
  ])('%s', async (_name, ns, discovery) => {
    const fake = fakeClient([ns], discovery);
    expect(await deleter(fake)('test')).toEqual({ type: 'finalized' });
    expect(fake.actions).toEqual(['get-namespaces-']);
  });

  it('a discovery error with a pending finalize: content still deleted, DiscoveryFailure set, no finalize, error', async () => {
    const fake = fakeClient([terminating('test')], {
      lists: TEST_RESOURCES,
      failed: [{ groupVersion: 'x/v1', message: 'test error' }],
    });
    await expect(deleter(fake)('test')).rejects.toThrow(NamespaceDeletionError);
    expect(new Set(fake.actions)).toEqual(
      new Set(['get-namespaces-', 'discovery', 'list-pods-', ...perResource, 'update-namespaces-status']),
    );
    const failure = fake.namespaces
      .get('test')
      ?.status?.conditions?.find((c) => c.type === 'NamespaceDeletionDiscoveryFailure');
    expect(failure).toMatchObject({ status: 'True', reason: 'DiscoveryFailed' });
    expect(fake.namespaces.get('test')?.spec?.finalizers).toEqual(['kubernetes']);
  });

  it('an active namespace: one read and nothing else', async () => {
    const fake = fakeClient([
      {
        metadata: { name: 'test', resourceVersion: '1' },
        spec: { finalizers: ['kubernetes'] },
        status: { phase: 'Active' },
      },
    ]);
    expect(await deleter(fake)('test')).toEqual({ type: 'active' });
    expect(fake.actions).toEqual(['get-namespaces-']);
  });

  it('a namespace already gone: done', async () => {
    const fake = fakeClient([]);
    expect(await deleter(fake)('test')).toEqual({ type: 'gone' });
  });

  it('a deleted namespace still Active is marked Terminating first', async () => {
    const fake = fakeClient([terminating('test', { finalizers: ['kubernetes'] }, 'Active')]);
    await deleter(fake)('test');
    expect(fake.actions.slice(0, 2)).toEqual(['get-namespaces-', 'update-namespaces-status']);
    expect(fake.namespaces.get('test')?.status?.phase).toBe('Terminating');
  });

  it('404 from a resource (a CRD just removed): falls back to list, then carries on; not remembered for the next namespace', async () => {
    const flakes = [
      {
        groupVersion: 'example.com/v1',
        resources: [{ name: 'flakes', namespaced: true, kind: 'Flake', verbs: ALL }],
      },
    ];
    const fake = fakeClient(
      [
        terminating('ns1', { finalizers: ['kubernetes'] }, 'Active'),
        terminating('ns2', { finalizers: ['kubernetes'] }, 'Active'),
      ],
      {
        lists: flakes,
        failed: [],
      },
    );
    fake.fail.set('deletecollection-flakes-@ns1', { error: apiError(404, 'NotFound'), times: 9 });
    fake.fail.set('list-flakes-@ns1', { error: apiError(404, 'NotFound'), times: 9 });
    const run = deleter(fake);
    expect(await run('ns1')).toEqual({ type: 'finalized' });
    expect(fake.actions.filter((a) => a.includes('flakes'))).toEqual([
      'deletecollection-flakes-',
      'list-flakes-',
      'list-flakes-',
    ]);
    fake.actions.length = 0;
    expect(await run('ns2')).toEqual({ type: 'finalized' });
    expect(fake.actions.filter((a) => a.includes('flakes'))).toEqual([
      'deletecollection-flakes-',
      'list-flakes-',
    ]);
  });

  it('content held by a finalizer: remaining with the finalizer estimate and NamespaceFinalizersRemaining', async () => {
    const fake = fakeClient([terminating('test')], {
      lists: [
        {
          groupVersion: 'v1',
          resources: [{ name: 'configmaps', namespaced: true, kind: 'ConfigMap', verbs: ALL }],
        },
      ],
      failed: [],
    });
    fake.content.set('configmaps/test', [
      { metadata: { name: 'keep', finalizers: ['example.com/hold'] } },
      { metadata: { name: 'go' } },
    ]);
    expect(await deleter(fake)('test')).toEqual({ type: 'remaining', estimateSeconds: 15 });
    const conditions = fake.namespaces.get('test')?.status?.conditions ?? [];
    expect(conditions.find((c) => c.type === 'NamespaceFinalizersRemaining')).toMatchObject({
      status: 'True',
      reason: 'SomeFinalizersRemain',
      message:
        'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
    });
    expect(conditions.find((c) => c.type === 'NamespaceContentRemaining')).toMatchObject({
      status: 'True',
      message: 'Some resources are remaining: configmaps. has 1 resource instances',
    });
    expect(fake.actions).not.toContain('update-namespaces-finalize');
  });

  it('pods within their grace period: remaining with the longest grace period', async () => {
    const fake = fakeClient([terminating('test')], {
      lists: [
        { groupVersion: 'v1', resources: [{ name: 'pods', namespaced: true, kind: 'Pod', verbs: ALL }] },
      ],
      failed: [],
    });
    // graceful deletion: the pods stay listed (with a finalizer-free deletionTimestamp) after the delete
    fake.content.set('pods/test', [
      {
        metadata: { name: 'a', finalizers: ['kube-rx.io/graceful'] },
        spec: { terminationGracePeriodSeconds: 30 },
        status: { phase: 'Running' },
      } as KubeObject,
    ]);
    expect(await deleter(fake)('test')).toEqual({ type: 'remaining', estimateSeconds: 30 });
  });

  it('a conflict on finalize reads the namespace again and retries', async () => {
    const fake = fakeClient([terminating('test')], { lists: [], failed: [] });
    fake.fail.set('update-namespaces-finalize@', { error: apiError(409, 'Conflict'), times: 1 });
    expect(await deleter(fake)('test')).toEqual({ type: 'finalized' });
    expect(fake.actions.filter((a) => a.startsWith('update-namespaces-finalize'))).toHaveLength(2);
    expect(fake.namespaces.get('test')?.spec?.finalizers).toEqual([]);
  });

  it('a conflict where the namespace was recreated (new uid) is an error', async () => {
    const fake = fakeClient([terminating('test')], { lists: [], failed: [] });
    fake.fail.set('update-namespaces-finalize@', { error: apiError(409, 'Conflict'), times: 1 });
    const original = fake.client.get;
    fake.client.get = (r, name, o) => {
      const ns = fake.namespaces.get(name);
      if (ns && fake.actions.includes('update-namespaces-finalize'))
        ns.metadata = { ...ns.metadata, uid: 'new' };
      return original(r, name, o);
    };
    await expect(deleter(fake)('test')).rejects.toThrow('namespace uid has changed across retries');
  });
});
