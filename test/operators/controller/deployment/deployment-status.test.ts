// Tests: the Deployment status and conditions (upstream's TestDeploymentComplete, TestDeploymentProgressing, TestDeploymentTimedOut, TestRequeueStuckDeployment, TestSyncRolloutStatus), in our words.
import { describe, expect, it } from 'vitest';
import {
  calculateStatus,
  checkPausedConditions,
  deploymentComplete,
  deploymentProgressing,
  deploymentStatusEqual,
  deploymentTimedOut,
  requeueStuckDeployment,
  rolloutStatus,
  setDeploymentCondition,
  stamp,
} from '../../../../operators/controller/deployment/deployment-status.ts';
import {
  type DeploymentCondition,
  type DeploymentStatus,
  MAX_INT32,
} from '../../../../operators/controller/deployment/deployment-types.ts';
import { newDeployment, rs } from './fixtures.ts';

const T0 = Date.UTC(2017, 1, 15, 18, 49, 0);
const status = (replicas: number, updated: number, available: number, extra: DeploymentStatus = {}) => ({
  replicas,
  updatedReplicas: updated,
  availableReplicas: available,
  observedGeneration: 1,
  ...extra,
});
const progressing = (
  reason: string,
  s: 'True' | 'False' | 'Unknown' = 'True',
  at = T0,
): DeploymentCondition => ({
  type: 'Progressing',
  status: s,
  reason,
  lastUpdateTime: stamp(at),
  lastTransitionTime: stamp(at),
});

describe('deploymentComplete', () => {
  it.each([
    ['some but not all available', 5, status(5, 5, 4), false],
    ['minimum availability not met', 5, status(5, 5, 3), false],
    ['complete', 5, status(5, 5, 5), true],
    ['all available but not all updated', 5, status(5, 4, 5), false],
    ['old pods still running', 1, status(2, 1, 1), false],
    ['one replica never comes up', 1, status(1, 1, 0), false],
    ['generation not observed yet', 1, status(1, 1, 1, { observedGeneration: 0 }), false],
  ])('%s → %s', (_name, replicas, s, want) => {
    expect(deploymentComplete(newDeployment(replicas, { maxUnavailable: 1 }), s)).toBe(want);
  });
});

describe('deploymentProgressing', () => {
  it.each([
    ['more updated replicas', status(3, 1, 0), status(3, 2, 0), true],
    ['fewer old replicas', status(4, 2, 2), status(3, 2, 2), true],
    ['more available replicas', status(3, 3, 1), status(3, 3, 2), true],
    [
      'more ready replicas',
      { ...status(3, 3, 1), readyReplicas: 1 },
      { ...status(3, 3, 1), readyReplicas: 2 },
      true,
    ],
    ['nothing moved', status(3, 3, 1), status(3, 3, 1), false],
    ['fewer available replicas', status(3, 3, 2), status(3, 3, 1), false],
  ])('%s → %s', (_name, before, after, want) => {
    const d = newDeployment(3);
    d.status = before;
    expect(deploymentProgressing(d, after)).toBe(want);
  });
});

describe('deploymentTimedOut', () => {
  it.each([
    ['no deadline', undefined, progressing('ReplicaSetUpdated'), T0 + 60_000, false],
    ['an infinite deadline', MAX_INT32, progressing('ReplicaSetUpdated'), T0 + 60_000, false],
    ['9 s into a 10 s deadline', 10, progressing('ReplicaSetUpdated'), T0 + 9_000, false],
    ['11 s into a 10 s deadline', 10, progressing('ReplicaSetUpdated'), T0 + 11_000, true],
    ['the last rollout completed', 10, progressing('NewReplicaSetAvailable'), T0 + 11_000, false],
    ['already timed out', 10, progressing('ProgressDeadlineExceeded', 'False'), T0 + 1_000, true],
  ])('%s → %s', (_name, pds, condition, now, want) => {
    const d = newDeployment(3, pds === undefined ? {} : { progressDeadlineSeconds: pds });
    expect(deploymentTimedOut(d, { conditions: [condition] }, now)).toBe(want);
  });

  it('without a Progressing condition there is nothing to measure', () => {
    expect(deploymentTimedOut(newDeployment(3, { progressDeadlineSeconds: 1 }), {}, T0 + 60_000)).toBe(false);
  });
});

