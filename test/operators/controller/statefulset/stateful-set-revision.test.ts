// statefulSetRevisions: new revisions, the current and update revisions, rollback renumbering and history truncation, as upstream's getStatefulSetRevisions and truncateHistory.
import { describe, expect, it } from 'vitest';
import {
  applyRevision,
  equalRevision,
  newRevision,
  planRevisions,
  revisionHash,
  revisionsToTruncate,
  sortRevisions,
} from '../../../../operators/controller/statefulset/stateful-set-revision.ts';
import type {
  ControllerRevision,
  StatefulSet,
} from '../../../../operators/controller/statefulset/stateful-set-types.ts';
import { makeSet, runningPod } from './fixtures.ts';

const withImage = (set: StatefulSet, image: string): StatefulSet => {
  const t = structuredClone(set.spec.template!);
  t.spec!.containers[0]!.image = image;
  return { ...set, spec: { ...set.spec, template: t } };
};
/** Revisions 1..n of images img1..imgN. */
const history = (set: StatefulSet, n: number): ControllerRevision[] =>
  Array.from({ length: n }, (_, i) => newRevision(withImage(set, `img${i + 1}`), i + 1, 0));

describe('newRevision', () => {
  it('holds a patch replacing the template, the template labels, the set as controller and a <set>-<hash> name', () => {
    const set = makeSet(1);
    set.metadata.annotations = { note: 'x' };
    const r = newRevision(set, 1, 0);
    expect(r.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(r.metadata.labels).toEqual({ app: 'web' });
    expect(r.metadata.annotations).toEqual({ note: 'x' });
    expect(r.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'StatefulSet',
      uid: 'set-uid',
      controller: true,
    });
    expect(r.data).toEqual({ spec: { template: { ...set.spec.template, $patch: 'replace' } } });
    expect(r.revision).toBe(1);
  });

  it.each([
    ['the same template and count', 'busybox', 0, true],
    ['another collision count', 'busybox', 1, false],
    ['another template', 'nginx', 0, false],
  ])('hashes equal for %s: %s', (_what, image, count, same) => {
    const set = makeSet(1);
    const a = revisionHash(newRevision(set, 1, 0).data, 0);
    const b = revisionHash(newRevision(withImage(set, image), 1, 0).data, count);
    expect(a === b).toBe(same);
  });

  it('hashes a template the same whatever the order of its keys', () => {
    const set = makeSet(1);
    const reordered = {
      ...set,
      spec: {
        ...set.spec,
        template: { spec: set.spec.template!.spec, metadata: set.spec.template!.metadata },
      },
    };
    expect(newRevision(reordered, 1, 0).metadata.name).toBe(newRevision(set, 1, 0).metadata.name);
    expect(equalRevision(newRevision(reordered, 1, 0), newRevision(set, 2, 0))).toBe(true);
  });

  it('applyRevision gives back the template the revision holds', () => {
    const set = makeSet(1);
    const r = newRevision(withImage(set, 'nginx'), 1, 0);
    expect(applyRevision(set, r).spec.template).toEqual(withImage(set, 'nginx').spec.template);
  });
});

describe('planRevisions', () => {
  const set = makeSet(1);

  it('with no history creates revision 1, both current and update', () => {
    const plan = planRevisions(set, []);
    expect(plan.write?.type).toBe('create');
    expect(plan.update.revision).toBe(1);
    expect(plan.current).toBe(plan.update);
  });

  it('with the template as the newest revision writes nothing', () => {
    const revs = history(set, 2);
    const plan = planRevisions(withImage(set, 'img2'), revs);
    expect(plan.write).toBeUndefined();
    expect(plan.update.metadata.name).toBe(revs[1]!.metadata.name);
  });

  it('a new template creates the next number; status.currentRevision stays current', () => {
    const revs = history(set, 2);
    const s = {
      ...withImage(set, 'img3'),
      status: { replicas: 1, currentRevision: revs[1]!.metadata.name! },
    };
    const plan = planRevisions(s, revs);
    expect(plan.write?.type).toBe('create');
    expect(plan.update.revision).toBe(3);
    expect(plan.current.metadata.name).toBe(revs[1]!.metadata.name);
  });

  it('going back to an older template renumbers that revision (a rollback)', () => {
    const revs = history(set, 3);
    const plan = planRevisions(withImage(set, 'img1'), revs);
    expect(plan.write).toEqual({ type: 'bump', revision: { ...revs[0], revision: 4 } });
    expect(plan.update.metadata.name).toBe(revs[0]!.metadata.name);
  });

  it('a current revision that is gone falls back to the update revision', () => {
    const s = { ...set, status: { replicas: 1, currentRevision: 'web-gone' } };
    const plan = planRevisions(s, []);
    expect(plan.current).toBe(plan.update);
  });

  it('sorts by number, then creation time, then name', () => {
    const [a, b, c] = history(set, 3);
    const same = { ...c!, revision: 1, metadata: { ...c!.metadata, name: 'web-0' } };
    expect(sortRevisions([b!, c!, a!, same]).map((r) => r.revision)).toEqual([1, 1, 2, 3]);
  });
});

describe('revisionsToTruncate', () => {
  const set = makeSet(1);
  it.each([
    [10, 12, 0],
    [2, 12, 7],
    [0, 5, 2],
  ])(
    'with revisionHistoryLimit %i of %i revisions deletes %i, oldest first, never a live one',
    (limit, n, deleted) => {
      const revs = history(set, n);
      const s = { ...set, spec: { ...set.spec, revisionHistoryLimit: limit } };
      const current = revs[n - 2]!;
      const update = revs[n - 1]!;
      const pods = [runningPod(set, 0, revs[0]!.metadata.name)];
      const out = revisionsToTruncate(s, pods, revs, current, update);
      expect(out).toHaveLength(deleted);
      const live = new Set([current, update, revs[0]].map((r) => r!.metadata.name));
      for (const r of out) expect(live.has(r.metadata.name)).toBe(false);
      expect(out).toEqual(sortRevisions(out));
      if (deleted > 0) expect(out[0]).toBe(revs[1]);
    },
  );
});
