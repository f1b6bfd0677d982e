// garbageCollectorController's requests against a recording fake API: upstream's TestAttemptToDeleteItem, TestAbsentOwnerCache and TestOrphanDependentsFailure, a delete conflict retried by uid, an invalid cluster-scoped reference.

import { Registry } from 'prom-client';
import { concat, defer, finalize, from, NEVER, type Observable, of, throwError } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../../operators/errors.ts';
import {
  INITIAL_EVENTS_END_ANNOTATION,
  type KubeObject,
  type ObjectList,
  type OwnerReference,
} from '../../../../operators/types.ts';
import { garbageCollectorController } from '../../../../src/controllers/garbage-collector/garbage-collector-controller.ts';
import type { ApiClient, DeleteOptions, ResourceDescriptor } from '../../../../streams/api-client.ts';
import {
  DEPLOYMENTS,
  PERSISTENT_VOLUMES,
  PODS,
  REPLICATION_CONTROLLERS,
} from '../../../../streams/resources.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

interface Action {
  verb: 'GET' | 'DELETE' | 'PATCH';
  path: string;
  body?: unknown;
}

const pathOf = (r: ResourceDescriptor, name: string, namespace?: string) =>
  `${r.plural}/${r.namespaced ? `${namespace}/` : ''}${name}`;
const notFound = () => new ApiError(404, { reason: 'NotFound', message: 'not found', code: 404 });
const conflict = () =>
  new ApiError(409, { reason: 'Conflict', message: 'the server reported a conflict', code: 409 });

/**
 * A fake API: objects by path, lists from them, watches that never speak, and GET/DELETE/PATCH recorded with
 * answers a test may override per path (the first matching answer is used once, then the default).
 */
function fakeApi(objects: Record<string, KubeObject>) {
  const actions: Action[] = [];
  const answers: Record<string, (() => Observable<unknown>)[]> = {};
  const answer = (verb: string, path: string, fallback: () => Observable<unknown>) =>
    defer(() => (answers[`${verb} ${path}`]?.shift() ?? fallback)());
  let openWatches = 0;
  const watching = <T>(source: Observable<T>) =>
    defer(() => {
      openWatches++;
      return source.pipe(finalize(() => openWatches--));
    });
  const itemsOf = (r: ResourceDescriptor) =>
    Object.entries(objects)
      .filter(([p]) => p.startsWith(`${r.plural}/`))
      .map(([, o]) => o);
  const client = {
    list: (r: ResourceDescriptor) =>
      of({
        apiVersion: 'v1',
        kind: 'List',
        metadata: { resourceVersion: '1' },
        items: itemsOf(r),
      } as ObjectList<KubeObject>),
    // a streaming list (sendInitialEvents): the objects, the end-of-initial-events bookmark, then silence
    watch: (r: ResourceDescriptor, o?: { sendInitialEvents?: boolean }) =>
      watching(
        o?.sendInitialEvents
          ? concat(
              from(itemsOf(r).map((object) => ({ type: 'ADDED', object }))),
              of({
                type: 'BOOKMARK',
                object: {
                  metadata: {
                    resourceVersion: '1',
                    annotations: { [INITIAL_EVENTS_END_ANNOTATION]: 'true' },
                  },
                },
              }),
              NEVER,
            )
          : NEVER,
      ),
    get: <T extends KubeObject>(r: ResourceDescriptor, name: string, o?: { namespace?: string }) => {
      const path = pathOf(r, name, o?.namespace);
      actions.push({ verb: 'GET', path });
      return answer('GET', path, () =>
        objects[path] ? of(objects[path]) : throwError(notFound),
      ) as Observable<T>;
    },
    delete: (r: ResourceDescriptor, name: string, o?: DeleteOptions) => {
      const path = pathOf(r, name, o?.namespace);
      actions.push({
        verb: 'DELETE',
        path,
        body: { propagationPolicy: o?.propagationPolicy, preconditions: o?.preconditions },
      });
      return answer('DELETE', path, () => of({}));
    },
    patch: (r: ResourceDescriptor, name: string, patch: unknown, _t: unknown, o?: { namespace?: string }) => {
      const path = pathOf(r, name, o?.namespace);
      actions.push({ verb: 'PATCH', path, body: patch });
      return answer('PATCH', path, () => of({}));
    },
  } as unknown as ApiClient;
  return { client, actions, answers, openWatches: () => openWatches };
}

const pod = (
  name: string,
  uid: string,
  ownerReferences: OwnerReference[],
  more: Partial<KubeObject['metadata']> = {},
) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'ns1', uid, resourceVersion: '5', ownerReferences, ...more },
});
const rcRef = (name: string, uid: string): OwnerReference => ({
  apiVersion: 'v1',
  kind: 'ReplicationController',
  name,
  uid,
});
/** A replication controller deleted with propagationPolicy Orphan: being deleted, with the orphan finalizer. */
const orphaningRc = {
  apiVersion: 'v1',
  kind: 'ReplicationController',
  metadata: {
    name: 'rc',
    namespace: 'ns1',
    uid: 'rc-uid',
    resourceVersion: '3',
    deletionTimestamp: '2026-01-01T00:00:00Z',
    finalizers: ['orphan'],
  },
};
const seen = (actions: Action[]) => new Set(actions.map((a) => `${a.verb}=${a.path}`));

