// planStatefulSetSync: upstream's stateful_set_control_test cases in our words — ordered and parallel creation, scaling, failed pods, rolling updates with partition, OnDelete, identity repair and status.
import { describe, expect, it } from 'vitest';
import { newStatefulPod } from '../../../../operators/controller/statefulset/stateful-pod-identity.ts';
import {
  planStatefulSetSync,
  scaledMaxUnavailable,
} from '../../../../operators/controller/statefulset/stateful-set-sync.ts';
import type { StatefulSet } from '../../../../operators/controller/statefulset/stateful-set-types.ts';
import { FakeCluster, makeSet, runningPod, withPhase } from './fixtures.ts';

/** Syncs until a sync does nothing, the kubelet making every pod ready (and deletions finish) before each; the names created in order. */
function converge(c: FakeCluster, rounds = 50): string[] {
  for (let i = 0; i < rounds; i++) {
    c.settle();
    const plan = c.sync();
    if (plan.actions.length === 0) return c.created;
  }
  throw new Error('did not converge');
}

const syncOnce = (set: StatefulSet, pods = [] as ReturnType<typeof runningPod>[]) =>
  planStatefulSetSync({
    set,
    pods,
    currentSet: set,
    currentRevision: 'web-rev1',
    updateSet: set,
    updateRevision: 'web-rev1',
    now: Date.parse('2026-01-02T00:00:00Z'),
  });

describe('planStatefulSetSync: creation', () => {
  it.each([
    ['OrderedReady', 1],
    ['Parallel', 3],
  ])('under %s the first sync of 3 replicas creates %i pod(s)', (policy, n) => {
    const plan = syncOnce(makeSet(3, { podManagementPolicy: policy }));
    expect(plan.actions.map((a) => `${a.type} ${a.pod.metadata.name}`)).toEqual(
      ['create web-0', 'create web-1', 'create web-2'].slice(0, n),
    );
  });

  it('under OrderedReady waits for each pod to be Running and Ready before the next', () => {
    const c = new FakeCluster(makeSet(3));
    c.sync();
    expect(c.names()).toEqual(['web-0']);
    c.sync();
    expect(c.names()).toEqual(['web-0']); // Pending: no progress
    c.run('web-0', false);
    c.sync();
    expect(c.names()).toEqual(['web-0']); // Running, not Ready: no progress
    c.run('web-0');
    c.sync();
    expect(c.names()).toEqual(['web-0', 'web-1']);
    expect(converge(c)).toEqual(['web-0', 'web-1', 'web-2']);
  });

  it.each([
    ['OrderedReady', ['web-0', 'web-1']],
    ['Parallel', ['web-0', 'web-1', 'web-2', 'web-3']],
  ])('under %s a not-ready pod in the middle blocks higher ordinals: %j', (policy, expected) => {
    const set = makeSet(4, { podManagementPolicy: policy });
    const pods = [runningPod(set, 0), withPhase(runningPod(set, 1), 'Running', false)];
    const c = new FakeCluster(set);
    for (const p of pods) c.pods.set(p.metadata.name ?? '', p);
    c.sync();
    expect(c.names()).toEqual(expected);
  });

  it('names pods <set>-<n> from spec.ordinals.start', () => {
    const c = new FakeCluster(makeSet(2, { ordinals: { start: 5 } }));
    expect(converge(c)).toEqual(['web-5', 'web-6']);
  });

  it('a Failed pod is deleted, then recreated with the same name', () => {
    const c = new FakeCluster(makeSet(3));
    converge(c);
    c.pods.set('web-1', withPhase(c.pods.get('web-1')!, 'Failed'));
    c.sync();
    expect(c.deleted).toEqual(['web-1']);
    c.finishDeletions();
    c.sync();
    expect(c.created.at(-1)).toBe('web-1');
  });

  it('a terminating pod blocks OrderedReady until it is gone', () => {
    const c = new FakeCluster(makeSet(3));
    converge(c);
    const p = c.pods.get('web-0')!;
    c.pods.set('web-0', { ...p, metadata: { ...p.metadata, deletionTimestamp: '2026-01-02T00:00:00Z' } });
    c.pods.delete('web-2');
    expect(c.sync().actions).toEqual([]);
  });

  it('a set being deleted gets only its status', () => {
    const set = makeSet(3);
    set.metadata.deletionTimestamp = '2026-01-02T00:00:00Z';
    const plan = syncOnce(set);
    expect(plan.actions).toEqual([]);
    expect(plan.status.replicas).toBe(0);
  });
});