describe('requeueStuckDeployment', () => {
  const stuck = { type: 'Progressing', status: 'True' as const, lastUpdateTime: stamp(T0) };
  const failed = { type: 'Progressing', status: 'False' as const, reason: 'ProgressDeadlineExceeded' };
  const d = (
    pds: number | undefined,
    replicas: number,
    s: DeploymentStatus,
    conditions?: DeploymentCondition[],
  ) => {
    const out = newDeployment(
      replicas,
      pds === undefined ? { strategy: 'Recreate' } : { progressDeadlineSeconds: pds, strategy: 'Recreate' },
    );
    out.status = { ...s, ...(conditions ? { conditions } : {}) };
    return out;
  };
  it.each([
    ['no deadline', d(undefined, 4, status(3, 3, 2)), status(3, 3, 2), T0, -1],
    ['no Progressing condition', d(60, 4, status(3, 3, 2)), status(3, 3, 2), T0, -1],
    ['a complete deployment', d(60, 3, status(3, 3, 3), [stuck]), status(3, 3, 3), T0, -1],
    ['already timed out', d(60, 3, status(3, 3, 0), [failed]), status(3, 3, 0), T0, -1],
    ['30 s left', d(60, 3, status(3, 3, 1), [stuck]), status(3, 3, 1), T0 + 30_000, 30_000],
    ['1 s left', d(60, 3, status(3, 3, 1), [stuck]), status(3, 3, 1), T0 + 59_000, 1_000],
    ['less than a second left: now', d(60, 3, status(3, 3, 1), [stuck]), status(3, 3, 1), T0 + 59_001, 0],
    ['at the deadline: now', d(60, 3, status(3, 3, 1), [stuck]), status(3, 3, 1), T0 + 60_000, 0],
    ['60 s past the deadline: now', d(60, 3, status(3, 3, 1), [stuck]), status(3, 3, 1), T0 + 120_000, 0],
  ])('%s → %i', (_name, dep, next, now, want) => {
    expect(requeueStuckDeployment(dep, next, now)).toBe(want);
  });
});

describe('calculateStatus', () => {
  it('sums the sets, counts the new one as updated, and sets Available', () => {
    const d = newDeployment(4, { maxUnavailable: 1 });
    d.metadata.generation = 7;
    d.status = { collisionCount: 2 };
    const newRS = rs('new', 3, 2, { replicas: 2, readyReplicas: 2, availableReplicas: 1 });
    const old = rs('old', 2, 1, { replicas: 2, readyReplicas: 2, availableReplicas: 2 });
    const s = calculateStatus([old, newRS], newRS, d, T0);
    expect(s).toMatchObject({
      observedGeneration: 7,
      replicas: 4,
      updatedReplicas: 2,
      readyReplicas: 4,
      availableReplicas: 3,
      unavailableReplicas: 2,
      collisionCount: 2,
    });
    expect(s.conditions).toEqual([
      {
        type: 'Available',
        status: 'True',
        reason: 'MinimumReplicasAvailable',
        message: 'Deployment has minimum availability.',
        lastUpdateTime: stamp(T0),
        lastTransitionTime: stamp(T0),
      },
    ]);
  });

  it('reports MinimumReplicasUnavailable below replicas − maxUnavailable, and never negative unavailable', () => {
    const d = newDeployment(4, { maxUnavailable: 1 });
    const s = calculateStatus([rs('a', 4, 0, { replicas: 4, availableReplicas: 2 })], undefined, d, T0);
    expect(s.conditions?.[0]).toMatchObject({ status: 'False', reason: 'MinimumReplicasUnavailable' });
    const over = calculateStatus([rs('a', 1, 0, { replicas: 3, availableReplicas: 3 })], undefined, d, T0);
    expect(over.unavailableReplicas).toBe(0);
  });
});