describe('garbage collector requests', { timeout: 20_000 }, () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());
  const run = (client: ApiClient, resources: ResourceDescriptor[]) => {
    const sub = garbageCollectorController({
      client,
      discovery: () => of(resources),
      workers: 2,
    }).subscribe();
    stop = () => sub.unsubscribe();
  };

  it('deletes the pod of a replication controller the server does not have (TestAttemptToDeleteItem)', async () => {
    const api = fakeApi({
      'pods/ns1/ToBeDeletedPod': pod('ToBeDeletedPod', '456', [rcRef('owner1', '123')]),
    });
    run(api.client, [PODS, REPLICATION_CONTROLLERS]);
    await waitFor(async () => expect(seen(api.actions)).toContain('DELETE=pods/ns1/ToBeDeletedPod'));
    expect(seen(api.actions)).toEqual(
      new Set([
        'GET=replicationcontrollers/ns1/owner1',
        'GET=pods/ns1/ToBeDeletedPod',
        'DELETE=pods/ns1/ToBeDeletedPod',
      ]),
    );
    expect(api.actions.find((a) => a.verb === 'DELETE')?.body).toEqual({
      propagationPolicy: 'Background',
      preconditions: { uid: '456', resourceVersion: '5' },
    });
  });

  it('asks for an absent owner once, however many dependents name it (TestAbsentOwnerCache)', async () => {
    const api = fakeApi({
      'pods/ns1/rc1Pod1': pod('rc1Pod1', 'p1', [{ ...rcRef('rc1', '1'), controller: true }]),
      'pods/ns1/rc1Pod2': pod('rc1Pod2', 'p2', [{ ...rcRef('rc1', '1'), controller: false }]),
      'pods/ns1/rc2Pod1': pod('rc2Pod1', 'p3', [rcRef('rc2', '2')]),
      'pods/ns1/rc3Pod1': pod('rc3Pod1', 'p4', [rcRef('rc3', '3')]),
    });
    run(api.client, [PODS, REPLICATION_CONTROLLERS]);
    await waitFor(async () => expect(api.actions.filter((a) => a.verb === 'DELETE')).toHaveLength(4));
    expect(
      api.actions.filter((a) => a.verb === 'GET' && a.path === 'replicationcontrollers/ns1/rc1'),
    ).toHaveLength(1);
  });

  it('keeps the orphan finalizer while a dependent cannot be orphaned, and retries (TestOrphanDependentsFailure)', async () => {
    const api = fakeApi({
      'replicationcontrollers/ns1/rc': orphaningRc,
      'pods/ns1/pod': pod('pod', 'pod-uid', [rcRef('rc', 'rc-uid')]),
    });
    api.answers['PATCH pods/ns1/pod'] = Array.from({ length: 50 }, () => () => throwError(conflict));
    run(api.client, [PODS, REPLICATION_CONTROLLERS]);
    // five conflicts per attempt (the patch is computed again each time), then a rate-limited retry
    await waitFor(async () =>
      expect(
        api.actions.filter((a) => a.path === 'pods/ns1/pod' && a.verb === 'PATCH').length,
      ).toBeGreaterThan(5),
    );
    expect(api.actions.some((a) => a.verb === 'PATCH' && a.path === 'replicationcontrollers/ns1/rc')).toBe(
      false,
    );
    expect(api.actions.find((a) => a.verb === 'PATCH')?.body).toEqual({
      metadata: { resourceVersion: '5', ownerReferences: [] },
    });
  });

  it('removes the orphan finalizer once every dependent is orphaned', async () => {
    const api = fakeApi({
      'replicationcontrollers/ns1/rc': orphaningRc,
      'pods/ns1/pod': pod('pod', 'pod-uid', [rcRef('rc', 'rc-uid'), rcRef('other', 'o-uid')]),
    });
    api.answers['GET replicationcontrollers/ns1/other'] = Array.from(
      { length: 20 },
      () => () => of({ metadata: { name: 'other', uid: 'o-uid' } }),
    );
    run(api.client, [PODS, REPLICATION_CONTROLLERS]);
    await waitFor(async () => expect(seen(api.actions)).toContain('PATCH=replicationcontrollers/ns1/rc'));
    const patches = api.actions.filter((a) => a.verb === 'PATCH');
    expect(patches[0]).toEqual({
      verb: 'PATCH',
      path: 'pods/ns1/pod',
      body: { metadata: { resourceVersion: '5', ownerReferences: [rcRef('other', 'o-uid')] } },
    });
    expect(patches.at(-1)?.body).toEqual({ metadata: { resourceVersion: '3', finalizers: [] } });
  });

  it('retries a delete refused for its resourceVersion by uid alone when the owners did not change', async () => {
    const api = fakeApi({ 'pods/ns1/p': pod('p', 'p-uid', [rcRef('gone', 'g-uid')]) });
    api.answers['DELETE pods/ns1/p'] = [() => throwError(conflict)];
    run(api.client, [PODS, REPLICATION_CONTROLLERS]);
    await waitFor(async () => expect(api.actions.filter((a) => a.verb === 'DELETE')).toHaveLength(2));
    expect(
      api.actions
        .filter((a) => a.verb === 'DELETE')
        .map((a) => (a.body as { preconditions: unknown }).preconditions),
    ).toEqual([{ uid: 'p-uid', resourceVersion: '5' }, { uid: 'p-uid' }]);
  });

  it('never deletes a cluster-scoped object that names a namespaced owner, nor looks the owner up', async () => {
    const api = fakeApi({
      'persistentvolumes/pv': {
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: {
          name: 'pv',
          uid: 'pv-uid',
          ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'p-uid' }],
        },
      },
    });
    run(api.client, [PODS, PERSISTENT_VOLUMES]);
    // the virtual owner (named from no namespace) is absent without a request; the PV is then looked at and kept
    await waitFor(async () => expect(seen(api.actions)).toContain('GET=persistentvolumes/pv'));
    expect(api.actions.some((a) => a.verb === 'DELETE')).toBe(false);
  });

  it('closes every watch when unsubscribed', async () => {
    const api = fakeApi({ 'pods/ns1/p': pod('p', 'p-uid', []) });
    run(api.client, [PODS, REPLICATION_CONTROLLERS]);
    await waitFor(async () => expect(api.openWatches()).toBe(2));
    stop?.();
    expect(api.openWatches()).toBe(0);
  });

  it('counts a discovery that finds nothing as a sync error and keeps its monitors', async () => {
    const api = fakeApi({ 'pods/ns1/p': pod('p', 'p-uid', []) });
    const registry = new Registry();
    const rounds = [[PODS], []];
    const sub = garbageCollectorController({
      client: api.client,
      discovery: () => of(rounds.shift() ?? []),
      resyncPeriodMs: 20,
      metricsRegistry: registry,
    }).subscribe();
    stop = () => sub.unsubscribe();
    await waitFor(async () =>
      expect(
        await registry.getSingleMetricAsString('garbagecollector_controller_resources_sync_error_total'),
      ).toMatch(/_total [1-9]/),
    );
    expect(api.openWatches()).toBe(1);
  });

  it('leaves alone a dependent naming a version no longer served (extensions/v1beta1), never asking for the owner', async () => {
    const api = fakeApi({
      'pods/ns1/old': pod('old', 'old-uid', [
        { apiVersion: 'extensions/v1beta1', kind: 'Deployment', name: 'd', uid: 'd-uid' },
      ]),
      'pods/ns1/new': pod('new', 'new-uid', [
        { apiVersion: 'apps/v1', kind: 'Deployment', name: 'gone', uid: 'g-uid' },
      ]),
    });
    run(api.client, [PODS, DEPLOYMENTS]);
    // the dependent of a served version whose owner is gone is collected meanwhile
    await waitFor(async () => expect(seen(api.actions)).toContain('DELETE=pods/ns1/new'));
    expect(seen(api.actions)).not.toContain('DELETE=pods/ns1/old');
    expect([...seen(api.actions)].filter((a) => a.includes('deployments/ns1/d'))).toEqual([]);
  });

  it('unblocks the references of an item between two foreground deletions, then deletes it in the foreground (a possible cycle)', async () => {
    const foreground = { deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: ['foregroundDeletion'] };
    const api = fakeApi({
      'pods/ns1/owner': pod('owner', 'o', [], foreground),
      'pods/ns1/item': pod('item', 'i', [
        { apiVersion: 'v1', kind: 'Pod', name: 'owner', uid: 'o', blockOwnerDeletion: true },
      ]),
      'pods/ns1/child': pod(
        'child',
        'c',
        [{ apiVersion: 'v1', kind: 'Pod', name: 'item', uid: 'i', blockOwnerDeletion: true }],
        foreground,
      ),
    });
    run(api.client, [PODS]);
    await waitFor(async () => expect(seen(api.actions)).toContain('DELETE=pods/ns1/item'));
    const onItem = api.actions.filter((a) => a.path === 'pods/ns1/item' && a.verb !== 'GET');
    expect(onItem[0]).toEqual({
      verb: 'PATCH',
      path: 'pods/ns1/item',
      body: {
        metadata: {
          resourceVersion: '5',
          ownerReferences: [
            { apiVersion: 'v1', kind: 'Pod', name: 'owner', uid: 'o', blockOwnerDeletion: false },
          ],
        },
      },
    });
    expect(onItem[1]?.body).toEqual({
      propagationPolicy: 'Foreground',
      preconditions: { uid: 'i', resourceVersion: '5' },
    });
  });
});