describe('planStatefulSetSync: scaling', () => {
  it.each([
    ['OrderedReady', 3, 5, ['web-3', 'web-4'], []],
    ['OrderedReady', 5, 2, [], ['web-4', 'web-3', 'web-2']],
    ['Parallel', 5, 2, [], ['web-4', 'web-3', 'web-2']],
    ['OrderedReady', 3, 0, [], ['web-2', 'web-1', 'web-0']],
  ])(
    'under %s from %i to %i creates %j and deletes %j, highest ordinal first',
    (policy, from, to, created, deleted) => {
      const c = new FakeCluster(makeSet(from, { podManagementPolicy: policy }));
      converge(c);
      c.created = [];
      c.set = { ...c.set, spec: { ...c.set.spec, replicas: to } };
      converge(c);
      expect(c.created).toEqual(created);
      expect(c.deleted).toEqual(deleted);
    },
  );

  it('under OrderedReady scale-down deletes one pod per sync and waits for it to terminate', () => {
    const c = new FakeCluster(makeSet(5));
    converge(c);
    c.set = { ...c.set, spec: { ...c.set.spec, replicas: 3 } };
    c.sync();
    expect(c.deleted).toEqual(['web-4']);
    c.sync();
    expect(c.deleted).toEqual(['web-4']);
    c.finishDeletions();
    c.sync();
    expect(c.deleted).toEqual(['web-4', 'web-3']);
  });

  it('under OrderedReady scale-down waits while a remaining pod is not ready', () => {
    const c = new FakeCluster(makeSet(3));
    converge(c);
    c.run('web-0', false);
    c.set = { ...c.set, spec: { ...c.set.spec, replicas: 2 } };
    c.sync();
    expect(c.deleted).toEqual([]);
  });
});

describe('planStatefulSetSync: updates', () => {
  const changeImage = (c: FakeCluster, image: string) => {
    const t = structuredClone(c.set.spec.template!);
    t.spec!.containers[0]!.image = image;
    c.set = {
      ...c.set,
      spec: { ...c.set.spec, template: t },
      metadata: { ...c.set.metadata, generation: 2 },
    };
  };
  const images = (c: FakeCluster) => c.names().map((n) => c.pods.get(n)!.spec.containers[0]!.image);

  it.each([
    [undefined, ['web-4', 'web-3', 'web-2', 'web-1', 'web-0'], ['nginx', 'nginx', 'nginx', 'nginx', 'nginx']],
    [2, ['web-4', 'web-3', 'web-2'], ['busybox', 'busybox', 'nginx', 'nginx', 'nginx']],
    [5, [], ['busybox', 'busybox', 'busybox', 'busybox', 'busybox']],
  ])('RollingUpdate with partition %s replaces %j, highest ordinal first', (partition, order, after) => {
    const c = new FakeCluster(
      makeSet(5, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: partition ?? 0 } } }),
    );
    converge(c);
    changeImage(c, 'nginx');
    converge(c);
    expect(c.deleted).toEqual(order);
    expect(images(c)).toEqual(after);
  });

  it.each<[number | string, number, string[], string[]]>([
    [2, 0, [], ['web-4', 'web-3']],
    ['40%', 0, [], ['web-4', 'web-3']],
    [3, 3, [], ['web-4', 'web-3']],
    [2, 0, ['web-0'], ['web-4']],
    [1, 0, ['web-0'], []],
  ])(
    'Parallel, maxUnavailable %s, partition %i, unready %j: the first update sync deletes %j',
    (max, partition, unready, deleted) => {
      // Parallel, so an unready pod does not stop the sync before the update step (OrderedReady would)
      const c = new FakeCluster(
        makeSet(5, {
          podManagementPolicy: 'Parallel',
          updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition, maxUnavailable: max } },
        }),
      );
      converge(c);
      for (const n of unready) c.run(n, false);
      changeImage(c, 'nginx');
      c.sync();
      expect(c.deleted).toEqual(deleted);
    },
  );

  it('maxUnavailable still converges to every pod at the new template', () => {
    const c = new FakeCluster(
      makeSet(5, {
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 2 } },
      }),
    );
    converge(c);
    changeImage(c, 'nginx');
    converge(c);
    expect(images(c)).toEqual(['nginx', 'nginx', 'nginx', 'nginx', 'nginx']);
    expect(c.deleted).toEqual(['web-4', 'web-3', 'web-2', 'web-1', 'web-0']);
  });

  it.each([
    [1, 5, 1],
    [3, 5, 3],
    [0, 5, 1],
    ['50%', 5, 2],
    ['10%', 5, 1],
    ['100%', 4, 4],
  ])('maxUnavailable %s of %i replicas is %i pod(s)', (value, replicas, pods) => {
    expect(scaledMaxUnavailable(value, replicas)).toBe(pods);
  });

  it.each([
    ['web-0', 'busybox'],
    ['web-3', 'nginx'],
  ])(
    'with partition 2 a deleted %s comes back at %s (below the partition: the current revision)',
    (name, image) => {
      const c = new FakeCluster(
        makeSet(5, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } }),
      );
      converge(c);
      changeImage(c, 'nginx');
      converge(c);
      c.pods.delete(name);
      converge(c);
      expect(c.pods.get(name)?.spec.containers[0]?.image).toBe(image);
    },
  );

  it('RollingUpdate replaces one pod at a time, waiting for the new one to be ready', () => {
    const c = new FakeCluster(makeSet(3));
    converge(c);
    changeImage(c, 'nginx');
    c.sync();
    expect(c.deleted).toEqual(['web-2']);
    c.finishDeletions();
    c.sync();
    expect(c.created.at(-1)).toBe('web-2');
    c.sync();
    expect(c.deleted).toEqual(['web-2']); // web-2 not ready yet
  });

  it('OnDelete changes nothing until a pod is deleted, then recreates it from the new template', () => {
    const c = new FakeCluster(makeSet(3, { updateStrategy: { type: 'OnDelete' } }));
    converge(c);
    changeImage(c, 'nginx');
    converge(c);
    expect(c.deleted).toEqual([]);
    expect(images(c)).toEqual(['busybox', 'busybox', 'busybox']);
    c.pods.delete('web-1');
    converge(c);
    expect(images(c)).toEqual(['busybox', 'nginx', 'busybox']);
    expect(c.set.status?.currentRevision).not.toBe(c.set.status?.updateRevision);
  });

  it('the update revision becomes current once every pod is updated and ready', () => {
    const c = new FakeCluster(makeSet(3));
    converge(c);
    const first = c.set.status?.currentRevision;
    changeImage(c, 'nginx');
    c.sync();
    expect(c.set.status).toMatchObject({ currentRevision: first, currentReplicas: 2, updatedReplicas: 0 });
    converge(c);
    expect(c.set.status).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
      observedGeneration: 2,
    });
    expect(c.set.status?.currentRevision).toBe(c.set.status?.updateRevision);
    expect(c.set.status?.currentRevision).not.toBe(first);
  });

  it('going back to an earlier template reuses its revision, renumbered', () => {
    const c = new FakeCluster(makeSet(2));
    converge(c);
    const first = c.set.status?.currentRevision;
    changeImage(c, 'nginx');
    converge(c);
    changeImage(c, 'busybox');
    converge(c);
    expect(c.set.status?.currentRevision).toBe(first);
    expect(c.revisions.map((r) => [r.metadata.name === first, r.revision])).toEqual([
      [true, 3],
      [false, 2],
    ]);
  });
});

