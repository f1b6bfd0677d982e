// Tests of daemonSetPlan: upstream's update_test.go rolling sequences (maxUnavailable, maxSurge, not-ready pods, OnDelete) and podsShouldBeOnNode cases, over an in-memory world.
import { describe, expect, it } from 'vitest';
import {
  daemonSetPlan,
  isDaemonPodUpdated,
} from '../../../../operators/controller/daemonset/daemon-set-plan.ts';
import type { DaemonSet } from '../../../../operators/controller/daemonset/daemon-set-types.ts';
import { DaemonSetWorld, daemonSet, iso, node } from './daemon-set-world.ts';

const fiveNodes = (ds: DaemonSet) => {
  const w = new DaemonSetWorld(ds);
  w.nodes = [0, 1, 2, 3, 4].map((i) => node(`node-${i}`));
  return w;
};
type Step = [created: number, deleted: number] | 'ready' | { at: number } | 'update';

/** Runs steps: a pair expects one sync's creations and deletions; 'ready' marks every pod ready; {at} moves the clock. */
function run(w: DaemonSetWorld, steps: Step[], update: (ds: DaemonSet) => void) {
  const seen: Step[] = [];
  for (const s of steps) {
    if (s === 'ready') w.markReady((p) => p.status?.conditions === undefined);
    else if (s === 'update') w.update(update);
    else if (!Array.isArray(s)) w.now = s.at * 1000;
    else {
      const r = w.sync();
      seen.push([r.created, r.deleted]);
      continue;
    }
    seen.push(s);
  }
  return seen;
}

describe('daemonSetPlan rolling updates (upstream update_test.go)', () => {
  const newImage = (maxUnavailable: number | string, maxSurge?: number) => (ds: DaemonSet) => {
    ds.spec.template!.spec!.containers[0]!.image = 'foo2/bar2';
    ds.spec.updateStrategy = {
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable, ...(maxSurge !== undefined ? { maxSurge } : {}) },
    };
  };
  it.each<[string, (ds: DaemonSet) => void, Step[]]>([
    [
      'maxUnavailable 2 replaces two nodes at a time, waiting for the new pods to be ready',
      newImage(2),
      ['update', [0, 2], [2, 0], 'ready', [0, 2], [2, 0], 'ready', [0, 1], [1, 0], 'ready', [0, 0]],
    ],
    [
      'maxSurge 2 starts two new pods beside the old ones, deleting each old pod once its replacement is available',
      newImage(0, 2),
      ['update', [2, 0], [0, 0], 'ready', [2, 2], [0, 0], 'ready', [1, 2], [0, 0], 'ready', [0, 1], [0, 0]],
    ],
    [
      'new pods that never become ready stop the update at maxUnavailable (3)',
      newImage(3),
      ['update', [0, 3], [3, 0], [0, 0], [0, 0]],
    ],
    [
      'the template unchanged: nothing is replaced',
      (ds) => {
        ds.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 3 } };
      },
      ['update', [0, 0]],
    ],
  ])('%s', (_name, update, steps) => {
    const w = fiveNodes(daemonSet({ updateStrategy: { type: 'OnDelete' } }));
    expect(w.sync()).toEqual({ created: 5, deleted: 0 });
    w.markReady();
    expect(run(w, steps, update)).toEqual(steps);
  });

  it('old pods that are all unavailable are replaced at once, whatever maxUnavailable says', () => {
    const w = fiveNodes(daemonSet({ updateStrategy: { type: 'OnDelete' } }));
    w.sync();
    expect(run(w, ['update', [0, 5], [5, 0], [0, 0]], newImage(3))).toEqual([
      'update',
      [0, 5],
      [5, 0],
      [0, 0],
    ]);
  });

  it('with surge, unavailable old pods get a new pod beside them at once, then go when it is ready', () => {
    const w = fiveNodes(daemonSet({ updateStrategy: { type: 'OnDelete' } }));
    w.sync();
    w.update(newImage(0, 3));
    expect(w.sync()).toEqual({ created: 5, deleted: 0 });
    // neither ready: only the pod of the current revision stays
    expect(w.sync()).toEqual({ created: 0, deleted: 5 });
    expect(w.pods.every((p) => p.metadata.labels?.['controller-revision-hash'] === w.hash)).toBe(true);
  });

  it('with surge and minReadySeconds, the old pod goes only once the new one has been ready long enough', () => {
    const w = fiveNodes(daemonSet({ updateStrategy: { type: 'OnDelete' }, minReadySeconds: 15 }));
    w.sync();
    w.markReady();
    w.update(newImage(0, 5));
    expect(w.sync()).toEqual({ created: 5, deleted: 0 });
    w.markReady((p) => p.status?.phase === 'Pending');
    w.now += 10_000;
    expect(w.sync()).toEqual({ created: 0, deleted: 0 });
    w.now += 10_000;
    expect(w.sync()).toEqual({ created: 0, deleted: 5 });
  });

  it('OnDelete replaces nothing until an old pod is deleted; its replacement is of the new revision', () => {
    const w = fiveNodes(daemonSet({ updateStrategy: { type: 'OnDelete' } }));
    w.sync();
    w.markReady();
    w.update((ds) => {
      ds.spec.template!.spec!.containers[0]!.image = 'foo2/bar2';
    });
    expect(w.sync()).toEqual({ created: 0, deleted: 0 });
    w.pods.shift();
    expect(w.sync()).toEqual({ created: 1, deleted: 0 });
    expect(w.pods.filter((p) => p.metadata.labels?.['controller-revision-hash'] === w.hash)).toHaveLength(1);
  });
});

