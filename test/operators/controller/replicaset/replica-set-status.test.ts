// replicaSetStatus: counts and the ReplicaFailure condition, cases from replica_set_utils_test.go (TestCalculateStatus, TestCalculateStatusConditions) in our own words.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import {
  isPodAvailable,
  replicaSetStatus,
  replicaSetStatusUpToDate,
} from '../../../../operators/controller/replicaset/replica-set-status.ts';
import type {
  ReplicaSet,
  ReplicaSetStatus,
} from '../../../../operators/controller/replicaset/replica-set-types.ts';

const NOW = Date.parse('2024-01-01T12:00:00Z');
const rs = (
  replicas: number,
  extra: Partial<ReplicaSet['spec']> = {},
  status?: ReplicaSetStatus,
): ReplicaSet => ({
  metadata: { name: 'rs', namespace: 'default', generation: 2 },
  spec: {
    replicas,
    selector: { matchLabels: { name: 'foo' } },
    template: { metadata: { labels: { name: 'foo', type: 'production' } } },
    ...extra,
  },
  ...(status ? { status } : {}),
});
const pod = (labels: Record<string, string>, ready = true, readySince = '2024-01-01T11:00:00Z'): Pod => ({
  metadata: { name: 'p', namespace: 'default', labels },
  spec: { containers: [] },
  status: {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: readySince }],
  },
});
const full = { name: 'foo', type: 'production' };
const partial = { name: 'foo' };

describe('replicaSetStatus counts', () => {
  it.each([
    { name: '1 fully labelled pod', rs: rs(1), pods: [pod(full)], want: [1, 1, 1, 1] },
    { name: '1 not fully labelled pod', rs: rs(1), pods: [pod(partial)], want: [1, 0, 1, 1] },
    { name: '2 fully labelled pods', rs: rs(2), pods: [pod(full), pod(full)], want: [2, 2, 2, 2] },
    { name: '2 not fully labelled pods', rs: rs(2), pods: [pod(partial), pod(partial)], want: [2, 0, 2, 2] },
    {
      name: '1 fully and 1 not fully labelled',
      rs: rs(2),
      pods: [pod(partial), pod(full)],
      want: [2, 1, 2, 2],
    },
    { name: '1 non-ready pod', rs: rs(1), pods: [pod(full, false)], want: [1, 1, 0, 0] },
    {
      name: '1 ready but not yet available pod (minReadySeconds 3600)',
      rs: rs(1, { minReadySeconds: 3600 }),
      pods: [pod(full, true, '2024-01-01T11:59:00Z')],
      want: [1, 1, 1, 0],
    },
    {
      name: '1 pod ready for longer than minReadySeconds',
      rs: rs(1, { minReadySeconds: 60 }),
      pods: [pod(full, true, '2024-01-01T11:58:00Z')],
      want: [1, 1, 1, 1],
    },
    { name: 'no pods', rs: rs(0), pods: [], want: [0, 0, 0, 0] },
  ])('$name', ({ rs: r, pods, want }) => {
    const s = replicaSetStatus(r, pods, undefined, NOW);
    expect([s.replicas, s.fullyLabeledReplicas, s.readyReplicas, s.availableReplicas]).toEqual(want);
  });
});

describe('replicaSetStatus ReplicaFailure condition', () => {
  const failure = {
    type: 'ReplicaFailure',
    status: 'True' as const,
    reason: 'FailedCreate',
    message: 'fake manageReplicasErr',
    lastTransitionTime: '2024-01-01T10:00:00Z',
  };
  it.each([
    {
      name: 'an error with too few pods adds FailedCreate',
      rs: rs(2),
      pods: [pod(full)],
      err: new Error('fake manageReplicasErr'),
      want: [
        { type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'fake manageReplicasErr' },
      ],
    },
    {
      name: 'an error with too many pods adds FailedDelete',
      rs: rs(0),
      pods: [pod(full)],
      err: new Error('fake manageReplicasErr'),
      want: [
        { type: 'ReplicaFailure', status: 'True', reason: 'FailedDelete', message: 'fake manageReplicasErr' },
      ],
    },
    {
      name: 'no error removes an existing condition',
      rs: rs(2, {}, { replicas: 1, conditions: [failure] }),
      pods: [pod(full), pod(full)],
      err: undefined,
      want: undefined,
    },
    {
      name: 'an error keeps an existing condition as it is',
      rs: rs(2, {}, { replicas: 1, conditions: [failure] }),
      pods: [pod(full)],
      err: new Error('another error'),
      want: [failure],
    },
    {
      name: 'no error and no condition: none',
      rs: rs(1),
      pods: [pod(full)],
      err: undefined,
      want: undefined,
    },
  ])('$name', ({ rs: r, pods, err, want }) => {
    const s = replicaSetStatus(r, pods, err, NOW);
    if (want === undefined) expect(s.conditions).toBeUndefined();
    else expect(s.conditions).toEqual(want.map((c) => expect.objectContaining(c)));
  });

  it('stamps a new condition with the sync time in whole seconds', () => {
    const s = replicaSetStatus(rs(1), [], new Error('quota'), NOW + 456);
    expect(s.conditions?.[0]?.lastTransitionTime).toBe('2024-01-01T12:00:00Z');
  });
});

describe('replicaSetStatusUpToDate', () => {
  const counts = { replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1 };
  it.each([
    {
      name: 'same counts, generation observed',
      status: { ...counts, observedGeneration: 2 },
      upToDate: true,
    },
    { name: 'generation not observed yet', status: { ...counts, observedGeneration: 1 }, upToDate: false },
    {
      name: 'a count differs',
      status: { ...counts, readyReplicas: 0, observedGeneration: 2 },
      upToDate: false,
    },
    { name: 'no status yet', status: undefined, upToDate: false },
  ])('$name', ({ status, upToDate }) => {
    const r = rs(1, {}, status as ReplicaSetStatus | undefined);
    expect(replicaSetStatusUpToDate(r, replicaSetStatus(r, [pod(full)], undefined, NOW))).toBe(upToDate);
  });
});

describe('isPodAvailable', () => {
  it.each([
    { name: 'ready, minReadySeconds 0', ready: true, since: '2024-01-01T12:00:00Z', min: 0, want: true },
    { name: 'not ready', ready: false, since: '2024-01-01T00:00:00Z', min: 0, want: false },
    {
      name: 'ready exactly minReadySeconds: not yet',
      ready: true,
      since: '2024-01-01T11:59:00Z',
      min: 60,
      want: false,
    },
    { name: 'ready one second longer', ready: true, since: '2024-01-01T11:58:59Z', min: 60, want: true },
  ])('$name', ({ ready, since, min, want }) => {
    expect(isPodAvailable(pod(full, ready, since), min, NOW)).toBe(want);
  });
});
