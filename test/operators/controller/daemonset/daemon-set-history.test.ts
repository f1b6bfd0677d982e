// Tests of the daemon set's history: upstream's constructHistory, dedupCurHistories and cleanupHistory cases in our words.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import {
  daemonSetHash,
  daemonSetHistoryPlan,
  daemonSetRevision,
  revisionsToDelete,
} from '../../../../operators/controller/daemonset/daemon-set-history.ts';
import type {
  ControllerRevision,
  DaemonSet,
} from '../../../../operators/controller/daemonset/daemon-set-types.ts';
import { daemonSet } from './daemon-set-world.ts';

const withImage = (image: string): DaemonSet => daemonSet({ image });
const rev = (image: string, revision: number): ControllerRevision =>
  daemonSetRevision(withImage(image), revision);

describe('daemonSetRevision', () => {
  it('snapshots the template as a replace patch, named and labelled by the hash, owned by the daemon set', () => {
    const ds = withImage('a');
    const r = daemonSetRevision(ds, 1);
    const hash = daemonSetHash(ds);
    expect(r.metadata.name).toBe(`foo-${hash}`);
    expect(r.metadata.labels).toEqual({ name: 'simple-daemon', 'controller-revision-hash': hash });
    expect(r.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'DaemonSet',
      name: 'foo',
      controller: true,
    });
    expect(r.data).toEqual({ spec: { template: { ...ds.spec.template, $patch: 'replace' } } });
    expect(r.revision).toBe(1);
  });

  it('a collision count changes the hash', () => {
    const ds = withImage('a');
    const bumped = { ...ds, status: { ...(ds.status ?? {}), collisionCount: 1 } } as DaemonSet;
    expect(daemonSetHash(bumped)).not.toBe(daemonSetHash(ds));
  });
});

describe('daemonSetHistoryPlan', () => {
  it.each<
    [
      string,
      string,
      ControllerRevision[],
      { create?: number; current?: number; renumber?: number; dups: number[]; old: number[] },
    ]
  >([
    ['no history: revision 1 to create', 'a', [], { create: 1, dups: [], old: [] }],
    [
      'a new template: one past the highest old',
      'c',
      [rev('a', 1), rev('b', 2)],
      { create: 3, dups: [], old: [1, 2] },
    ],
    [
      'the current template already saved as the newest',
      'b',
      [rev('a', 1), rev('b', 2)],
      { current: 2, dups: [], old: [1] },
    ],
    [
      'a rollback to an older revision renumbers it past the others',
      'a',
      [rev('a', 1), rev('b', 2)],
      { current: 1, renumber: 3, dups: [], old: [2] },
    ],
    [
      'duplicates of the current one: the highest stays, the others go',
      'a',
      [rev('a', 1), rev('a', 4), rev('b', 2)],
      { current: 4, dups: [1], old: [2] },
    ],
  ])('%s', (_name, image, revisions, want) => {
    const plan = daemonSetHistoryPlan(withImage(image), revisions);
    expect(plan.create?.revision).toBe(want.create);
    expect(plan.current?.revision).toBe(want.current);
    expect(plan.renumber).toBe(want.renumber);
    expect(plan.duplicates.map((r) => r.revision)).toEqual(want.dups);
    expect(plan.old.map((r) => r.revision)).toEqual(want.old);
    expect(plan.hash).toBe(daemonSetHash(withImage(image)));
  });
});

describe('revisionsToDelete', () => {
  const old = ['a', 'b', 'c', 'd'].map((image, i) => rev(image, i + 1));
  const podWithHash = (hash: string | undefined) =>
    ({
      metadata: { labels: hash ? { 'controller-revision-hash': hash } : {} },
      spec: { containers: [] },
    }) as Pod;
  it.each<[string, number | undefined, (string | undefined)[], number[]]>([
    ['within the limit: none', 10, [], []],
    ['beyond the limit: the oldest', 2, [], [1, 2]],
    ['a revision a live pod still runs is spared', 2, [daemonSetHash(withImage('a'))], [2, 3]],
    ['limit 0 deletes every old revision no pod runs', 0, [daemonSetHash(withImage('d'))], [1, 2, 3]],
  ])('%s', (_name, limit, podHashes, want) => {
    const ds = daemonSet({ ...(limit !== undefined ? { revisionHistoryLimit: limit } : {}), image: 'e' });
    const pods = podHashes.map(podWithHash);
    expect(revisionsToDelete(ds, old, pods).map((r) => r.revision)).toEqual(want);
  });
});