describe('daemonSetPlan manage step (upstream podsShouldBeOnNode)', () => {
  it('creates one pod per eligible node and none where the selector does not match', () => {
    const w = new DaemonSetWorld(
      daemonSet({
        template: {
          metadata: { labels: { name: 'simple-daemon' } },
          spec: { containers: [{ name: 'c', image: 'x' }], nodeSelector: { color: 'blue' } },
        },
      }),
    );
    w.nodes = [node('a', { labels: { color: 'blue' } }), node('b'), node('c', { labels: { color: 'blue' } })];
    expect(w.sync()).toEqual({ created: 2, deleted: 0 });
    expect(w.pods.map((p) => p.spec.nodeName).sort()).toEqual(['a', 'c']);
    expect(w.sync()).toEqual({ created: 0, deleted: 0 });
  });

  it('deletes the pod of a node whose label stopped matching, and of one tainted NoExecute', () => {
    const w = new DaemonSetWorld(
      daemonSet({
        template: {
          metadata: { labels: { name: 'simple-daemon' } },
          spec: { containers: [{ name: 'c', image: 'x' }], nodeSelector: { color: 'blue' } },
        },
      }),
    );
    w.nodes = [
      node('a', { labels: { color: 'blue' } }),
      node('b', { labels: { color: 'blue' } }),
      node('c', { labels: { color: 'blue' } }),
    ];
    w.sync();
    w.nodes[0] = node('a', { labels: { color: 'red' } });
    w.nodes[1] = node('b', { labels: { color: 'blue' }, taints: [{ key: 'evict', effect: 'NoExecute' }] });
    w.nodes[2] = node('c', { labels: { color: 'blue' }, taints: [{ key: 'nosched', effect: 'NoSchedule' }] });
    expect(w.sync()).toEqual({ created: 0, deleted: 2 });
    expect(w.pods.map((p) => p.spec.nodeName)).toEqual(['c']);
  });

  it('deletes a failed pod; the next sync creates its replacement', () => {
    const w = new DaemonSetWorld(daemonSet());
    w.nodes = [node('a')];
    w.sync();
    w.pods[0]!.status = { phase: 'Failed' };
    expect(w.sync()).toEqual({ created: 0, deleted: 1 });
    expect(w.sync()).toEqual({ created: 1, deleted: 0 });
  });

  it('without surge keeps only the oldest of two pods on a node', () => {
    const w = new DaemonSetWorld(daemonSet());
    w.nodes = [node('a')];
    w.sync();
    const copy = structuredClone(w.pods[0]!);
    copy.metadata.uid = 'second';
    copy.metadata.name = 'foo-zzzzz';
    copy.metadata.creationTimestamp = iso(w.now + 5000);
    w.pods.push(copy);
    const plan = daemonSetPlan({ ds: w.ds, nodes: w.nodes, pods: w.pods, hash: w.hash, now: w.now });
    expect(plan.delete.map((p) => p.metadata.uid)).toEqual(['second']);
  });

  it('does not create a second pod while the node’s pod is being deleted', () => {
    const w = new DaemonSetWorld(daemonSet());
    w.nodes = [node('a')];
    w.sync();
    w.pods[0]!.metadata.deletionTimestamp = iso(w.now);
    expect(daemonSetPlan({ ds: w.ds, nodes: w.nodes, pods: w.pods, hash: w.hash, now: w.now })).toEqual({
      create: [],
      delete: [],
      step: 'none',
    });
  });

  it('deletes unbound pods aimed at a node that no longer exists, leaving bound ones to the pod GC', () => {
    const w = new DaemonSetWorld(daemonSet());
    w.nodes = [node('a'), node('b')];
    w.sync();
    delete w.pods[1]!.spec.nodeName;
    w.nodes = [];
    const plan = daemonSetPlan({ ds: w.ds, nodes: w.nodes, pods: w.pods, hash: w.hash, now: w.now });
    expect(plan.delete.map((p) => p.metadata.uid)).toEqual([w.pods[1]!.metadata.uid]);
  });
});

describe('isDaemonPodUpdated (upstream TestIsPodUpdated)', () => {
  const pod = (labels: Record<string, string> | undefined) =>
    ({ metadata: { name: 'p', ...(labels ? { labels } : {}) }, spec: { containers: [] } }) as never;
  const both = { 'pod-template-generation': '12345', 'controller-revision-hash': '55555' };
  const noHash = { 'pod-template-generation': '12345' };
  it.each<[string, number, Record<string, string> | undefined, string, boolean]>([
    ['generation and hash both match', 12345, both, '55555', true],
    ['generation matches, hash does not', 12345, both, '55555123', true],
    ['generation matches, no hash label', 12345, noHash, '55555', true],
    ['generation matches, no hash label, no hash', 12345, noHash, '', true],
    ['generation matches, hash label, no hash', 12345, both, '', true],
    ['generation differs, hash matches', 12346, both, '55555', true],
    ['generation and hash both differ', 12346, both, '55555123', false],
    ['empty labels, no hash', 12345, {}, '', false],
    ['empty labels', 12345, {}, '55555', false],
    ['no labels', 12345, undefined, '55555', false],
  ])('%s', (_name, generation, labels, hash, want) => {
    expect(isDaemonPodUpdated(pod(labels), hash, generation)).toBe(want);
  });
});