describe('rolloutStatus (syncRolloutStatus)', () => {
  const newRS = (available: number, replicas = 3) =>
    rs('foo-new', replicas, 2, { replicas, readyReplicas: available, availableReplicas: available });
  const at = (pds?: number, conditions: DeploymentCondition[] = [], before: DeploymentStatus = {}) => {
    const d = newDeployment(
      3,
      pds === undefined ? { maxUnavailable: 1 } : { progressDeadlineSeconds: pds, maxUnavailable: 1 },
    );
    d.status = { ...before, ...(conditions.length ? { conditions } : {}) };
    return d;
  };
  const cond = (s: DeploymentStatus, type: string) => s.conditions?.find((c) => c.type === type);

  it('drops Progressing without a deadline', () => {
    const s = rolloutStatus([newRS(3)], newRS(3), at(undefined, [progressing('ReplicaSetUpdated')]), T0);
    expect(cond(s, 'Progressing')).toBeUndefined();
  });

  it('does not estimate progress once the last rollout completed with one set', () => {
    const d = at(600, [progressing('NewReplicaSetAvailable')], status(3, 3, 3));
    const s = rolloutStatus([newRS(3)], newRS(3), d, T0 + 10_000);
    expect(cond(s, 'Progressing')).toEqual(progressing('NewReplicaSetAvailable'));
  });

  it('on progress keeps lastTransitionTime of a True condition and moves lastUpdateTime', () => {
    const d = at(600, [progressing('ReplicaSetUpdated')], status(3, 3, 1));
    const s = rolloutStatus([newRS(2)], newRS(2), d, T0 + 10_000);
    expect(cond(s, 'Progressing')).toEqual({
      type: 'Progressing',
      status: 'True',
      reason: 'ReplicaSetUpdated',
      message: 'ReplicaSet "foo-new" is progressing.',
      lastUpdateTime: stamp(T0 + 10_000),
      lastTransitionTime: stamp(T0),
    });
  });

  it('on progress after a False condition updates every field', () => {
    const d = at(600, [progressing('ProgressDeadlineExceeded', 'False')], status(3, 3, 1));
    const s = rolloutStatus([newRS(2)], newRS(2), d, T0 + 10_000);
    expect(cond(s, 'Progressing')).toMatchObject({
      status: 'True',
      reason: 'ReplicaSetUpdated',
      lastTransitionTime: stamp(T0 + 10_000),
    });
  });

  it('creates Progressing on progress when there was none', () => {
    const s = rolloutStatus([newRS(2)], newRS(2), at(600, [], status(3, 3, 1)), T0);
    expect(cond(s, 'Progressing')).toMatchObject({ status: 'True', reason: 'ReplicaSetUpdated' });
  });

  it('marks a complete rollout NewReplicaSetAvailable, keeping the transition time of a True condition', () => {
    const d = at(600, [progressing('ReplicaSetUpdated')], status(3, 3, 2));
    const s = rolloutStatus([newRS(3)], newRS(3), d, T0 + 5_000);
    expect(cond(s, 'Progressing')).toEqual({
      type: 'Progressing',
      status: 'True',
      reason: 'NewReplicaSetAvailable',
      message: 'ReplicaSet "foo-new" has successfully progressed.',
      lastUpdateTime: stamp(T0 + 5_000),
      lastTransitionTime: stamp(T0),
    });
  });

  it('names the Deployment when there is no new set', () => {
    const d = at(600, [progressing('ReplicaSetUpdated')], status(3, 3, 2));
    d.spec.replicas = 0;
    const s = rolloutStatus([], undefined, d, T0);
    expect(cond(s, 'Progressing')?.message).toBe('Deployment "foo" has successfully progressed.');
  });

  it('times out past the deadline, once', () => {
    const d = at(60, [progressing('ReplicaSetUpdated')], status(3, 3, 1, { readyReplicas: 1 }));
    const s = rolloutStatus([newRS(1)], newRS(1), d, T0 + 61_000);
    expect(cond(s, 'Progressing')).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message: 'ReplicaSet "foo-new" has timed out progressing.',
    });
    const again = at(
      60,
      [progressing('ProgressDeadlineExceeded', 'False')],
      status(3, 3, 1, { readyReplicas: 1 }),
    );
    expect(cond(rolloutStatus([newRS(1)], newRS(1), again, T0 + 90_000), 'Progressing')).toEqual(
      progressing('ProgressDeadlineExceeded', 'False'),
    );
  });

  it('copies a ReplicaFailure from the sets and removes it once gone', () => {
    const failing = newRS(1);
    failing.status!.conditions = [
      {
        type: 'ReplicaFailure',
        status: 'True',
        reason: 'FailedCreate',
        message: 'quota',
        lastTransitionTime: stamp(T0),
      },
    ];
    const s = rolloutStatus([failing], failing, at(600, [], status(3, 3, 1)), T0);
    expect(cond(s, 'ReplicaFailure')).toEqual({
      type: 'ReplicaFailure',
      status: 'True',
      reason: 'FailedCreate',
      message: 'quota',
      lastUpdateTime: stamp(T0),
      lastTransitionTime: stamp(T0),
    });
    const cleared = rolloutStatus([newRS(1)], newRS(1), at(600, s.conditions, status(3, 3, 1)), T0);
    expect(cond(cleared, 'ReplicaFailure')).toBeUndefined();
  });
});

