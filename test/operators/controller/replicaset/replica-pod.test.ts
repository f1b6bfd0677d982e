// replicaPod and replicationControllerAsReplicaSet: the pod made from a template, and the RC read as a ReplicaSet.
import { describe, expect, it } from 'vitest';
import { podNamePrefix, replicaPod } from '../../../../operators/controller/replicaset/replica-pod.ts';
import {
  REPLICA_SET_GVK,
  REPLICATION_CONTROLLER_GVK,
  type ReplicaSet,
} from '../../../../operators/controller/replicaset/replica-set-types.ts';
import { replicationControllerAsReplicaSet } from '../../../../operators/controller/replicaset/replication-controller-as-replica-set.ts';

const rs: ReplicaSet = {
  metadata: { name: 'web', namespace: 'prod', uid: 'u1', labels: { owner: 'label-not-copied' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' }, annotations: { a: 'b' }, finalizers: ['x/y'] },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    },
  },
};

describe('replicaPod', () => {
  it('copies the template and points its controller reference at the owner', () => {
    const pod = replicaPod(rs, REPLICA_SET_GVK);
    expect(pod.metadata).toEqual({
      generateName: 'web-',
      namespace: 'prod',
      labels: { app: 'web' },
      annotations: { a: 'b' },
      finalizers: ['x/y'],
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'web',
          uid: 'u1',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    });
    expect(pod.spec).toEqual(rs.spec.template?.spec);
    expect(pod.spec).not.toBe(rs.spec.template?.spec);
  });

  it.each([
    { name: 'web', prefix: 'web-' },
    { name: 'a'.repeat(250), prefix: 'a'.repeat(250) },
  ])('prefixes generated names of $name', ({ name, prefix }) => {
    expect(podNamePrefix(name)).toBe(prefix);
  });
});

describe('replicationControllerAsReplicaSet', () => {
  const rc: ReplicaSet = {
    metadata: { name: 'legacy', namespace: 'default' },
    spec: {
      replicas: 1,
      selector: { app: 'legacy' } as never,
      template: { metadata: { labels: { app: 'legacy', t: '1' } } },
    },
  };
  it.each([
    { name: 'a map selector becomes matchLabels', rc, want: { app: 'legacy' } },
    {
      name: 'an absent selector defaults to the template labels',
      rc: { ...rc, spec: { ...rc.spec, selector: undefined } },
      want: { app: 'legacy', t: '1' },
    },
  ])('$name', ({ rc: r, want }) => {
    expect(replicationControllerAsReplicaSet(r).spec.selector).toEqual({ matchLabels: want });
  });
  it('names the RC in its pods’ controller reference', () => {
    expect(
      replicaPod(replicationControllerAsReplicaSet(rc), REPLICATION_CONTROLLER_GVK).metadata
        .ownerReferences?.[0],
    ).toMatchObject({
      apiVersion: 'v1',
      kind: 'ReplicationController',
      name: 'legacy',
    });
  });
});
