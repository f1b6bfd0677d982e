// mirrorPodClient: the mirror pod's shape, and tryReconcileMirrorPods' create/delete decisions against a recording API client.
import { Observable, of, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../operators/api/core-v1.ts';
import { ApiError } from '../../../operators/errors.ts';
import { mirrorPodClient, mirrorPodOf } from '../../../src/kubelet/mirror-pods.ts';
import type { ApiClient } from '../../../streams/api-client.ts';

const staticPod: Pod = {
  metadata: {
    uid: 'hash1',
    name: 'web-node1',
    namespace: 'default',
    annotations: { 'kubernetes.io/config.source': 'file', 'kubernetes.io/config.hash': 'hash1' },
  },
  spec: { nodeName: 'node1', containers: [{ name: 'c' }] },
};
const node: Node = { metadata: { name: 'node1', uid: 'node-uid' } };

function recordingClient(existing?: Pod): { client: ApiClient; calls: string[] } {
  const calls: string[] = [];
  const client = {
    create: (_r: unknown, obj: Pod) => {
      calls.push(
        `create ${obj.metadata.name} mirror=${obj.metadata.annotations?.['kubernetes.io/config.mirror']}`,
      );
      if (existing)
        return throwError(() => new ApiError(409, { reason: 'AlreadyExists', message: 'exists' }));
      return of(obj);
    },
    get: () => (existing ? of(existing) : throwError(() => new ApiError(404, { reason: 'NotFound' }))),
    delete: (
      _r: unknown,
      name: string,
      options: { gracePeriodSeconds?: number; preconditions?: { uid?: string } },
    ) => {
      calls.push(`delete ${name} grace=${options.gracePeriodSeconds} uid=${options.preconditions?.uid}`);
      return new Observable((s) => {
        s.next({});
        s.complete();
      });
    },
  } as unknown as ApiClient;
  return { client, calls };
}

const mirror = (hash: string, extra: Partial<Pod['metadata']> = {}): Pod => ({
  metadata: {
    uid: 'm1',
    name: 'web-node1',
    namespace: 'default',
    annotations: { 'kubernetes.io/config.mirror': hash },
    ...extra,
  },
  spec: staticPod.spec,
});

describe('mirror pods', () => {
  it('a mirror pod is the static pod without uid, with the mirror annotation, owned by the node', () => {
    const m = mirrorPodOf(staticPod, node);
    expect(m.metadata.uid).toBeUndefined();
    expect(m.metadata.annotations?.['kubernetes.io/config.mirror']).toBe('hash1');
    expect(m.metadata.ownerReferences).toEqual([
      { apiVersion: 'v1', kind: 'Node', name: 'node1', uid: 'node-uid', controller: true },
    ]);
    expect(m.spec).toBe(staticPod.spec);
  });

  it.each<[string, Pod | undefined, Node | undefined, string[]]>([
    ['no mirror: create one', undefined, node, ['create web-node1 mirror=hash1']],
    ['a mirror of this pod: nothing', mirror('hash1'), node, []],
    [
      'a mirror of another pod: delete and recreate',
      mirror('old'),
      node,
      ['delete web-node1 grace=0 uid=m1', 'create web-node1 mirror=hash1'],
    ],
    [
      'a mirror being deleted: delete and recreate',
      mirror('hash1', { deletionTimestamp: 'x' }),
      node,
      ['delete web-node1 grace=0 uid=m1', 'create web-node1 mirror=hash1'],
    ],
    ['no node: nothing created', undefined, undefined, []],
    [
      'a node being deleted: nothing created',
      undefined,
      { metadata: { name: 'node1', deletionTimestamp: 'x' } },
      [],
    ],
  ])('%s', async (_name, current, n, expected) => {
    const { client, calls } = recordingClient();
    await mirrorPodClient(client).reconcile(staticPod, current, n);
    expect(calls).toEqual(expected);
  });

  it('an existing mirror with the same hash counts as created; another one is an error', async () => {
    await expect(
      mirrorPodClient(recordingClient(mirror('hash1')).client).createMirrorPod(staticPod, node),
    ).resolves.toBeUndefined();
    await expect(
      mirrorPodClient(recordingClient(mirror('other')).client).createMirrorPod(staticPod, node),
    ).rejects.toThrow(/AlreadyExists/);
  });
});
