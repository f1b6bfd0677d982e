// Tests: NewRSNewReplicas, reconcileNewReplicaSet, cleanupUnhealthyReplicas and scaleDownOldReplicaSetsForRollingUpdate (upstream's rolling_test.go and deployment_util_test.go tables, in our words).
import { describe, expect, it } from 'vitest';
import {
  cleanupUnhealthyReplicas,
  maxScaledDown,
  newRSNewReplicas,
  reconcileNewReplicaSetTarget,
  scaleDownOldReplicaSetsForRollingUpdate,
} from '../../../../operators/controller/deployment/rolling-update.ts';
import { newDeployment, rs } from './fixtures.ts';

describe('newRSNewReplicas', () => {
  it.each([
    ['cannot scale up: at replicas + surge already', 'RollingUpdate', 1, 5, 1, 5, 5],
    ['scale up, never past replicas', 'RollingUpdate', 6, 2, 10, 4, 6],
    ['recreate: all of them', 'Recreate', 3, 1, 1, 1, 3],
    ['room for 2 of surge', 'RollingUpdate', 10, 0, 2, 10, 2],
  ] as const)('%s', (_name, strategy, replicas, newReplicas, surge, oldReplicas, want) => {
    const d = newDeployment(replicas, { maxSurge: surge, strategy });
    const newRS = rs('new', newReplicas, 2);
    expect(newRSNewReplicas(d, [newRS, rs('old', oldReplicas, 1)], newRS)).toBe(want);
  });

  it('an unknown strategy type is an error value', () => {
    const d = newDeployment(3);
    d.spec.strategy = { type: 'Blue' };
    const newRS = rs('new', 0);
    expect(newRSNewReplicas(d, [newRS], newRS)).toEqual({ error: "deployment type Blue isn't supported" });
  });
});

describe('reconcileNewReplicaSet', () => {
  it.each([
    ['no surge: no room', 10, 0, 10, 0, undefined],
    ['surge 2 over 10 old', 10, 2, 10, 0, 2],
    ['surge 2 over 5 old', 10, 2, 5, 0, 7],
    ['already at replicas + surge', 10, 2, 10, 2, 2],
    ['more than replicas: scaled down to replicas', 10, 2, 2, 11, 10],
  ])('%s', (_name, replicas, surge, oldReplicas, newReplicas, want) => {
    const d = newDeployment(replicas, { maxSurge: surge });
    const newRS = rs('foo-v2', newReplicas, 2);
    const target = reconcileNewReplicaSetTarget(d, [newRS, rs('foo-v1', oldReplicas, 1)], newRS);
    // "no change" shows as undefined or as the current size
    expect(target === undefined ? newReplicas : target).toBe(want ?? newReplicas);
  });
});

describe('cleanupUnhealthyReplicas', () => {
  it.each([
    ['2 unhealthy, at most 1', 10, 8, 1, 1],
    ['2 unhealthy, at most 3', 10, 8, 3, 2],
    ['at most 0', 10, 8, 0, 0],
    ['all healthy', 10, 10, 3, 0],
  ])('%s', (_name, oldReplicas, available, max, want) => {
    const r = cleanupUnhealthyReplicas([rs('foo-v2', oldReplicas, 0, { availableReplicas: available })], max);
    expect(r.total).toBe(want);
    expect(r.steps.map((s) => s.replicas)).toEqual(want > 0 ? [oldReplicas - want] : []);
  });

  it('takes the oldest sets first', () => {
    const older = rs('a', 3, 1, { availableReplicas: 1 });
    const newer = rs('b', 3, 2, { availableReplicas: 1 });
    const r = cleanupUnhealthyReplicas([newer, older], 3);
    expect(r.steps.map((s) => [s.replicaSet.metadata.name, s.replicas])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
  });
});

describe('scaleDownOldReplicaSetsForRollingUpdate', () => {
  it.each([
    ['unavailable 0 (fencepost 1), 10 available → 9', 0, 10, 10, 9],
    ['unavailable 2, 10 available → 8', 2, 10, 10, 8],
    ['unavailable 2, 8 available → none', 2, 8, 10, undefined],
    ['no old replicas → none', 2, 10, 0, undefined],
    ['1 available → none', 2, 1, 10, undefined],
  ])('%s', (_name, mu, available, oldReplicas, want) => {
    const d = newDeployment(10, { maxUnavailable: mu });
    const old = rs('foo-v2', oldReplicas, 0, { availableReplicas: available });
    const r = scaleDownOldReplicaSetsForRollingUpdate(d, [old], [old]);
    expect(r.steps[0]?.replicas).toBe(want);
  });
});

describe('maxScaledDown', () => {
  it('counts the new set unavailable pods against the budget', () => {
    const d = newDeployment(10, { maxUnavailable: 2 });
    const newRS = rs('new', 2, 2, { availableReplicas: 0 });
    expect(maxScaledDown(d, [rs('old', 8, 1, { availableReplicas: 8 }), newRS], newRS)).toBe(0);
  });
});