describe('setDeploymentCondition, checkPausedConditions, deploymentStatusEqual', () => {
  it('keeps a condition with the same status and reason as it is', () => {
    const s: DeploymentStatus = { conditions: [progressing('ReplicaSetUpdated')] };
    setDeploymentCondition(s, progressing('ReplicaSetUpdated', 'True', T0 + 9_000));
    expect(s.conditions).toEqual([progressing('ReplicaSetUpdated')]);
  });

  it('pauses and resumes with Unknown conditions, leaving a timed-out one alone', () => {
    const d = newDeployment(3, { progressDeadlineSeconds: 600 });
    d.spec.paused = true;
    expect(checkPausedConditions(d, T0)).toBe(true);
    expect(d.status?.conditions?.[0]).toMatchObject({
      status: 'Unknown',
      reason: 'DeploymentPaused',
      message: 'Deployment is paused',
    });
    expect(checkPausedConditions(d, T0)).toBe(false);
    d.spec.paused = false;
    expect(checkPausedConditions(d, T0)).toBe(true);
    expect(d.status?.conditions?.[0]).toMatchObject({
      status: 'Unknown',
      reason: 'DeploymentResumed',
      message: 'Deployment is resumed',
    });
    const timedOut = newDeployment(3, { progressDeadlineSeconds: 600 });
    timedOut.spec.paused = true;
    timedOut.status = { conditions: [progressing('ProgressDeadlineExceeded', 'False')] };
    expect(checkPausedConditions(timedOut, T0)).toBe(false);
    const noDeadline = newDeployment(3);
    noDeadline.spec.paused = true;
    expect(checkPausedConditions(noDeadline, T0)).toBe(false);
  });

  it('compares counts with absent as 0, and conditions in order', () => {
    expect(deploymentStatusEqual({ replicas: 0 }, {})).toBe(true);
    expect(deploymentStatusEqual({ replicas: 1 }, {})).toBe(false);
    expect(deploymentStatusEqual({ collisionCount: 0 }, {})).toBe(false);
    expect(
      deploymentStatusEqual(
        { conditions: [progressing('A'), progressing('B')] },
        { conditions: [progressing('B'), progressing('A')] },
      ),
    ).toBe(false);
  });
});
