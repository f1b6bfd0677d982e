// replicaDiff: the create/delete decision of manageReplicas, cases from replica_set_test.go (DoesNothing, BurstReplicas, getPodsToDelete) in our own words.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { replicaDiff } from '../../../../operators/controller/replicaset/replica-diff.ts';
import type { ReplicaSet } from '../../../../operators/controller/replicaset/replica-set-types.ts';

const rs = (replicas?: number): ReplicaSet => ({
  metadata: { name: 'rs', namespace: 'default', uid: 'rs-uid' },
  spec: {
    ...(replicas !== undefined ? { replicas } : {}),
    selector: { matchLabels: { app: 'a' } },
    template: { metadata: { labels: { app: 'a' } } },
  },
});

const pod = (
  name: string,
  opts: { node?: string; phase?: string; ready?: boolean; cost?: string } = {},
): Pod => ({
  metadata: {
    name,
    namespace: 'default',
    uid: `uid-${name}`,
    creationTimestamp: '2024-01-01T00:00:00Z',
    ...(opts.cost ? { annotations: { 'controller.kubernetes.io/pod-deletion-cost': opts.cost } } : {}),
  },
  spec: { containers: [], ...(opts.node ? { nodeName: opts.node } : {}) },
  status: {
    phase: opts.phase ?? 'Running',
    conditions: [
      {
        type: 'Ready',
        status: opts.ready === false ? 'False' : 'True',
        lastTransitionTime: '2024-01-01T00:00:00Z',
      },
    ],
  },
});
const pods = (n: number, prefix = 'p') =>
  Array.from({ length: n }, (_, i) => pod(`${prefix}${i}`, { node: 'n1' }));

describe('replicaDiff', () => {
  it.each([
    {
      name: 'as many pods as replicas: nothing to do',
      replicas: 2,
      have: 2,
      burst: 500,
      create: 0,
      deleted: 0,
    },
    { name: 'one pod short: create one', replicas: 2, have: 1, burst: 500, create: 1, deleted: 0 },
    { name: 'replicas absent default to 1', replicas: undefined, have: 0, burst: 500, create: 1, deleted: 0 },
    {
      name: '30 wanted, none there, burst 5: create 5',
      replicas: 30,
      have: 0,
      burst: 5,
      create: 5,
      deleted: 0,
    },
    {
      name: '12 pods scaled to 0, burst 5: delete 5',
      replicas: 0,
      have: 12,
      burst: 5,
      create: 0,
      deleted: 5,
    },
    { name: '2 wanted, burst 3: create 2', replicas: 2, have: 0, burst: 3, create: 2, deleted: 0 },
    { name: 'too many by 2: delete 2', replicas: 1, have: 3, burst: 500, create: 0, deleted: 2 },
    { name: 'default burst caps at 500', replicas: 1000, have: 0, burst: undefined, create: 500, deleted: 0 },
  ])('$name', ({ replicas, have, burst, create, deleted }) => {
    const out = replicaDiff({
      rs: rs(replicas),
      active: pods(have),
      ...(burst ? { burstReplicas: burst } : {}),
    });
    expect(out.create).toBe(create);
    expect(out.delete).toHaveLength(deleted);
    expect(out.diff).toBe(have - (replicas ?? 1));
  });

  it.each([
    {
      name: 'an unscheduled pod goes before a scheduled one',
      active: [pod('scheduled', { node: 'n1' }), pod('unscheduled')],
      related: undefined,
      deleted: ['unscheduled'],
    },
    {
      name: 'a pending pod goes before a running one',
      active: [pod('running', { node: 'n1' }), pod('pending', { node: 'n1', phase: 'Pending' })],
      related: undefined,
      deleted: ['pending'],
    },
    {
      name: 'a not-ready pod goes before a ready one',
      active: [pod('ready', { node: 'n1' }), pod('unready', { node: 'n1', ready: false })],
      related: undefined,
      deleted: ['unready'],
    },
    {
      name: 'a lower pod-deletion-cost goes first',
      active: [pod('dear', { node: 'n1', cost: '100' }), pod('cheap', { node: 'n1', cost: '-5' })],
      related: undefined,
      deleted: ['cheap'],
    },
    {
      name: 'the pod on the node crowded with related pods goes first',
      active: [pod('alone', { node: 'n1' }), pod('crowded', { node: 'n2' })],
      related: [pod('alone', { node: 'n1' }), pod('crowded', { node: 'n2' }), pod('sibling', { node: 'n2' })],
      deleted: ['crowded'],
    },
  ])('deletes by rank: $name', ({ active, related, deleted }) => {
    const out = replicaDiff({
      rs: rs(active.length - deleted.length),
      active,
      ...(related ? { related } : {}),
      now: Date.parse('2024-01-02T00:00:00Z'),
    });
    expect(out.delete.map((p) => p.metadata.name)).toEqual(deleted);
    expect(out.create).toBe(0);
  });

  it('deletes every pod without ranking when the diff covers them all', () => {
    const active = pods(3);
    expect(replicaDiff({ rs: rs(0), active }).delete).toEqual(active);
  });
});
