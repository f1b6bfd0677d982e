// Tests: the revision annotations (upstream's TestMaxRevision, TestLastRevision, TestAnnotationUtils, TestReplicasAnnotationsNeedUpdate), in our words.
import { describe, expect, it } from 'vitest';
import {
  lastRevision,
  maxRevision,
  replicasAnnotationsNeedUpdate,
  revisionOf,
  setNewReplicaSetAnnotations,
} from '../../../../operators/controller/deployment/deployment-revision.ts';
import type { ReplicaSet } from '../../../../operators/controller/replicaset/replica-set-types.ts';
import { newDeployment, rs } from './fixtures.ts';

const withRevision = (name: string, revision?: string): ReplicaSet => {
  const out = rs(name, 1);
  out.metadata.annotations = revision === undefined ? {} : { 'deployment.kubernetes.io/revision': revision };
  return out;
};

describe('revisions', () => {
  it.each([
    ['none', [], 0, 0],
    ['one', ['3'], 3, 0],
    ['several', ['1', '5', '3'], 5, 3],
    ['an unparsable one is skipped', ['1', 'x', '2'], 2, 1],
    ['a missing one counts as 0', [undefined, '2'], 2, 0],
    ['equal maxima', ['4', '4'], 4, 4],
  ])('%s', (_name, revisions, max, last) => {
    const sets = revisions.map((r, i) => withRevision(`rs${i}`, r));
    expect(maxRevision(sets)).toBe(max);
    expect(lastRevision(sets)).toBe(last);
  });

  it('reads a missing annotation as 0 and a malformed one as undefined', () => {
    expect(revisionOf(withRevision('a'))).toBe(0);
    expect(revisionOf(withRevision('a', '12'))).toBe(12);
    expect(revisionOf(withRevision('a', '1.5'))).toBeUndefined();
  });
});

describe('setNewReplicaSetAnnotations', () => {
  it('a new set: copies the Deployment annotations but the skipped ones, sets revision and replica annotations', () => {
    const d = newDeployment(10, { maxSurge: 3 });
    d.metadata.annotations = {
      team: 'web',
      'kubernetes.io/change-cause': 'kubectl set image',
      'kubectl.kubernetes.io/last-applied-configuration': '{}',
      'deployment.kubernetes.io/revision': '7',
    };
    const set = rs('new', 0);
    expect(setNewReplicaSetAnnotations(d, set, 2, false)).toBe(true);
    expect(set.metadata.annotations).toEqual({
      team: 'web',
      'kubernetes.io/change-cause': 'kubectl set image',
      'deployment.kubernetes.io/revision': '2',
      'deployment.kubernetes.io/desired-replicas': '10',
      'deployment.kubernetes.io/max-replicas': '13',
    });
  });

  it('an existing set at a lower revision (a rollback): the old revision goes to revision-history', () => {
    const d = newDeployment(3);
    const set = withRevision('old', '1');
    expect(setNewReplicaSetAnnotations(d, set, 3, true)).toBe(true);
    expect(set.metadata.annotations).toEqual({
      'deployment.kubernetes.io/revision': '3',
      'deployment.kubernetes.io/revision-history': '1',
    });
    expect(setNewReplicaSetAnnotations(d, set, 5, true)).toBe(true);
    expect(set.metadata.annotations?.['deployment.kubernetes.io/revision-history']).toBe('1,3');
  });

  it('never lowers a revision, and changes nothing when up to date', () => {
    const set = withRevision('new', '4');
    expect(setNewReplicaSetAnnotations(newDeployment(3), set, 3, true)).toBe(false);
    expect(set.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('4');
  });

  it('drops the oldest history entries past the length limit', () => {
    const set = withRevision('new', '9');
    set.metadata.annotations!['deployment.kubernetes.io/revision-history'] = '1,2,3';
    setNewReplicaSetAnnotations(newDeployment(3), set, 10, true, 6);
    expect(set.metadata.annotations?.['deployment.kubernetes.io/revision-history']).toBe('2,3,9');
  });

  it('leaves a set with a malformed revision alone', () => {
    const set = withRevision('new', 'abc');
    expect(setNewReplicaSetAnnotations(newDeployment(3), set, 3, true)).toBe(false);
    expect(set.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('abc');
  });
});

describe('replicasAnnotationsNeedUpdate', () => {
  it.each([
    ['no annotations', {}, true],
    [
      'desired differs',
      { 'deployment.kubernetes.io/desired-replicas': '9', 'deployment.kubernetes.io/max-replicas': '11' },
      true,
    ],
    [
      'max differs',
      { 'deployment.kubernetes.io/desired-replicas': '10', 'deployment.kubernetes.io/max-replicas': '12' },
      true,
    ],
    [
      'both match',
      { 'deployment.kubernetes.io/desired-replicas': '10', 'deployment.kubernetes.io/max-replicas': '11' },
      false,
    ],
  ])('%s → %s', (_name, annotations, want) => {
    const set = rs('a', 1);
    set.metadata.annotations = annotations;
    expect(replicasAnnotationsNeedUpdate(set, 10, 11)).toBe(want);
  });
});