describe('planStatefulSetSync: identity and status', () => {
  it('puts back a pod identity label someone removed', () => {
    const set = makeSet(1);
    const pod = runningPod(set, 0);
    delete pod.metadata.labels!['statefulset.kubernetes.io/pod-name'];
    const plan = syncOnce(set, [pod]);
    expect(plan.actions).toHaveLength(1);
    expect(plan.actions[0]!.type).toBe('update');
    expect(plan.actions[0]!.pod.metadata.labels!['statefulset.kubernetes.io/pod-name']).toBe('web-0');
  });

  it.each([
    [0, undefined, 1],
    [10, 10_000, 0],
  ])(
    'with minReadySeconds %i a just-ready pod is available later (requeue %s ms, available %i)',
    (min, requeue, available) => {
      const set = makeSet(1, { minReadySeconds: min });
      const pod = runningPod(set, 0);
      const plan = planStatefulSetSync({
        set,
        pods: [pod],
        currentSet: set,
        currentRevision: 'web-rev1',
        updateSet: set,
        updateRevision: 'web-rev1',
        now: Date.parse('2026-01-01T00:00:05Z'),
      });
      expect(plan.requeueAfter).toBe(requeue);
      expect(plan.status.availableReplicas).toBe(available);
      expect(plan.status.readyReplicas).toBe(1);
    },
  );

  it('counts current and updated replicas by revision label, terminating pods left out', () => {
    const set = makeSet(3);
    const terminating = newStatefulPod(set, 2, 'web-rev2');
    terminating.metadata.deletionTimestamp = '2026-01-02T00:00:00Z';
    const plan = planStatefulSetSync({
      set,
      pods: [runningPod(set, 0, 'web-rev1'), runningPod(set, 1, 'web-rev2'), terminating],
      currentSet: set,
      currentRevision: 'web-rev1',
      updateSet: set,
      updateRevision: 'web-rev2',
      now: 0,
    });
    expect(plan.status).toMatchObject({
      replicas: 3,
      currentReplicas: 1,
      updatedReplicas: 1,
      readyReplicas: 2,
    });
  });
});
