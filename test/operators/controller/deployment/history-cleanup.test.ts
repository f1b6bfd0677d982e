// Tests: which old ReplicaSets a Deployment deletes beyond revisionHistoryLimit (upstream's TestDeploymentController_cleanupDeployment, in our words).
import { describe, expect, it } from 'vitest';
import { MAX_INT32 } from '../../../../operators/controller/deployment/deployment-types.ts';
import { historyToCleanUp } from '../../../../operators/controller/deployment/history-cleanup.ts';
import type { ReplicaSet } from '../../../../operators/controller/replicaset/replica-set-types.ts';
import { newDeployment, rs } from './fixtures.ts';

const withStatus = (name: string, spec: number, status: number, revision?: number): ReplicaSet => {
  const out = rs(name, spec, 0, { replicas: status });
  if (revision !== undefined)
    out.metadata.annotations = { 'deployment.kubernetes.io/revision': String(revision) };
  return out;
};
const deleting = (() => {
  const out = withStatus('foo-1', 0, 0);
  out.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
  return out;
})();

describe('historyToCleanUp', () => {
  it.each([
    [
      'three empty sets, limit 1',
      [withStatus('foo-1', 0, 0), withStatus('foo-2', 0, 0), withStatus('foo-3', 0, 0)],
      1,
      2,
    ],
    [
      'only the set empty in spec and status goes, limit 0',
      [
        withStatus('foo-1', 0, 0),
        withStatus('foo-2', 0, 1),
        withStatus('foo-3', 1, 0),
        withStatus('foo-4', 1, 1),
      ],
      0,
      1,
    ],
    ['two empty sets, limit 0', [withStatus('foo-1', 0, 0), withStatus('foo-2', 0, 0)], 0, 2],
    ['two sets with replicas, limit 0', [withStatus('foo-1', 1, 1), withStatus('foo-2', 1, 1)], 0, 0],
    ['a set already being deleted', [deleting], 0, 0],
    [
      'unlimited history',
      [withStatus('foo-1', 0, 0), withStatus('foo-2', 0, 0), withStatus('foo-3', 0, 0)],
      MAX_INT32,
      0,
    ],
  ])('%s → %i deletions', (_name, sets, limit, want) => {
    expect(historyToCleanUp(newDeployment(1, { revisionHistoryLimit: limit }), sets)).toHaveLength(want);
  });

  it('deletes the lowest revisions first and defaults the limit to 10', () => {
    const sets = [withStatus('c', 0, 0, 3), withStatus('a', 0, 0, 1), withStatus('b', 0, 0, 2)];
    expect(
      historyToCleanUp(newDeployment(1, { revisionHistoryLimit: 1 }), sets).map((s) => s.metadata.name),
    ).toEqual(['a', 'b']);
    const many = Array.from({ length: 12 }, (_, i) => withStatus(`s${i}`, 0, 0, i + 1));
    expect(historyToCleanUp(newDeployment(1), many).map((s) => s.metadata.name)).toEqual(['s0', 's1']);
  });

  it('keeps a set whose latest generation its controller has not observed', () => {
    const pending = withStatus('a', 0, 0, 1);
    pending.metadata.generation = 2;
    pending.status!.observedGeneration = 1;
    expect(historyToCleanUp(newDeployment(1, { revisionHistoryLimit: 0 }), [pending])).toEqual([]);
  });
});
